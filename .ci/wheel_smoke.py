"""What a user who installed the wheel, and nothing else, can do: run by .ci/wheel-smoke in a fresh venv.

It checks the things a broken wheel gets wrong: the extension loads on this interpreter (the abi3
tag), the package data is inside (Strands' layouts), the version agrees across the package, its
metadata and the console script, and each game's engine counts what it should.
"""

import importlib.metadata
import pathlib
import subprocess
import sys

import boardcore as bc
import numpy as np

assert "site-packages" in bc.__file__, f"boardcore was imported from {bc.__file__}, not the installed wheel"
assert bc.__version__ == importlib.metadata.version("boardcore"), (
    bc.__version__,
    importlib.metadata.version("boardcore"),
)
cli = subprocess.run(["boardcore", "--version"], capture_output=True, text=True, check=True).stdout
assert bc.__version__ in cli, cli

# The published counts (the repository's tests/data/perft, given as the first argument), those the
# twins also run: every game and variant, each cheap.
CLASSES = {"reversi": bc.Reversi, "cephalopod": bc.Cephalopod, "rive": bc.Rive, "strands": bc.Strands}
checked = 0
for path in sorted(pathlib.Path(sys.argv[1]).glob("*-*.txt")):
    for line in path.read_text().splitlines():
        fields = [f.strip() for f in line.split(" ; ")]
        if line.startswith("#") or len(fields) < 3 or "twin" not in fields[3:]:
            continue
        position, depth, leaves = fields[0], int(fields[1]), int(fields[2])
        game = CLASSES[path.name.split("-")[0]].from_position(position)
        assert game.perft(depth) == leaves, (path.name, position, depth, leaves)
        checked += 1
assert checked >= 20, f"only {checked} perft counts found under {sys.argv[1]}"

env = bc.VectorEnv("reversi", 8, seed=0)
obs, masks = env.reset()[:2]
step = env.step(env.sample_actions())
assert obs.dtype == np.float32 and masks.dtype == np.bool_ and len(step) == 5
version = sys.version.split()[0]
print(f"boardcore {bc.__version__} (wheel) on Python {version}: {checked} perft counts agree, {bc.code_path()}")
