"""The card data file: the facts of the reference, and load-time messages naming the card and field."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from engine.splendor_duel.cards import CARDS, DECKS, ROYALS, TOKEN_MIX, CardDataError, label, load

RAW = json.loads(resources.files("data.splendor_duel").joinpath("cards.json").read_text(encoding="utf-8"))


def broken(mutate) -> str:
    raw = copy.deepcopy(RAW)
    mutate(raw)
    with pytest.raises(CardDataError) as err:
        load(json.dumps(raw))
    return str(err.value)


def test_data_counts_match_the_game():
    assert [len(DECKS[lv]) for lv in (1, 2, 3)] == [30, 24, 13] and len(CARDS) == 67
    assert len(ROYALS) == 4 and sum(TOKEN_MIX.values()) == 25
    assert TOKEN_MIX == {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2, "gold": 3}


def test_data_card_facts():
    c = CARDS["L2-05"]
    assert (c.color, c.bonus, c.points, c.crowns, c.cost_dict()) == (
        "blue", 1, 2, 1, {"white": 2, "red": 2, "black": 2, "pearl": 1})
    assert CARDS["L3-11"].abilities == ("joker_bonus_copy", "extra_turn")
    assert label("L2-08") == "L2-08 blue ×2, 1 PP (cost 5G 2R)"
    assert label("R-2") == "royal R-2 (2 PP, extra turn)"


def test_data_bad_cost_colour_names_card_and_field():
    message = broken(lambda raw: raw["jewel_cards"][3]["cost"].update(purple=1))
    assert "L1-04" in message and "cost.purple" in message


def test_data_bad_level_names_card_and_field():
    message = broken(lambda raw: raw["jewel_cards"][40].update(level=4))
    assert "L2-11" in message and "'level'" in message


def test_data_unknown_ability_names_card():
    message = broken(lambda raw: raw["jewel_cards"][0]["abilities"].append("fly"))
    assert "L1-01" in message and "abilities" in message


def test_data_negative_points_named():
    message = broken(lambda raw: raw["jewel_cards"][66].update(points=-1))
    assert "L3-13" in message and "points" in message


def test_data_joker_with_a_colour_named():
    message = broken(lambda raw: raw["jewel_cards"][25].update(color="red"))
    assert "L1-26" in message and "color" in message


def test_data_wrong_level_count_named():
    message = broken(lambda raw: raw["jewel_cards"].pop())
    assert "counts.level_3" in message


def test_data_spiral_must_cover_the_board():
    def dup(raw):
        raw["board_spiral_fill_order"]["order"][1] = [3, 3]
    assert "order" in broken(dup)


def test_data_token_total_checked():
    assert "tokens.total" in broken(lambda raw: raw["tokens"].update(gold=4))


def test_data_not_json():
    with pytest.raises(CardDataError) as err:
        load("{nope")
    assert "not valid JSON" in str(err.value)


def test_data_ships_with_the_package():
    files = resources.files("data.splendor_duel")
    assert files.joinpath("cards.json").is_file() and files.joinpath("rules.md").is_file()
