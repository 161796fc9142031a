"""An alpha-beta Reversi player written only against boardcore's public API.

    python examples/alphabeta_reversi.py [--depth 4] [--games 4] [--size 8]

It plays against boardcore's MCTS and prints the results. The search is plain negamax with
alpha-beta pruning, moves ordered by a cheap guess (corners first, then by how few moves they
leave the opponent); the evaluation mixes disc count, mobility and corners. Everything it needs
is the shared game protocol: ``legal_moves``, ``play``, ``undo``, ``score``, ``count_moves``,
``is_over``, ``winner`` and ``to_move``.
"""

from __future__ import annotations

import argparse
import math

import boardcore as bc


def corners(game: bc.Reversi) -> set[str]:
    n = game.size
    return {f"{c}{r}" for c in ("a", chr(ord("a") + n - 1)) for r in (1, n)}


def evaluate(game: bc.Reversi, corner_squares: set[str]) -> float:
    """The position's value for the side to move."""
    if game.is_over():
        winner = game.winner()
        return 0.0 if winner is None else (1e6 if winner == game.to_move else -1e6)
    black, white = game.score()
    discs = (black - white) if game.to_move == bc.BLACK else (white - black)
    mobility = game.count_moves()
    corner_moves = sum(str(m) in corner_squares for m in game.legal_moves())
    return discs + 4 * mobility + 30 * corner_moves


def ordered(game: bc.Reversi, corner_squares: set[str]) -> list:
    """Moves most likely to be good first: corners, then those leaving the opponent few replies."""

    def guess(move) -> float:
        game.play(move)
        replies = game.count_moves()
        game.undo()
        return (0 if str(move) in corner_squares else 1, replies)

    return sorted(game.legal_moves(), key=guess)


def negamax(game: bc.Reversi, depth: int, alpha: float, beta: float, corner_squares: set[str]) -> float:
    if depth == 0 or game.is_over():
        return evaluate(game, corner_squares)
    best = -math.inf
    for move in ordered(game, corner_squares) if depth > 1 else game.legal_moves():
        game.play(move)  # in Reversi the turn always passes (a pass is a move), hence negamax
        value = -negamax(game, depth - 1, -beta, -alpha, corner_squares)
        game.undo()
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


def best_move(game: bc.Reversi, depth: int):
    corner_squares = corners(game)
    best, best_value = None, -math.inf
    for move in ordered(game, corner_squares):
        game.play(move)
        value = -negamax(game, depth - 1, -math.inf, -best_value, corner_squares)
        game.undo()
        if value > best_value:
            best, best_value = move, value
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--mcts-iterations", type=int, default=500)
    args = parser.parse_args()
    wins = {"alpha-beta": 0, "mcts": 0, "draws": 0}
    for g in range(args.games):
        game = bc.Reversi(size=args.size)
        alphabeta_colour = g % 2
        while not game.is_over():
            if game.to_move == alphabeta_colour:
                game.play(best_move(game, args.depth))
            else:
                game.play(bc.mcts.best_move(game, args.mcts_iterations, seed=g))
        winner = game.winner()
        key = "draws" if winner is None else ("alpha-beta" if winner == alphabeta_colour else "mcts")
        wins[key] += 1
        print(f"game {g + 1}: alpha-beta {'black' if alphabeta_colour == 0 else 'white'}, score {game.score()}, {key}")
    print(wins)


if __name__ == "__main__":
    main()
