"""Local patterns (docs/engine.md, "Local patterns"): the n-tuple network read around every cell
of Cephalopod, Rive and Strands. The weights load or fail loudly, every cell's entry is the one
the evaluation sums, and the training script runs small and its output loads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import boardcore as bc
import numpy as np
import pytest
from boardcore import _boardcore as engine

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "python" / "boardcore" / "data" / "eval"
GAMES = {"cephalopod": bc.Cephalopod(3, 3), "rive": bc.Rive("hex3"), "strands": bc.Strands("hex4")}


def linear_weights(game: str) -> list[float]:
    return json.loads((SHIPPED / f"{game}.json").read_text())["weights"]


def after_a_few_moves(game):
    game = game.copy()
    for _ in range(3):
        if game.is_over():
            break
        game.play(game.legal_moves()[-1])
    return game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_layout_names_its_family_and_the_weights_it_needs(name):
    family, cells, _, entries, phases, params = engine.tuple_layout(name)
    assert family == {"cephalopod": "cross", "rive": "hexagon", "strands": "hexagon"}[name]
    assert cells == {"cross": 5, "hexagon": 7}[family]
    assert params == entries + 1 + len(bc.ai.feature_names(name))
    assert phases == engine.phase(GAMES[name])[1]


def test_reversi_has_no_local_patterns():
    with pytest.raises(ValueError, match="no local patterns"):
        engine.tuple_layout("reversi")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_evaluation_is_the_sum_of_the_training_row(name):
    _, _, _, entries, phases, params = engine.tuple_layout(name)
    rng = np.random.default_rng(1)
    weights = rng.normal(size=phases * params).astype(np.float32)
    evaluator = bc.ai.Evaluator(name, linear_weights(name), "test", tuples=weights)
    assert evaluator.has_tuples
    game = after_a_few_moves(GAMES[name])
    phase, cols, features = engine.tuple_rows(name, [game.position()])
    w = weights.reshape(phases, params)[phase[0]]
    expected = w[cols[0]].sum() + w[entries] + features[0] @ w[entries + 1 :]
    assert evaluator.margin(game) == pytest.approx(float(expected), rel=1e-4, abs=1e-3)


def test_rows_of_boards_of_different_sizes_are_padded_past_the_last_cell():
    _, _, _, entries, _, _ = engine.tuple_layout("rive")
    _, cols, _ = engine.tuple_rows("rive", [bc.Rive("hex3").position(), bc.Rive("hex4").position()])
    assert cols.shape == (2, 37)
    assert (cols[0, 19:] == entries).all() and (cols[0, :19] < entries).all()
    assert (cols[1] < entries).all()


def test_weights_that_do_not_fit_the_game_are_refused():
    with pytest.raises(ValueError, match="local-pattern weights"):
        bc.ai.Evaluator("rive", linear_weights("rive"), "", tuples=np.zeros(10, np.float32))
    with pytest.raises(ValueError, match="no local patterns"):
        bc.ai.Evaluator("reversi", linear_weights("reversi"), "", tuples=np.zeros(10, np.float32))
    _, _, _, _, phases, params = engine.tuple_layout("rive")
    bad = np.zeros(phases * params, np.float32)
    bad[3] = np.nan
    with pytest.raises(ValueError, match="finite"):
        bc.ai.Evaluator("rive", linear_weights("rive"), "", tuples=bad)


def fake_folder(tmp_path: Path, weights: np.ndarray | None, meta: dict | None) -> Path:
    if weights is not None:
        np.savez_compressed(tmp_path / "rive-tuples.npz", weights=weights)
    if meta is not None:
        (tmp_path / "rive-tuples.json").write_text(json.dumps(meta))
    return tmp_path


def test_a_weights_file_missing_truncated_or_of_another_format_is_refused_by_name(tmp_path):
    _, _, _, _, phases, params = engine.tuple_layout("rive")
    meta = {"format": 1, "file": "rive-tuples.npz"}
    assert bc.ai._tuples(tmp_path, "rive") is None  # no index: the game has no local patterns
    good = fake_folder(tmp_path, np.zeros(phases * params, np.float32), meta)
    assert bc.ai._tuples(good, "rive").size == phases * params
    (tmp_path / "rive-tuples.npz").write_bytes((tmp_path / "rive-tuples.npz").read_bytes()[:100])
    with pytest.raises(ValueError, match=r"rive-tuples\.npz"):
        bc.ai._tuples(tmp_path, "rive")
    (tmp_path / "rive-tuples.npz").unlink()
    with pytest.raises(ValueError, match=r"rive-tuples\.npz"):
        bc.ai._tuples(tmp_path, "rive")
    fake_folder(tmp_path, np.zeros(phases * params, np.float32), {**meta, "format": 99})
    with pytest.raises(ValueError, match=r"rive-tuples\.json.*format 99"):
        bc.ai._tuples(tmp_path, "rive")
    (tmp_path / "rive-tuples.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"rive-tuples\.json"):
        bc.ai._tuples(tmp_path, "rive")


@pytest.mark.parametrize("name, board", [("cephalopod", "3x3"), ("rive", "hex3")])
def test_the_training_script_runs_small_and_its_output_loads(tmp_path, name, board):
    data = tmp_path / f"{name}.npz"
    script = [sys.executable, str(ROOT / "tools" / "train_tuples.py")]
    generate = [*script, "generate", "--game", name, "--board", board, "--games", "20", "--depth", "1"]
    subprocess.run([*generate, "--threads", "1", "--data", str(data)], check=True, capture_output=True, text=True)
    with np.load(data) as d:
        assert len(d["notations"]) == len(d["labels"]) > 20
        assert not any("capture=" in n for n in d["notations"])  # only positions between turns
    out = tmp_path / "out"
    fit = [*script, "fit", "--game", name, "--data", str(data), "--iterations", "5", "--out", str(out)]
    subprocess.run(fit, check=True, capture_output=True, text=True)
    meta = json.loads((out / f"{name}-tuples.json").read_text())
    assert meta["format"] == bc.ai.TUPLE_FORMAT and meta["held_out_mae"]
    assert "train_tuples.py generate" in meta["generate"][0] and "DATA/" in meta["generate"][0]
    weights = bc.ai._tuples(out, name)
    evaluator = bc.ai.Evaluator(name, linear_weights(name), "trained", tuples=weights)
    assert np.isfinite(evaluator.margin(after_a_few_moves(GAMES[name])))
