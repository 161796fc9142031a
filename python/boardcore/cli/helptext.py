"""How every ``--help`` is laid out (one formatter for the top command and each subcommand),
and the argparse types the subcommands share."""

from __future__ import annotations

import argparse
import textwrap


class Formatter(argparse.HelpFormatter):
    """argparse's formatter, but a description keeps its paragraphs (blank lines): each is
    wrapped to the terminal's width like the options' help, whatever the source's line breaks."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = textwrap.dedent(text).strip().split("\n\n")
        return "\n\n".join(
            textwrap.fill(" ".join(p.split()), width, initial_indent=indent, subsequent_indent=indent)
            for p in paragraphs
        )


def add_command(commands, name: str, help: str, description: str | None) -> argparse.ArgumentParser:
    """A subcommand; its description (the command module's docstring, plain text) is shown by
    ``--help`` paragraph by paragraph."""
    return commands.add_parser(name, help=help, description=description, formatter_class=Formatter)


def integer_type(maximum: int, expected: str):
    """An argparse `type` for an integer from 0 to `maximum`: anything else is a usage error
    saying `expected` and quoting the text (argparse's own message would not name the range)."""

    def integer(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1  # not a number: refused below as out of range, with the same message
        if not 0 <= value <= maximum:
            raise argparse.ArgumentTypeError(f"{expected}, not {text!r}")
        return value

    return integer


def depth_type(maximum: int):
    """An argparse `type` for a depth from 0 to `maximum` (perft's and paths' `--depth`, each
    with its API's limit)."""
    return integer_type(maximum, f"the depth is an integer from 0 to {maximum}")
