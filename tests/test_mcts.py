"""Monte Carlo tree search (boardcore.mcts, docs/ai.md): one test per clause of its contract."""

import math
import random

import boardcore as bc
import pytest
from boardcore import mcts

SMALL_GAMES = {
    "reversi": lambda: bc.Reversi(size=6),
    "cephalopod": lambda: bc.Cephalopod(rows=3, cols=3),
    "rive": lambda: bc.Rive("hex3"),
    "strands": lambda: bc.Strands("hex4"),
}


@pytest.fixture(params=sorted(SMALL_GAMES))
def game(request):
    return SMALL_GAMES[request.param]()


def test_best_move_is_a_legal_move_of_every_game(game):
    move = mcts.best_move(game, 200, seed=1)
    assert game.is_legal(move)


def test_every_iteration_visits_one_root_move(game):
    result = mcts.search_moves(game, 300, seed=2)
    assert result.iterations == 300
    assert int(result.visits.sum()) == 300
    assert result.move == result.moves[int(result.visits.argmax())]
    assert all(0.0 <= v <= 1.0 for v in result.values)


def test_a_search_depends_on_the_seed_and_thread_count_only(game):
    for threads in (1, 2):
        a = mcts.search_moves(game, 200, seed=5, threads=threads)
        b = mcts.search_moves(game, 200, seed=5, threads=threads)
        assert a.moves == b.moves
        assert a.visits.tolist() == b.visits.tolist()
        assert a.values.tolist() == b.values.tolist()


def test_advancing_keeps_the_subtree_of_the_move_played():
    searcher = mcts.Searcher(bc.Reversi(size=6), 500, seed=3)
    result = searcher.search()
    kept = int(result.visits[result.moves.index(result.move)])
    searcher.advance(result.move)
    assert searcher.root_visits == kept
    assert searcher.game.history == [result.move]
    again = searcher.search(iterations=100)
    assert int(again.visits.sum()) == kept - 1 + 100


def test_advancing_by_the_opponents_move_accepts_notation():
    searcher = mcts.Searcher(bc.Reversi(), 100, seed=3)
    searcher.advance("d3")
    searcher.advance("c3")
    assert [str(m) for m in searcher.game.history] == ["d3", "c3"]
    assert searcher.game.is_legal(searcher.best_move())


def test_an_illegal_advance_changes_nothing():
    searcher = mcts.Searcher(bc.Reversi(), 100, seed=3)
    searcher.search()
    before = (searcher.root_visits, searcher.game.position())
    with pytest.raises(bc.IllegalMoveError):
        searcher.advance("a1")
    with pytest.raises(bc.NotationError):
        searcher.advance("z9z")
    assert (searcher.root_visits, searcher.game.position()) == before


def test_a_finished_game_has_no_best_move():
    game = bc.Reversi(size=4)
    rng = random.Random(1)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    result = mcts.search_moves(game, 20)
    assert result.move is None and result.moves == []


def test_a_time_limit_alone_searches_until_the_time_is_up():
    import time

    started = time.perf_counter()
    result = mcts.search_moves(bc.Reversi(), time_limit=0.2)
    elapsed = time.perf_counter() - started
    assert elapsed >= 0.2 and result.iterations > mcts.DEFAULT_ITERATIONS


def test_neither_budget_means_the_default_iterations():
    assert mcts.search_moves(bc.Reversi(size=6), seed=1).iterations == mcts.DEFAULT_ITERATIONS


@pytest.mark.parametrize(
    "settings",
    [
        {"iterations": 0},
        {"iterations": 10, "time_limit": 0.0},
        {"iterations": 10, "exploration": -1.0},
        {"iterations": 10, "exploration": math.nan},
        {"iterations": 10, "threads": 0},
        {"iterations": 10, "widening_exponent": 0.0},
        {"iterations": 10, "widening_coefficient": -2.0},
        {"iterations": 10, "seed": -1},
        {"iterations": 10, "widening_limit": -1},
    ],
)
def test_bad_settings_are_value_errors(settings):
    iterations = settings.pop("iterations")
    with pytest.raises(ValueError):
        mcts.Searcher(bc.Reversi(), iterations, **settings)


def test_reference_games_are_refused_with_a_type_error():
    import boardcore.reference as ref

    with pytest.raises(TypeError):
        mcts.Searcher(ref.Reversi(), 10)


def test_huge_move_lists_widen_progressively():
    # White's first Strands turn on hex6 has 58,472 moves: the root may hold at most
    # ceil(coefficient * N ** exponent) children after N visits.
    game = bc.Strands()
    game.play(game.legal_moves()[0])
    result = mcts.search_moves(game, 400, seed=1)
    assert len(result.moves) <= math.ceil(2.0 * 400**0.5)
    assert all(game.is_legal(m) for m in result.moves)


def test_small_move_lists_expand_every_move():
    game = bc.Reversi()
    result = mcts.search_moves(game, 200, seed=1)
    assert sorted(map(str, result.moves)) == sorted(map(str, game.legal_moves()))


def test_a_capture_lets_the_same_rive_player_move_again():
    # In the single-stone form a capture is a placement then removals by the same player: the
    # search must follow one player making several moves in a row and still pick legal ones.
    rng = random.Random(4)
    captures_searched = 0
    for _ in range(20):
        game = bc.Rive("hex3", single_stones=True)
        while not game.is_over() and captures_searched < 3:
            if any(str(m).startswith("x") for m in game.legal_moves()):
                mover = game.to_move
                move = mcts.best_move(game, 100, seed=rng.randrange(1000))
                assert game.is_legal(move)
                game.play(move)
                assert game.to_move == mover  # removals and the next placement stay with the capturer
                captures_searched += 1
            else:
                game.play(rng.choice(game.legal_moves()))
    assert captures_searched == 3


def _mcts_vs_random(make, games, iterations, seed):
    """Wins of MCTS over uniform random play, MCTS taking each colour in turn."""
    rng = random.Random(seed)
    wins = 0
    for g in range(games):
        game = make()
        mcts_colour = g % 2
        while not game.is_over():
            if game.to_move == mcts_colour:
                game.play(mcts.best_move(game, iterations, seed=rng.randrange(2**32)))
            else:
                game.play(rng.choice(game.legal_moves()))
        wins += game.winner() == mcts_colour
    return wins


@pytest.mark.parametrize("name", sorted(SMALL_GAMES))
def test_mcts_beats_random_play(name):
    # Deterministic (seeded); the full strength measurement is benches/bench_mcts.py.
    assert _mcts_vs_random(SMALL_GAMES[name], games=6, iterations=200, seed=11) >= 5


def test_the_turn_follows_the_most_visited_line_while_the_same_player_moves():
    game = bc.Strands(layout="hex4")
    game.play(game.random_move(seed=1))
    state = game.actions()
    found = bc.mcts.search(state, 3000, seed=2)
    assert found.turn[0] == found.action and len(found.turn) > 1
    for action in found.turn:
        assert state.to_move == game.to_move  # every step is the root player's
        state.apply_action(action)
    reversi = bc.mcts.search(bc.Reversi(size=6).actions(), 200, seed=2)
    assert reversi.turn == [reversi.action]  # one action a turn
    over = bc.Reversi(size=4)
    while not over.is_over():
        over.play(over.random_move(seed=len(over.history)))
    assert bc.mcts.search(over.actions(), 10).turn == []
