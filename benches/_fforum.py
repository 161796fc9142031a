"""The FForum endgame suites, read from ``../shared/data/fforum/`` beside the repository (its
README.md): Edax's ``.obf`` files, one problem a line, every legal move with its exact score.
They are not copied into the repository; the benches that need them say so when they are absent.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import boardcore as bc

FFORUM = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "fforum"
FFORUM_SHOWN = "../shared/data/fforum"
"""The folder as the pages show it (relative to the repository's root, not this machine's)."""


@dataclass(frozen=True)
class Problem:
    number: int
    """Its number in FForum (a file's first problem is the first number of its name)."""
    game: bc.Reversi
    scores: dict[str, int]
    """Every legal move (``"h5"``) with its exact score for the side to move."""
    line: str
    """The line of the ``.obf`` file, as Edax reads it."""

    @property
    def score(self) -> int:
        return max(self.scores.values())

    @property
    def best_moves(self) -> set[str]:
        return {move for move, score in self.scores.items() if score == self.score}

    @property
    def board(self) -> str:
        """The 64 squares, a1 to h8 row by row: ``X`` black, ``O`` white, ``-`` empty."""
        return self.line.split()[0]

    @property
    def side(self) -> str:
        """The side to move, ``X`` or ``O``."""
        return self.line.split()[1].rstrip(";")

    @property
    def empties(self) -> int:
        return self.board.count("-")


def suite_path(name: str) -> Path:
    """The suite ``name`` (``fforum-20-39``, or a path to an ``.obf`` file)."""
    path = Path(name)
    return path if path.suffix == ".obf" else FFORUM / f"{name}.obf"


def read_suite(path: Path) -> list[Problem]:
    """Every problem of an ``.obf`` file, numbered from FIRST for a file named
    ``fforum-FIRST-LAST.obf`` and from 1 for any other."""
    if not path.is_file():
        raise SystemExit(f"{path}: no such FForum suite (they live in {FFORUM_SHOWN}/, its README.md)")
    parts = path.stem.split("-")
    first = int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else 1
    problems = []
    lines = [line for line in path.read_text().splitlines() if line.strip() and not line.startswith("%")]
    for number, line in enumerate(lines, first):
        head, *moves = [field.strip() for field in line.split(";") if field.strip()]
        board, side = head.split()
        rows = "/".join(board[i : i + 8] for i in range(0, 64, 8)).translate(str.maketrans("XO-", "bw."))
        game = bc.Reversi.from_position(f"8 {rows} {'b' if side == 'X' else 'w'}")
        scores = {move.split(":")[0].lower(): int(move.split(":")[1]) for move in moves}
        problems.append(Problem(number, game, scores, line))
    return problems


def problems_in(first: int, last: int) -> tuple[list[Problem], Path] | None:
    """Problems ``first``..``last`` and the file that holds them; None when no suite does."""
    for path in sorted(FFORUM.glob("fforum-*.obf")):
        low, high = (int(n) for n in path.stem.split("-")[1:3])
        if low <= first and last <= high:
            return [p for p in read_suite(path) if first <= p.number <= last], path
    return None
