"""The checkpoint of a distributed perft: JSON lines, a header naming the run and its plan, then
one line per finished work unit, each written, flushed and fsynced as the unit finishes.

A driver killed at any moment leaves at worst a torn last line (no newline), which is dropped on
resume; anything else that does not check out is refused and the file is never rewritten."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import IO, Any

FORMAT = "boardcore-perft-checkpoint"
VERSION = 1


def plan_digest(parts: list[dict[str, Any]], n_units: int) -> str:
    """sha256 of the whole plan: every part's frontier (positions, paths, plies below) and the
    unit count, which fixes the assignment of positions to units."""
    text = json.dumps({"parts": parts, "n_units": n_units}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def line_check(digest: str, unit: int, leaves: list[int]) -> str:
    """The check of one unit's line: ties it to its run (the plan's digest) and its numbers."""
    text = f"{digest}:{unit}:{json.dumps(leaves, separators=(',', ':'))}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def header_line(header: dict[str, Any]) -> str:
    return json.dumps(header, separators=(",", ":")) + "\n"


def unit_line(digest: str, unit: int, leaves: list[int]) -> str:
    record = {"unit": unit, "leaves": leaves, "check": line_check(digest, unit, leaves)}
    return json.dumps(record, separators=(",", ":")) + "\n"


# The header's fields that name the run, compared one by one on resume so that the error can say
# what differs (the plan's digest comes last: it differs whenever anything else does).
RUN_FIELDS = ("kind", "game", "position", "depth", "passes_count_as_ply", "remaining", "moves")


@dataclass
class Checkpoint:
    """An open checkpoint: the units already done (index -> leaves per part) and the file, in
    append mode, that ``record`` writes each finished unit to."""

    path: str
    digest: str
    done: dict[int, list[int]] = field(default_factory=dict)
    _file: IO[str] | None = None

    def record(self, unit: int, leaves: list[int]) -> None:
        """Appends the unit's line and makes it durable (flush + fsync) before returning."""
        if self._file is None:
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (closed by close())
        self._file.write(unit_line(self.digest, unit, leaves))
        self._file.flush()
        os.fsync(self._file.fileno())
        self.done[unit] = leaves

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_header(path: str) -> dict[str, Any] | None:
    """The header of an existing checkpoint (None when the file is missing, empty or holds only a
    torn header): used to take the unit count of the run being resumed."""
    data = _read_bytes(path)
    if data is None or b"\n" not in data:
        return None
    first = data.split(b"\n", 1)[0]
    return _parse_header(path, first)


def open_checkpoint(path: str, header: dict[str, Any]) -> Checkpoint:
    """Opens ``path`` for the run ``header`` describes: a missing or empty file (or one holding a
    torn header of this run) is started with the header; an existing one must be this run's
    checkpoint, and its finished units are read. Raises ValueError, changing nothing, when it is
    not."""
    expected = header_line(header)
    data = _read_bytes(path)
    # The header's fields up to the unit count, which comes from timing and may differ from one
    # start to the next: a torn header (a driver killed while writing it, before any unit) of
    # this run matches them as far as it goes.
    run_part = expected[: expected.index('"n_units":')].encode()
    if data is None or (b"\n" not in data and (run_part.startswith(data) or data.startswith(run_part))):
        with open(path, "w", encoding="utf-8") as file:
            file.write(expected)
            file.flush()
            os.fsync(file.fileno())
        _fsync_directory(path)
        return Checkpoint(path, header["plan"])
    if b"\n" not in data:
        raise ValueError(
            f"{path} is not a boardcore perft checkpoint of this run: it holds one incomplete line, not this run's header"
        )
    lines = data.split(b"\n")
    torn = lines.pop()  # b"" when the file ends with a newline, as every complete line does
    found = _parse_header(path, lines[0])
    _compare_headers(path, found, header)
    checkpoint = Checkpoint(path, header["plan"])
    for number, raw in enumerate(lines[1:], start=2):
        unit, leaves = _parse_unit(path, number, raw, header)
        if checkpoint.done.get(unit, leaves) != leaves:
            raise ValueError(f"{path}, line {number}: unit {unit} appears twice with different counts")
        checkpoint.done[unit] = leaves
    if torn:
        # A line cut short by a driver killed while writing it: the unit is not done (it runs
        # again), and the stub goes so that the next line starts on a line of its own.
        with open(path, "r+b") as file:
            file.truncate(len(data) - len(torn))
            os.fsync(file.fileno())
    return checkpoint


def _read_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as file:
            return file.read()
    except FileNotFoundError:
        return None


def _parse_header(path: str, raw: bytes) -> dict[str, Any]:
    try:
        header = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"{path} is not a boardcore perft checkpoint (its first line is not a {FORMAT} header)")
    if header.get("version") != VERSION:
        raise ValueError(
            f"{path} is a version {header.get('version')!r} checkpoint; this boardcore reads version {VERSION}"
        )
    return header


def _compare_headers(path: str, found: dict[str, Any], expected: dict[str, Any]) -> None:
    for name in RUN_FIELDS:
        if found.get(name) != expected.get(name):
            raise ValueError(
                f"{path} is the checkpoint of another run: its {name} is {_short(found.get(name))}, "
                f"this run's is {_short(expected.get(name))}"
            )
    for name in ("n_units", "plan"):
        if found.get(name) != expected.get(name):
            raise ValueError(
                f"{path} is the checkpoint of another plan: its {name} is {_short(found.get(name))}, "
                f"this run's is {_short(expected.get(name))} (another boardcore version or split_depth?)"
            )


def _parse_unit(path: str, number: int, raw: bytes, header: dict[str, Any]) -> tuple[int, list[int]]:
    def bad(why: str) -> ValueError:
        return ValueError(f"{path}, line {number} is corrupted: {why}")

    try:
        record = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise bad("not a JSON line") from None
    if not isinstance(record, dict) or set(record) != {"unit", "leaves", "check"}:
        raise bad("not a unit line (unit, leaves, check)")
    unit, leaves = record["unit"], record["leaves"]
    if type(unit) is not int or not 0 <= unit < header["n_units"]:
        raise bad(f"unit {unit!r} is not one of the plan's {header['n_units']} units")
    n_parts = len(header["moves"]) if header["kind"] == "divide" else 1
    if not isinstance(leaves, list) or len(leaves) != n_parts or any(type(n) is not int or n < 0 for n in leaves):
        raise bad(f"leaves {_short(leaves)} are not {n_parts} counts")
    if record["check"] != line_check(header["plan"], unit, leaves):
        raise bad("its check does not match its unit and counts")
    return unit, leaves


def _fsync_directory(path: str) -> None:
    """Makes a new file's name durable too (POSIX; a no-op where directories cannot be opened)."""
    try:
        descriptor = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
