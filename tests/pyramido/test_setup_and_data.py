"""Setup (6 gems and 3 single block cards each, 3 quarry dominoes, 4 face-up piles) and the data file."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from engine.api import IllegalAction as BaseIllegal
from engine.pyramido import GAME
from engine.pyramido import tiles as T

from .helpers import fresh


def _raw() -> dict:
    return json.loads(resources.files("data.pyramido").joinpath("tiles.json").read_text(encoding="utf-8"))


def test_domino_set_has_90_dominoes_each_with_two_gem_icons():
    assert len(T.DOMINOES) == 90
    assert all(T.icon_count(a[1]) + T.icon_count(b[1]) == 2 for a, b in T.DOMINOES)
    assert sum(T.icon_count(a[1]) + T.icon_count(b[1]) for a, b in T.DOMINOES) == 180


def test_colour_summary_matches_the_reference_counts():
    raw = _raw()
    for colour, summary in raw["per_colour_summary"].items():
        blocks = [blk for d in T.DOMINOES for blk in d if blk[0] == colour]
        assert len(blocks) == summary["tiles"]
        assert sum(T.icon_count(m) for _, m in blocks) == summary["jewel_icons"]


@pytest.mark.parametrize("edit, needle", [
    (lambda r: r["dominoes"][7]["tile_a"].__setitem__("colour", "purple"), "domino #7 (entry 7): field 'tile_a.colour'"),
    (lambda r: r["dominoes"][12]["tile_b"].__setitem__("jewels", 3), "domino #12 (entry 12): field 'tile_b.jewels'"),
    (lambda r: r["dominoes"][3]["tile_a"]["jewel_quadrants"].append("middle"),
     "domino #3 (entry 3): field 'tile_a.jewel_quadrants'"),
    (lambda r: r["dominoes"][40].__setitem__("index", 41), "field 'index'"),
    (lambda r: r["dominoes"].pop(), "field 'dominoes'"),
])
def test_malformed_data_names_the_domino_and_field(edit, needle):
    raw = _raw()
    edit(raw)
    with pytest.raises(T.TileDataError) as err:
        T.load(json.dumps(raw))
    assert needle in str(err.value)


def test_setup_gives_six_gems_and_three_single_block_cards_each():
    state = fresh(4)
    for player in state["players"]:
        assert sorted(player["gems"]) == sorted(T.COLOURS)
        assert player["cards"] == [None, None, None]
    assert sorted(c for pair in T.CARD_FACES for c in pair) == sorted(T.COLOURS)


def test_setup_quarry_of_three_and_four_nearly_equal_piles():
    state = fresh(3, seed=9)
    assert len(state["quarry"]) == 3
    assert sorted(len(p) for p in state["piles"]) == [21, 22, 22, 22]
    every = state["quarry"] + [d for p in state["piles"] for d in p]
    assert sorted(every) == list(range(90))


def test_setup_is_seeded():
    assert GAME.new_game({}, 5, 3) == GAME.new_game({}, 5, 3)
    assert GAME.new_game({}, 5, 3)["piles"] != GAME.new_game({}, 6, 3)["piles"]


def test_random_starting_architect_comes_from_the_seed():
    starters = {GAME.new_game({}, seed, 4)["starter"] for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    assert GAME.new_game({"starter": "first"}, 3, 4)["starter"] == 0


def test_seat_count_is_two_to_four():
    with pytest.raises(BaseIllegal):
        GAME.options_for({}, 1)
    with pytest.raises(BaseIllegal):
        GAME.options_for({}, 5)
    assert GAME.options_for({}, 2)["starter"] == "random"


def test_game_type_metadata():
    t = GAME.type
    assert (t.name, t.min_seats, t.max_seats, t.dynamics, t.hidden_information) == (
        "pyramido", 2, 4, "sequential", False)
