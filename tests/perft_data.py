"""The reader of the perft data files (tests/data/perft/README.md), on its own and without pytest
so that benches/ can import it too (benches/deep_counts.py checks its counts against them)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PERFT_DATA = Path(__file__).parent / "data" / "perft"
PERFT_TIERS = ("twin", "slow", "deep")


@dataclass(frozen=True)
class PerftEntry:
    """One line of a perft data file: perft(depth) of a position is `leaves` (and `free` when a
    pass uses no ply, if given); `tier` is "twin", "slow", "deep" or "" (see the README)."""

    game: str
    position: str
    depth: int
    leaves: int
    free: int | None
    tier: str
    where: str

    @property
    def id(self) -> str:
        return self.where


def perft_entries() -> list[PerftEntry]:
    """Every entry of every file in tests/data/perft, in file then line order."""
    entries = []
    for path in sorted(PERFT_DATA.glob("*.txt")):
        game = path.stem.split("-")[0]
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if not line.strip() or line.startswith("#"):
                continue
            position, depth, leaves, *rest = (field.strip() for field in line.split(" ; "))
            free, tier = None, ""
            for field in rest:
                if field.startswith("free "):
                    free = int(field.removeprefix("free "))
                elif field in PERFT_TIERS and not tier:
                    tier = field
                else:
                    raise ValueError(f"{path.name}:{number}: unknown field {field!r}")
            entries.append(PerftEntry(game, position, int(depth), int(leaves), free, tier, f"{path.name}:{number}"))
    return entries
