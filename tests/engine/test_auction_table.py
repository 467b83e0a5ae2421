"""The per-colour auction resolution table of RULES.md §4, case by case (k bidders, n cards)."""

from __future__ import annotations

import pytest

from engine.viceroy import IllegalAction, apply_action
from tests.engine.helpers import gems, set_auction, set_pyramid, settle, spot, started, submit

BASE, TIP = 20, 24


def table(players: int, two_cards: bool) -> dict:
    state = started(players, seed=17)
    set_auction(state, {"red": (BASE, TIP if two_cards else None), "blue": (21, None)})
    for seat in range(players):
        state["players"][seat]["gems"] = gems(red=2, blue=2)
        set_pyramid(state, seat, {"1:0": 40 + seat})
    return state


def won(state: dict, seat: int) -> list[int]:
    return [n for n in state["players"][seat]["hand"] if n in (BASE, TIP)]


def test_k1_n1_bidder_takes_the_card() -> None:
    state = table(2, two_cards=False)
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "pass"}})
    settle(state)
    assert won(state, 0) == [BASE]


@pytest.mark.parametrize("named", [BASE, TIP])
def test_k1_n2_bidder_takes_the_named_card(named: int) -> None:
    state = table(2, two_cards=True)
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, 0, {"type": "bid", "color": "red"})
    assert exc.value.code == "name_card"
    submit(state, {0: {"type": "bid", "color": "red", "card": named}, 1: {"type": "pass"}})
    settle(state)
    assert won(state, 0) == [named]
    other = TIP if named == BASE else BASE
    assert other in (spot(state, "red")["base"], spot(state, "red")["tip"]) or other in state["discard"]


def test_k2_n2_different_cards_both_win() -> None:
    state = table(2, two_cards=True)
    submit(state, {0: {"type": "bid", "color": "red", "card": BASE}, 1: {"type": "bid", "color": "red", "card": TIP}})
    settle(state)
    assert won(state, 0) == [BASE] and won(state, 1) == [TIP]


def test_k2_n2_same_card_neither_wins() -> None:
    state = table(2, two_cards=True)
    submit(state, {0: {"type": "bid", "color": "red", "card": TIP}, 1: {"type": "bid", "color": "red", "card": TIP}})
    settle(state)
    assert won(state, 0) == [] and won(state, 1) == []
    assert (spot(state, "red")["base"], spot(state, "red")["tip"]) == (BASE, TIP)
    assert state["players"][0]["gems"]["red"] == 1  # the bid gem is gone anyway


def test_k2_n1_nobody_wins() -> None:
    state = table(3, two_cards=False)
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "bid", "color": "red"}, 2: {"type": "pass"}})
    settle(state)
    assert won(state, 0) == [] and won(state, 1) == []
    assert spot(state, "red")["base"] == BASE
    assert state["active"] == [0, 1]  # both bid again in round 2


def test_k3_n2_nobody_wins() -> None:
    state = table(3, two_cards=True)
    submit(state, {
        0: {"type": "bid", "color": "red", "card": BASE},
        1: {"type": "bid", "color": "red", "card": TIP},
        2: {"type": "bid", "color": "red", "card": TIP},
    })
    settle(state)
    assert all(won(state, s) == [] for s in range(3))
    assert state["reserve"]["red"] >= 3


def test_attack_on_last_card_of_a_colour_makes_its_bids_fail() -> None:
    state = table(3, two_cards=False)
    state["players"][2]["attacks"] = 1
    red_before = state["reserve"]["red"]
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "bid", "color": "blue"}, 2: {"type": "attack", "card": BASE}})
    settle(state)
    assert won(state, 2) == [BASE]
    assert won(state, 0) == []
    assert state["reserve"]["red"] == red_before + 1  # the failed bid still pays
    assert 21 in state["players"][1]["hand"]
    assert 0 in state["active"]


def test_attack_on_one_of_two_cards_leaves_a_single_card_for_the_bidder() -> None:
    state = table(2, two_cards=True)
    state["players"][1]["attacks"] = 1
    submit(state, {0: {"type": "bid", "color": "red", "card": BASE}, 1: {"type": "attack", "card": TIP}})
    settle(state)
    assert won(state, 1) == [TIP] and won(state, 0) == [BASE]


def test_attack_target_taken_by_earlier_attacker_asks_attack_pick() -> None:
    state = table(2, two_cards=True)
    for seat in (0, 1):
        state["players"][seat]["attacks"] = 2
    submit(state, {0: {"type": "attack", "card": TIP}, 1: {"type": "attack", "card": TIP}})
    assert won(state, 0) == [TIP]  # seat 0 holds the lowest card (40)
    decision = state["decision"]
    assert decision["kind"] == "attack_pick" and decision["seat"] == 1
    assert BASE in decision["options"] and TIP not in decision["options"]
    with pytest.raises(IllegalAction):
        apply_action(state, 1, {"type": "decide", "card": TIP})
    apply_action(state, 1, {"type": "decide", "card": BASE})
    assert won(state, 1) == [BASE]
    assert state["players"][1]["attacks"] == 1
