"""boardcore selfplay GAME [variant options] --games N --black P --white P [--threads N]
[--records FILE] [--ray [ADDRESS] [--workers N]]: computer players (random, mcts, mcts:N, engine:LEVEL) play N
games; a progress bar, then a summary (wins, draws, average length, moves per second), and every
game's record in FILE.

Every move of game i draws from a seed of its own, mixed from (seed, i, ply), so a run is
reproducible whatever the number of threads (games run on threads; MCTS releases the GIL while
it searches). --ray plays the games on Ray (pip install 'boardcore[ray]'; no ADDRESS starts a
local Ray instance, "auto" joins the running cluster) over --workers actors, each playing
--threads games at once: the same games as without --ray.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

from boardcore.cli.players import add_player_options, move_seed, seed_arg
from boardcore.cli.progress import Progress
from boardcore.cli.variants import OPTIONS, add_game_command, new_game


def register(commands) -> None:
    parser = add_game_command(commands, "selfplay", "let computer players play many games", __doc__)
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    add_player_options(parser, black="mcts", white="random", humans=False)
    parser.add_argument("--threads", type=int, default=1, help="games played at once (default 1)")
    parser.add_argument("--seed", type=seed_arg, default=0, help="the players' seed (default 0)")
    parser.add_argument("--records", metavar="FILE", help="write every game's record to FILE")
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play on Ray: no ADDRESS starts a local instance, auto joins the running cluster",
    )
    parser.add_argument(
        "--workers", type=int, help="with --ray: worker actors (default: the cluster's CPUs / --threads)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if "human" in (args.black.kind, args.white.kind):
        raise ValueError(
            "selfplay is for computer players: use random, mcts, mcts:N or engine:LEVEL (boardcore play is for humans)"
        )
    if args.games < 1 or args.threads < 1:
        raise ValueError("--games and --threads must be at least 1")
    if args.workers is not None and args.ray is None:
        raise ValueError("--workers is for --ray (without it, --threads sets the games played at once)")
    if args.workers is not None and args.workers < 1:
        raise ValueError("--workers must be at least 1")
    start = new_game(args)
    if args.ray is not None:
        return _run_on_ray(start, args)
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


def _run_on_ray(start, args: argparse.Namespace) -> int:
    """The same games on Ray actors (bc.distributed.selfplay with these move players), then the
    same records and summary."""
    import boardcore.distributed

    variant = _variant(args)
    # Opened first, as without --ray: a path that cannot be written fails before the games.
    records = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115 -- closed in `finally`
    try:
        print(f"{args.game} {start.position()}: {args.games} games, Black {args.black} vs White {args.white}")
        started = time.perf_counter()
        data = boardcore.distributed.selfplay(
            args.game,
            variant,
            games=args.games,
            seed=args.seed,
            player=(str(args.black), str(args.white)),
            workers=args.workers,
            threads_per_worker=args.threads,
            address=args.ray or None,
        )
        if records:
            records.write("\n".join(data.records))
    finally:
        if records:
            records.close()
    _summary(data.games, time.perf_counter() - started, args)
    return 0


def _variant(args: argparse.Namespace) -> dict:
    """The variant options given, as the game's constructor arguments (what Ray's workers set
    the game up from). A start the constructor cannot make is refused."""
    if args.position is not None:
        raise ValueError("--position cannot go with --ray: the workers start from a variant's start")
    if getattr(args, "holes_seed", None) is not None:
        raise ValueError("--holes-seed cannot go with --ray: give the holes with --blocked")
    variant = {
        dest: getattr(args, dest) for dest in OPTIONS.get(args.game, {}).values() if getattr(args, dest) is not None
    }
    if "size" in variant and variant["size"] != "octagon":
        variant["size"] = int(variant["size"])
    if "blocked" in variant:
        variant["blocked"] = variant["blocked"].split(",")
    return variant


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
