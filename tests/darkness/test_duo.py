"""The duo module: the revised two-player and solo game."""

from __future__ import annotations

import pytest

from engine.viceroy import GAME, IllegalAction, apply_action
from engine.viceroy.scoring import score_player
from tests.darkness.helpers import game, give_diamonds, started
from tests.engine.helpers import events_of, gems, set_hand, set_pyramid, settle, submit, to_development

PASS = {"type": "pass"}


def bid(colour: str, card: int) -> dict:
    return {"type": "bid", "color": colour, "card": card}


def duo2(seed: int = 3) -> dict:
    state = started(["duo"], 2, seed=seed)
    for player in state["players"]:
        player["gems"] = gems(2, 2, 2, 2)
    return state


def next_turn(state: dict) -> None:
    """Everyone passes the auction and the development phase: the next turn's auction."""
    turn = state["turn"]
    while state["turn"] == turn:
        submit(state, {s: PASS for s in state["active"]})
        settle(state)
    for player in state["players"]:
        player["gems"] = gems(2, 2, 2, 2)


def test_duo_two_multicoloured_auction_cards_show_all_four_colours():
    state = game(["duo"], 2)
    assert [s["colors"] for s in state["auction"]] == [["red", "green"], ["blue", "yellow"]]


def test_duo_large_deck_of_24_and_two_cards_revealed():
    state = started(["duo"], 2)
    assert len(state["large_deck"]) == 22
    assert all(s["base"] is not None for s in state["auction"]) and len(state["auction"]) == 2


def test_duo_two_cards_revealed_after_each_auction():
    state = duo2()
    submit(state, {0: PASS, 1: PASS})
    settle(state)
    assert len(state["large_deck"]) == 20
    assert all(s["base"] is not None and s["tip"] is not None for s in state["auction"])


def test_duo_bid_either_colour_of_the_auction_card():
    state = duo2()
    card = state["auction"][0]["base"]
    submit(state, {0: bid("green", card), 1: PASS})
    settle(state)
    assert card in state["players"][0]["hand"]


def test_duo_both_on_the_same_auction_card_with_one_card_nobody_gets_it():
    state = duo2()
    card = state["auction"][0]["base"]
    events = submit(state, {0: bid("red", card), 1: bid("green", card)})
    settle(state)
    assert card not in state["players"][0]["hand"] and card not in state["players"][1]["hand"]
    assert events_of(events, "bid_fails")
    assert state["players"][0]["gems"]["red"] == 1 and state["players"][1]["gems"]["green"] == 1  # gems spent


def test_duo_both_on_the_same_auction_card_with_two_cards_wanting_different_ones_both_win():
    state = duo2()
    next_turn(state)
    spot = state["auction"][1]
    base, tip = spot["base"], spot["tip"]
    submit(state, {0: bid("blue", base), 1: bid("yellow", tip)})
    settle(state)
    assert base in state["players"][0]["hand"] and tip in state["players"][1]["hand"]


def test_duo_both_want_the_same_of_two_cards_nobody_gets_one():
    state = duo2()
    next_turn(state)
    spot = state["auction"][1]
    base = spot["base"]
    submit(state, {0: bid("blue", base), 1: bid("yellow", base)})
    settle(state)
    assert base in [s["base"] for s in state["auction"]]


def test_duo_diamond_bid_chosen_as_the_other_colour_of_the_same_auction_card_clashes():
    # A diamond stands for either colour of an auction card; both on the same card with one character:
    # nobody gets it, and the diamond goes to the reserve like the gem.
    state = started(["darkness", "duo"], 2, seed=3)
    for player in state["players"]:
        player["gems"] = gems(2, 2, 2, 2)
    give_diamonds(state, 1, 1)
    card = state["auction"][1]["base"]
    submit(state, {0: bid("blue", card), 1: {"type": "bid", "diamond": True}})
    assert state["decision"]["kind"] == "diamond_bid"
    assert {o["color"] for o in state["decision"]["options"]} == {"red", "green", "blue", "yellow"}
    events = apply_action(state, 1, {"type": "decide", "color": "yellow", "card": card})
    settle(state)
    assert events_of(events, "bid_fails")
    assert card not in state["players"][0]["hand"] and card not in state["players"][1]["hand"]
    assert state["ext"]["diamonds"]["held"][1] == 0 and state["ext"]["diamonds"]["reserve"] == 8


def test_duo_law_69_adds_two_cards_to_the_large_deck():
    state = duo2()
    to_development(state)
    set_pyramid(state, 0, {"1:0": 1})
    set_hand(state, 0, [69])
    set_hand(state, 1, [])
    state["active"] = [0]
    deck, small = len(state["large_deck"]), len(state["small_deck"])
    take = state["auction"][0]["base"]
    events = apply_action(state, 0, {"type": "play", "card": 69, "slot": "1:2", "take": take, "archive": False,
                                     "reward": {}})
    settle(state)
    assert len(state["large_deck"]) == deck + 2
    assert len(state["small_deck"]) == small - 3  # two to the large deck, one refills the auction
    assert events_of(events, "decree_adds")[0]["count"] == 2


def test_duo_solo_has_no_virtual_opponents_and_takes_the_card_wished():
    state = started(["duo"], 1)
    assert state["virtual"] == [] and state["options"]["virtual_opponents"] == 0
    state["players"][0]["gems"] = gems(2, 2, 2, 2)
    card = state["auction"][1]["base"]
    reserve = state["reserve"]["yellow"]
    events = submit(state, {0: bid("yellow", card)})
    settle(state)
    assert card in state["players"][0]["hand"]
    assert state["reserve"]["yellow"] == reserve + 1  # the bid gem is discarded to the reserve
    assert not events_of(events, "virtual_takes")


def test_duo_solo_sword_and_shield_points():
    state = started(["duo"], 1)
    set_pyramid(state, 0, {"1:0": 1, "1:2": 71}, {"1:0": [{"type": "defense"}, {"type": "defense"}],
                                                    "1:2": [{"type": "attack"}]})
    state["players"][0]["attacks"] = 2
    result = score_player(state, 0)
    assert result["breakdown"]["solo_tokens"] == 3 * 3 + 2 * 2  # 3 swords, 2 shields
    assert result["breakdown"]["attack"] == 0


def test_duo_solo_shield_points_count_defense_tokens_on_the_combat_card():
    # Invasion: tokens on the combat card count like the tokens in the pyramid.
    state = started(["duo", "invasion"], 1)
    set_pyramid(state, 0, {"1:0": 1}, {"1:0": [{"type": "defense"}]})
    state["ext"]["invasion"]["cards"][0]["tokens"] = [{"type": "defense"}, {"type": "defense"}]
    state["players"][0]["attacks"] = 0
    assert score_player(state, 0)["breakdown"]["solo_tokens"] == 3 * 2


def test_duo_sword_and_shield_points_only_solo():
    state = started(["duo"], 2)
    state["players"][0]["attacks"] = 2
    assert score_player(state, 0)["breakdown"]["solo_tokens"] == 0


def test_duo_is_for_one_or_two_players():
    with pytest.raises(IllegalAction, match="1 or 2 players"):
        GAME.options_for({"modules": ["duo"]}, 3)
    with pytest.raises(IllegalAction, match="virtual"):
        GAME.options_for({"modules": ["duo"], "virtual_opponents": 1}, 2)
    assert GAME.options_for({"modules": ["duo"]}, 1)["modules"] == ["duo"]
