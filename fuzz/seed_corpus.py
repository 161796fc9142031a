"""Writes the fuzz targets' seed corpus (fuzz/corpus/TARGET/) from real games: the positions the
test suite sets up, the Strands layouts of tests/data, and random games played with the library
on every variant the targets start from. Deterministic: run it again and nothing changes.

    python fuzz/seed_corpus.py          # after building boardcore (maturin develop)

Files are named after what they hold, so a failing one says where it came from. Regression
cases found by fuzzing are added next to them by hand (docs/reliability.md).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import boardcore as bc

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "corpus"

# The same order as `starts()` in fuzz/src/lib.rs: the moves and play targets pick one by its
# index (the first byte of an input). New starts go at the end: the files of the earlier ones stay
# as they are (the random generator draws for them first).
STARTS = [
    ("reversi-8", lambda: bc.Reversi(8)),
    ("reversi-6", lambda: bc.Reversi(6)),
    ("reversi-4", lambda: bc.Reversi(4)),
    ("reversi-octagon", lambda: bc.Reversi("octagon")),
    ("reversi-8-holes", lambda: bc.Reversi(8, blocked="random", seed=1)),
    ("reversi-10-handicap", lambda: bc.Reversi(10, blocked="random", seed=7, handicap=2)),
    ("cephalopod-2x2", lambda: bc.Cephalopod(2, 2)),
    ("cephalopod-3x3", lambda: bc.Cephalopod(3, 3)),
    ("cephalopod-3x5", lambda: bc.Cephalopod(3, 5)),
    ("cephalopod-5x5", lambda: bc.Cephalopod(5, 5)),
    ("rive-hex2", lambda: bc.Rive("hex2")),
    ("rive-hex3", lambda: bc.Rive("hex3")),
    ("rive-hex3-swap", lambda: bc.Rive("hex3", swap=True)),
    ("rive-hex3-single", lambda: bc.Rive("hex3", single_stones=True)),
    ("rive-hex335", lambda: bc.Rive("hex335")),
    ("rive-hex335-swap-single", lambda: bc.Rive("hex335", swap=True, single_stones=True)),
    ("rive-hex4-single", lambda: bc.Rive("hex4", single_stones=True)),
    ("rive-hex5-swap-single", lambda: bc.Rive("hex5", swap=True, single_stones=True)),
    ("strands-hex4-exact", lambda: bc.Strands("hex4", "exact")),
    ("strands-hex4-up-to", lambda: bc.Strands("hex4", "up-to")),
    ("strands-hex5-up-to", lambda: bc.Strands("hex5", "up-to")),
    ("strands-side3-exact", lambda: bc.Strands(bc.Strands.random_layout(3, 5), "exact")),
    ("rive-hex4", lambda: bc.Rive("hex4")),
    ("rive-hex5", lambda: bc.Rive("hex5")),
]


def test_positions() -> list[str]:
    """Every literal position the test suite passes to from_position."""
    found = set()
    for path in sorted((ROOT / "tests").glob("*.py")):
        found.update(re.findall(r'from_position\(\s*"([^"\\]+)"\s*\)', path.read_text()))
    return sorted(found)


def layout_positions() -> list[str]:
    layouts = json.loads((ROOT / "tests" / "data" / "strands_layouts.json").read_text())["layouts"]
    return [bc.Strands(name).position() for name in sorted(layouts)]


def random_game(make, rng: random.Random, max_plies: int):
    game = make()
    while not game.is_over() and len(game.history) < max_plies:
        game.play(game.random_move(seed=rng.randrange(2**32)))
    return game


def write(target: str, name: str, data: bytes) -> None:
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def python_corpus(rng: random.Random) -> None:
    """The atheris harness (fuzz/python/fuzz_api.py): byte 0 picks the mode (0 text, 1 a move,
    2 operations), the rest is its payload."""
    folder = Path(__file__).resolve().parent / "python" / "corpus"
    folder.mkdir(parents=True, exist_ok=True)
    seeds = {}
    for name, make in STARTS[::3]:
        game = random_game(make, rng, 8)
        seeds[f"position-{name}"] = b"\x00" + game.position().encode()
        seeds[f"record-{name}"] = b"\x00" + game.record().encode()
        seeds[f"move-{name}"] = b"\x01" + str(game.history[-1]).encode()
    for k in range(12):
        seeds[f"ops-{k}"] = b"\x02" + bytes(rng.randrange(256) for _ in range(rng.choice((6, 30, 80))))
    for name, data in seeds.items():
        (folder / name).write_bytes(data)


def main() -> None:
    rng = random.Random("boardcore fuzz corpus")
    python_corpus(random.Random("boardcore python corpus"))
    for i, text in enumerate(test_positions() + layout_positions()):
        write("position", f"tests-{i:03}", text.encode())
    for which, (name, make) in enumerate(STARTS):
        for plies in (0, 6, 20, 1000):
            game = random_game(make, rng, plies)
            write("position", f"{name}-ply{len(game.history)}", game.position().encode())
            if plies in (6, 1000):
                write("record", f"{name}-ply{len(game.history)}", game.record().encode())
        # The moves target: [start, plies to play first] then a move's text, legal or not there.
        game = random_game(make, rng, 30)
        for plies in (0, 3, 12):
            if plies < len(game.history):
                move = str(game.history[plies])
                write("moves", f"{name}-ply{plies}", bytes([which, plies]) + move.encode())
        write("moves", f"{name}-garbage", bytes([which, 1]) + b"z9,,@ pass")
        # The play target: [start] then operations (docs/reliability.md).
        for k in range(3):
            ops = bytes(rng.randrange(256) for _ in range(rng.choice((8, 40, 120))))
            write("play", f"{name}-{k}", bytes([which]) + ops)


if __name__ == "__main__":
    main()
