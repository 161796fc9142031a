"""Type stubs of the compiled module. Keep in step with rust/python/src (tests/test_typing.py runs
mypy's stubtest against the built module)."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, Literal, NamedTuple, TypeVar, final

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

from boardcore.pieces import Blocked, Color, Piece

_G = TypeVar("_G")
_M = TypeVar("_M")

__all__ = [
    "Cephalopod",
    "CephalopodMove",
    "CephalopodSearcher",
    "Evaluator",
    "ConcurrentUseError",
    "IllegalMoveError",
    "NotationError",
    "PathCounts",
    "Reversi",
    "ReversiMove",
    "ReversiSearcher",
    "Rive",
    "RiveMove",
    "RiveSearcher",
    "RiveMoveIterator",
    "Strands",
    "StrandsMove",
    "StrandsSearcher",
    "StrandsMoveIterator",
    "code_path",
    "__version__",
    # the step form (docs/actions.md)
    "CephalopodActions",
    "ReversiActions",
    "RiveActions",
    "StrandsActions",
    "VectorEnv",
    "VectorReset",
    "VectorStep",
    # search guided by a model (boardcore.mcts)
    "feature_names",
    "features",
    "label_games",
    "pattern_layout",
    "pattern_rows",
    "phase",
    "search_position",
    "splitmix64",
    "IterationReport",
    "SearchReport",
    "SearchTable",
    "search_steps",
    "tuple_layout",
    "tuple_rows",
    "selfplay",
]

class IllegalMoveError(ValueError): ...
class NotationError(ValueError): ...
class ConcurrentUseError(RuntimeError): ...

__version__: str

def code_path() -> str: ...

@final
class Evaluator:
    def __new__(
        cls,
        game: str,
        weights: Sequence[float],
        source: str = ...,
        patterns: Sequence[tuple[str, int, npt.NDArray[np.float32]]] = ...,
        probcut: Mapping[str, Sequence[float]] = ...,
        tuples: npt.NDArray[np.float32] | None = None,
    ) -> Evaluator: ...
    @property
    def game(self) -> str: ...
    @property
    def has_tuples(self) -> bool: ...
    @property
    def source(self) -> str: ...
    @property
    def pattern_boards(self) -> list[str]: ...
    def margin(self, game: Reversi | Cephalopod | Rive | Strands) -> float: ...

def pattern_layout(board: str, stages: int) -> tuple[list[tuple[str, int, int]], int, int, list[str]]: ...
def pattern_rows(
    notations: Sequence[str], board: str, stages: int
) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32], npt.NDArray[np.float32]]: ...
def tuple_layout(game: str) -> tuple[str, int, int, int, int, int]: ...
def tuple_rows(
    game: str, notations: Sequence[str]
) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32], npt.NDArray[np.float32]]: ...
def label_games(
    game: Reversi | Cephalopod | Rive | Strands,
    *,
    games: int,
    seed: int = 0,
    opening: tuple[int, int] = ...,
    depth: int = 4,
    epsilon: float = 0.1,
    threads: int = 1,
    solve_empties: int | None = None,
    evaluator: Any = None,
) -> tuple[
    list[str],
    npt.NDArray[np.float32],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.uint32],
]: ...
def features(game: Reversi | Cephalopod | Rive | Strands) -> npt.NDArray[np.float32]: ...
def phase(game: Reversi | Cephalopod | Rive | Strands) -> tuple[int, int]: ...
def feature_names(game: str) -> list[str]: ...
def splitmix64(seed: int, n: int) -> int:
    """Output number ``n`` (from 1) of SplitMix64 started from ``seed``."""

def search_position(
    game: Reversi | Cephalopod | Rive | Strands,
    *,
    depth: int | None = None,
    nodes: int | None = None,
    time_limit: float | None = None,
    threads: int | None = None,
    solve: bool = False,
    noise: int | None = None,
    seed: int | None = None,
    table_mb: int | None = None,
    evaluator: Any = None,
    progress: Callable[[int, bool, int, float, int | None, int | None], object] | None = None,
    every_best: bool = True,
    table: SearchTable | None = None,
    threading: str | None = None,
) -> SearchReport: ...

@final
class IterationReport:
    """One completed iteration of a search (``SearchReport.iterations``)."""

    @property
    def depth(self) -> int: ...
    @property
    def score(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def pv(self) -> list[Any]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def seconds(self) -> float: ...

@final
class SearchReport:
    """What ``search_position`` found (scores in hundredths of a point for the side to move)."""

    @property
    def score(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def best(self) -> Any: ...
    @property
    def best_moves(self) -> list[Any]: ...
    @property
    def pv(self) -> list[Any]: ...
    @property
    def depth(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def iterations(self) -> list[IterationReport]: ...

@final
class SearchTable:
    """A transposition table that outlives one search (``search_position(table=...)``)."""

    def __new__(cls, table_mb: int | None = None) -> SearchTable: ...
    @property
    def bytes(self) -> int: ...

def search_steps(
    states: Sequence[
        Reversi | Cephalopod | Rive | Strands | ReversiActions | CephalopodActions | RiveActions | StrandsActions
    ],
    iterations: int,
    evaluator: Any,
    batch_size: int,
    c_puct: float,
    dirichlet_alpha: float | None,
    dirichlet_fraction: float,
    gumbel: bool,
    max_considered: int,
    temperature: float,
    seed: int | None,
    threads: int | None,
    max_nodes: int,
    time_limit: float | None = None,
) -> list[tuple[int | None, npt.NDArray[np.float32], float, npt.NDArray[np.int64], int, int, bool, list[int]]]: ...
def selfplay(
    game: str,
    variant: dict[str, Any] | None,
    evaluator: Any,
    games: int,
    iterations: int,
    batch_size: int,
    temperature: float,
    temperature_moves: int | None,
    c_puct: float,
    dirichlet_alpha: float | None,
    dirichlet_fraction: float,
    gumbel: bool,
    max_considered: int,
    seed: int | None,
    threads: int | None,
    max_nodes: int,
) -> tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.float32],
    npt.NDArray[np.uint8],
    npt.NDArray[np.float32],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    list[Any],
    list[int | None],
]: ...

# The members the four games share are written once, in a stub-only base (`_Move`, `_Game`,
# `_MoveIterator`, `_Searcher`, `_StepState`): each game's class adds only its own. They are
# not runtime classes (the compiled classes share no base); stubtest checks every inherited
# member against each class all the same, and tests/test_typing.py that a checker sees each
# game's own types through them.

class _Move:
    """What every game's move has."""

    @property
    def placed(self) -> tuple[str, ...]: ...
    @property
    def removed(self) -> tuple[str, ...]: ...
    def __hash__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __lt__(self, value: Self, /) -> bool: ...
    def __le__(self, value: Self, /) -> bool: ...
    def __gt__(self, value: Self, /) -> bool: ...
    def __ge__(self, value: Self, /) -> bool: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: object) -> Self: ...
    def __reduce__(self) -> tuple[object, tuple[str, str]]: ...

@final
class ReversiMove(_Move):
    @property
    def square(self) -> str | None: ...
    @property
    def is_pass(self) -> bool: ...
    @staticmethod
    def _restore(board: str, notation: str) -> ReversiMove: ...

class _Game(Generic[_M]):
    """What every game has (`_M`: the game's move class)."""

    @classmethod
    def from_position(cls, text: str) -> Self: ...
    @classmethod
    def from_record(cls, text: str) -> Self: ...
    def cells(self) -> tuple[str, ...]: ...
    def piece_at(self, cell: str) -> Piece | Blocked | None: ...
    def __getitem__(self, cell: str, /) -> Piece | Blocked | None: ...
    @property
    def to_move(self) -> Color: ...
    @property
    def history(self) -> list[_M]: ...
    def legal_moves(self) -> list[_M]: ...
    def is_legal(self, mv: _M | str) -> bool: ...
    def play(self, mv: _M | str) -> None: ...
    def undo(self) -> _M: ...
    def copy(self) -> Self: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: object) -> Self: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def is_over(self) -> bool: ...
    def winner(self) -> Color | None: ...
    def position(self) -> str: ...
    def record(self) -> str: ...
    def zobrist(self) -> int: ...
    def __hash__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def perft(
        self,
        depth: int,
        threads: int | None = None,
        passes_count_as_ply: bool = True,
        split_depth: int | Literal["auto"] | None = None,
    ) -> int: ...
    def count_paths(
        self,
        depth: int,
        owners: bool = True,
        *,
        symmetry: bool = True,
        wrapping: bool = False,
        max_positions: int | None = None,
        progress: Callable[[int, int, int], object] | None = None,
    ) -> PathCounts: ...
    def perft_frontier(
        self,
        depth: int,
        split_depth: int | Literal["auto"] | None = "auto",
        passes_count_as_ply: bool = True,
    ) -> tuple[int, list[str], list[int]]: ...
    @classmethod
    def perft_positions(
        cls,
        positions: Iterable[str],
        depth: int,
        paths: Iterable[int] | None = None,
        threads: int | None = None,
        passes_count_as_ply: bool = True,
    ) -> int: ...
    def divide(self, depth: int, passes_count_as_ply: bool = True) -> dict[str, int]: ...
    def playouts(
        self, n: int, seed: int | None = None, threads: int | None = None, scores: bool = False
    ) -> dict[str, Any]: ...
    def _repr_svg_(self) -> str: ...
    def random_move(self, seed: int | None = None) -> _M | None: ...
    def count_moves(self) -> int: ...

@final
class Reversi(_Game[ReversiMove]):
    def __new__(
        cls,
        size: int | Literal["octagon"] | None = None,
        *,
        blocked: Sequence[str] | Literal["random"] | None = None,
        seed: int | None = None,
        handicap: int | None = None,
        handicap_color: int | Literal["black", "white"] | None = None,
    ) -> Reversi: ...
    @classmethod
    def random(
        cls,
        seed: int,
        *,
        size: int | Literal["octagon"] | None = None,
        handicap: int | None = None,
        handicap_color: int | Literal["black", "white"] | None = None,
    ) -> Reversi: ...
    @property
    def size(self) -> int: ...
    @property
    def board_name(self) -> str: ...
    @property
    def blocked(self) -> tuple[str, ...]: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def handicap(self) -> int: ...
    @property
    def handicap_color(self) -> Color: ...
    @property
    def handicap_squares(self) -> tuple[str, ...]: ...
    def score(self) -> tuple[int, int]: ...
    def actions(self) -> ReversiActions: ...

@final
class CephalopodMove(_Move):
    @property
    def square(self) -> str: ...
    @property
    def captures(self) -> tuple[str, ...]: ...
    @staticmethod
    def _restore(board: str, notation: str) -> CephalopodMove: ...

@final
class Cephalopod(_Game[CephalopodMove]):
    def __new__(cls, rows: int | None = None, cols: int | None = None) -> Cephalopod: ...
    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    def score(self) -> tuple[int, int]: ...
    def path_totals(
        self,
        depth: int,
        *,
        symmetry: bool = True,
        wrapping: bool = False,
        max_positions: int | None = None,
        progress: Callable[[int, int, int], object] | None = None,
    ) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]: ...
    def actions(self) -> CephalopodActions: ...

@final
class PathCounts:
    @property
    def cells(self) -> npt.NDArray[np.int8]: ...
    @property
    def to_move(self) -> npt.NDArray[np.uint8]: ...
    @property
    def counts_low(self) -> npt.NDArray[np.uint64]: ...
    @property
    def counts_high(self) -> npt.NDArray[np.uint64]: ...
    def counts(self) -> list[int]: ...
    def total(self) -> int: ...
    def position(self, i: int) -> str: ...
    def square_totals(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]: ...
    def __len__(self) -> int: ...

@final
class RiveMove(_Move):
    @property
    def cell(self) -> str | None: ...
    @property
    def is_swap(self) -> bool: ...
    @property
    def is_removal(self) -> bool: ...
    @staticmethod
    def _restore(board: str, notation: str) -> RiveMove: ...

class _MoveIterator(Generic[_M]):
    """What every game's lazy move iterator (`game.moves()`) has."""

    def __iter__(self) -> Self: ...
    def __next__(self) -> _M: ...

@final
class RiveMoveIterator(_MoveIterator[RiveMove]): ...

@final
class Rive(_Game[RiveMove]):
    def __new__(
        cls,
        board: str | Sequence[tuple[int, int]] | None = None,
        *,
        swap: bool | None = None,
        single_stones: bool | None = None,
        playout_policy: Literal["uniform", "capture-cell"] | None = None,
    ) -> Rive: ...
    @property
    def playout_policy(self) -> Literal["uniform", "capture-cell"]: ...
    @property
    def board_name(self) -> str: ...
    @property
    def rows(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def swap(self) -> bool: ...
    @property
    def single_stones(self) -> bool: ...
    def groups(self) -> list[int]: ...
    def moves(self) -> RiveMoveIterator: ...
    def score(self) -> tuple[int, int]: ...
    def actions(self) -> RiveActions: ...

@final
class StrandsMove(_Move):
    @property
    def cells(self) -> tuple[str, ...]: ...
    @staticmethod
    def _restore(board: str, notation: str) -> StrandsMove: ...

@final
class StrandsMoveIterator(_MoveIterator[StrandsMove]): ...

@final
class Strands(_Game[StrandsMove]):
    def __new__(
        cls,
        layout: str | Sequence[str] | Sequence[Sequence[int]] | None = None,
        cover: Literal["up-to", "exact"] | None = None,
    ) -> Strands: ...
    @staticmethod
    def random_layout(side: int, seed: int) -> list[str]: ...
    @staticmethod
    def layout_names() -> list[str]: ...
    @property
    def cover(self) -> str: ...
    @property
    def layout_name(self) -> str | None: ...
    @property
    def side(self) -> int: ...
    @property
    def rows(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def labels(self) -> tuple[int, ...]: ...
    def moves(self) -> StrandsMoveIterator: ...
    def score(self) -> tuple[list[int], list[int]]: ...
    def actions(self, *, any_order: bool = False) -> StrandsActions: ...

# One searcher class per game (boardcore.mcts is the Python face).

class _Searcher(Generic[_G, _M]):
    """What every game's tree searcher has (`_G`: the game's class, `_M`: its move class)."""

    def __new__(
        cls,
        game: _G,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        exploration: float = ...,
        seed: int | None = None,
        threads: int | None = None,
        widening_limit: int = 512,
        widening_coefficient: float = 2.0,
        widening_exponent: float = 0.5,
        max_nodes: int | None = None,
    ) -> Self: ...
    def search(
        self, iterations: int | None = None, time_limit: float | None = None
    ) -> tuple[_M | None, list[_M], npt.NDArray[np.uint64], npt.NDArray[np.float64], int, int, bool]: ...
    def advance(self, mv: _M | str) -> None: ...
    @property
    def game(self) -> _G: ...
    @property
    def root_visits(self) -> int: ...

@final
class ReversiSearcher(_Searcher[Reversi, ReversiMove]): ...

@final
class CephalopodSearcher(_Searcher[Cephalopod, CephalopodMove]): ...

@final
class RiveSearcher(_Searcher[Rive, RiveMove]): ...

@final
class StrandsSearcher(_Searcher[Strands, StrandsMove]): ...

# The step form and vectorized environments (docs/actions.md).

class _StepState:
    """What every game's step state has."""

    @property
    def num_actions(self) -> int: ...
    @property
    def observation_shape(self) -> tuple[int, int, int]: ...
    def action_mask(self) -> npt.NDArray[np.bool_]: ...
    def legal_actions(self) -> list[int]: ...
    def apply_action(self, action: int | np.integer) -> None: ...
    def observation(self, player: int | str | None = None) -> npt.NDArray[np.float32]: ...
    @property
    def observation_planes(self) -> tuple[str, ...]: ...
    @property
    def to_move(self) -> Color: ...
    def is_over(self) -> bool: ...
    def winner(self) -> Color | None: ...
    def returns(self) -> tuple[float, float]: ...
    def action_name(self, action: int | np.integer) -> str: ...
    def symmetries(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
    def position(self) -> str: ...
    def action_cell(self, action: int | np.integer) -> tuple[str, int, int] | None: ...
    def cell_actions(self, cell: str | tuple[int, int]) -> list[int]: ...
    def copy(self) -> Self: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: object) -> Self: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...

@final
class ReversiActions(_StepState):
    @staticmethod
    def _restore(text: str) -> ReversiActions: ...

@final
class CephalopodActions(_StepState):
    @staticmethod
    def _restore(text: str) -> CephalopodActions: ...

@final
class RiveActions(_StepState):
    @staticmethod
    def _restore(text: str) -> RiveActions: ...

@final
class StrandsActions(_StepState):
    @staticmethod
    def _restore(text: str) -> StrandsActions: ...
    @property
    def covered(self) -> tuple[str, ...]: ...
    @property
    def any_order(self) -> bool: ...

class VectorStep(NamedTuple):
    """What ``VectorEnv.step`` returns (not Gymnasium's order: docs/actions.md)."""

    obs: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    to_move: npt.NDArray[np.uint8]

class VectorReset(NamedTuple):
    """What ``VectorEnv.reset`` returns."""

    obs: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]

_Position = (
    str | Reversi | Cephalopod | Rive | Strands | ReversiActions | CephalopodActions | RiveActions | StrandsActions
)

@final
class VectorEnv:
    def __new__(
        cls,
        game: Literal["reversi", "cephalopod", "rive", "strands"],
        n: int,
        seed: int | None = None,
        threads: int | None = None,
        autoreset: Literal["same-step", "next-step"] | None = None,
        max_steps: int | None = None,
        **variant: object,
    ) -> VectorEnv: ...
    @property
    def game(self) -> str: ...
    @property
    def n(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_shape(self) -> tuple[int, int, int]: ...
    @property
    def autoreset(self) -> Literal["same-step", "next-step"]: ...
    @property
    def max_steps(self) -> int | None: ...
    def reset(
        self,
        envs: npt.ArrayLike | None = None,
        positions: Sequence[
            str
            | Reversi
            | Cephalopod
            | Rive
            | Strands
            | ReversiActions
            | CephalopodActions
            | RiveActions
            | StrandsActions
        ]
        | None = None,
        seed: int | None = None,
    ) -> VectorReset: ...
    def step(self, actions: npt.ArrayLike, envs: npt.ArrayLike | None = None) -> VectorStep: ...
    def sample_actions(self) -> npt.NDArray[np.int64]: ...
    def to_move(self) -> npt.NDArray[np.uint8]: ...
    def truncated(self) -> npt.NDArray[np.bool_]: ...
    def final_observations(self) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float32]]: ...
    def copy(self) -> VectorEnv: ...
    def __copy__(self) -> VectorEnv: ...
    def __deepcopy__(self, memo: object) -> VectorEnv: ...
    def __reduce__(self) -> tuple[object, tuple[str, dict[str, object]]]: ...
    @staticmethod
    def _restore(game: str, state: dict[str, object]) -> VectorEnv: ...
