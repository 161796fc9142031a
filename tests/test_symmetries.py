"""Board symmetries in step form (docs/actions.md, "Symmetries"): how many each variant has, that
they are a group of permutations with the identity first, and that they commute with play:
mapping a position and then playing the mapped action equals playing and then mapping (for
Strands step by step in any-order mode, `actions(any_order=True)`; in its default board order,
at the start of each turn)."""

from __future__ import annotations

import itertools
import random
import re

import boardcore as bc
import numpy as np
import pytest

# --- the maps as a user applies them ---------------------------------------------------------


def mapped_observation(state, observation_map):
    """The image's observation: one gather on the flattened planes."""
    observation = state.observation()
    return observation.reshape(-1)[observation_map].reshape(observation.shape)


def images(action_map):
    """Where each action goes (the maps gather, so the images are their inverse)."""
    return np.argsort(action_map)


# --- an independent way to map a position: its notation, cell by cell ------------------------


def map_cells(cells, cell_images):
    """The cells (in board order) after each went to `cell_images[i]`."""
    out = [None] * len(cells)
    for i, content in enumerate(cells):
        out[cell_images[i]] = content
    return out


def map_square_position(text, cell_images, cell_pattern):
    """Reversi (`8 ROWS b`) and Cephalopod (`3x3 ROWS w`): rows of cells joined by `/`."""
    size, rows, side = text.split(" ")
    split = [re.findall(cell_pattern, row) for row in rows.split("/")]
    width = len(split[0])
    cells = map_cells([c for row in split for c in row], cell_images)
    return " ".join([size, "/".join("".join(cells[r * width : (r + 1) * width]) for r in range(len(split))), side])


def hex_cell_names(rows):
    return [chr(ord("a") + r) + str(i + 1) for r, row in enumerate(rows.split("/")) for i in range(len(row))]


def map_hex_position(text, cell_images):
    """Rive (`hex3 ROWS b [swap] [single] [capture=CELL:N]`) and Strands (`up-to ROWS b`)."""
    fields = text.split(" ")
    rows = fields[1].split("/")
    cells = map_cells([c for row in rows for c in row], cell_images)
    names = hex_cell_names(fields[1])
    out, start = [], 0
    for row in rows:
        out.append("".join(cells[start : start + len(row)]))
        start += len(row)
    fields[1] = "/".join(out)
    for i, field in enumerate(fields):
        if field.startswith("capture="):
            cell, remaining = field[len("capture=") :].split(":")
            fields[i] = f"capture={names[cell_images[names.index(cell)]]}:{remaining}"
    return " ".join(fields)


def reversi_mapper(state, action_map):
    n = state.observation_shape[1]
    return lambda text: map_square_position(text, images(action_map)[: n * n], r"[.bw#-]")


def cephalopod_mapper(state, action_map):
    squares = images(action_map)[::16] // 16
    return lambda text: map_square_position(text, squares, r"\.|[1-6][bw]")


def hex_mapper(state, action_map):
    cells = images(action_map)[: state.num_actions - 1]
    return lambda text: map_hex_position(text, cells)


GAMES = {
    "reversi": (bc.Reversi, reversi_mapper),
    "cephalopod": (bc.Cephalopod, cephalopod_mapper),
    "rive": (bc.Rive, hex_mapper),
    "strands": (bc.Strands, hex_mapper),
}


def rows(text):
    """A Strands layout written as digit rows joined by `/`."""
    return [[int(label) for label in row] for row in text.split("/")]


# --- how many symmetries each board has --------------------------------------------------------


def count(game):
    observation_maps, action_maps = game.actions().symmetries()
    assert len(observation_maps) == len(action_maps)
    return len(action_maps)


@pytest.mark.parametrize("size", [4, 6, 8, 10, "octagon"])
def test_a_plain_square_board_has_all_eight_maps(size):
    assert count(bc.Reversi(size)) == 8


@pytest.mark.parametrize("handicap", [1, 2, 3, 4])
def test_handicap_discs_are_part_of_the_position_and_keep_all_eight(handicap):
    # Discs, the centre's and the handicap's, move with the position (docs/actions.md).
    assert count(bc.Reversi(8, handicap=handicap)) == 8
    assert count(bc.Reversi("octagon", handicap=handicap, handicap_color="white")) == 8


@pytest.mark.parametrize(
    "blocked, expected",
    [
        (["a3"], 1),  # on no mirror line
        (["b2"], 2),  # on a diagonal: that mirror remains
        (["a4"], 1),  # next to the middle line, which is between columns d and e
        (["b2", "g7"], 4),  # one diagonal: the identity, its mirror, the other mirror, the half turn
        (["b2", "g7", "b7", "g2"], 8),
        (["c1", "f8"], 2),  # the half turn only
        (["c1", "f1"], 2),  # the left-right mirror only
    ],
)
def test_holes_keep_only_the_maps_that_send_them_onto_holes(blocked, expected):
    assert count(bc.Reversi(8, blocked=blocked)) == expected


def square_maps(n):
    """The 8 maps of an n x n grid on (row, col), written out independently of the engine."""
    last = n - 1
    return [
        lambda r, c: (r, c),
        lambda r, c: (c, last - r),
        lambda r, c: (last - r, last - c),
        lambda r, c: (last - c, r),
        lambda r, c: (r, last - c),
        lambda r, c: (last - r, c),
        lambda r, c: (c, r),
        lambda r, c: (last - c, last - r),
    ]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("size", [6, 8, 10, "octagon"])
def test_seeded_random_holes_keep_the_maps_that_keep_them(size, seed):
    game = bc.Reversi(size, blocked="random", seed=seed)
    n = game.actions().observation_shape[1]
    blocked_plane = game.actions().observation()[3]
    blocked = {(r, c) for r in range(n) for c in range(n) if blocked_plane[r, c]}
    expected = sum(all(m(r, c) in blocked for r, c in blocked) for m in square_maps(n))
    assert count(game) == expected


@pytest.mark.parametrize("rows, cols, expected", [(2, 2, 8), (3, 3, 8), (5, 5, 8), (2, 3, 4), (3, 5, 4), (4, 2, 4)])
def test_a_cephalopod_rectangle_keeps_its_shape(rows, cols, expected):
    assert count(bc.Cephalopod(rows=rows, cols=cols)) == expected


@pytest.mark.parametrize(
    "board, expected",
    [("hex3", 12), ("hex4", 12), ("hex5", 12), ("hex335", 4), ([(3, 0), (2, 1)], 2), ([(3, 0), (2, 1), (2, 2)], 1)],
)
def test_a_rive_board_keeps_what_its_shape_allows(board, expected):
    assert count(bc.Rive(board=board)) == expected
    assert count(bc.Rive(board=board, swap=True)) == expected


def hex_maps_of_labels(observation, side):
    """The D6 maps, in cube coordinates about the centre of a hexhex grid, that keep the board
    and the label planes (2-7) of a Strands observation: an independent count."""
    centre = side - 1

    def cube(row, q):
        x, z = q - centre, row - centre
        return x, -x - z, z

    def point(x, y, z):
        return z + centre, x + centre

    labels = {}
    for row in range(observation.shape[1]):
        for q in range(observation.shape[2]):
            if observation[8, row, q]:
                # A covered cell shows no label: 0.
                labels[cube(row, q)] = (
                    int(np.argmax(observation[2:8, row, q])) + 1 if observation[2:8, row, q].any() else 0
                )
    turns = [lambda x, y, z: (x, y, z)]
    for _ in range(5):
        turns.append(lambda x, y, z, f=turns[-1]: (lambda a, b, c: (-c, -a, -b))(*f(x, y, z)))
    maps = turns + [lambda x, y, z, f=f: f(x, z, y) for f in turns]
    return sum(all(labels.get(m(*p)) == label for p, label in labels.items()) for m in maps)


@pytest.mark.parametrize("layout", ["hex4", "hex5", "hex5-rings", "hex6", "hex6-edge4", "hex6-low", "hex7"])
def test_a_strands_layout_keeps_the_maps_that_keep_its_labels(layout):
    game = bc.Strands(layout=layout)
    side = (game.actions().observation_shape[1] + 1) // 2
    assert count(game) == hex_maps_of_labels(game.actions().observation(), side)


def test_uniform_labels_keep_all_twelve_and_one_odd_label_off_centre_breaks_them():
    assert count(bc.Strands(layout=rows("2222/22222/222222/2222222/222222/22222/2222"))) == 12
    # A 3 on a corner: only the mirror through that corner remains.
    assert count(bc.Strands(layout=rows("3222/22222/222222/2222222/222222/22222/2222"))) == 2
    # A 3 next to a corner, off every mirror line: nothing but the identity.
    assert count(bc.Strands(layout=rows("2322/22222/222222/2222222/222222/22222/2222"))) == 1


@pytest.mark.parametrize("seed", range(6))
def test_seeded_random_strands_layouts(seed):
    game = bc.Strands(layout=bc.Strands.random_layout(4, seed))
    assert count(game) == hex_maps_of_labels(game.actions().observation(), 4)


# --- the maps are a group of permutations, identity first --------------------------------------

ALL_VARIANTS = [
    ("reversi", {"size": 4}),
    ("reversi", {"size": 6}),
    ("reversi", {"size": 8}),
    ("reversi", {"size": 10}),
    ("reversi", {"size": "octagon"}),
    ("reversi", {"size": 8, "blocked": ["b2", "g7"]}),
    ("reversi", {"size": 8, "blocked": ["a3"]}),
    ("reversi", {"size": 6, "blocked": "random", "seed": 3}),
    ("reversi", {"size": 6, "handicap": 1}),
    ("reversi", {"size": 8, "handicap": 2}),
    ("reversi", {"size": 8, "handicap": 3, "handicap_color": "white"}),
    ("reversi", {"size": "octagon", "handicap": 4}),
    ("cephalopod", {"rows": 2, "cols": 2}),
    ("cephalopod", {"rows": 3, "cols": 3}),
    ("cephalopod", {"rows": 2, "cols": 3}),
    ("cephalopod", {"rows": 3, "cols": 4}),
    ("cephalopod", {"rows": 5, "cols": 5}),
    ("rive", {"board": "hex3"}),
    ("rive", {"board": "hex4"}),
    ("rive", {"board": "hex5"}),
    ("rive", {"board": "hex3", "swap": True}),
    ("rive", {"board": "hex335", "swap": True}),
]
STRANDS_VARIANTS = [
    {"layout": "hex4", "cover": "up-to"},
    {"layout": "hex4", "cover": "exact"},
    {"layout": "hex5", "cover": "up-to"},
    {"layout": rows("2222/22222/222222/2222222/222222/22222/2222"), "cover": "up-to"},
    {"layout": rows("3222/22222/222222/2222222/222222/22222/2222"), "cover": "exact"},
    {"layout": bc.Strands.random_layout(3, 5), "cover": "up-to"},
]


def variant_id(variant):
    return "-".join(str(v) for v in variant.values())


def is_permutation(indices):
    return np.array_equal(np.sort(indices), np.arange(len(indices)))


@pytest.mark.parametrize(
    "name, variant",
    ALL_VARIANTS + [("strands", v) for v in STRANDS_VARIANTS],
    ids=lambda v: v if isinstance(v, str) else variant_id(v),
)
def test_maps_are_a_group_of_permutations_with_the_identity_first(name, variant):
    state = GAMES[name][0](**variant).actions()
    observation_maps, action_maps = state.symmetries()
    planes, height, width = state.observation_shape
    assert observation_maps.dtype == np.int64 and action_maps.dtype == np.int64
    assert observation_maps.shape == (len(action_maps), planes * height * width)
    assert action_maps.shape == (len(action_maps), state.num_actions)
    assert np.array_equal(observation_maps[0], np.arange(planes * height * width))
    assert np.array_equal(action_maps[0], np.arange(state.num_actions))
    pairs = {(tuple(o), tuple(a)) for o, a in zip(observation_maps, action_maps)}
    assert len(pairs) == len(action_maps), "no map twice"
    for o, a in zip(observation_maps, action_maps):
        assert is_permutation(o) and is_permutation(a)
        # One cell map applied to every plane.
        cell_map = o[: height * width]
        for plane in range(planes):
            assert np.array_equal(
                o[plane * height * width : (plane + 1) * height * width], cell_map + plane * height * width
            )
        for o2, a2 in zip(observation_maps, action_maps):
            assert (tuple(o[o2]), tuple(a[a2])) in pairs, "closed under composition"


def test_the_maps_of_a_state_are_fresh_arrays():
    state = bc.Reversi(4).actions()
    _observation_maps, action_maps = state.symmetries()
    action_maps[:] = 0
    assert np.array_equal(state.symmetries()[1][0], np.arange(17))


# --- they commute with play -------------------------------------------------------------------


def mapped_cells(names, cells, forward):
    """The names of `cells` (names) after the map, in board order."""
    return tuple(sorted((names[forward[names.index(c)]] for c in cells), key=names.index))


def walk(name, variant, symmetry, seed, plies=None, any_order=False):
    """Plays random actions from the start in the state and the mapped actions from the mapped
    start, checking at every step that the second is the image of the first, for `plies` steps
    or (`None`) to the end. With `any_order` (Strands), in any-order mode, where turns under way
    map too: the cells covered so far go onto the image's. Returns copies of the states seen."""
    game_class, mapper = GAMES[name]
    step_options = {"any_order": True} if any_order else {}
    state = game_class(**variant).actions(**step_options)
    observation_maps, action_maps = state.symmetries()
    to_image = mapper(state, action_maps[symmetry])
    image = game_class.from_position(to_image(state.position())).actions(**step_options)
    forward = images(action_maps[symmetry])
    names = hex_cell_names(state.position().split(" ")[1]) if any_order else None
    rng = random.Random(seed)
    seen = []
    for _ in range(plies) if plies is not None else itertools.count():
        seen.append(state.copy())
        assert image.position() == to_image(state.position())
        if any_order:
            assert image.covered == mapped_cells(names, state.covered, forward)
        assert image.to_move == state.to_move
        assert np.array_equal(image.observation(), mapped_observation(state, observation_maps[symmetry]))
        assert np.array_equal(image.action_mask(), state.action_mask()[action_maps[symmetry]])
        # The maps computed on the image are the same: the variant's board, not the position's.
        assert np.array_equal(image.symmetries()[1], action_maps)
        if state.is_over():
            assert image.is_over() and image.returns() == state.returns()
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        image.apply_action(int(forward[action]))
    return seen


@pytest.mark.parametrize("name, variant", ALL_VARIANTS, ids=lambda v: v if isinstance(v, str) else variant_id(v))
def test_mapping_then_playing_the_mapped_action_equals_playing_then_mapping(name, variant):
    symmetries = len(GAMES[name][0](**variant).actions().symmetries()[1])
    for symmetry in range(symmetries):
        walk(name, variant, symmetry, seed=symmetry, plies=200)


def test_the_walks_cover_reversi_passes_and_rive_captures_under_way():
    positions = [s.position() for seed in range(30) for s in walk("reversi", {"size": 4}, seed % 8, seed, 40)]
    # A pass leaves the discs and hands the move over: two positions in a row with the same rows.
    assert any(a.split(" ")[1] == b.split(" ")[1] for a, b in itertools.pairwise(positions))
    rive = [s.position() for seed in range(10) for s in walk("rive", {"board": "hex3", "swap": True}, seed, seed, 200)]
    assert any("capture=" in p for p in rive)
    assert any(" swap" in p for p in rive)


# --- Strands in any-order mode: every step maps -----------------------------------------------


@pytest.mark.parametrize("variant", STRANDS_VARIANTS, ids=variant_id)
def test_strands_in_any_order_mapping_then_playing_equals_playing_then_mapping(variant):
    """`actions(any_order=True)`: a turn covers its cells in any order, so a state is its turn's
    start and the set of cells covered, both of which the maps send onto the image's. At every
    step, turns under way included, the image's position, covered cells, observation and mask
    are the mapped ones, under both cover rules (docs/actions.md): the mode for augmentation."""
    symmetries = len(bc.Strands(**variant).actions(any_order=True).symmetries()[1])
    mid_turn = 0
    for symmetry in range(symmetries):
        seen = walk("strands", variant, symmetry, seed=symmetry, any_order=True)
        assert seen[-1].is_over()
        mid_turn += sum(bool(state.covered) for state in seen)
    assert mid_turn > 0


def test_a_strands_search_policy_in_any_order_maps_onto_the_images_legal_actions():
    """What augmentation relies on: a search policy of an any-order state mid-turn, gathered by
    an action map, is a distribution over the image's legal actions."""
    variant = {"layout": rows("2222/22222/222222/2222222/222222/22222/2222"), "cover": "up-to"}
    start = bc.Strands(**variant).actions(any_order=True)
    state = start.copy()
    played = [state.legal_actions()[0]]  # Black's opening
    state.apply_action(played[0])
    played.append(state.legal_actions()[-2])  # a cell late in board order: the turn goes on
    state.apply_action(played[1])
    assert state.covered and state.any_order
    policy = bc.mcts.search(state, iterations=200, seed=1).policy
    assert policy[~state.action_mask()].sum() == 0
    for action_map in start.symmetries()[1]:
        forward = images(action_map)
        image = bc.Strands.from_position(hex_mapper(start, action_map)(start.position())).actions(any_order=True)
        for action in played:
            image.apply_action(int(forward[action]))
        mapped = policy[action_map]
        assert np.isclose(mapped.sum(), 1.0)
        assert mapped[~image.action_mask()].sum() == 0
        assert np.array_equal(image.action_mask(), state.action_mask()[action_map])


# --- Strands in board order (the default): positions map, per-step orders do not -------------
# The ordered step form is in bijection with the compound moves (smaller trees), but mid-turn its
# masks follow board order, which the maps do not keep; for augmentation use any-order mode above.


def play_turn(state, cells):
    """Covers `cells` in board order, then ends the turn if it did not end by itself."""
    before = state.position()
    for cell in sorted(cells):
        state.apply_action(int(cell))
    if state.position() == before and cells:
        state.apply_action(state.num_actions - 1)


@pytest.mark.parametrize("variant", STRANDS_VARIANTS, ids=variant_id)
def test_a_strands_turn_mapped_is_the_mapped_turn(variant):
    """At every turn's start the image's observation is the mapped observation, under `up-to`
    so is the mask (any empty cell may start a turn); the mapped cells of a turn, covered in
    board order, are a legal turn reaching the mapped position."""
    state = bc.Strands(**variant).actions()
    observation_maps, action_maps = state.symmetries()
    mid_turn_checked = 0
    for symmetry in range(len(action_maps)):
        state = bc.Strands(**variant).actions()
        to_image = hex_mapper(state, action_maps[symmetry])
        forward = images(action_maps[symmetry])
        image = bc.Strands.from_position(to_image(state.position())).actions()
        rng = random.Random(symmetry)
        while not state.is_over():
            assert image.position() == to_image(state.position())
            assert np.array_equal(image.observation(), mapped_observation(state, observation_maps[symmetry]))
            if variant["cover"] == "up-to":
                assert np.array_equal(image.action_mask(), state.action_mask()[action_maps[symmetry]])
            turn = []
            start = state.position()
            while state.position() == start and not state.is_over():
                action = rng.choice(state.legal_actions())
                state.apply_action(action)
                turn.append(action)
                if action != state.num_actions - 1 and state.position() == start:
                    # Mid-turn, the observation still maps (covered cells included) onto the
                    # state that covers the mapped cells, when they make a turn still under
                    # way (in board order they may not: the exact rule, a turn ended early).
                    probe = image.copy()
                    for cell in sorted(int(forward[a]) for a in turn):
                        if not probe.action_mask()[cell] or probe.position() != image.position():
                            break
                        probe.apply_action(cell)
                    else:
                        if probe.position() == image.position():
                            assert np.array_equal(
                                probe.observation(), mapped_observation(state, observation_maps[symmetry])
                            )
                            mid_turn_checked += 1
            play_turn(image, [forward[a] for a in turn if a != state.num_actions - 1])
        assert image.is_over() and image.returns() == state.returns()
    assert mid_turn_checked > 0


def test_mid_turn_strands_masks_follow_board_order_which_maps_do_not_keep():
    """A turn's cells come in board order: after c1 on a board of 2s, only cells after c1 may
    follow. The half turn sends c1 to a cell near the end, after which few cells come: the mask
    of the image is not the mapped mask (docs/actions.md says so). In any-order mode it is."""
    game = bc.Strands(layout=rows("2222/22222/222222/2222222/222222/22222/2222"))
    state = game.actions()
    state.apply_action(state.legal_actions()[0])  # Black's opening
    observation_maps, action_maps = state.symmetries()
    half_turn = 3  # rotations by 0..5 sixths come first
    forward = images(action_maps[half_turn])
    names = hex_cell_names(state.position().split(" ")[1])
    c1 = names.index("c1")
    assert names[forward[c1]] == "e6"  # the half turn about the centre d4
    image = bc.Strands.from_position(hex_mapper(state, action_maps[half_turn])(state.position())).actions()
    state.apply_action(c1)
    image.apply_action(int(forward[c1]))
    assert np.array_equal(image.observation(), mapped_observation(state, observation_maps[half_turn]))
    assert not np.array_equal(image.action_mask(), state.action_mask()[action_maps[half_turn]])
    # The same states in any-order mode (their state texts with `order=any`): the masks map.
    any_order = bc.StrandsActions._restore(state.__reduce__()[1][0].replace(" covering", " order=any covering"))
    any_order_image = bc.StrandsActions._restore(image.__reduce__()[1][0].replace(" covering", " order=any covering"))
    assert any_order.any_order and any_order.covered == state.covered
    assert np.array_equal(any_order_image.action_mask(), any_order.action_mask()[action_maps[half_turn]])


def test_strands_symmetries_are_the_layouts_even_once_its_odd_labels_are_covered():
    """Positions forget the labels of covered cells. A game remembers its layout, and so do the
    step states it makes and every state stepped from them: covering the corner labelled 3 adds
    no symmetry. A step state set up from the later position alone knows only the labels left
    (and that the covered cells are covered), and keeps those."""
    layout = rows("3222/22222/222222/2222222/222222/22222/2222")
    game = bc.Strands(layout=layout)
    state = game.actions()
    for move in ["d4", "a1", "a4,d1", "d7,g1", "g4"]:  # the centre, then the six corners
        game.play(move)
        for cell in move.split(","):
            state.apply_action(hex_cell_names(state.position().split(" ")[1]).index(cell))
        if state.position() != game.position():
            state.apply_action(state.num_actions - 1)
    assert state.position() == game.position()
    assert count(game) == 2
    assert len(state.symmetries()[1]) == 2
    assert count(bc.Strands.from_position(game.position())) == 12
