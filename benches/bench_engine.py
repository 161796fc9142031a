"""The engine (issue 26): endgame solving against Edax, strength against MCTS, the level ladder,
search speed and time limits.

    python benches/bench_engine.py [--only endgame evaluation strength guided example ladder speed limits] [--games N]
                                   [--strength-games N] [--ladder-games N] [--suite fforum-20-39]
                                   [--problems FIRST-LAST] [--edax PATH --edax-eval FILE]
                                   [--write FILE]

- endgame: every problem of the FForum suite (fforum-20-39.obf of ../shared/data/fforum/, Edax's
  .obf file: its README.md), solved by `bc.ai.solve`: the score must be the published one and the move one of the
  published best moves. Edax (built outside the repository, benches/README.md) runs `-solve` on
  the same suite in the same run when --edax is given; without its evaluation weights (which this
  machine cannot download) its node count is not its real one, so the comparison is then against
  Edax's published 111,349,635 nodes for 20-39 and its nodes per second measured here.
  `--suite fforum-40-59 --problems 40-49` solves part of a suite (Edax the same part).
- strength: `bc.ai.Player(time_limit=t)` against `bc.mcts.best_move(time_limit=t)` on every
  game's default variant, at --times seconds a move: games in pairs from one random opening
  (four random plies), colours swapped.
- guided: `bc.mcts.search` with the native learned evaluator (`evaluator=bc.ai.evaluator(game)`)
  against the same search with random rollouts, at --times seconds a decision, over the step form.
- example: `bc.ai.Player(time_limit=t)` against `examples/alphabeta_reversi.py` at its default
  depth 4 on Reversi 8x8 (its time a move reported beside the score).
- ladder: level k against level k-1 on Reversi 6x6, paired openings as above; scores and Elo,
  and with --write a plot of each level's Elo over level 1 (docs/images/ladder.svg).
- speed: nodes per second of `analyse` (depth-limited) and of `solve` on each game.
- profile: the share of the search's time spent listing moves, and two threads by a root split
  against lazy SMP (rust/engine/examples/search_profile.rs; the race wants two free cores).
- limits: how far past its time limit `analyse` returns (median and worst of many calls).

--write FILE writes the tables with the commit, date, machine and load they were measured with
(--append adds a run's tables, with their own line of commit, date and load, to the file).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import boardcore as bc
from _fforum import FFORUM_SHOWN, Problem, problems_in, read_suite, suite_path
from _timing import shown_command
from boardcore._games import GAMES

ROOT = Path(__file__).resolve().parent.parent
EDAX_PUBLISHED_NODES = {"fforum-20-39": 111_349_635}


def chosen_problems(args, problems: list[Problem]) -> tuple[list[Problem], str]:
    """The problems of `--problems FIRST-LAST` (all by default) and how the heading names them."""
    if not args.problems:
        return problems, ""
    first, last = (int(n) for n in args.problems.split("-"))
    return [p for p in problems if first <= p.number <= last], f", problems {first}-{last}"


def edax_suite(suite: Path, problems: list[Problem], whole: bool, scratch: Path) -> Path:
    """The suite as Edax reads it: its own .obf file, or `problems` cut from it into `scratch`."""
    if whole:
        return suite
    cut = scratch / suite.name
    cut.write_text("".join(p.line + "\n" for p in problems))
    return cut


def endgame(args, out: list[str]) -> None:
    suite = suite_path(args.suite)
    problems, which = chosen_problems(args, read_suite(suite))
    out += [f"### Endgame: {suite.stem}{which}, one thread", "", "| problem | empties | score | expected | move ok | nodes | seconds |", "| --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    total_nodes = total_seconds = 0.0
    wrong = 0
    for problem in problems:
        a = bc.ai.solve(problem.game)
        ok = str(a.move) in problem.best_moves
        wrong += (a.score != problem.score) or not ok
        total_nodes += a.nodes
        total_seconds += a.seconds
        out.append(
            f"| {problem.number} | {problem.empties} | {a.score:+.0f} | {problem.score:+d} | {'yes' if ok else 'NO'} | {a.nodes:,} | {a.seconds:.2f} |"
        )
        print(out[-1], flush=True)
    rate = total_nodes / total_seconds
    out += [
        "",
        f"boardcore: {total_seconds:.1f} s, {total_nodes:,.0f} nodes, {rate / 1e6:.1f} M nodes/s; {wrong} wrong.",
        "",
    ]
    published = None if which else EDAX_PUBLISHED_NODES.get(suite.stem)
    if args.edax:
        with tempfile.TemporaryDirectory() as scratch:
            obf = edax_suite(suite, problems, not which, Path(scratch))
            started = time.time()
            run = subprocess.run(
                [args.edax, "-eval-file", args.edax_eval, "-l", "60", "-n", "1", "-solve", str(obf)],
                capture_output=True, text=True, cwd=Path(args.edax).parent.parent,
            )  # fmt: skip
            wall = time.time() - started
        nodes = edax_nodes(run.stdout)
        edax_rate = nodes / wall if nodes else float("nan")
        out.append(f"Edax -solve in the same run: {wall:.1f} s, {nodes:,} nodes, {edax_rate / 1e6:.1f} M nodes/s;"
                   f" boardcore's time {total_seconds / wall:.2f}x Edax's"
                   f" (with {'its weights' if 'zero' not in args.edax_eval else 'all-zero weights: its node count is not its real one'}).")  # fmt: skip
        if published:
            estimate = published / edax_rate
            out.append(f"Edax's published {published:,} nodes at its rate here: about {estimate:.1f} s;"
                       f" boardcore's time is {total_seconds / estimate:.2f}x that, its nodes {total_nodes / published:.2f}x,"
                       f" its nodes/s {rate / edax_rate:.2f}x Edax's.")  # fmt: skip
    elif published:
        out.append(
            f"Edax's published count for this suite: {published:,} nodes (boardcore: {total_nodes / published:.2f}x)."
        )
    out.append("")


def edax_nodes(text: str) -> int:
    """The node total of Edax's -solve summary (the number before 'nodes')."""
    for line in reversed(text.splitlines()):
        words = line.replace(",", "").split()
        for i, word in enumerate(words):
            if word.startswith("node") and i and words[i - 1].isdigit():
                return int(words[i - 1])
    return 0


DEFAULTS = {name: entry.engine for name, entry in GAMES.items()}  # each game by its name (the registry)


def play(first, second, game, seed: int) -> float:
    """Plays `first` (a function of the game) as Black against `second`; 1, 0.5 or 0 for `first`."""
    players = (first, second)
    while not game.is_over():
        game.play(players[game.to_move](game, seed + len(game.history)))
    # Counts, or Strands' sorted group sizes, whose list order is the game's comparison.
    black, white = game.score()
    outcome = (black > white) - (black < white)
    return (1 + outcome) / 2


OPENING_PLIES = 4
"""Random plies before each pair of games: deterministic players would otherwise play the same
two games over and over."""


def opening(start, pair: int):
    """`start` after OPENING_PLIES uniformly random moves drawn from the pair's seed."""
    game = start.copy()
    for ply in range(OPENING_PLIES):
        move = game.random_move(seed=7919 * pair + ply)
        if move is None:
            break
        game.play(move)
    return game if not game.is_over() else start.copy()


def match(a, b, start, games: int) -> float:
    """`a`'s mean score against `b` over `games` games, in pairs from the same random opening
    with the colours swapped."""
    total = 0.0
    for g in range(games):
        begin = opening(start, g // 2)
        if g % 2 == 0:
            total += play(a, b, begin, 1000 * g)
        else:
            total += 1 - play(b, a, begin, 1000 * g)
    return total / games


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def strength(args, out: list[str]) -> None:
    out += ["### Strength: bc.ai.Player against bc.mcts.best_move at equal time a move", "",
            "| game | seconds a move | games | Player's score | Elo |", "| --- | --- | --- | --- | --- |"]  # fmt: skip
    for name, cls in DEFAULTS.items():
        for t in args.times:
            engine = bc.ai.Player(time_limit=t)

            def ours(game, seed, engine=engine):
                return engine.move(game)

            def mcts(game, seed, t=t):
                return bc.mcts.best_move(game, time_limit=t, seed=seed)

            games = args.strength_games or args.games
            score = match(ours, mcts, cls(), games)
            out.append(f"| {name} | {t} | {games} | {100 * score:.0f}% | {elo(score):+.0f} |")
            print(out[-1], flush=True)
    out.append("")


PATTERN_BOARDS = {
    "Reversi 8x8": lambda: bc.Reversi(8),
    "Reversi 6x6": lambda: bc.Reversi(6),
    "Reversi 10x10": lambda: bc.Reversi(10),
    "Reversi Octagon": lambda: bc.Reversi("octagon"),
    "Cephalopod 5x5": lambda: bc.Cephalopod(5, 5),
}
"""The boards whose shipped evaluation has patterns: Reversi's pattern weights, Cephalopod's
local patterns (the others' shipped evaluation is the linear one)."""


def evaluation(args, out: list[str]) -> None:
    """The shipped pattern evaluation (with its selective search) against the linear one it
    replaced, at equal time a move: `bc.ai.Player(time_limit=t)` against
    `bc.ai.Player(time_limit=t, evaluator="linear")`."""
    out += ["### Pattern evaluations against the linear ones, at equal time a move", "",
            "| board | seconds a move | games | patterns' score | Elo |", "| --- | --- | --- | --- | --- |"]  # fmt: skip
    for name, make in PATTERN_BOARDS.items():
        if args.boards and name not in args.boards:
            continue
        for t in args.times[:1]:
            new, old = bc.ai.Player(time_limit=t), bc.ai.Player(time_limit=t, evaluator="linear")
            games = args.strength_games or args.games
            score = match(lambda g, s: new.move(g), lambda g, s: old.move(g), make(), games)
            out.append(f"| {name} | {t} | {games} | {100 * score:.1f}% | {elo(score):+.0f} |")
            print(out[-1], flush=True)
    out.append("")


def play_steps(first, second, state, seed: int) -> float:
    """`play` over the step form: each player a function of the step state giving an action."""
    players = (first, second)
    decision = 0
    while not state.is_over():
        state.apply_action(players[state.to_move](state, seed + decision))
        decision += 1
    black, white = state.returns()
    return (1 + (black > white) - (black < white)) / 2


def guided(args, out: list[str]) -> None:
    out += ["### Native evaluator: bc.mcts.search guided by bc.ai.evaluator against random rollouts, equal time a decision", "",
            "| game | seconds a decision | games | guided score | Elo | guided simulations a decision | rollout simulations a decision |",
            "| --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for name, cls in DEFAULTS.items():
        learned = bc.ai.evaluator(name)
        for t in args.times:
            sims = {"guided": [], "rollouts": []}

            def searcher(kind, evaluator, t=t):
                def choose(state, seed):
                    result = bc.mcts.search(state, 10**9, evaluator=evaluator, time_limit=t, seed=seed)
                    sims[kind].append(result.simulations)
                    return result.action

                return choose

            ours, theirs = searcher("guided", learned), searcher("rollouts", None)
            total = 0.0
            for g in range(args.games):
                begin = opening(cls(), g // 2).actions()
                if g % 2 == 0:
                    total += play_steps(ours, theirs, begin, 1000 * g)
                else:
                    total += 1 - play_steps(theirs, ours, begin, 1000 * g)
            score = total / args.games
            out.append(f"| {name} | {t} | {args.games} | {100 * score:.0f}% | {elo(score):+.0f} |"
                       f" {statistics.median(sims['guided']):,.0f} | {statistics.median(sims['rollouts']):,.0f} |")  # fmt: skip
            print(out[-1], flush=True)
    out.append("")


def example(args, out: list[str]) -> None:
    """bc.ai.Player against examples/alphabeta_reversi.py (depth 4, its default) on Reversi."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("alphabeta_reversi", ROOT / "examples/alphabeta_reversi.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out += ["### bc.ai.Player against examples/alphabeta_reversi.py (depth 4), Reversi 8x8", "",
            "| Player's seconds a move | games | example's median seconds a move | Player's score | Elo |",
            "| --- | --- | --- | --- | --- |"]  # fmt: skip
    for t in args.times:
        engine = bc.ai.Player(time_limit=t)
        spent: list[float] = []

        def theirs(game, seed):
            started = time.perf_counter()
            move = module.best_move(game, 4)
            spent.append(time.perf_counter() - started)
            return move

        score = match(lambda game, seed: engine.move(game), theirs, bc.Reversi(), args.games)
        out.append(f"| {t} | {args.games} | {statistics.median(spent):.3f} | {100 * score:.0f}% | {elo(score):+.0f} |")
        print(out[-1], flush=True)
    out.append("")


def ladder(args, out: list[str]) -> None:
    out += ["### Level ladder: level k against level k-1, Reversi 6x6, each level as it plays (fixed depth; level 10 at 1 s a move)", "",
            "| level | games | score against k-1 | Elo over k-1 | Elo over level 1 |", "| --- | --- | --- | --- | --- |"]  # fmt: skip
    ladder_elo = [0.0]
    for level in range(2, 11):

        def up(game, seed, level=level):
            return bc.ai.Player(level=level, seed=seed).move(game)

        def down(game, seed, level=level):
            return bc.ai.Player(level=level - 1, seed=seed).move(game)

        # Levels 9 and 10 think up to a second a move: their pairs play --games.
        games = (args.ladder_games or args.games) if level <= 8 else args.games
        score = match(up, down, bc.Reversi(size=6), games)
        ladder_elo.append(ladder_elo[-1] + elo(score))
        out.append(f"| {level} | {games} | {100 * score:.0f}% | {elo(score):+.0f} | {ladder_elo[-1]:+.0f} |")
        print(out[-1], flush=True)
    if args.write:
        plot = ROOT / "docs/images/ladder.svg"
        plot.write_text(ladder_svg(ladder_elo))
        out += ["", f"![The ladder: Elo over level 1](images/{plot.name})"]
    out.append("")


def ladder_svg(ratings: list[float]) -> str:
    """A line plot of each level's Elo over level 1 (levels 1 to 10), as a small SVG."""
    width, height, margin = 480, 300, 48
    top = max(max(ratings), 1.0)
    bottom = min(min(ratings), 0.0)

    def x(level: int) -> float:
        return margin + (level - 1) * (width - 2 * margin) / 9

    def y(rating: float) -> float:
        return height - margin - (rating - bottom) * (height - 2 * margin) / (top - bottom)

    points = " ".join(f"{x(k + 1):.1f},{y(r):.1f}" for k, r in enumerate(ratings))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<line x1="{margin}" y1="{height - margin}" x2="{width - margin}" y2="{height - margin}" stroke="black"/>',
        f'<line x1="{margin}" y1="{margin}" x2="{margin}" y2="{height - margin}" stroke="black"/>',
        f'<polyline points="{points}" fill="none" stroke="#1f6fb4" stroke-width="2"/>',
    ]
    for k, r in enumerate(ratings):
        parts.append(f'<circle cx="{x(k + 1):.1f}" cy="{y(r):.1f}" r="3" fill="#1f6fb4"/>')
        parts.append(f'<text x="{x(k + 1):.1f}" y="{height - margin + 16}" text-anchor="middle">{k + 1}</text>')
    for r in (bottom, top):
        parts.append(f'<text x="{margin - 6}" y="{y(r) + 4:.1f}" text-anchor="end">{r:+.0f}</text>')
    parts += [
        f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">level</text>',
        f'<text x="{width / 2}" y="20" text-anchor="middle">Elo over level 1, Reversi 6x6 (bench_engine --only ladder)</text>',
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def speed(args, out: list[str]) -> None:
    out += [
        "### Search speed (one thread)",
        "",
        "| game | search | nodes | seconds | M nodes/s |",
        "| --- | --- | --- | --- | --- |",
    ]
    cases = [
        ("reversi 8x8 start", bc.Reversi(), {"depth": 9}),
        ("cephalopod 5x5 start", bc.Cephalopod(), {"depth": 7}),
        ("rive hex5 start", bc.Rive(), {"depth": 5}),
        ("strands hex6 start", bc.Strands(), {"depth": 2}),
        ("cephalopod 2x3 solve", bc.Cephalopod(rows=2, cols=3), None),
    ]
    fforum = problems_in(26, 26)  # the suites live beside the repository, not in it
    if fforum is not None:
        cases.append(("reversi FForum 26 solve", fforum[0][0].game, None))
    for label, game, limits in cases:
        runs = [bc.ai.solve(game) if limits is None else bc.ai.analyse(game, **limits) for _ in range(args.repeats)]
        best = statistics.median(r.nodes / r.seconds for r in runs)
        search = "solve" if limits is None else f"depth {limits['depth']}"
        out.append(f"| {label} | {search} | {runs[0].nodes:,} |"
                   f" {statistics.median(r.seconds for r in runs):.3f} | {best / 1e6:.2f} |")  # fmt: skip
        print(out[-1], flush=True)
    if fforum is None:
        out += ["", f"FForum 26 not measured: no suite in `{FFORUM_SHOWN}/` (its README.md)."]
    out.append("")


def search_profile(mode: str, repeats: int) -> tuple[list[list[str]], str]:
    """The rows of `examples/search_profile.rs` in `mode` (listing or threads), and its error."""
    run = subprocess.run(
        ["cargo", "run", "--release", "-q", "-p", "boardcore-engine", "--example", "search_profile", "--", mode, str(repeats)],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    error = "" if run.returncode == 0 else f"(the example failed: {run.stderr.strip().splitlines()[-1:]})"
    return [line.split("\t") for line in run.stdout.splitlines()], error


def profile(args, out: list[str]) -> None:
    """Where the search's time goes: listing moves, and two threads against one."""
    movegen_share(args, out)
    thread_race(args, out)


def movegen_share(args, out: list[str]) -> None:
    """The share of the search's time spent listing moves, from the Rust example that searches
    each position twice, once listing every node's moves twice (its header says why)."""
    rows, error = search_profile("listing", max(args.repeats, 3))
    out += ["### Time spent listing moves (one thread, the Rust search alone)", "",
            "`cargo run --release -p boardcore-engine --example search_profile -- listing`: each search run as it is and with every node's moves listed twice; the extra time over the plain search's is the share. Reversi's endgame solver lists no moves (it tries each empty square in turn), so it has no row; nor has Rive's dense memo (hex3).", "",
            "| game | board | search | nodes | seconds | M nodes/s | share listing moves |", "| --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for game, board, search, nodes, seconds, share in rows:
        rate = int(nodes) / float(seconds) / 1e6
        out.append(
            f"| {game} | {board} | {search} | {int(nodes):,} | {float(seconds):.3f} | {rate:.2f} | {float(share):.0%} |"
        )
        print(out[-1], flush=True)
    out += [error, ""] if error else [""]


def thread_race(args, out: list[str]) -> None:
    """Two threads against one, by a root split and by lazy SMP, to the same depth or solve."""
    rows, error = search_profile("threads", max(args.repeats, 3))
    out += ["### Two threads: a root split against lazy SMP (time to finish the same search)", "",
            "`cargo run --release -p boardcore-engine --example search_profile -- threads`: medians of alternating runs; speed-up is one thread's time over two threads'. Meaningful only when both cores are free.", "",
            "| game | board | search | one thread (s) | root split (s) | lazy SMP (s) | root split speed-up | lazy SMP speed-up |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for game, board, search, one, split, lazy in rows:
        one, split, lazy = float(one), float(split), float(lazy)
        out.append(
            f"| {game} | {board} | {search} | {one:.3f} | {split:.3f} | {lazy:.3f} | {one / split:.2f}x | {one / lazy:.2f}x |"
        )
        print(out[-1], flush=True)
    out += [error, ""] if error else [""]


def limits(args, out: list[str]) -> None:
    out += ["### Time limits: seconds past the limit when analyse returns", "",
            "| game | limit | calls | median over | worst over | allowed (10% + 20 ms) |", "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for name, cls in DEFAULTS.items():
        for limit in (0.05, 0.5):
            overs = []
            for _ in range(args.repeats * 3):
                started = time.perf_counter()
                bc.ai.analyse(cls(), time_limit=limit)
                overs.append(time.perf_counter() - started - limit)
            out.append(f"| {name} | {limit} | {len(overs)} | {statistics.median(overs) * 1000:+.1f} ms |"
                       f" {max(overs) * 1000:+.1f} ms | {(0.1 * limit + 0.02) * 1000:.0f} ms |")  # fmt: skip
            print(out[-1], flush=True)
    out.append("")


def header() -> list[str]:
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%h %cs"], capture_output=True, text=True
    ).stdout.strip()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return [
        "# Engine benchmarks",
        "",
        f"Written by `{shown_command(['python', 'benches/bench_engine.py', *sys.argv[1:]])}` at commit {commit or 'unknown'},"
        f" {time.strftime('%Y-%m-%d')}, on {platform.machine()} with {os.cpu_count()} cores"
        f" (load {load:.2f} at the start), code path {bc.code_path()}.",
        "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--only",
        nargs="+",
        default=["endgame", "evaluation", "strength", "guided", "example", "ladder", "speed", "profile", "limits"],
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--strength-games", type=int, help="games a match in the strength section (default: --games)")
    parser.add_argument("--ladder-games", type=int, help="games a ladder pair up to level 8 (default: --games)")
    parser.add_argument("--times", type=float, nargs="+", default=[0.1, 1.0])
    parser.add_argument(
        "--boards", nargs="+", help=f"only these boards in the evaluation section ({', '.join(PATTERN_BOARDS)})"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--suite", default="fforum-20-39", help=f"an FForum suite of {FFORUM_SHOWN}/ (its name) or an .obf file"
    )
    parser.add_argument("--problems", help="FIRST-LAST: only these problems of the suite (e.g. 40-49)")
    parser.add_argument("--edax", help="an Edax binary (bin/lEdax-...) built outside the repository")
    parser.add_argument("--edax-eval", help="Edax's eval.dat")
    parser.add_argument("--write", help="write the tables to this Markdown file")
    parser.add_argument("--append", action="store_true", help="add them to the end of --write's file instead")
    args = parser.parse_args()
    out = header()
    for part in ("endgame", "evaluation", "strength", "guided", "example", "ladder", "speed", "profile", "limits"):
        if part in args.only:
            globals()[part](args, out)
    if args.write:
        target = Path(args.write)
        if args.append and target.exists():
            out = [target.read_text(encoding="utf-8").rstrip("\n"), "", *out[2:]]
        target.write_text("\n".join(out) + "\n", encoding="utf-8")
    print("\n".join(out))


if __name__ == "__main__":
    main()
