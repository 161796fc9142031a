"""boardcore play GAME [variant options] --black P --white P [--seed S]: play a game in the
terminal, against the computer or another person (P is human, random, mcts, mcts:N or engine:LEVEL).

At a human's turn the board is shown and a line is read: a move in the game's notation (d3 or
pass in Reversi; c3, or c3xb2,d1 to capture, in Cephalopod and Rive; a1,a6 or a1 a6 in Strands),
or one of the commands moves, undo, hint, resign, help and quit (end of input, Ctrl-D, quits too).
Your move is drawn at once; computer players then say what they play. The random and MCTS players
draw from --seed, so the same session replays the same way.
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from itertools import islice

import boardcore as bc
from boardcore.cli.boards import COLOURS, board_text, result_text, status_text, variant_name
from boardcore.cli.players import Player, add_player_options, move_seed, seed_arg
from boardcore.cli.variants import add_game_command, new_game

HINT_ITERATIONS = 1000
MOVES_LISTED = 20  # when there are more legal moves than LIST_ALL_UP_TO
LIST_ALL_UP_TO = 100
# How each game's moves are written, with an example of every kind (docs/*.md, "Notation").
NOTATION = {
    "Reversi": "a square (d3), or pass when you have no square",
    "Cephalopod": "a square (c3); a capture is the square, x, the captured squares (c3xc2,b3)",
    "Rive": "a cell (c3); a capture is the cell, x, the removed cells (c3xb2,d1); swap when --swap offers it",
    "Strands": "the cells you cover, with commas or spaces between them (a1,a6 or a1 a6)",
}
HELP = """\
  MOVE    play a move (moves lists them): {notation}
  moves   list the legal moves
  undo    take back your last move and the computer's replies to it
  hint    suggest a move from a short search, without playing it
  resign  give up the game: the other side wins
  help    this list
  quit    leave the game without a result (end of input, Ctrl-D, too)"""


def register(commands) -> None:
    parser = add_game_command(commands, "play", "play a game in the terminal", __doc__)
    add_player_options(parser, black="human", white="mcts", humans=True)
    parser.add_argument(
        "--seed", type=seed_arg, default=0, help="seed of the random and MCTS players and of hints (default 0)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    session = Session(new_game(args), (args.black, args.white), args.seed)
    session.greet()
    if session.play():
        session.show_result()
    return 0


class Session:
    """One game between two players, human or computer."""

    def __init__(self, game, players: tuple[Player, Player], seed: int) -> None:
        self.game, self.players, self.seed = game, players, seed
        # The length of the history before each human move: undo goes back to the latest one.
        self.human_moves_at: list[int] = []

    def greet(self) -> None:
        """Who is who, who moves first, how cells are named and how to get help."""
        game = self.game
        sides = ", ".join(
            f"{colour} ({colour[0].lower()}) is {_who(player)}" for colour, player in zip(COLOURS, self.players)
        )
        print(f"{type(game).__name__} {variant_name(game)}: {sides}. {COLOURS[game.to_move]} moves first.")
        if isinstance(game, (bc.Rive, bc.Strands)):
            print("A cell is its row's letter and its number from the left of the row (c3). The numbers")
            print("above the board run down-left along the diagonals, those below it up-left.")
        if "human" in (player.kind for player in self.players):
            example = _first_move(game)
            print(f"At your turn, type a move{f' (like {example})' if example else ''} or a command: help lists them.")
            print(f"A move is {NOTATION[type(game).__name__]}.")

    def play(self) -> bool:
        """Plays until the game is over (True) or a human quits or resigns (False)."""
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
            if line == "resign":
                side = self.game.to_move
                print(f"{COLOURS[side]} resigns: {COLOURS[1 - side]} wins")
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
            print(HELP.format(notation=NOTATION[type(self.game).__name__]))
        else:
            return self.human_move(line)
        return False

    def human_move(self, text: str) -> bool:
        if any(unicodedata.category(c) == "Cc" for c in text):
            # A key the line does not understand (an arrow key sends ESC [ A): say what arrived.
            print(f'not a move: "{caret_notation(text)}" holds control characters (arrow keys do not edit this line)')
            return False
        text = joined_cells(self.game, text)
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
        if not self.game.is_over() and self.players[self.game.to_move].kind != "human":
            self.show_board()  # the move made, drawn before the computer starts thinking
        return True

    def undo(self) -> bool:
        if not self.human_moves_at:
            print("nothing to undo")
            return False
        back_to = self.human_moves_at.pop()
        taken = []
        while len(self.game.history) > back_to:
            move = self.game.history[-1]
            self.game.undo()
            taken.append(f"{COLOURS[self.game.to_move]} {move}")  # the side to move again played it
        print(f"took back {', '.join(reversed(taken))}")
        return True

    def show_board(self) -> None:
        history = self.game.history
        last = f", last move {history[-1]}" if history else ""
        print(board_text(self.game))
        print(f"{status_text(self.game)}{last}", flush=True)

    def show_result(self) -> None:
        print(board_text(self.game))
        print(result_text(self.game))


def _who(player: Player) -> str:
    return "human" if player.kind == "human" else f"the computer ({player})"


def _first_move(game) -> str | None:
    """The first legal move, as an example of the notation (None when there is none)."""
    first = next(iter(game.moves()), None) if hasattr(game, "moves") else next(iter(game.legal_moves()), None)
    return None if first is None else str(first)


def joined_cells(game, text: str) -> str:
    """The move as typed, with the cells of a list joined as the notation joins them, by commas:
    blanks around a comma are dropped (``a1, a6``), and in Strands, whose move is a list of cells
    and nothing else, blanks alone separate cells too (``a1 a6``). The notation itself keeps
    blanks out of moves (a record separates its moves by them), so this is the terminal's
    convenience, not a rule of the game."""
    text = re.sub(r"[ \t]*,[ \t]*", ",", text)
    return re.sub(r"[ \t]+", ",", text) if isinstance(game, bc.Strands) else text


def caret_notation(text: str) -> str:
    """``text`` with its control characters written as a terminal echoes them: ESC as ^[, so an
    up-arrow key reads ^[[A; DEL as ^?."""
    return "".join(_caret(c) if unicodedata.category(c) == "Cc" else c for c in text)


def _caret(control: str) -> str:
    code = ord(control)
    return f"^{chr(code ^ 0x40)}" if code < 0x80 else f"\\x{code:02x}"  # C1 controls have no caret form


def list_moves(game) -> None:
    count = game.count_moves()
    if count <= LIST_ALL_UP_TO:
        print(f"legal moves ({count}): {' '.join(map(str, game.legal_moves()))}")
        return
    # Strands and Rive can have hundreds of thousands: take the first few lazily where we can.
    first = islice(game.moves(), MOVES_LISTED) if hasattr(game, "moves") else game.legal_moves()[:MOVES_LISTED]
    print(f"legal moves ({count}, the first {MOVES_LISTED}): {' '.join(map(str, first))}")
