"""The engine and its twin driven by one sequence of rules (hypothesis state machines): play a legal
move chosen by index, take it back, copy, try an illegal move. After every step both must show the
same state (harness.assert_same_state). When they part, hypothesis shrinks the rule sequence, so a
divergence is reported as a minimal list of moves from a named start.

The default suite runs a few short sequences per game; BOARDCORE_TWIN_EXAMPLES raises the count
(for example 2000 under -m slow, by hand)."""

from __future__ import annotations

import os

import boardcore as bc
import boardcore.reference as ref
import harness
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

EXAMPLES = int(os.environ.get("BOARDCORE_TWIN_EXAMPLES", "15"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# Per game: (class name, starts as constructor keywords, texts to try as moves: most are not
# legal in most positions; one that happens to be legal is skipped, not played).
GAMES = {
    "reversi": (
        "Reversi",
        [{"size": 4}, {"size": 6}, {"blocked": ["b2", "g7"]}, {"size": "octagon", "handicap": 2}],
        ["pass", "a1", "d4", "b2", "z9", "", "d3x", "j10"],
    ),
    "cephalopod": (
        "Cephalopod",
        [{"rows": 2, "cols": 2}, {"rows": 3, "cols": 3}, {"rows": 2, "cols": 5}],
        ["a1", "b2xb1", "b2xa1,a2", "a1xb1,a2", "pass", "e9", "", "b2xb1,b1"],
    ),
    "rive": (
        "Rive",
        [
            {"board": "hex2"},
            {"board": "hex3"},
            {"board": "hex3", "swap": True},
            {"board": "hex2", "single_stones": True},
        ],
        ["swap", "a1", "c3", "c3xa1", "xa1", "pass", "z9", ""],
    ),
    "strands": (
        "Strands",
        [{"layout": "hex4", "cover": "up-to"}, {"layout": "hex4", "cover": "exact"}],
        ["a1", "d4", "a1,a2", "a1,a1", "pass", "z9", "", "d4,g7"],
    ),
}


def machine_for(game: str) -> type[RuleBasedStateMachine]:
    name, starts, texts = GAMES[game]
    engine_class, twin_class = getattr(bc, name), getattr(ref, name)

    class TwinMachine(RuleBasedStateMachine):
        @initialize(kwargs=st.sampled_from(starts))
        def start(self, kwargs):
            self.engine, self.twin = engine_class(**kwargs), twin_class(**kwargs)

        @precondition(lambda self: not self.engine.is_over())
        @rule(index=st.integers(min_value=0, max_value=10**6))
        def play_a_legal_move(self, index):
            moves = self.engine.legal_moves()
            move = moves[index % len(moves)]
            self.engine.play(move)
            self.twin.play(str(move))

        @precondition(lambda self: len(self.engine.history) > 0)
        @rule()
        def undo(self):
            assert str(self.engine.undo()) == str(self.twin.undo())

        @rule()
        def copy_and_go_on_with_the_copies(self):
            engine, twin = self.engine.copy(), self.twin.copy()
            assert engine == self.engine and twin == self.twin
            assert [str(m) for m in engine.history] == [str(m) for m in twin.history]
            self.engine, self.twin = engine, twin

        @rule(text=st.sampled_from(texts))
        def try_an_illegal_move(self, text):
            if self.engine.is_legal(text):
                return
            assert not self.twin.is_legal(text)
            before = harness.snapshot(self.engine), harness.snapshot(self.twin)
            for implementation in (self.engine, self.twin):
                try:
                    implementation.play(text)
                except ValueError:
                    pass
                else:
                    raise AssertionError(f"{implementation!r} played {text!r}")
            assert (harness.snapshot(self.engine), harness.snapshot(self.twin)) == before

        @invariant()
        def the_same_state(self):
            if hasattr(self, "engine"):
                harness.assert_same_state(self.engine, self.twin)
                assert self.engine.record() == self.twin.record()
                assert [str(m) for m in self.engine.history] == [str(m) for m in self.twin.history]

    TwinMachine.__name__ = f"{name}TwinMachine"
    TwinMachine.TestCase.settings = SETTINGS
    return TwinMachine


# The test cases pytest collects, one per game.
TestReversiAgainstItsTwin = machine_for("reversi").TestCase
TestCephalopodAgainstItsTwin = machine_for("cephalopod").TestCase
TestRiveAgainstItsTwin = machine_for("rive").TestCase
TestStrandsAgainstItsTwin = machine_for("strands").TestCase
