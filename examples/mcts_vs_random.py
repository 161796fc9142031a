"""boardcore's MCTS against uniform random play, on every game.

    python examples/mcts_vs_random.py [--games 10] [--iterations 1000] [--game reversi ...]

MCTS takes Black and White in turn; the random player draws with ``random_move(seed)``. The full
measurement (200 games per game, with confidence intervals) is ``benches/bench_mcts.py``.
"""

from __future__ import annotations

import argparse

import boardcore as bc

GAMES = {"reversi": bc.Reversi, "cephalopod": bc.Cephalopod, "rive": bc.Rive, "strands": bc.Strands}


def play(make, mcts_colour: int, iterations: int, seed: int) -> int | None:
    """Plays one game; returns the winner (BLACK, WHITE or None for a draw)."""
    game = make()
    while not game.is_over():
        seed += 1
        if game.to_move == mcts_colour:
            game.play(bc.mcts.best_move(game, iterations, seed=seed))
        else:
            game.play(game.random_move(seed))
    return game.winner()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--game", nargs="*", default=sorted(GAMES), choices=sorted(GAMES))
    args = parser.parse_args()
    for name in args.game:
        wins = sum(play(GAMES[name], g % 2, args.iterations, seed=1000 * g) == g % 2 for g in range(args.games))
        print(f"{name}: MCTS ({args.iterations} iterations) won {wins} of {args.games} against random play")


if __name__ == "__main__":
    main()
