"""The long differential run: many random games per variant, engine against its pure-Python twin,
compared move by move (legal move lists, notation, position, hash, outcome, records).

Slow, run by hand (docs/reliability.md):

    pytest -m slow tests/test_twin_marathon.py                        # 10,000 games per variant
    BOARDCORE_TWIN_GAMES=50 pytest -m slow tests/test_twin_marathon.py  # a quick run

Rive's compound captures stay on boards up to hex335 because of the twin, not the engine: the
engine counts, draws and lists captures of any size (issue 11's defect 1, tests/test_rive_captures.py),
but the twin enumerates survivor sets one by one, and random games on hex4 and larger meet captures
with millions of them.
"""

from __future__ import annotations

import os
import random

import boardcore as bc
import boardcore.reference as ref
import harness
import pytest

GAMES_PER_VARIANT = int(os.environ.get("BOARDCORE_TWIN_GAMES", "10000"))

# (name, the engine's class, the twin's class, a function of the game's index giving its kwargs)
VARIANTS = [
    ("reversi-8", bc.Reversi, ref.Reversi, lambda i: {}),
    ("reversi-6", bc.Reversi, ref.Reversi, lambda i: {"size": 6}),
    ("reversi-4", bc.Reversi, ref.Reversi, lambda i: {"size": 4}),
    ("reversi-octagon", bc.Reversi, ref.Reversi, lambda i: {"size": "octagon"}),
    ("reversi-8-random-holes", bc.Reversi, ref.Reversi, lambda i: {"blocked": "random", "seed": i}),
    (
        "reversi-10-handicap",
        bc.Reversi,
        ref.Reversi,
        lambda i: {"size": 10, "handicap": 1 + i % 4, "handicap_color": ("black", "white")[i % 2]},
    ),
    ("cephalopod-2x2", bc.Cephalopod, ref.Cephalopod, lambda i: {"rows": 2, "cols": 2}),
    ("cephalopod-3x3", bc.Cephalopod, ref.Cephalopod, lambda i: {"rows": 3, "cols": 3}),
    ("cephalopod-3x5", bc.Cephalopod, ref.Cephalopod, lambda i: {"rows": 3, "cols": 5}),
    ("cephalopod-5x5", bc.Cephalopod, ref.Cephalopod, lambda i: {"rows": 5, "cols": 5}),
    ("rive-hex2", bc.Rive, ref.Rive, lambda i: {"board": "hex2"}),
    ("rive-hex3", bc.Rive, ref.Rive, lambda i: {"board": "hex3"}),
    ("rive-hex3-swap", bc.Rive, ref.Rive, lambda i: {"board": "hex3", "swap": True}),
    ("rive-hex3-single", bc.Rive, ref.Rive, lambda i: {"board": "hex3", "single_stones": True}),
    ("rive-hex335", bc.Rive, ref.Rive, lambda i: {"board": "hex335"}),
    ("rive-hex335-swap-single", bc.Rive, ref.Rive, lambda i: {"board": "hex335", "swap": True, "single_stones": True}),
    ("rive-custom-7", bc.Rive, ref.Rive, lambda i: {"board": [(2, 1), (3, 0), (2, 1)], "swap": i % 2 == 1}),
    ("strands-hex4-exact", bc.Strands, ref.Strands, lambda i: {"layout": "hex4", "cover": "exact"}),
    ("strands-hex4-up-to", bc.Strands, ref.Strands, lambda i: {"layout": "hex4", "cover": "up-to"}),
    (
        "strands-side3-random",
        bc.Strands,
        ref.Strands,
        lambda i: {"layout": bc.Strands.random_layout(3, i), "cover": ("exact", "up-to")[i % 2]},
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("name,engine_class,twin_class,kwargs_of", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_random_games_agree_with_the_twin(name, engine_class, twin_class, kwargs_of):
    rng = random.Random(f"marathon {name}")
    for i in range(GAMES_PER_VARIANT):
        kwargs = kwargs_of(i)
        harness.play_random_game(engine_class(**kwargs), twin_class(**kwargs), rng)
