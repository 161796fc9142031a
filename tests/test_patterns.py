"""Reversi's pattern evaluation (docs/engine.md, "Pattern evaluation"): the shipped weights load
or fail loudly, symmetric positions are worth the same, and the training script's output loads."""

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


def mirrored(game: bc.Reversi, transpose: bool, flip: bool) -> bc.Reversi:
    """The same position seen through a symmetry of the square (same side to move)."""
    size, board, side = game.position().split(" ")
    rows = [list(r) for r in board.split("/")]
    if transpose:
        rows = [list(r) for r in zip(*rows)]
    if flip:
        rows = rows[::-1]
    return bc.Reversi.from_position(f"{size} {'/'.join(''.join(r) for r in rows)} {side}")


def random_game(board: int | str, plies: int, seed: int) -> bc.Reversi:
    rng = np.random.default_rng(seed)
    game = bc.Reversi(board)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.is_over():
            break
        game.play(moves[rng.integers(len(moves))])
    return game


def test_the_shipped_evaluation_reads_the_8x8_board_by_its_patterns():
    shipped = bc.ai.evaluator("reversi")
    assert "8" in shipped.pattern_boards
    assert bc.ai.evaluator("reversi", kind="linear").pattern_boards == []
    game = random_game(8, 20, seed=1)
    # The patterns and the linear weights are different estimates of the same margin.
    assert shipped.margin(game) != bc.ai.evaluator("reversi", kind="linear").margin(game)


@pytest.mark.parametrize("board", [6, 8, 10, "octagon"])
@pytest.mark.parametrize("seed", range(5))
def test_symmetric_positions_get_equal_values(board, seed):
    shipped = bc.ai.evaluator("reversi")
    assert str(board) in shipped.pattern_boards
    game = random_game(board, 10 + (4 if board == 6 else 8) * seed, seed)
    value = shipped.margin(game)
    for transpose in (False, True):
        for flip in (False, True):
            assert shipped.margin(mirrored(game, transpose, flip)) == pytest.approx(value, abs=1e-3)


def test_boards_without_patterns_use_the_linear_weights():
    shipped, linear = bc.ai.evaluator("reversi"), bc.ai.evaluator("reversi", kind="linear")
    for game in (bc.Reversi(4), bc.Reversi(8, blocked="random", seed=3)):
        game.play(game.legal_moves()[0])
        assert shipped.margin(game) == linear.margin(game)


def linear_weights(game: str) -> list[float]:
    return json.loads((SHIPPED / f"{game}.json").read_text())["weights"]


def fake_folder(tmp_path: Path, weights: np.ndarray | None, meta: dict | None) -> Path:
    if weights is not None:
        np.savez_compressed(tmp_path / "reversi-8.npz", weights=weights)
    if meta is not None:
        (tmp_path / "reversi-patterns.json").write_text(json.dumps(meta))
    return tmp_path


def test_a_weights_file_missing_truncated_or_of_another_format_is_refused_by_name(tmp_path):
    stages = 2
    params = engine.pattern_layout("8", stages)[2]
    meta = {"format": 1, "boards": {"8": {"file": "reversi-8.npz", "stages": stages}}}
    good = fake_folder(tmp_path, np.zeros(stages * params, np.float16), meta)
    [(board, got_stages, weights)], _ = bc.ai._patterns(good, "reversi")
    assert (board, got_stages, weights.size) == ("8", stages, stages * params)
    assert bc.ai.Evaluator("reversi", linear_weights("reversi"), "", [(board, got_stages, weights)]).pattern_boards == [
        "8"
    ]

    (tmp_path / "reversi-8.npz").write_bytes((tmp_path / "reversi-8.npz").read_bytes()[:100])
    with pytest.raises(ValueError, match=r"reversi-8\.npz"):
        bc.ai._patterns(tmp_path, "reversi")
    (tmp_path / "reversi-8.npz").unlink()
    with pytest.raises(ValueError, match=r"reversi-8\.npz"):
        bc.ai._patterns(tmp_path, "reversi")
    fake_folder(tmp_path, np.zeros(stages * params, np.float16), {**meta, "format": 99})
    with pytest.raises(ValueError, match=r"reversi-patterns\.json.*format 99"):
        bc.ai._patterns(tmp_path, "reversi")


def test_pattern_weights_that_do_not_fit_the_layout_are_refused():
    linear = linear_weights("reversi")
    with pytest.raises(ValueError, match="pattern weights"):
        bc.ai.Evaluator("reversi", linear, "", [("8", 2, np.zeros(10, np.float32))])
    with pytest.raises(ValueError, match="board"):
        bc.ai.Evaluator("reversi", linear, "", [("5", 2, np.zeros(10, np.float32))])
    with pytest.raises(ValueError, match="Reversi"):
        bc.ai.Evaluator("rive", linear_weights("rive"), "", [("8", 2, np.zeros(10, np.float32))])


def test_the_training_script_runs_small_and_its_output_loads(tmp_path):
    data = tmp_path / "r6.npz"
    script = [sys.executable, str(ROOT / "tools" / "train_patterns.py")]
    common = ["--board", "6"]
    generate = [
        *script,
        "generate",
        *common,
        "--games",
        "30",
        "--depth",
        "2",
        "--solve-empties",
        "10",
        "--data",
        str(data),
    ]
    out = subprocess.run(generate, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "positions/s" in out.stdout
    fitted = subprocess.run(
        [*script, "fit", *common, "--data", str(data), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert fitted.returncode == 0, fitted.stderr
    [(board, stages, weights)], _ = bc.ai._patterns(tmp_path, "reversi")
    assert board == "6" and weights.size == stages * engine.pattern_layout("6", stages)[2]
    assert np.isfinite(weights).all() and np.abs(weights).max() > 0
    meta = json.loads((tmp_path / "reversi-patterns.json").read_text())
    assert meta["boards"]["6"]["held_out_mae"] and "train_patterns.py generate" in meta["boards"]["6"]["generate"][0]


def test_multi_probcut_prunes_with_the_shipped_errors_and_a_solve_stays_exact():
    shipped = bc.ai.evaluator("reversi")
    patterns, probcut = bc.ai._patterns(SHIPPED, "reversi")
    plain = bc.ai.Evaluator("reversi", linear_weights("reversi"), "no probcut", patterns)
    assert "8" in probcut, "the shipped 8x8 weights carry Multi-ProbCut's errors"
    game = random_game(8, 12, seed=4)
    selective = bc.ai.analyse(game, depth=9, evaluator=shipped)
    full = bc.ai.analyse(game, depth=9, evaluator=plain)
    assert selective.nodes < full.nodes
    assert game.is_legal(selective.move)
    near_end = random_game(8, 46, seed=5)
    assert bc.ai.solve(near_end).score == bc.ai.analyse(near_end, evaluator="material", depth=30).score


FFORUM = ROOT.parent / "shared" / "data" / "fforum" / "fforum-20-39.obf"


def fforum_problems(first: int, last: int) -> list[tuple[bc.Reversi, dict[str, int]]]:
    """FForum problems `first`..`last` (numbered from 20 in the file) with every move's exact
    score, from Edax's .obf suite: 64 squares (X black, O white, - empty), the side to move,
    then `MOVE:SCORE` for every legal move."""
    if not FFORUM.exists():
        pytest.skip(f"the FForum suites are not here ({FFORUM}): they live in ../shared/data/fforum/")
    problems = []
    for number, line in enumerate(FFORUM.read_text().splitlines(), start=20):
        if not first <= number <= last:
            continue
        board, rest = line.split(" ", 1)
        side, *scores = [field.strip() for field in rest.split(";") if field.strip()]
        rows = [board[i : i + 8].replace("X", "b").replace("O", "w").replace("-", ".") for i in range(0, 64, 8)]
        game = bc.Reversi.from_position(f"8 {'/'.join(rows)} {'b' if side == 'X' else 'w'}")
        problems.append((game, {m.split(":")[0].lower(): int(m.split(":")[1]) for m in scores}))
    return problems


@pytest.mark.parametrize("best_moves", ["all", "one"])
def test_a_solve_ordered_by_the_patterns_finds_every_published_score(best_moves):
    # bc.ai.solve orders the endgame solver's moves by the shipped patterns from 13 empties:
    # the order changes, the values may not.
    for game, scores in fforum_problems(20, 31):
        analysis = bc.ai.solve(game, best_moves=best_moves)
        value = max(scores.values())
        assert analysis.exact and analysis.score == value, game.to_position()
        optimal = {move for move, score in scores.items() if score == value}
        found = {str(move) for move in analysis.best_moves}
        assert found == optimal if best_moves == "all" else found <= optimal and len(found) == 1
        # The line of perfect play is legal and ends the game at the value.
        line = game.copy()
        for move in analysis.pv:
            line.play(move)
        assert line.is_over()


def test_best_moves_is_all_or_one():
    game = fforum_problems(20, 20)[0][0]
    with pytest.raises(ValueError, match="best_moves"):
        bc.ai.solve(game, best_moves="some")
