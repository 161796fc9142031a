"""Pictures (boardcore.svg): checked by structure, one test per thing the picture must show."""

import io
import re
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import boardcore as bc
import boardcore.reference as ref
import numpy as np
import pytest

NS = {"s": "http://www.w3.org/2000/svg"}
FONT_DIRS = [
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "/Library/Fonts",
    "/System/Library/Fonts",
    "C:/Windows/Fonts",
]


def parse(game):
    return ET.fromstring(bc.svg.render(game))


def with_class(root, cls):
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_a_picture_is_an_svg_document_with_a_view_box():
    root = parse(bc.Reversi())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(root.get("viewBox").split()) == 4


def test_reversi_draws_every_disc_in_its_colour():
    game = bc.Reversi()
    root = parse(game)
    black, white = game.score()
    assert len(with_class(root, "black")) == black and len(with_class(root, "white")) == white


def test_reversi_draws_holes_and_leaves_out_the_octagons_cut_squares():
    root = parse(bc.Reversi(blocked=["a3", "f8"]))
    assert len(with_class(root, "hole")) == 2 and len(with_class(root, "square")) == 62
    octagon = parse(bc.Reversi(size="octagon"))
    assert len(with_class(octagon, "square")) == 100 - 12


def test_reversi_rings_the_handicap_discs():
    root = parse(bc.Reversi(handicap=2))
    assert len(with_class(root, "handicap")) == 2


def test_the_last_move_is_highlighted():
    game = bc.Reversi()
    assert with_class(parse(game), "last-move") == []
    game.play("d3")
    assert len(with_class(parse(game), "last-move")) == 1


def test_cephalopod_dice_show_their_pips_and_owner():
    game = bc.Cephalopod(rows=3, cols=3)
    for move in ("b1", "a2", "c2"):
        game.play(move)
    root = parse(game)
    dice = with_class(root, "die")
    assert [d.get("data-pips") for d in dice] == ["1", "1", "1"]
    assert len(with_class(root, "pip")) == 3
    assert {d.get("class") for d in dice} == {"die black", "die white"}


def test_a_capture_crosses_the_removed_dice():
    game = bc.Cephalopod(rows=3, cols=3)
    for move in ("b1", "a2", "c2", "b2xb1,a2,c2"):
        game.play(move)
    root = parse(game)
    assert len(with_class(root, "removed")) == 3
    assert [d.get("data-pips") for d in with_class(root, "die")] == ["3"]


def test_hex_boards_draw_one_hexagon_per_cell():
    rive = bc.Rive("hex335")
    assert len(with_class(parse(rive), "cell")) == len(rive.cells())
    strands = bc.Strands("hex6")
    assert len(with_class(parse(strands), "cell")) == 91


def test_strands_shows_the_label_of_every_empty_cell():
    game = bc.Strands("hex4")
    game.play("c3")
    root = parse(game)
    labels = [e.text for e in with_class(root, "label")]
    assert len(labels) == len(game.cells()) - 1 and set(labels) <= set("123456")
    assert len(with_class(root, "stone")) == 1


def test_rive_stones_and_the_last_placement():
    game = bc.Rive("hex3")
    game.play("c3")
    root = parse(game)
    assert len(with_class(root, "stone")) == 1
    assert [e.get("data-cell") for e in with_class(root, "last-move")] == ["c3"]


def test_notebooks_get_the_same_picture():
    for game in (bc.Reversi(), bc.Cephalopod(), bc.Rive(), bc.Strands(), ref.Strands("hex4")):
        assert game._repr_svg_() == bc.svg.render(game)


def test_the_reference_twins_draw_like_the_engine():
    engine, twin = bc.Rive("hex3"), ref.Rive("hex3")
    for game in (engine, twin):
        game.play("c3")
    assert bc.svg.render(engine) == bc.svg.render(twin)


def test_a_size_scales_the_picture_not_the_drawing():
    root = ET.fromstring(bc.svg.render(bc.Reversi(), size=200))
    assert root.get("width") == "200"


def test_anything_else_is_a_type_error():
    with pytest.raises(TypeError):
        bc.svg.render("8 ........")


@pytest.mark.parametrize("size", ["200", 200.0, True, 0, -5, 16385, 2**80, [200], b"200"])
def test_a_bad_size_is_a_value_error_saying_what_was_given(size):
    # Issue 14, item 13: a string was drawn with width="200" unchecked, 0 silently meant "natural".
    with pytest.raises(ValueError, match=r"^size must be None or an integer from 1 to 16384 \(pixels\), got ") as error:
        bc.svg.render(bc.Reversi(), size=size)
    if not isinstance(size, int) or isinstance(size, bool):
        assert f"(a {type(size).__name__})" in str(error.value)


def test_a_size_may_be_any_integer_type():
    import numpy as np

    assert 'width="300"' in bc.svg.render(bc.Cephalopod(), size=np.int64(300))
    assert 'width="1"' in bc.svg.render(bc.Cephalopod(), size=1)


def test_save_png_checks_its_arguments_before_needing_a_rasteriser(tmp_path):
    with pytest.raises(ValueError, match="size must be"):
        bc.svg.save_png(bc.Rive(), str(tmp_path / "x.png"), size="big")
    with pytest.raises(TypeError, match="cannot draw"):
        bc.svg.save_png("hex3", str(tmp_path / "x.png"))
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("rasteriser", ["resvg_py", "cairosvg"])
def test_png_output_is_a_png(tmp_path, monkeypatch, rasteriser):
    pytest.importorskip(rasteriser)
    if rasteriser == "cairosvg":
        monkeypatch.setitem(sys.modules, "resvg_py", None)  # cairosvg serves when resvg-py is missing
    path = tmp_path / "board.png"
    bc.svg.save_png(bc.Strands(), str(path), size=300)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    _, _, width, height = map(float, parse(bc.Strands()).get("viewBox").split())
    assert struct.unpack(">II", data[16:24]) == (300, round(300 * height / width))  # IHDR: width, height


def test_without_a_rasteriser_png_output_is_an_import_error_naming_the_extra(tmp_path, monkeypatch):
    for rasteriser in ("resvg_py", "cairosvg"):
        monkeypatch.setitem(sys.modules, rasteriser, None)
    with pytest.raises(ImportError, match=r"boardcore\[png\]"):
        bc.svg.save_png(bc.Reversi(), str(tmp_path / "board.png"))
    with pytest.raises(ImportError, match=r"boardcore\[png\]"):
        bc.svg.rgb_array(bc.Reversi())
    assert not (tmp_path / "board.png").exists()


def test_rgb_array_is_the_picture_as_pixels():
    pytest.importorskip("resvg_py")
    pytest.importorskip("PIL")
    game = bc.Reversi(size=6)
    pixels = bc.svg.rgb_array(game, size=200)
    assert pixels.dtype == np.uint8 and pixels.shape == (200, 200, 3)  # a square board, square picture
    assert (pixels[0, 0] == 255).all()  # the white background
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 3  # the board, its discs, not a blank
    game.play(game.legal_moves()[0])
    assert not np.array_equal(bc.svg.rgb_array(game, size=200), pixels)


def test_resvg_draws_the_text_where_a_common_font_is_installed():
    """resvg maps the generic sans-serif to Arial alone and leaves text out without it; the
    rasteriser names common families in turn, so Strands' labels and the coordinates show."""
    pytest.importorskip("resvg_py")
    pytest.importorskip("PIL")
    fonts = [p for d in FONT_DIRS if Path(d).is_dir() for p in Path(d).rglob("*.[ot]tf")]
    families = ("dejavusans", "liberationsans", "arial", "helvetica", "notosans")
    if not any(f.name.lower().replace("-", "").startswith(families) for f in fonts):
        pytest.skip("none of the common sans-serif fonts is installed")
    game = bc.Strands("hex4")
    svg = bc.svg.render(game, 300)
    without_text = re.sub(r"<text [^>]*>[^<]*</text>\n?", "", svg)
    assert without_text != svg
    with_text_pixels = bc.svg.rgb_array(game, 300)
    assert not np.array_equal(with_text_pixels, pixels_of(without_text))


def test_the_geometry_the_pictures_use_is_the_same_in_engine_and_reference():
    for size, handicap in ((8, 3), ("octagon", 2), (6, 0)):
        engine, twin = bc.Reversi(size=size, handicap=handicap), ref.Reversi(size=size, handicap=handicap)
        assert engine.handicap_squares == twin.handicap_squares and len(engine.handicap_squares) == handicap
    assert bc.Reversi(handicap=2).handicap_squares == ("a1", "h8")
    assert bc.Reversi.from_position(bc.Reversi(handicap=2).position()).handicap_squares == ()
    for layout in ("hex4", "hex6", "hex7"):
        assert bc.Strands(layout).rows == ref.Strands(layout).rows
    assert bc.Strands("hex4").rows == bc.Rive("hex4").rows


def pixels_of(svg: str) -> np.ndarray:
    import resvg_py
    from PIL import Image

    with Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_string=svg)))) as picture:
        return np.array(picture.convert("RGB"))


def read_cells_off_the_picture(game) -> dict[str, str]:
    """Each cell's name as a person reads it off a hex board's picture, by the rule the terminal's
    board states (docs/cli.md): the row's letter is the one left of the row's first cell; the
    number, in the upper half (down to the widest row), the one whose diagonal running down-left
    meets the cell, in the lower half the one whose diagonal running up-left meets it."""
    root = parse(game)
    texts = [(float(e.get("x")), float(e.get("y")) - 5, e.text) for e in with_class(root, "coordinate")]
    hexagons = []
    for polygon in with_class(root, "cell"):
        points = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
        hexagons.append((polygon.get("data-cell"), sum(p[0] for p in points) / 6, sum(p[1] for p in points) / 6))
    rows = sorted({round(y, 1) for _, _, y in hexagons})
    widest = max(range(len(rows)), key=lambda r: sum(round(y, 1) == rows[r] for _, _, y in hexagons))
    half_cell, row_height = bc.svg.HEX_R * 3**0.5 / 2, bc.svg.HEX_R * 1.5

    def text_at(x, y):
        found = [t for tx, ty, t in texts if abs(tx - x) < 0.5 and abs(ty - y) < 0.5]
        return found[0] if found else None

    read = {}
    for name, x, y in hexagons:
        r = rows.index(round(y, 1))
        first_x = min(hx for _, hx, hy in hexagons if round(hy, 1) == rows[r])
        letter = next(t for tx, ty, t in texts if abs(ty - y) < 0.5 and tx < first_x)
        up, down = r + 1, len(rows) - r  # rows to the number above, below
        if r <= widest:
            number = text_at(x + up * half_cell, y - up * row_height)
        else:
            number = text_at(x + down * half_cell, y + down * row_height)
        read[name] = f"{letter}{number}"
    return read


@pytest.mark.parametrize(
    "game",
    [bc.Rive("hex3"), bc.Rive("hex335"), bc.Strands("hex4"), bc.Strands("hex7")],
    ids=["hex3", "hex335", "s4", "s7"],
)
def test_every_cell_of_a_hex_picture_is_read_off_its_coordinates(game):
    assert list(read_cells_off_the_picture(game).values()) == list(game.cells())
