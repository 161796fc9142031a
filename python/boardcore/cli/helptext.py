"""How every ``--help`` is laid out: one formatter for the top command and each subcommand."""

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


def depth_type(maximum: int):
    """An argparse `type` for a depth from 0 to `maximum`: errors become usage errors quoting
    the text (perft's and paths' `--depth`, each with its API's limit)."""

    def depth(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if not 0 <= value <= maximum:
            raise argparse.ArgumentTypeError(f"the depth is an integer from 0 to {maximum}, not {text!r}")
        return value

    return depth
