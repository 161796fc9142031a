"""boardcore paths GAME POSITION --depth D: count the distinct positions D plies after POSITION
(or fewer, where the game ends) and how many move sequences reach each, transpositions merged
(game.count_paths). POSITION is a position in the game's notation, or "start" for the game's
default start. Prints the number of distinct final positions, the total number of paths (exact:
the sum of the counts, perft(D)) and the time. A progress bar on stderr shows the ply reached and
the positions held; Ctrl-C stops the count within a moment.

--colour-free (Cephalopod only) merges positions that differ only in the dice's owners and the
side to move, as statistics of the final boards' pips need (count_paths(D, owners=False)).
Colour-free counts and --totals also merge boards under the board's symmetries, with the same
result: --no-symmetry turns that off. --wrapping gives every count modulo 2**64 (a final position
whose count is then 0 is left out).

--rows FILE writes every final position, one "count<TAB>position" line each, in the result's
order. --totals (Cephalopod only) prints, for every square and every number of pips (0: empty),
how many paths end with those pips there (Cephalopod.path_totals, exact), from which any linear
statistic of the final boards follows (docs/cephalopod.md); without --rows it never lists the
final positions, so their number is not printed."""

from __future__ import annotations

import argparse
import os
import time
from typing import TYPE_CHECKING

from boardcore._games import GAMES as REGISTRY
from boardcore._games import Game
from boardcore.cli.helptext import add_command, depth_type
from boardcore.cli.progress import Progress
from boardcore.cli.variants import GAMES

if TYPE_CHECKING:
    from collections.abc import Callable

# The deepest count the API takes (count_paths' and path_totals' `depth` is 0 to 10000;
# tests/test_cli_paths.py checks the two agree).
MAX_DEPTH = 10_000
depth_arg = depth_type(MAX_DEPTH)
# POSITION naming each game's default start (the game built without arguments).
START = "start"
# Every game's class by name, in the command line's (alphabetical) order.
CLASSES: dict[str, type[Game]] = {name: REGISTRY[name].engine for name in sorted(REGISTRY)}
PIPS = range(7)  # a square's pips in the totals: 0 (empty) to 6
WRAP = 2**64


def register(commands) -> None:
    parser = add_command(commands, "paths", "count the distinct positions D plies on, and the paths to each", __doc__)
    parser.add_argument("game", type=str.lower, choices=GAMES, help="the game (any case)")
    parser.add_argument(
        "position", metavar="POSITION", help=f"a position in the game's notation, or '{START}' for the default start"
    )
    parser.add_argument("--depth", type=depth_arg, required=True, help=f"plies to look ahead (0 to {MAX_DEPTH})")
    parser.add_argument(
        "--colour-free",
        action="store_true",
        help="merge positions that differ only in owners and side to move (cephalopod only)",
    )
    parser.add_argument(
        "--no-symmetry",
        action="store_true",
        help="do not merge boards under the board's symmetries (with --colour-free or --totals; same result)",
    )
    parser.add_argument("--wrapping", action="store_true", help="counts modulo 2**64")
    parser.add_argument("--rows", metavar="FILE", help='write every final position as "count<TAB>position" lines')
    parser.add_argument(
        "--totals",
        action="store_true",
        help="print the paths per square and pips, exact (cephalopod only)",
    )
    parser.add_argument(
        "--max-positions",
        type=positive_int,
        metavar="N",
        help="hold up to N positions at once (default: about 1 GB of them; raise it to count deeper)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def positive_int(text: str) -> int:
    """An argparse type: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def check_options(args: argparse.Namespace) -> None:
    """A ValueError for an option that would be ignored: --colour-free and --totals belong to
    Cephalopod, and --no-symmetry to the counts that merge by symmetry."""
    for flag, given in (("--colour-free", args.colour_free), ("--totals", args.totals)):
        if given and args.game != "cephalopod":
            raise ValueError(f"{flag} is an option of cephalopod only, not of {args.game}")
    if args.no_symmetry and not (args.colour_free or args.totals):
        raise ValueError("--no-symmetry goes with --colour-free or --totals: the owner-aware count never uses symmetry")


def new_game(name: str, position: str):
    """The game at POSITION: its default start for "start", else the position in its notation
    (NotationError, a ValueError, for text that is not one)."""
    game = CLASSES[name]
    return game() if position == START else game.from_position(position)


def run(args: argparse.Namespace) -> int:
    check_options(args)
    game = new_game(args.game, args.position)
    if args.rows is None:
        return _count_and_print(args, game, None)
    # Opened before the count, so that a path that cannot be written fails at once; a file this
    # run created is removed again if the count fails or is interrupted.
    created = not os.path.exists(args.rows)
    try:
        with open(args.rows, "w", encoding="utf-8") as rows_file:
            return _count_and_print(args, game, rows_file)
    except BaseException:
        if created and os.path.isfile(args.rows):
            os.remove(args.rows)
        raise


def _count_and_print(args: argparse.Namespace, game, rows_file) -> int:
    print(f"{args.game} {game.position()}", flush=True)
    started = time.perf_counter()
    with Progress(args.depth, f"paths({args.depth})", enabled=False if args.no_progress else None) as bar:
        report = _reporter(bar) if bar.enabled and args.depth > 0 else None
        paths, totals = count(game, args, report)
    seconds = time.perf_counter() - started
    _summarise(args, game, paths, totals, seconds)
    if rows_file is not None and paths is not None:
        write_rows(paths, rows_file)
    return 0


def _reporter(bar: Progress) -> Callable[[int, int, int], None]:
    """The engine's progress(ply, depth, positions), moving the bar to the ply reached."""

    def report(ply: int, _depth: int, positions: int) -> None:
        bar.advance(ply - bar.done, f"{positions:,} positions")

    return report


def count(game, args: argparse.Namespace, report):
    """(PathCounts or None, (low, high) totals or None): the final positions unless only
    --totals was asked (then path_totals, which never lists them); the totals with --totals."""
    options = {"symmetry": not args.no_symmetry, "wrapping": args.wrapping, "max_positions": args.max_positions}
    if args.totals and args.rows is None:
        return None, game.path_totals(args.depth, **options, progress=report)
    paths = game.count_paths(args.depth, not args.colour_free, **options, progress=report)
    return paths, paths.square_totals() if args.totals else None


def _summarise(args: argparse.Namespace, game, paths, totals, seconds: float) -> None:
    """The summary on stdout: distinct final positions (when listed), total paths, time, and
    the totals table with --totals; with --wrapping every figure modulo 2**64."""
    reduce = (lambda n: n % WRAP) if args.wrapping else (lambda n: n)
    modulo = " (mod 2**64)" if args.wrapping else ""
    table = [[reduce(n) for n in row] for row in exact_totals(totals)] if totals is not None else None
    if paths is not None:
        total = paths.total()
        kind = "colour-free " if args.colour_free else ""
        print(f"{len(paths)} distinct {kind}final positions")
    else:
        assert table is not None  # count() gives one or the other
        total = sum(table[0])  # every final board has some pips (0: none) on the first square
    print(f"paths({args.depth}) = {reduce(total)}{modulo}")
    print(f"{seconds:.3f} s")
    if table is not None:
        print(totals_table(table, game.cells()))


def exact_totals(totals) -> list[list[int]]:
    """The exact totals as Python ints, low + (high << 64), one list of 7 per square."""
    low, high = totals
    return [[int(lo) + (int(hi) << 64) for lo, hi in zip(los, his)] for los, his in zip(low, high)]


def totals_table(rows: list[list[int]], cells: tuple[str, ...]) -> str:
    """A header (square, then pips 0 to 6) and one line per square (named as ``game.cells()``,
    the totals' order), right-aligned columns."""
    lines = [["square", *(str(p) for p in PIPS)], *([cell, *map(str, row)] for cell, row in zip(cells, rows))]
    widths = [max(len(line[c]) for line in lines) for c in range(len(lines[0]))]
    return "\n".join(
        "  ".join(text.ljust(w) if c == 0 else text.rjust(w) for c, (text, w) in enumerate(zip(line, widths)))
        for line in lines
    )


def write_rows(paths, out) -> None:
    """Every row of ``paths`` as "count<TAB>position", in the result's order."""
    out.writelines(f"{n}\t{paths.position(i)}\n" for i, n in enumerate(paths.counts()))
