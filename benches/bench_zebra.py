"""boardcore against Zebra (Gunnar Andersson's Othello engine) on 8x8: matches of `bc.ai.Player`
against Zebra at fixed depths, and FForum endgames solved by both.

    ZEBRA_DIR=... python benches/bench_zebra.py [--only match fforum] [--zebra-depths 2 4 6 8 10 12]
        [--zebra-exact E ...] [--games N [N ...]] [--time-limit S] [--evaluator NAME] [--threads 1]
        [--seed S] [--calibration-games N] [--fforum 20-39 40-49] [--zebra-hash-bits B]

Zebra (github:lk16/zebra, which adds `-evalone` and `-quiet` to Zebra's console program) is
fetched and built outside the repository (benches/README.md); `ZEBRA_DIR` is its directory, with
`zebra`, `scrzebra` and `coeffs2.bin`. Without it the tables say so and the script exits 0.
Zebra's old code is known to crash under address-space randomisation, so it is run as
`setarch $(uname -m) -R $ZEBRA_DIR/zebra ...`, with `$ZEBRA_DIR` as its working directory.

- match: for each Zebra depth D, `--games` games (default 10; or one count a depth) from balanced openings
  (tools/openings.py: 8 random plies from `--seed`, kept when a depth-10 search calls them within
  4 discs), each opening played twice, boardcore Black then White. Zebra plays each move as a
  fresh process, `zebra -quiet -r 0 -b 0 -l D E W D E W -slack 0 -evalone -seq MOVES` (no book,
  no randomness; MOVES the game so far without its passes, which Zebra infers), and its move is
  checked legal in boardcore's game (an illegal or unreadable answer stops the bench). Zebra's
  exact-solve and WLD depths are `--zebra-exact` (default: twice the midgame depth, ZEBRA_PAIRING).
  boardcore plays `bc.ai.Player(time_limit=T, threads=--threads, evaluator=--evaluator)`; T is
  `--time-limit`, by default matched (`match_cpu`): the limit at which boardcore's mean CPU time
  a move equals Zebra's (its process start included), found from Zebra's self-play CPU a move
  in `--calibration-games` games from the first openings, then scaled twice by the ratio of the
  two engines' means in games between them from the same openings (both colours; not counted).
  A wall-clock limit alone is not equal CPU: once boardcore's solver reaches the end its moves
  take milliseconds, while every Zebra move costs its process start. Player's CPU time is
  `process_time`; Zebra's is its process's (`os.wait4`); the table shows both and their ratio. The margin is the final disc difference from
  boardcore's side, the empty squares counted for the winner; Elo from the score,
  400 log10(s / (1 - s)), s clipped to [0.001, 0.999].
- fforum: FForum 20-39 (`--fforum 20-39 40-49` adds 40-49; the suites are read from
  `../shared/data/fforum/` beside the repository, its README),
  solved by `bc.ai.solve` (one thread; first with `best_moves="one"`, the score and one best move
  as Zebra answers, which the ratio row compares, then with every optimal move proved) and by
  `scrzebra -script` (one position a line: 64 squares,
  side to move); both answers are checked against the suite's exact scores. CPU time is
  boardcore's `process_time` and Zebra's rusage; nodes are `Analysis.nodes` and scrzebra's
  "Total nodes" (its hash table 2^`--zebra-hash-bits` entries, default 20; boardcore's 64 MB).
  Edax's published node count for 20-39 is shown as a reference. Without Zebra nothing is solved
  (bench_engine.py has boardcore's own endgame table).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import boardcore as bc
from _fforum import FFORUM_SHOWN, problems_in
from _timing import shown_command

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from openings import balanced_openings  # noqa: E402

EDAX_PUBLISHED_NODES = {"20-39": 111_349_635}
ZEBRA_PAIRING = {2: 4, 4: 8, 6: 12, 8: 16, 10: 20, 12: 24}
"""Zebra's midgame depth -> the empties from which it solves exactly (and for win/loss/draw):
twice the depth, the pairing of its `-l 8 16 16` style levels."""
MATCH_ROUNDS = 2
"""Rounds of `match_cpu`'s scaling: the second corrects the first by a few per cent."""
SQUARE = re.compile(r"^[a-h][1-8]$")


class ZebraError(RuntimeError):
    """Zebra answered something this bench cannot use (a crash, no move, an illegal move)."""


def zebra_dir() -> Path | None:
    value = os.environ.get("ZEBRA_DIR")
    return Path(value) if value else None


def run_zebra(arguments: list[str], directory: Path) -> tuple[str, float]:
    """Runs a Zebra binary under `setarch -R` from `directory`: its output (stdout and stderr)
    and the CPU seconds (user + system) its process used, start included."""
    command = ["setarch", platform.machine(), "-R", *arguments]
    child = subprocess.Popen(command, cwd=directory, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL)  # fmt: skip
    output = child.stdout.read().decode(errors="replace")
    child.stdout.close()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise ZebraError(f"{shown_command(command)} exited with {child.returncode}: {output[-500:]!r}")
    return output, usage.ru_utime + usage.ru_stime


def zebra_move_text(output: str) -> str:
    """The move in `zebra -quiet ... -evalone` output: the first square of its last status line
    (`-->  8  +0.33  10600  d3 c4 f4 c5 b3  0.0 s  2173913 nps`) and of its principal variation
    (`PV: d3 c4 ...`), which must agree when both are there."""
    status = pv = None
    for line in output.splitlines():
        words = line.split()
        if words[:1] == ["-->"]:
            squares = [w for w in words[1:] if SQUARE.match(w)]
            status = squares[0] if squares else status
        elif words[:1] == ["PV:"] and len(words) > 1 and SQUARE.match(words[1]):
            pv = words[1]
    if status and pv and status != pv:
        raise ZebraError(f"Zebra's status line says {status}, its PV {pv}: {output!r}")
    move = status or pv
    if move is None:
        raise ZebraError(f"no move in Zebra's output: {output!r}")
    return move


@dataclass
class Zebra:
    directory: Path
    depth: int
    exact: int
    calls: int = 0
    cpu: float = 0.0

    def arguments(self, sequence: str) -> list[str]:
        level = [str(self.depth), str(self.exact), str(self.exact)]
        return [str(self.directory / "zebra"), "-quiet", "-r", "0", "-b", "0", "-l", *level, *level,
                "-slack", "0", "-evalone", "-seq", sequence]  # fmt: skip

    def move(self, game: bc.Reversi) -> str:
        sequence = "".join(str(m) for m in game.history if str(m) != "pass")
        output, cpu = run_zebra(self.arguments(sequence), self.directory)
        self.calls += 1
        self.cpu += cpu
        return zebra_move_text(output)


def margin_for(game: bc.Reversi, colour) -> int:
    """The final disc difference for `colour`, the empty squares counted for the winner."""
    black, white = game.score()
    diff = black - white
    empties = 64 - black - white
    diff += empties if diff > 0 else -empties if diff < 0 else 0
    return diff if colour == bc.Color.BLACK else -diff


def play_game(opening: list[str], ours_colour, player_move, zebra: Zebra, ours_cpu: list[float]) -> int:
    """One game from `opening`: boardcore (`player_move`) with `ours_colour` against `zebra`.
    Returns the margin for boardcore; appends boardcore's CPU time a move to `ours_cpu`."""
    game = bc.Reversi()
    for move in opening:
        game.play(move)
    while not game.is_over():
        legal = game.legal_moves()
        if len(legal) == 1 and str(legal[0]) == "pass":
            game.play("pass")
            continue
        if game.to_move == ours_colour:
            started = time.process_time()
            move = player_move(game)
            ours_cpu.append(time.process_time() - started)
            game.play(move)
        else:
            move = zebra.move(game)
            try:
                game.play(move)
            except (bc.IllegalMoveError, bc.NotationError) as error:
                raise ZebraError(f"Zebra played {move!r} after {' '.join(map(str, game.history))}: {error}") from error
    return margin_for(game, ours_colour)


def calibrate(zebra: Zebra, openings: list[list[str]]) -> float:
    """Zebra's mean CPU seconds a move when it plays both sides from the openings given."""
    probe = Zebra(zebra.directory, zebra.depth, zebra.exact)
    for opening in openings:
        game = bc.Reversi()
        for move in opening:
            game.play(move)
        while not game.is_over():
            legal = game.legal_moves()
            game.play("pass" if len(legal) == 1 and str(legal[0]) == "pass" else probe.move(game))
    return probe.cpu / probe.calls


def match_cpu(zebra: Zebra, openings: list[list[str]], args, rounds: int = MATCH_ROUNDS) -> float:
    """The time limit a move at which boardcore's mean CPU time a move equals Zebra's in games
    between them: from Zebra's self-play CPU a move, scaled `rounds` times by Zebra's mean over
    boardcore's in games from `openings` (both colours). A wall-clock limit alone is not equal
    CPU: boardcore's moves cost nothing once its solver reaches the end, while every Zebra move
    costs at least its process start."""
    limit = calibrate(zebra, openings)
    for _ in range(rounds):
        probe = Zebra(zebra.directory, zebra.depth, zebra.exact)
        ours: list[float] = []
        for g in range(2 * len(openings)):
            colour = bc.Color.BLACK if g % 2 == 0 else bc.Color.WHITE
            player = bc.ai.Player(time_limit=limit, threads=args.threads, evaluator=args.evaluator)
            play_game(openings[g // 2], colour, player.move, probe, ours)
        limit *= (probe.cpu / probe.calls) / statistics.mean(ours)
        log(f"bench_zebra: calibration: Zebra {probe.cpu / probe.calls:.4f} s CPU a move, boardcore"
            f" {statistics.mean(ours):.4f}; limit now {limit:.4f} s")  # fmt: skip
    return limit


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return 400 * math.log10(score / (1 - score))


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def match(args) -> None:
    print("### boardcore against Zebra, 8x8, from balanced openings")
    print()
    directory = zebra_dir()
    if directory is None or not (directory / "zebra").exists():
        print("| Zebra | result |")
        print("| --- | --- |")
        print("| Zebra (`$ZEBRA_DIR/zebra`) | not measured: set ZEBRA_DIR to a Zebra build (benches/README.md) |")
        print()
        return
    games = args.games * len(args.zebra_depths) if len(args.games) == 1 else args.games
    if len(games) != len(args.zebra_depths):
        raise SystemExit("--games takes one value, or one per --zebra-depths")
    pairs = (max(games) + 1) // 2
    started = time.perf_counter()
    openings = balanced_openings(max(pairs, args.calibration_games), seed=args.seed)
    log(f"bench_zebra: {len(openings)} openings in {time.perf_counter() - started:.1f} s")
    exacts = args.zebra_exact or [ZEBRA_PAIRING.get(d, 2 * d) for d in args.zebra_depths]
    if len(exacts) != len(args.zebra_depths):
        raise SystemExit("--zebra-exact takes one value per --zebra-depths")
    start_cpu = statistics.median(run_zebra(Zebra(directory, 1, 0).arguments("f5"), directory)[1] for _ in range(5))
    rows = []
    for depth, exact, depth_games in zip(args.zebra_depths, exacts, games):
        zebra = Zebra(directory, depth, exact)
        if args.time_limit:
            limit, matched = args.time_limit, "given"
        else:
            limit = match_cpu(zebra, openings[: args.calibration_games], args)
            matched = "matched"
        log(f"bench_zebra: depth {depth}, exact {exact}: boardcore at {limit:.4f} s a move ({matched})")
        ours_cpu: list[float] = []
        margins = []
        for g in range(depth_games):
            colour = bc.Color.BLACK if g % 2 == 0 else bc.Color.WHITE
            player = bc.ai.Player(time_limit=limit, threads=args.threads, evaluator=args.evaluator)
            margin = play_game(openings[g // 2], colour, player.move, zebra, ours_cpu)
            margins.append(margin)
            log(f"bench_zebra: depth {depth} game {g + 1}: boardcore {'Black' if g % 2 == 0 else 'White'}, {margin:+d}")
        wins = sum(m > 0 for m in margins)
        draws = sum(m == 0 for m in margins)
        losses = len(margins) - wins - draws
        score = (wins + draws / 2) / len(margins)
        rows.append(
            f"| {depth} / {exact} / {exact} | {len(margins)} | {wins}-{draws}-{losses} | {100 * score:.1f}% "
            f"| {statistics.mean(margins):+.1f} | {elo(score):+.0f} | {limit:.4f} ({matched}) "
            f"| {statistics.mean(ours_cpu):.4f} | {zebra.cpu / zebra.calls:.4f} "
            f"| {statistics.mean(ours_cpu) / (zebra.cpu / zebra.calls):.2f} |"
        )
    evaluator = args.evaluator or "the shipped default"
    how_matched = "given" if args.time_limit else (
        f"matched, the limit at which boardcore's mean CPU time a move equals Zebra's: Zebra's self-play"
        f" CPU a move scaled {MATCH_ROUNDS} times by the ratio of the two engines' means in"
        f" {2 * args.calibration_games} games between them (the first openings, both colours; not counted)")  # fmt: skip
    print(f"boardcore: `bc.ai.Player(time_limit=T, threads={args.threads}, evaluator={args.evaluator!r})`"
          f" ({evaluator}); Zebra: `zebra -quiet -r 0 -b 0 -l D E W D E W -slack 0 -evalone -seq MOVES`"
          f" under `setarch -R`, one process a move, from `$ZEBRA_DIR`. Openings: tools/openings.py, seed {args.seed},"
          f" each played with boardcore Black then White. T (boardcore's wall-clock limit a move):"
          f" {how_matched}."
          f" Zebra's process start alone (a depth-1 move): {start_cpu:.4f} s CPU.")  # fmt: skip
    print()
    print("| Zebra depth / exact / WLD | games | boardcore W-D-L | score | mean margin | Elo (boardcore) "
          "| boardcore T s | boardcore CPU s/move | Zebra CPU s/move | CPU ratio (boardcore / Zebra) |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print(row)
    print()


def fforum(args) -> None:
    print("### FForum endgames: boardcore's solver against Zebra's, one thread")
    print()
    directory = zebra_dir()
    if directory is None or not (directory / "scrzebra").exists():
        print("| suite | result |")
        print("| --- | --- |")
        print("| FForum | not measured: set ZEBRA_DIR to a Zebra build with `scrzebra` (benches/README.md) |")
        print()
        return
    rows = []
    notes = []
    for span in args.fforum:
        first, last = (int(n) for n in span.split("-"))
        found = problems_in(first, last)
        if found is None:
            notes.append(f"FForum {span}: not measured, no suite in `{FFORUM_SHOWN}/` (its README.md).")
            continue
        problems, path = found
        shown = f"`{FFORUM_SHOWN}/{path.name}` {span}"
        # What Zebra answers (the score and one best move) first: the like-for-like row, which
        # the ratio uses; then the full answer of bc.ai.solve (every optimal move proved).
        for best_moves, engine_shown in (("one", '`bc.ai.solve(best_moves="one")`'), ("all", "`bc.ai.solve`")):
            cpu = nodes = 0.0
            wrong = 0
            for problem in problems:
                started = time.process_time()
                analysis = bc.ai.solve(problem.game, threads=1, best_moves=best_moves)
                cpu += time.process_time() - started
                nodes += analysis.nodes
                wrong += analysis.score != problem.score
                log(f"bench_zebra: FForum {problem.number} ({best_moves}): boardcore {analysis.score:+.0f} "
                    f"(expected {problem.score:+d}), {analysis.nodes:,} nodes")  # fmt: skip
            rows.append(
                f"| {shown} | boardcore {engine_shown} | {len(problems)} | {cpu:.2f} | {nodes:,.0f} | {wrong} |"
            )
            if best_moves == "one":
                ours = (cpu, nodes)
        with tempfile.TemporaryDirectory() as scratch:
            script = Path(scratch) / "positions.scr"
            answers = Path(scratch) / "answers.txt"
            script.write_text("".join(f"{p.board} {p.side}\n" for p in problems))
            command = [
                str(directory / "scrzebra"),
                "-h",
                str(args.zebra_hash_bits),
                "-script",
                str(script),
                str(answers),
            ]
            output, zebra_cpu = run_zebra(command, directory)
            results = answers.read_text().splitlines()
        found = re.search(r"Total nodes:\s+(\d+)", output)
        if not found or len(results) != len(problems):
            raise ZebraError(f"scrzebra answered {len(results)} of {len(problems)} positions: {output[-500:]!r}")
        zebra_nodes = int(found.group(1))
        zebra_wrong = 0
        for problem, result in zip(problems, results):
            black, white = (int(n) for n in result.split("-")[:2])
            zebra_wrong += (black - white if problem.side == "X" else white - black) != problem.score
        rows.append(f"| {shown} | Zebra `scrzebra -h {args.zebra_hash_bits} -script` | {len(problems)} "
                    f"| {zebra_cpu:.2f} | {zebra_nodes:,} | {zebra_wrong} |")  # fmt: skip
        rows.append(
            f"| {shown} | boardcore (one best move) / Zebra | | {ours[0] / zebra_cpu:.2f}x | {ours[1] / zebra_nodes:.2f}x | |"
        )
        published = EDAX_PUBLISHED_NODES.get(span)
        if published:
            rows.append(f"| {shown} | Edax (published count, not run here) | {len(problems)} | - | {published:,} | - |")
            rows.append(f"| {shown} | boardcore / Edax's published | | | {ours[1] / published:.2f}x | |")
    print("| suite | engine | positions | CPU s | nodes | wrong scores |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print(row)
    print()
    for note in notes:
        print(note)
        print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="+", choices=["match", "fforum"], default=["match", "fforum"])
    parser.add_argument("--zebra-depths", type=int, nargs="+", default=[2, 4, 6, 8, 10, 12])
    parser.add_argument("--zebra-exact", type=int, nargs="+", help="Zebra's exact/WLD empties, one a depth "
                        "(default: ZEBRA_PAIRING, twice the depth)")  # fmt: skip
    parser.add_argument(
        "--games",
        type=int,
        nargs="+",
        default=[10],
        help="games a depth (pairs of colours): one for all, or one a depth",
    )
    parser.add_argument(
        "--time-limit", type=float, help="boardcore's seconds a move (default: Zebra's CPU time a move)"
    )
    parser.add_argument("--evaluator", help="passed to bc.ai.Player as evaluator= (e.g. material; default None)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1, help="the openings' seed (tools/openings.py)")
    parser.add_argument("--calibration-games", type=int, default=1,
                        help="openings (each played with both colours, after a Zebra self-play game) to match the CPU a move")  # fmt: skip
    parser.add_argument("--fforum", nargs="+", default=["20-39"], help="FIRST-LAST problem ranges, e.g. 20-39 40-49")
    parser.add_argument("--zebra-hash-bits", type=int, default=20, help="scrzebra -h: 2^B hash entries")
    args = parser.parse_args()
    print(f"boardcore code path: {bc.code_path()}; `{shown_command(['python', 'benches/bench_zebra.py', *sys.argv[1:]])}`"
          f" on {platform.machine()} with {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start.")  # fmt: skip
    print()
    if "match" in args.only:
        match(args)
    if "fforum" in args.only:
        fforum(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
