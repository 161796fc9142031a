"""Exact game-theoretic values of small games, by exhaustive search of the step form, and an
evaluator that answers with them (issue 12: a search given exact values must find optimal actions).

A value is +1, 0 or -1: a win, draw or loss for the side to move under perfect play (the sign of
the final result, not a disc margin). The step form takes one action at a time and says who
chooses next, so nothing assumes that players alternate (a Reversi pass is an action of its own):
a child's value is negated only when the side to move changes.

Both games are finite without repetition: Reversi adds a disc on every placement and a pass is
never followed by a pass (two passes end the game); a Cephalopod move either adds a die, raising
the pips on the board, or merges two or more dice into one, keeping the pips and lowering the dice
count. So the positions form a DAG and plain memoised recursion (no cycle handling) is exact.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import boardcore as bc
import numpy as np

GAMES: dict[str, Callable[[], Any]] = {
    "reversi4": lambda: bc.Reversi(size=4),
    "cephalopod2x2": lambda: bc.Cephalopod(rows=2, cols=2),
    "cephalopod2x3": lambda: bc.Cephalopod(rows=2, cols=3),
}


def final_value(state) -> int:
    """The result of a finished game for the side to move in it (as `to_move` still says)."""
    return int(np.sign(state.returns()[state.to_move]))


def child(state, action: int):
    after = copy.copy(state)
    after.apply_action(action)
    return after


def value_seen_by(state, after, after_value: int) -> int:
    """A child's value from the parent's mover's side: the same player may move again."""
    return after_value if after.to_move == state.to_move else -after_value


class TreeTooLarge(Exception):
    """Plain minimax would visit more nodes than it was allowed."""


def minimax(state, budget: int = 1_000_000) -> int:
    """The value by plain minimax with no memo: the independent check of `Solution`'s tables,
    usable only near the end. Raises TreeTooLarge past `budget` nodes (a Cephalopod position a
    few actions from the end of one game can still have long lines of captures below it)."""
    left = [budget]

    def search(state) -> int:
        left[0] -= 1
        if left[0] < 0:
            raise TreeTooLarge
        if state.is_over():
            return final_value(state)
        return max(value_seen_by(state, after, search(after)) for after in Solution.children(state))

    return search(state)


def observation_key(state) -> bytes:
    """What the evaluator sees of a state: its observation (the mask is a function of it for
    these games, which `Solution` asserts)."""
    return state.observation().tobytes()


@dataclass
class Solution:
    """Every position reachable from a game's start, solved.

    `values[position]` is the exact value of the step state whose `position()` is that text;
    `by_observation[observation bytes]` the same value keyed by what an evaluator receives.
    Observations are from the mover's side and do not say which colour moves; both games are
    colour-symmetric, so one observation still has one value. Solving asserts that, and that the
    observation determines the mask (so a pass position is told apart by its observation too).
    """

    start: Any
    values: dict[str, int] = field(default_factory=dict)
    by_observation: dict[bytes, int] = field(default_factory=dict)
    masks: dict[bytes, bytes] = field(default_factory=dict)

    @classmethod
    def of(cls, name: str) -> Solution:
        solution = cls(start=GAMES[name]().actions())
        solution.solve(solution.start)
        return solution

    def solve(self, state) -> int:
        key = state.position()
        known = self.values.get(key)
        if known is not None:
            return known
        if state.is_over():
            value = final_value(state)
        else:
            value = max(value_seen_by(state, after, self.solve(after)) for after in self.children(state))
        self.values[key] = value
        self.record_observation(state, value)
        return value

    @staticmethod
    def children(state):
        for action in state.legal_actions():
            yield child(state, action)

    def record_observation(self, state, value: int) -> None:
        seen = observation_key(state)
        mask = state.action_mask().tobytes()
        where = state.position()
        assert self.by_observation.setdefault(seen, value) == value, f"one observation, two values: {where}"
        assert self.masks.setdefault(seen, mask) == mask, f"one observation, two masks: {where}"

    def value(self, state) -> int:
        return self.values[state.position()]

    def action_values(self, state) -> dict[int, int]:
        """Each legal action's exact value for the side to move in `state`."""
        return {
            action: value_seen_by(state, after, self.value(after))
            for action, after in zip(state.legal_actions(), self.children(state))
        }

    def optimal_actions(self, state) -> set[int]:
        values = self.action_values(state)
        best = max(values.values())
        return {action for action, value in values.items() if value == best}


class ExactEvaluator:
    """The issue-12 evaluator protocol answered from a `Solution`: uniform logits (zeros), and
    each row's exact value, so a search given it has nothing to learn but to find the best action.
    `calls` counts the batches it was asked for."""

    def __init__(self, solution: Solution):
        self.solution = solution
        self.calls = 0

    def evaluate(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.calls += 1
        table = self.solution.by_observation
        rows = np.ascontiguousarray(observations, dtype=np.float32)
        values = np.array([table[row.tobytes()] for row in rows], dtype=np.float32)
        return np.zeros(masks.shape, dtype=np.float32), values

    __call__ = evaluate


def random_positions(start, count: int, seed: int) -> list[Any]:
    """`count` non-terminal step states drawn reproducibly: for each, a game of uniformly random
    actions from `start` to its end, and one of its non-terminal states chosen uniformly."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        state = copy.copy(start)
        visited = []
        while not state.is_over():
            visited.append(copy.copy(state))
            state.apply_action(rng.choice(state.legal_actions()))
        positions.append(rng.choice(visited))
    return positions
