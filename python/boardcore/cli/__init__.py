"""The ``boardcore`` command line.

    boardcore perft GAME [variant options] --depth D [--divide] [--threads N]
    boardcore bench [--quick]
    boardcore play GAME [variant options] --black human|random|mcts|engine:LEVEL --white ...
    boardcore selfplay GAME [variant options] --games N --black ... --white ... [--threads N] [--records FILE] [--ray [ADDRESS]]
    boardcore show [GAME] POSITION_OR_RECORD|start [--svg FILE | --png FILE]
    boardcore solve GAME POSITION|start [--threads N] [--time S]
    boardcore analyse GAME POSITION|start [--time S] [--depth D] [--nodes N] [--threads N]
    boardcore paths GAME POSITION|start --depth D [--colour-free] [--no-symmetry] [--wrapping] [--rows FILE] [--totals]

Each subcommand has --help; boardcore --version prints the version. Errors go to stderr with exit code 2 (bad arguments, bad
notation, impossible variants), 1 for a failure while running, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys

import boardcore as bc
from boardcore._games import GAMES
from boardcore.cli import analysis, bench, paths, perft, play, selfplay, show
from boardcore.cli.helptext import Formatter

SUBCOMMANDS = [perft, bench, play, selfplay, show, paths, analysis]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="boardcore",
        description="boardcore: fast, rule-exact board game engines"
        f" ({', '.join(entry.engine.__name__ for entry in GAMES.values())}). Each command has --help.",
        formatter_class=Formatter,
    )
    top.add_argument("--version", action="version", version=f"boardcore {version()}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(commands)
    return top


def version() -> str:
    """The package's version, which the extension, the metadata and the wheel share."""
    return bc.__version__


def main(argv: list[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)  # inside: a Ctrl-C while the arguments are read is one too
        return args.run(args)
    except ValueError as error:  # NotationError and IllegalMoveError are ValueErrors
        print(f"boardcore: error: {error}", file=sys.stderr)
        return 2
    except ImportError as error:  # an optional extra that is not installed (show --png)
        print(f"boardcore: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"boardcore: error: {error}", file=sys.stderr)
        return 1
    except (MemoryError, OverflowError) as error:  # a count too big to hold (paths), or past 2**128
        print(f"boardcore: error: {error or type(error).__name__}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("boardcore: interrupted", file=sys.stderr)
        return 130
