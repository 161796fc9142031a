"""The hand-written stubs describe the compiled module exactly (mypy's stubtest)."""

import subprocess
import sys


def test_stubs_match_the_compiled_module():
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "boardcore._boardcore"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def revealed_types(tmp_path, source: str) -> tuple[list[str], str]:
    """The types mypy reveals for each `reveal_type` of `source`, in order, and its output."""
    snippet = tmp_path / "snippet.py"
    snippet.write_text(source)
    result = subprocess.run([sys.executable, "-m", "mypy", str(snippet)], capture_output=True, text=True)
    revealed = [
        line.split('Revealed type is "')[1].rstrip('"') for line in result.stdout.splitlines() if "Revealed" in line
    ]
    return revealed, result.stdout


def test_the_stub_only_bases_give_each_class_its_own_types(tmp_path):
    # The stubs write what the games share once, in private bases (`_Game[ReversiMove]`...):
    # a checker must still see each game's own classes, never a type variable or `Self`.
    revealed, shown = revealed_types(
        tmp_path,
        "import boardcore as bc\n"
        "from boardcore._boardcore import StrandsSearcher\n"
        "reveal_type(bc.Reversi().legal_moves())\n"
        "reveal_type(bc.Rive.from_position('hex3 .../..../...../..../... b').copy())\n"
        "reveal_type(bc.Cephalopod().actions().copy())\n"
        "reveal_type(StrandsSearcher(bc.Strands()).search()[0])\n"
        "reveal_type(StrandsSearcher(bc.Strands()).game)\n"
        "reveal_type(bc.Reversi().legal_moves()[0] < bc.Reversi().legal_moves()[1])\n",
    )
    assert [kind.replace("builtins.", "") for kind in revealed] == [
        "list[boardcore._boardcore.ReversiMove]",
        "boardcore._boardcore.Rive",
        "boardcore._boardcore.CephalopodActions",
        "boardcore._boardcore.StrandsMove | None",
        "boardcore._boardcore.Strands",
        "bool",
    ], shown


def test_colours_are_typed_as_the_color_enum_in_the_engines_and_the_twins(tmp_path):
    # to_move, winner() and a piece's player are `bc.Color`, engine and twin alike, so that a
    # checker knows them as ints and as colours.
    revealed, shown = revealed_types(
        tmp_path,
        "import boardcore as bc\n"
        "import boardcore.reference as ref\n"
        "reveal_type(bc.Reversi().to_move)\n"
        "reveal_type(bc.Strands().winner())\n"
        "reveal_type(bc.Rive().actions().to_move)\n"
        "reveal_type(bc.WHITE)\n"
        "reveal_type(ref.Reversi().to_move)\n"
        "reveal_type(ref.Strands().winner())\n"
        "reveal_type(bc.Piece(bc.BLACK).player)\n",
    )
    colour, optional = "boardcore.pieces.Color", "boardcore.pieces.Color | None"
    assert revealed[:3] == [colour, optional, colour], shown
    assert revealed[3].startswith(colour)  # the member itself: Literal[Color.WHITE]
    assert revealed[4:] == [colour, optional, colour], shown
