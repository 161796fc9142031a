"""Draws the README's pictures (docs/images/*.svg) from seeded games:

    python docs/make_pictures.py

Each picture is a position reached by random moves from a fixed seed, ending on a move that shows
something (a capture where the game has them), so the pictures are the same on every run.
"""

from __future__ import annotations

from pathlib import Path

import boardcore as bc

IMAGES = Path(__file__).resolve().parent / "images"


def played(game, moves: int, seed: int, until=lambda game: True):
    """``game`` after ``moves`` random moves, then more until ``until(game)`` holds."""
    step = 0
    while not game.is_over() and (step < moves or not until(game)):
        game.play(game.random_move(seed * 1000 + step))
        step += 1
    return game


def captured(game) -> bool:
    return bool(game.history) and "x" in str(game.history[-1])


PICTURES = {
    "reversi": lambda: played(bc.Reversi(size="octagon", blocked=["c3", "h8"], handicap=2), 24, 1),
    "cephalopod": lambda: played(bc.Cephalopod(), 14, 2, captured),
    "rive": lambda: played(bc.Rive(), 14, 3, captured),
    "strands": lambda: played(bc.Strands(), 12, 4),
}


def main() -> None:
    IMAGES.mkdir(exist_ok=True)
    for name, make in PICTURES.items():
        (IMAGES / f"{name}.svg").write_text(bc.svg.render(make(), size=360))
        print(f"docs/images/{name}.svg")


if __name__ == "__main__":
    main()
