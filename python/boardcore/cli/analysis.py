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
import sys

import boardcore as bc
from boardcore._games import entry
from boardcore.cli.helptext import add_command
from boardcore.cli.paths import CLASSES, START
from boardcore.cli.progress import shown_on
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


def _empties(game) -> int:
    return sum(game.piece_at(cell) is None for cell in game.cells())


def _warn_if_long(args: argparse.Namespace, game) -> None:
    empties = _empties(game)
    # Past the registry's quick_solve_empties (docs/solved.md: Reversi 6x6 from its start, 32
    # empties: 726 s; Cephalopod 2x4, 8: 30 s with 8 GB of table; Rive hex3, 19: hours)
    # `boardcore solve` says so before it starts.
    game_entry = entry(args.game)
    if args.time is None and empties > game_entry.quick_solve_empties:
        print(
            f"boardcore: {empties} empty {game_entry.cell_noun} "
            f"is far from the end: this solve can take hours or more. Give it --time S to stop with "
            f"an estimate, or use 'boardcore analyse'.",
            file=sys.stderr,
            flush=True,
        )


class _SolveLine:
    """The solve's progress on one line of stderr, redrawn at each report while stderr is a
    terminal (or BOARDCORE_PROGRESS=1): the phase and depth, the nodes, the time and the best
    value proved so far or the estimate."""

    def __init__(self) -> None:
        self.enabled = shown_on(sys.stderr)
        self.drawn = False

    def __call__(self, p: bc.ai.Progress) -> None:
        if not self.enabled:
            return
        phase = "solving" if p.solving else f"estimate, depth {p.depth}"
        known = []
        if p.bound is not None:
            known.append(f"at least {p.bound:+.0f}" if p.solving else f"bound {p.bound:+.2f}")
        if p.score is not None and not p.solving:
            known.append(f"score {p.score:+.2f}")
        note = f", {', '.join(known)}" if known else ""
        sys.stderr.write(f"\r{phase}: {p.nodes:,} nodes, {p.seconds:.1f} s{note}\033[K")
        sys.stderr.flush()
        self.drawn = True

    def clear(self) -> None:
        """Takes the line away (before a result is printed), once."""
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.drawn = False


def run_solve(args: argparse.Namespace) -> int:
    game = _game(args)
    _warn_if_long(args, game)
    line = _SolveLine()
    try:
        a = bc.ai.solve(game, threads=args.threads, time_limit=args.time, table_mb=args.table_mb, progress=line)
    except bc.ai.SolveTimeout as timeout:
        line.clear()
        print(f"not solved in {args.time} s (estimate {timeout.analysis.score:+.2f}, depth {timeout.analysis.depth})")
        return 1
    finally:
        line.clear()
    side = "Black" if game.to_move == bc.BLACK else "White"
    margin = f" by {abs(a.score):.0f}" if a.value else ""
    print(f"{side} to move: {_verdict(a.value)}{margin} ({a.score:+.0f})")
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
        score = f"{it.score:+.0f} exact" if it.exact else f"{it.score:+.2f}"
        print(f"depth {it.depth:>3}  score {score:>10}  nodes {it.nodes:>12,}  {it.seconds:7.3f} s  {_line(it.pv)}")
    score = f"{a.score:+.0f} (exact)" if a.exact else f"{a.score:+.2f}"
    print(f"best move {a.move}, score {score}")
    return 0
