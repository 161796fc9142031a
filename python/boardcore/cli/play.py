"""``boardcore play GAME [variant options] --black P --white P [--seed S]``: play a game in
the terminal, against the computer or another person (P is human, random, mcts or mcts:N).

At a human's turn the board is shown and a line is read: a move in the game's notation (d3 in
Reversi, a1xb1,a2 in Cephalopod, a1,a6 in Strands), or one of the commands moves, undo, hint, help
and quit (end of input, Ctrl-D, quits too). Computer players say what they play. The random and MCTS players draw from
--seed, so the same session replays the same way.
"""

from __future__ import annotations

import argparse
from itertools import islice

import boardcore as bc
from boardcore.cli.players import Player, move_seed, parse_player, seed_arg
from boardcore.cli.variants import add_game_command, new_game

COLOURS = ("Black", "White")
HINT_ITERATIONS = 1000
MOVES_LISTED = 20  # when there are more legal moves than LIST_ALL_UP_TO
LIST_ALL_UP_TO = 100
HELP = """\
  MOVE   play a move in the game's notation (moves lists them)
  moves  list the legal moves
  undo   take back your last move and the computer's replies to it
  hint   suggest a move from a short search, without playing it
  help   this list
  quit   leave the game (end of input, Ctrl-D, too)"""


def register(commands) -> None:
    parser = add_game_command(commands, "play", "play a game in the terminal", __doc__)
    parser.add_argument(
        "--black",
        type=parse_player,
        default=parse_player("human"),
        help="human, random, mcts or mcts:N (default human)",
    )
    parser.add_argument(
        "--white", type=parse_player, default=parse_player("mcts"), help="human, random, mcts or mcts:N (default mcts)"
    )
    parser.add_argument(
        "--seed", type=seed_arg, default=0, help="seed of the random and MCTS players and of hints (default 0)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    session = Session(new_game(args), (args.black, args.white), args.seed)
    if session.play():
        session.show_result()
    return 0


class Session:
    """One game between two players, human or computer."""

    def __init__(self, game, players: tuple[Player, Player], seed: int) -> None:
        self.game, self.players, self.seed = game, players, seed
        # The length of the history before each human move: undo goes back to the latest one.
        self.human_moves_at: list[int] = []

    def play(self) -> bool:
        """Plays until the game is over (True) or a human quits (False)."""
        while not self.game.is_over():
            player = self.players[self.game.to_move]
            if player.kind != "human":
                self.computer_move(player)
            elif not self.human_turn():
                return False
        return True

    def computer_move(self, player: Player) -> None:
        move = player.choose(self.game, self.move_seed())
        side = COLOURS[self.game.to_move]
        self.game.play(move)
        print(f"{side} plays {move}", flush=True)

    def move_seed(self) -> int:
        # One seed per ply: draws differ along the game, and a replayed ply draws the same.
        return move_seed(self.seed, 0, len(self.game.history))

    def human_turn(self) -> bool:
        """Reads lines until the human moves or undoes (True) or quits (False)."""
        self.show_board()
        prompt = f"{COLOURS[self.game.to_move].lower()}> "
        while True:
            try:
                line = input(prompt).strip()
            except EOFError:
                print()
                return False
            if line == "quit":
                return False
            if line and self.command(line):
                return True

    def command(self, line: str) -> bool:
        """Runs one command or move; True when the turn changed hands (a move, an undo)."""
        if line == "moves":
            list_moves(self.game)
        elif line == "undo":
            return self.undo()
        elif line == "hint":
            print(f"hint: {bc.mcts.best_move(self.game, HINT_ITERATIONS, seed=self.move_seed())}")
        elif line == "help":
            print(HELP)
        else:
            return self.human_move(line)
        return False

    def human_move(self, text: str) -> bool:
        before = len(self.game.history)
        try:
            self.game.play(text)
        except bc.IllegalMoveError as error:
            print(f"illegal move: {error}")
            return False
        except bc.NotationError as error:
            # A bare word is more likely a mistyped command than a mistyped move.
            print(f"unknown command: {text} (help lists them)" if text.isalpha() else f"not a move: {error}")
            return False
        self.human_moves_at.append(before)
        return True

    def undo(self) -> bool:
        if not self.human_moves_at:
            print("nothing to undo")
            return False
        back_to = self.human_moves_at.pop()
        while len(self.game.history) > back_to:
            self.game.undo()
        return True

    def show_board(self) -> None:
        print(self.game)
        history = self.game.history
        last = f", last move {history[-1]}" if history else ""
        side = COLOURS[self.game.to_move]
        print(f"{side} ({side[0].lower()}) to move{last}")

    def show_result(self) -> None:
        print(self.game)
        black, white = self.game.score()
        print(f"Score: Black {black}, White {white}")
        winner = self.game.winner()
        print("Draw" if winner is None else f"{COLOURS[winner]} wins")


def list_moves(game) -> None:
    count = game.count_moves()
    if count <= LIST_ALL_UP_TO:
        print(f"legal moves ({count}): {' '.join(map(str, game.legal_moves()))}")
        return
    # Strands and Rive can have hundreds of thousands: take the first few lazily where we can.
    first = islice(game.moves(), MOVES_LISTED) if hasattr(game, "moves") else game.legal_moves()[:MOVES_LISTED]
    print(f"legal moves ({count}, the first {MOVES_LISTED}): {' '.join(map(str, first))}")
