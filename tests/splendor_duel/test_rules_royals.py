"""Crowns and royal cards: one royal card when crowns reach 3 and again at 6."""

from __future__ import annotations

import pytest

from engine.splendor_duel import apply
from engine.splendor_duel.errors import IllegalAction
from engine.splendor_duel.moves import buy_variants
from tests.splendor_duel.helpers import fresh, give_card, set_board, set_tokens, to_pyramid


def position(crowns: int) -> dict:
    # L1-02: white, 1 crown, costs 3 blue.
    state = set_tokens(to_pyramid(set_board(fresh(), {"E5": "white"}), "L1-02", 0), 0, blue=3)
    state["players"][0]["crowns"] = crowns
    return state


def test_royal_card_when_crowns_reach_three():
    state = position(2)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L1-02"})
    assert err.value.code == "royal_choice" and "R-4" in err.value.message
    assert {a["royal"] for a in buy_variants(state, 0, "L1-02")} == {"R-1", "R-2", "R-3", "R-4"}
    apply(state, 0, {"type": "buy", "card": "L1-02", "royal": "R-4"})
    me = state["players"][0]
    assert me["royals"] == ["R-4"] and me["points"] == 3 and state["royals"] == ["R-1", "R-2", "R-3"]


def test_royal_card_when_crowns_reach_six():
    state = position(5)
    apply(state, 0, {"type": "buy", "card": "L1-02", "royal": "R-3"})
    assert state["players"][0]["royals"] == ["R-3"]


def test_royal_card_not_between_thresholds():
    state = position(3)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L1-02", "royal": "R-4"})
    assert err.value.code == "unused_answer"
    apply(state, 0, {"type": "buy", "card": "L1-02"})
    assert state["players"][0]["royals"] == []


def test_royal_card_when_a_card_jumps_past_three():
    # L3-12 joker: 3 crowns, costs 8 black; from 1 crown to 4 passes 3.
    state = set_tokens(to_pyramid(set_board(fresh(), {"E5": "white"}), "L3-12", 0), 0, black=4, gold=3)
    give_card(state, 0, "L1-16")  # black bonus
    state["players"][0]["crowns"] = 1
    apply(state, 0, {"type": "buy", "card": "L3-12", "joker": "black", "royal": "R-2"})
    assert state["players"][0]["crowns"] == 4 and state["players"][0]["royals"] == ["R-2"]


def test_royal_points_count_to_twenty_but_not_to_a_colour():
    state = position(2)
    apply(state, 0, {"type": "buy", "card": "L1-02", "royal": "R-4"})
    me = state["players"][0]
    assert me["points"] == 3 and sum(me["color_points"].values()) == 0


def test_royal_card_taken_by_the_opponent_is_gone():
    state = position(2)
    state["royals"].remove("R-4")
    state["players"][1]["royals"].append("R-4")
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "buy", "card": "L1-02", "royal": "R-4"})


def test_royal_steal():
    state = position(2)
    set_tokens(state, 1, red=1, gold=1)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L1-02", "royal": "R-1"})
    assert err.value.code == "steal_choice"
    apply(state, 0, {"type": "buy", "card": "L1-02", "royal": "R-1", "royal_steal": "red"})
    assert state["players"][0]["tokens"]["red"] == 1 and state["players"][1]["tokens"]["red"] == 0


def test_royal_extra_turn():
    state = position(2)
    apply(state, 0, {"type": "buy", "card": "L1-02", "royal": "R-2"})
    assert state["active"] == 0 and state["turn"] == 2


def test_royal_privilege():
    state = position(2)
    apply(state, 0, {"type": "buy", "card": "L1-02", "royal": "R-3"})
    assert state["players"][0]["privileges"] == 1 and state["active"] == 1


def test_royal_card_none_left_nothing_happens():
    state = position(2)
    state["players"][1]["royals"], state["royals"] = list(state["royals"]), []
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L1-02", "royal": "R-4"})
    assert err.value.code == "unused_answer"
    assert all("royal" not in a for a in buy_variants(state, 0, "L1-02"))
    apply(state, 0, {"type": "buy", "card": "L1-02"})
    assert state["players"][0]["crowns"] == 3 and state["players"][0]["royals"] == [] and state["active"] == 1
