"""boardcore solve GAME POSITION and boardcore analyse GAME POSITION: the exact solver and the
alpha-beta engine at the terminal (bc.ai.solve, bc.ai.analyse). POSITION is a position in the
game's notation, or "start" for the game's default start.

solve prints the value for the side to move (win, draw or loss), the margin under perfect play,
every optimal move, a line of perfect play, the nodes and the time. analyse prints one line per
completed depth (score, nodes, time, principal variation), then the move it recommends; it stops
at --time seconds (default 5), --depth or --nodes, or earlier when the search reaches the end of
every line (then the score is exact). Ctrl-C stops either within a moment."""

from __future__ import annotations

import argparse

import boardcore as bc
from boardcore.cli.helptext import add_command
from boardcore.cli.paths import CLASSES, START
from boardcore.cli.variants import GAMES


def register(commands) -> None:
    for name, help_text in (("solve", "the exact value, margin, optimal moves and line of a position"),
                            ("analyse", "the engine's evaluation of a position, depth by depth")):  # fmt: skip
        parser = add_command(commands, name, help_text, __doc__)
        parser.add_argument("game", type=str.lower, choices=GAMES, help="the game (any case)")
        parser.add_argument(
            "position",
            metavar="POSITION",
            help=f"a position in the game's notation, or '{START}' for the default start",
        )
        parser.add_argument("--threads", type=_positive, default=1, help="search threads (default 1)")
        parser.add_argument(
            "--table-mb",
            type=_positive,
            default=64,
            help="transposition table size in MB (default 64; a small board solved from its start needs GBs)",
        )
        if name == "solve":
            parser.add_argument("--time", type=_seconds, default=None, help="give up after this many seconds")
            parser.set_defaults(run=run_solve)
        else:
            parser.add_argument("--time", type=_seconds, default=None, help="seconds to search (default 5)")
            parser.add_argument("--depth", type=_positive, default=None, help="plies to search at most")
            parser.add_argument("--nodes", type=_positive, default=None, help="nodes to search at most")
            parser.set_defaults(run=run_analyse)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < 1e9:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, not {text!r}")
    return seconds


def _game(args: argparse.Namespace):
    game = CLASSES[args.game]() if args.position == START else CLASSES[args.game].from_position(args.position)
    if game.is_over():
        raise ValueError("the game is over: there is nothing to solve or analyse")
    return game


def _line(moves) -> str:
    return " ".join(str(m) for m in moves)


def _verdict(value: int) -> str:
    return {1: "win", 0: "draw", -1: "loss"}[value]


def run_solve(args: argparse.Namespace) -> int:
    game = _game(args)
    try:
        a = bc.ai.solve(game, threads=args.threads, time_limit=args.time, table_mb=args.table_mb)
    except bc.ai.SolveTimeout as timeout:
        print(f"not solved in {args.time} s (estimate {timeout.analysis.score:+.2f}, depth {timeout.analysis.depth})")
        return 1
    side = "Black" if game.to_move == bc.BLACK else "White"
    margin = f" by {abs(a.score)}" if a.value else ""
    print(f"{side} to move: {_verdict(a.value)}{margin} ({a.score:+d})")
    print(f"optimal moves: {_line(a.best_moves)}")
    print(f"perfect play: {_line(a.pv)}")
    print(f"{a.nodes:,} nodes in {a.seconds:.3f} s")
    return 0


def run_analyse(args: argparse.Namespace) -> int:
    game = _game(args)
    time_limit = args.time if args.time is not None or args.depth or args.nodes else 5.0
    a = bc.ai.analyse(
        game, depth=args.depth, time_limit=time_limit, nodes=args.nodes, threads=args.threads, table_mb=args.table_mb
    )
    for it in a.iterations:
        score = f"{it.score:+d} exact" if it.exact else f"{it.score:+.2f}"
        print(f"depth {it.depth:>3}  score {score:>10}  nodes {it.nodes:>12,}  {it.seconds:7.3f} s  {_line(it.pv)}")
    score = f"{a.score:+d} (exact)" if a.exact else f"{a.score:+.2f}"
    print(f"best move {a.move}, score {score}")
    return 0
