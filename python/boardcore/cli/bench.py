"""boardcore bench [--quick] [--repeats N] [--threads N]: the headline benchmark of every game on its default
variant: perft, random playouts and MCTS iterations per second, each the median of --repeats runs.
It needs nothing but boardcore (the comparisons with other engines are in benches/)."""

from __future__ import annotations

import argparse
import statistics
import time

import boardcore as bc
from boardcore.cli.helptext import add_command
from boardcore.cli.progress import Progress

# (game, perft depth, playouts, MCTS iterations) on each default variant; --quick divides the work.
WORKLOADS = [
    ("reversi", bc.Reversi, 10, 100_000, 50_000),
    ("cephalopod", bc.Cephalopod, 6, 20_000, 10_000),
    ("rive", bc.Rive, 5, 2_000, 2_000),
    # Strands' last ply is counted by binomials: perft(3) still walks the first two.
    ("strands", bc.Strands, 3, 100_000, 20_000),
]


def register(commands) -> None:
    parser = add_command(commands, "bench", "the headline benchmark of every game", __doc__)
    parser.add_argument("--quick", action="store_true", help="a tenth of the work (a smoke test)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure; the median is shown (default 3)")
    parser.add_argument("--threads", type=int, default=1, help="threads for perft and playouts (default 1)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.repeats < 1 or args.threads < 1:
        raise ValueError("--repeats and --threads must be at least 1")
    scale = 10 if args.quick else 1
    print(f"boardcore bench: default variants, median of {args.repeats}, {args.threads} thread(s), {bc.code_path()}")
    rows = []
    with Progress(len(WORKLOADS), "bench") as bar:
        for name, make, depth, playouts, iterations in WORKLOADS:
            rows.append(_measure(name, make, depth, max(playouts // scale, 1), max(iterations // scale, 1), args))
            bar.advance(1, name)
    print("| game | variant | perft | leaves/s | playouts/s | MCTS iterations/s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print("(Strands' perft counts its last ply by binomials, without visiting the leaves.)")
    return 0


def _measure(name: str, make, depth: int, playouts: int, iterations: int, args: argparse.Namespace) -> list[str]:
    game = make()
    leaves = game.perft(depth, threads=args.threads)
    perft_rate = leaves / median_time(lambda: game.perft(depth, threads=args.threads), args.repeats)
    playout_rate = playouts / median_time(lambda: game.playouts(playouts, seed=1, threads=args.threads), args.repeats)
    mcts_rate = iterations / median_time(lambda: bc.mcts.search_moves(game, iterations, seed=1), args.repeats)
    variant = {
        "reversi": lambda: "octagon" if game.board_name == "octagon" else f"{game.size}x{game.size}",
        "cephalopod": lambda: f"{game.rows}x{game.cols}",
        "rive": lambda: game.board_name,
        "strands": lambda: f"{game.layout_name} {game.cover}",
    }[name]()
    return [name, variant, f"perft({depth}) = {leaves:,}", _rate(perft_rate), _rate(playout_rate), _rate(mcts_rate)]


def median_time(run, repeats: int, clock=time.perf_counter) -> float:
    """The median time of ``repeats`` calls of ``run()`` by ``clock`` (wall time unless told, e.g.
    ``time.process_time`` for CPU time), in seconds (never 0, so that a rate can divide by it).
    The benchmarks in benches/ time with it too."""
    times = []
    for _ in range(repeats):
        started = clock()
        run()
        times.append(clock() - started)
    return max(statistics.median(times), 1e-9)


def _rate(per_second: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if per_second >= size:
            return f"{per_second / size:,.1f} {unit}"
    return f"{per_second:,.0f}"
