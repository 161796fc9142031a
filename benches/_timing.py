"""What the benchmark scripts share: medians (the machines are shared and noisy), the argument
parser every script starts from, the Markdown table they print (its head, then section after
section of rows), and the engine against its pure-Python twin."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable, Sequence

import boardcore as bc
from boardcore.cli.bench import median_time

__all__ = ["bench_parser", "median_time", "perft_rates", "run_table", "shown_command", "table_head"]

PEER_VARIABLES = ("EDAX_EVAL", "EDAX", "BOARDCORE_PEER_PYTHON", "BOARDCORE_SB3_PYTHON",
                  "BOARDCORE_AZ_RUN", "CEPHALOPOD_PEERS", "ZEBRA_DIR")  # fmt: skip
"""The environment variables that name peers and their data (benches/README.md)."""


def shown_command(arguments: Sequence[str]) -> str:
    """``arguments`` as a page shows them: a peer's path as the variable that names it
    (``$EDAX``, ``$EDAX_EVAL``), never this machine's, and the scratch file of
    ``--write`` as ``FILE``, so that anyone can run the command as printed."""
    peers = [(name, os.environ[name]) for name in PEER_VARIABLES if os.environ.get(name)]
    shown = []
    for i, argument in enumerate(arguments):
        if i > 0 and arguments[i - 1] == "--write":
            argument = "FILE"
        for name, value in peers:
            root = value.rstrip("/")
            if argument == value or argument.startswith(root + "/"):
                argument = f"${name}{argument[len(root) :]}"
                break
        shown.append(argument)
    return " ".join(shown)


def bench_parser(doc: str, repeats: int = 3) -> argparse.ArgumentParser:
    """An argument parser whose help is the script's docstring, with ``--repeats`` (runs per figure)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=repeats)
    return parser


def table_head(*columns: str, code_path_note: str = "") -> None:
    """Prints the code path boardcore runs (which SIMD flavour), then the head of a Markdown table."""
    print(f"boardcore code path: {bc.code_path()}{code_path_note}")
    print("| " + " | ".join(columns) + " |")
    print("|" + " --- |" * len(columns))


def run_table(args: argparse.Namespace, sections: Iterable[Callable], *columns: str, code_path_note: str = "") -> int:
    """A script's table: its head (``table_head``), then each section in turn, a function of the
    parsed arguments that prints its rows. Returns 0, the script's exit status."""
    table_head(*columns, code_path_note=code_path_note)
    for section in sections:
        section(args)
    return 0


def perft_rates(engine, reference, depth: int, repeats: int) -> tuple[int, float, float]:
    """``(leaves, engine's leaves/s, twin's leaves/s)`` of ``perft(depth)`` by an engine game and
    its reference twin, which must count the same leaves. The engine is timed at least five
    times: its runs are short, so one noisy run would weigh too much."""
    leaves = engine.perft(depth)
    assert leaves == reference.perft(depth)
    ours = leaves / median_time(lambda: engine.perft(depth), max(repeats, 5))
    theirs = leaves / median_time(lambda: reference.perft(depth), repeats)
    return leaves, ours, theirs
