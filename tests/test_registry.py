"""The game registry (python/boardcore/_games.py): one table of the games, which every layer
reads, so that a game is added in one place."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import boardcore as bc
import boardcore.reference as ref
import pytest
from boardcore._games import GAMES, entry, entry_of, game_name, new_game, new_steps


def engine_classes(module) -> set[type]:
    """The game classes a module exports: the classes with a step form (``actions``) and moves."""
    return {
        value
        for name, value in vars(module).items()
        if inspect.isclass(value) and not name.startswith("_") and hasattr(value, "actions")
        and hasattr(value, "legal_moves")
    }  # fmt: skip


def test_every_game_the_package_exports_is_in_the_registry_with_its_twin():
    assert {e.engine for e in GAMES.values()} == engine_classes(bc)
    assert {e.twin_class() for e in GAMES.values()} == engine_classes(ref)
    for name, e in GAMES.items():
        assert e.name == name == e.engine.__name__.lower() == e.twin_class().__name__.lower()


def test_every_game_has_a_shipped_evaluation_whose_material_feature_and_phases_are_its_own():
    for name, e in GAMES.items():
        assert e.material in bc.ai.feature_names(name)
        small = e.engine(**e.small)
        assert 0 <= bc.ai.phase(small) < e.phases
        assert bc.ai.evaluator(name).game == name


def test_a_small_variant_plays_to_the_end_with_its_real_rules():
    for name, e in GAMES.items():
        game = new_game(name, e.small)
        while not game.is_over():
            game.play(game.random_move(seed=len(game.history)))
        assert game.winner() in (bc.BLACK, bc.WHITE, None), name


def test_names_are_read_in_any_case_and_anything_else_is_refused_clearly():
    assert game_name("Reversi") == game_name("REVERSI") == "reversi"
    assert entry("Strands") is GAMES["strands"]
    with pytest.raises(ValueError, match="game must be one of cephalopod, reversi, rive, strands, got 'chess'"):
        game_name("chess")
    with pytest.raises(TypeError, match="pass the game's name, 'reversi', not the class"):
        game_name(bc.Reversi)
    with pytest.raises(TypeError, match="game must be a string"):
        game_name(3)
    with pytest.raises(TypeError, match="variant must be a dict"):
        new_game("reversi", [8])


def test_a_game_object_is_known_by_its_engine_class_only():
    assert entry_of(bc.Cephalopod()) is GAMES["cephalopod"]
    assert entry_of(ref.Cephalopod()) is None  # the twin is not an engine
    assert entry_of("cephalopod") is None


def test_step_options_go_to_the_step_form_and_the_rest_to_the_constructor():
    assert GAMES["strands"].step_options == ("any_order",)
    steps = new_steps("strands", {"layout": "hex4", "any_order": True})
    assert steps.any_order and steps.num_actions == bc.Strands("hex4").actions(any_order=True).num_actions
    with pytest.raises(TypeError):
        new_steps("reversi", {"any_order": True})  # not an option of Reversi's step form


def test_strands_alone_has_a_timed_player_that_builds_its_turns_in_the_step_form():
    turn_searched = {name for name, e in GAMES.items() if e.turn_search_c_puct is not None}
    assert turn_searched == {"strands"}  # docs/design.md, "Search and solver"


ROOT = Path(__file__).resolve().parent.parent
# A table of the games written out by hand: a name beside its class, a sequence of the four
# names or of the four classes, or a Rust match arm on one.
_NAME = r"[\"'](?:reversi|cephalopod|rive|strands)[\"']"
_CLASS = r"(?:bc\.|ref\.)?(?:Reversi|Cephalopod|Rive|Strands)"
HAND_WRITTEN = [
    re.compile(r"\"(reversi|cephalopod|rive|strands)\": *(bc\.|ref\.)?(Reversi|Cephalopod|Rive|Strands)\b(?!\()"),
    re.compile(rf"[\(\[] *(?:{_NAME} *, *){{3}}{_NAME} *,? *[\)\]]", re.IGNORECASE),
    re.compile(rf"[\(\[] *(?:{_CLASS} *, *){{3}}{_CLASS} *,? *[\)\]]"),
]
MATCH_ARM = re.compile(r"GameName::(Reversi|Cephalopod|Rive|Strands) *=>")
# Where the games are spelled out on purpose, and why.
EXEMPT = {
    "python/boardcore/reference/__init__.py": "the twins' exports, one per module",
    "python/boardcore/adapters/gymnasium.py": "the GameName literal, for type checkers",
    "tests/test_examples.py": "it checks the examples' output, and the examples spell the games out",
}


def test_nothing_outside_the_registries_lists_the_games_by_hand():
    # The registry rule (docs/design.md, CONTRIBUTING.md): the package, its tools, tests and
    # benches read python/boardcore/_games.py, and the binding dispatches through
    # rust/python/src/registry.rs. The examples are written as a user would write them, and
    # .ci/wheel_smoke.py checks an installed wheel from outside: both may spell the games out.
    python = [p for folder in ("python", "tools", "tests", "benches", "fuzz") for p in (ROOT / folder).rglob("*.py")]
    listed = []
    for path in python:
        name = str(path.relative_to(ROOT))
        text = path.read_text(encoding="utf-8")
        if name not in EXEMPT and name != "python/boardcore/_games.py" and any(p.search(text) for p in HAND_WRITTEN):
            listed.append(name)
    assert listed == []
    rust = (ROOT / "rust" / "python" / "src").glob("*.rs")
    matched = [p.name for p in rust if p.name != "registry.rs" and MATCH_ARM.search(p.read_text(encoding="utf-8"))]
    assert matched == []


def test_the_contributors_recipes_name_files_that_exist():
    # CONTRIBUTING.md's recipes are checked against the code: every path they name is there
    # (the example game, `tak`, is the one to be written).
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:rust|python|tests|benches|tools|docs|\.ci|\.github)/[^`\s]+)`", text))
    missing = [p for p in sorted(named) if "tak" not in p and "<" not in p and not list(ROOT.glob(p.rstrip("/")))]
    assert len(named) > 30 and missing == []


def test_every_derived_seed_is_the_engines_splitmix64_output():
    # The seeds Python derives (a ply's noise, a command-line game's move, a Ray chunk) are one
    # engine function; these are their values before it replaced three copies of the finaliser.
    from boardcore._boardcore import splitmix64
    from boardcore.cli.players import move_seed
    from boardcore.distributed.selfplay import chunk_seed

    def finalise(z: int) -> int:
        mask = (1 << 64) - 1
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    gamma, mask = 0x9E3779B97F4A7C15, (1 << 64) - 1
    for seed in (0, 7, 2**64 - 1):
        for n in (0, 1, 5):
            assert bc.ai._mix(seed, n) == chunk_seed(seed, n) == finalise((seed + gamma * (1 + n)) & mask)
            for game in (0, 3):
                expected = finalise((seed + gamma * (1 + game) + 0xBF58476D1CE4E5B9 * (1 + n)) & mask)
                assert move_seed(seed, game, n) == expected
    assert splitmix64(0, 1) == 0xE220A8397B1DCDAF  # SplitMix64's published first output for seed 0


def test_the_step_form_implies_rives_single_stones_and_self_play_refuses_the_contrary():
    from boardcore._games import in_step_form, played_in_steps

    compound = {"board": "hex3", "single_stones": False}
    # The step form's shapes are the single-stone form's, whichever form the games are played in.
    assert in_step_form("Rive", compound) == {"board": "hex3", "single_stones": True}
    assert in_step_form("reversi", {"size": 6}) == {"size": 6}
    assert played_in_steps("rive", {"board": "hex3"}) == {"board": "hex3", "single_stones": True}
    with pytest.raises(ValueError, match="single_stones must be True"):
        played_in_steps("rive", compound)
    assert played_in_steps("chess", {"x": 1}) == {"x": 1}  # left for the engine to refuse
