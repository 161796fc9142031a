"""boardcore selfplay GAME [variant options] --games N --black P --white P [--threads N]
[--records FILE]: computer players (random, mcts, mcts:N) play N games; a progress bar, then a
summary (wins, draws, average length, moves per second), and every game's record in FILE.

Every move of game i draws from a seed of its own, mixed from (seed, i, ply), so a run is
reproducible whatever the number of threads (games run on threads; MCTS releases the GIL while
it searches).
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

from boardcore.cli.players import move_seed, parse_player, seed_arg
from boardcore.cli.progress import Progress
from boardcore.cli.variants import add_game_command, new_game


def register(commands) -> None:
    parser = add_game_command(commands, "selfplay", "let computer players play many games", __doc__)
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    parser.add_argument(
        "--black", type=parse_player, default=parse_player("mcts"), help="random, mcts or mcts:N (default mcts)"
    )
    parser.add_argument(
        "--white", type=parse_player, default=parse_player("random"), help="random, mcts or mcts:N (default random)"
    )
    parser.add_argument("--threads", type=int, default=1, help="games played at once (default 1)")
    parser.add_argument("--seed", type=seed_arg, default=0, help="the players' seed (default 0)")
    parser.add_argument("--records", metavar="FILE", help="write every game's record to FILE")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if "human" in (args.black.kind, args.white.kind):
        raise ValueError("selfplay is for computer players: use random, mcts or mcts:N (boardcore play is for humans)")
    if args.games < 1 or args.threads < 1:
        raise ValueError("--games and --threads must be at least 1")
    start = new_game(args)
    # Opened first: a path that cannot be written fails before the games, not after them; each
    # record is written as soon as its game (in order) is known.
    records = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115 -- closed in `finally`
    print(f"{args.game} {start.position()}: {args.games} games, Black {args.black} vs White {args.white}")
    started = time.perf_counter()
    finished = []
    try:
        with Progress(args.games, "selfplay") as bar, ThreadPoolExecutor(args.threads) as pool:
            for game in pool.map(lambda i: _play_one(start, args, i), range(args.games)):
                finished.append(game)
                if records:
                    records.write(("\n" if len(finished) > 1 else "") + game.record())
                    records.flush()
                bar.advance(1)
    finally:
        if records:
            records.close()
    _summary(finished, time.perf_counter() - started, args)
    return 0


def _play_one(start, args: argparse.Namespace, index: int):
    game = start.copy()
    players = (args.black, args.white)
    while not game.is_over():
        game.play(players[game.to_move].choose(game, move_seed(args.seed, index, len(game.history))))
    return game


def _summary(games: list, seconds: float, args: argparse.Namespace) -> None:
    winners = [g.winner() for g in games]
    black, white = winners.count(0), winners.count(1)
    draws = len(games) - black - white
    moves = sum(len(g.history) for g in games)
    print(f"Black ({args.black}) wins {black}, White ({args.white}) wins {white}, draws {draws}")
    print(f"average length {moves / len(games):.1f} moves, {moves / seconds:,.0f} moves/s, {seconds:.2f} s")
    if args.records:
        print(f"records written to {args.records}")
