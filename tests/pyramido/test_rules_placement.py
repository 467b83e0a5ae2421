"""Placement rules: free rotation, full-side connection on floor 1, 5×4/4×5, upper floors, corners on centres."""

from __future__ import annotations

import pytest

from engine.pyramido import GAME
from engine.pyramido import game as G
from engine.pyramido import geometry as geo
from engine.pyramido import scoring as sc
from engine.pyramido.tiles import DOMINOES, QUADRANT_BIT

from .helpers import fresh, lay, place, shift_to_origin, tiling


def _prompt(state):
    (seat, prompt), = GAME.pending(state).items()
    return seat, prompt


def test_first_domino_starts_the_pyramid_at_origin_in_any_rotation():
    state = fresh()
    _, prompt = _prompt(state)
    placements = {(tuple(p["at"]), p["dir"]) for p in prompt.choices["placements"]}
    assert placements == {((0, 0), "E"), ((1, 0), "W"), ((0, 0), "S"), ((0, 1), "N")}
    with pytest.raises(G.IllegalAction) as err:
        place(state, 0, (3, 3), "E")
    assert err.value.code == "bad_position"


@pytest.mark.parametrize("direction, turns", [("E", 0), ("S", 1), ("W", 2), ("N", 3)])
def test_rotation_turns_the_blocks_and_their_gem_icons(direction, turns):
    state = fresh()
    domino = 4  # yellow: icon top-left; brown: icon top-right (as printed, brown east of yellow)
    at = {"E": (0, 0), "S": (0, 0), "W": (1, 0), "N": (0, 1)}[direction]
    place(state, 0, at, direction, domino=domino)
    blocks = sc.floor_blocks(state["players"][0], 1)
    a = blocks[at]
    b = blocks[geo.other_cell(at, direction)]
    assert a[0] == "yellow" and b[0] == "brown"
    assert a[1] == geo.ROTATE[turns][QUADRANT_BIT["tl"]]
    assert b[1] == geo.ROTATE[turns][QUADRANT_BIT["tr"]]
    # a quarter turn clockwise moves top-left to top-right
    assert geo.ROTATE[1][QUADRANT_BIT["tl"]] == QUADRANT_BIT["tr"]


def test_floor1_domino_must_share_a_full_block_side():
    state = fresh()
    place(state, 0, (0, 0), "E")
    place(state, 1, (0, 0), "E")
    with pytest.raises(G.IllegalAction) as err:
        place(state, 0, (3, 0), "E")  # one cell away: not connected
    assert err.value.code == "bad_position"
    state2 = fresh()
    place(state2, 0, (0, 0), "E")
    place(state2, 1, (0, 0), "E")
    with pytest.raises(G.IllegalAction):
        place(state2, 0, (2, 1), "E")  # touches only a corner


def test_floor1_connection_to_any_colour_is_allowed():
    state = fresh()
    place(state, 0, (0, 0), "E", domino=0)  # brown/brown
    place(state, 1, (0, 0), "E")
    place(state, 0, (2, 0), "E", domino=42)  # red/blue next to brown
    assert len(state["players"][0]["floors"][0]) == 2


def test_floor1_domino_cannot_overlap():
    state = fresh()
    place(state, 0, (0, 0), "E")
    place(state, 1, (0, 0), "E")
    with pytest.raises(G.IllegalAction) as err:
        place(state, 0, (1, 0), "S")
    assert err.value.code == "occupied"


def test_floor1_bounds_five_by_four_or_four_by_five():
    # A row of 5 blocks is fine (5×1), a 6th block is not.
    assert geo.fits_first_floor(0, 4, 0, 0) and not geo.fits_first_floor(0, 5, 0, 0)
    assert geo.fits_first_floor(0, 4, 0, 3) and geo.fits_first_floor(0, 3, 0, 4)
    assert not geo.fits_first_floor(0, 4, 0, 4)  # 5×5 is too big either way
    state = fresh()
    place(state, 0, (0, 0), "E")
    place(state, 1, (0, 0), "E")
    place(state, 0, (2, 0), "E")
    place(state, 1, (0, 1), "E")
    with pytest.raises(G.IllegalAction):
        place(state, 0, (4, 0), "E")  # would make the floor 6 wide
    place(state, 0, (4, 0), "S")  # 5 wide, 2 high: fine
    place(state, 1, (2, 0), "E")
    pairs = geo.legal_pairs(1, sc.occupied(state["players"][0], 1), None)
    # nothing may reach x = 5 or x = -1 (the floor is already 5 wide)
    assert all(-1 < c[0] < 5 for pair in pairs for c in pair)


def test_floor1_every_legal_position_keeps_the_floor_in_bounds():
    state = fresh()
    place(state, 0, (0, 0), "S")
    for pair in geo.legal_pairs(1, sc.occupied(state["players"][0], 1), None):
        cells = sc.occupied(state["players"][0], 1) | set(pair)
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        w, h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        assert (w <= 5 and h <= 4) or (w <= 4 and h <= 5)


def _finish_first_floor(state, cells):
    """Seat 0 and seat 1 both build the same 1st floor (a 5×4 tiling of ``cells``)."""
    order = shift_to_origin(tiling(cells))
    for pair in order:
        lay(state, 0, pair)
        lay(state, 1, pair)


def test_floor1_completes_after_ten_dominoes_and_is_shifted_to_origin():
    state = fresh()
    cells = {(x, y) for x in range(5) for y in range(4)}
    _finish_first_floor(state, cells)
    assert state["floor"] == 2
    for player in state["players"]:
        assert len(player["floors"][0]) == 10
        assert player["shape"] == [5, 4]
        occ = sc.occupied(player, 1)
        assert min(x for x, _ in occ) == 0 and min(y for _, y in occ) == 0


def test_upper_floor_dominoes_are_all_connected_and_stay_in_the_4x3_grid():
    state = fresh()
    _finish_first_floor(state, {(x, y) for x in range(5) for y in range(4)})
    seat = state["turn"]
    place(state, seat, (0, 0), "E")
    other = state["turn"]
    place(state, other, (0, 0), "E")
    # a domino far from the first one is fine from the 2nd floor on
    place(state, seat, (2, 2), "E")
    assert len(state["players"][seat]["floors"][1]) == 2
    with pytest.raises(G.IllegalAction) as err:
        place(state, other, (3, 2), "E")  # x = 4 is outside the 4×3 grid
    assert err.value.code == "bad_position"
    with pytest.raises(G.IllegalAction):
        place(state, other, (0, 2), "S")  # y = 3 is outside


def test_upper_floor_sizes_follow_the_first_floor():
    assert geo.upper_size((5, 4), 2) == (4, 3)
    assert geo.upper_size((5, 4), 3) == (3, 2)
    assert geo.upper_size((5, 4), 4) == (2, 1)
    assert geo.upper_size((4, 5), 2) == (3, 4)
    assert [geo.floor_cells(f) for f in (1, 2, 3, 4)] == [20, 12, 6, 2]


def test_corners_on_centres_an_upper_block_covers_one_quadrant_of_four_blocks():
    player = G._new_player()
    player["shape"] = [5, 4]
    for y in range(2):
        player["fills"][0].extend({"card": 0, "side": "brown", "at": [x, y], "icon": "tl"} for x in range(2))
    player["floors"][1].append({"d": 0, "at": [0, 0], "dir": "E", "gem": None, "card": None})
    grid = sc.visible(player, 2)
    covered = {c for c, v in grid.items() if v[2] == 2}
    # floor-2 block (0, 0) covers quadrant cells (1..2, 1..2): the br, bl, tr, tl of the 4 blocks below
    assert {(1, 1), (2, 1), (1, 2), (2, 2)} <= covered
    assert grid[(0, 0)][2] == 1 and grid[(3, 0)][2] == 1 and grid[(0, 3)][2] == 1


def test_placement_choices_say_whether_the_floor_can_still_be_completed():
    state = fresh()
    place(state, 0, (0, 0), "S")
    place(state, 1, (0, 0), "E")
    _, prompt = _prompt(state)
    choices = prompt.choices
    assert choices["completable"] is True and choices["gaps_now"] == 0
    gaps = {(tuple(p["at"]), p["dir"]): p["gaps"] for p in choices["placements"]}
    assert all(g in (0, 2, 4) for g in gaps.values())
    assert all(g == G.gaps_after(state, 0, tuple(sorted([tuple(p["cells"][0]), tuple(p["cells"][1])])))
               for p in choices["placements"] for g in [p["gaps"]])


def test_completion_check_spots_a_walled_in_gap():
    w, h = 4, 3

    def mask(cells):
        return sum(1 << (y * w + x) for x, y in cells)

    # (0, 0) walled in by (1, 0) and (0, 1): it and one cell of the unbalanced rest stay gaps
    assert geo.min_gaps_in_rect(w, h, mask({(1, 0), (0, 1)})) == 2
    # (0, 0) and (2, 0) walled in; the rest has 4 cells of one checkerboard colour for 2 of the other
    assert geo.min_gaps_in_rect(w, h, mask({(1, 0), (3, 0), (0, 1), (2, 1)})) == 4
    assert geo.min_gaps_in_rect(4, 3, 0) == 0
    assert geo.floor_gaps(1, {(0, 0), (1, 0)}, None) == 0


def test_domino_data_is_unchanged_by_play():
    before = list(DOMINOES)
    state = fresh()
    place(state, 0, (0, 0), "E")
    assert list(DOMINOES) == before


def test_floor1_four_by_five_carries_a_three_by_four_second_floor():
    state = fresh()
    _finish_first_floor(state, {(x, y) for x in range(4) for y in range(5)})
    assert state["floor"] == 2
    for player in state["players"]:
        assert player["shape"] == [4, 5]
    seat = state["turn"]
    place(state, seat, (2, 2), "S")  # x = 2 and y = 3 are inside a 3×4 floor
    pairs = geo.legal_pairs(2, sc.occupied(state["players"][seat], 2), (4, 5))
    assert {c for pair in pairs for c in pair} == {(x, y) for x in range(3) for y in range(4)} - {(2, 2), (2, 3)}
    other = state["turn"]
    with pytest.raises(G.IllegalAction) as err:
        place(state, other, (2, 0), "E")  # x = 3 is outside the 3-wide floor
    assert err.value.code == "bad_position"
    place(state, other, (0, 2), "S")  # y = 3 is the 4th row: inside
    assert len(state["players"][other]["floors"][1]) == 1
