"""Buying: cost minus bonuses (never below zero, never on pearls), gold for anything, tokens to the bag."""

from __future__ import annotations

import pytest

from engine.splendor_duel import apply
from engine.splendor_duel.errors import IllegalAction
from tests.splendor_duel.helpers import (
    MIX,
    card_places,
    fresh,
    give_card,
    give_reserved,
    set_board,
    set_tokens,
    snapshot,
    to_deck_top,
    to_pyramid,
    token_totals,
)


def position(card: str, **tokens: int) -> dict:
    state = to_pyramid(set_board(fresh(), {"E5": "white"}), card, 0)
    return set_tokens(state, 0, **tokens)


def test_buy_pays_the_printed_cost_and_tokens_go_to_the_bag():
    # L1-05: white, 1 PP, costs 2 green + 3 red.
    state = position("L1-05", green=2, red=3, blue=1)
    bag_before = dict(state["bag"])
    apply(state, 0, {"type": "buy", "card": "L1-05"})
    me = state["players"][0]
    assert me["tokens"]["green"] == 0 and me["tokens"]["red"] == 0 and me["tokens"]["blue"] == 1
    assert state["bag"]["green"] == bag_before["green"] + 2 and state["bag"]["red"] == bag_before["red"] + 3
    assert me["cards"] == [["L1-05", "white"]] and me["bonus"]["white"] == 1
    assert me["points"] == 1 and me["color_points"]["white"] == 1
    assert token_totals(state) == MIX and set(card_places(state).values()) == {1}


def test_buy_cost_minus_bonuses():
    state = position("L1-05", green=1, red=1)
    give_card(state, 0, "L1-11")  # green bonus
    give_card(state, 0, "L1-21")  # red bonus
    give_card(state, 0, "L1-22")  # red bonus
    apply(state, 0, {"type": "buy", "card": "L1-05"})
    assert state["players"][0]["tokens"]["green"] == 0 and state["players"][0]["tokens"]["red"] == 0


def test_bonuses_never_take_a_cost_below_zero():
    # Extra red bonuses do not pay for green.
    state = position("L1-05", green=1)
    for c in ("L1-21", "L1-22", "L1-23", "L1-24"):
        give_card(state, 0, c)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L1-05"})
    assert err.value.code == "cannot_afford" and state == before


def test_bonuses_never_reduce_pearls():
    # L1-03 white: 2 blue, 2 green, 1 pearl; blue and green bonuses cover the gems only.
    state = position("L1-03")
    for c in ("L1-06", "L1-07", "L1-11", "L1-12"):
        give_card(state, 0, c)
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "buy", "card": "L1-03"})
    set_tokens(state, 0, pearl=1)
    apply(state, 0, {"type": "buy", "card": "L1-03"})
    assert state["players"][0]["tokens"]["pearl"] == 0


def test_gold_pays_for_any_gem_or_pearl():
    state = position("L1-03", blue=1, green=2, gold=2)
    apply(state, 0, {"type": "buy", "card": "L1-03"})
    me = state["players"][0]
    assert me["tokens"]["gold"] == 0 and me["tokens"]["blue"] == 0
    assert state["bag"]["gold"] == 3


def test_buy_with_a_chosen_payment_spending_gold_for_a_held_gem():
    state = position("L1-05", green=2, red=3, gold=1)
    apply(state, 0, {"type": "buy", "card": "L1-05", "payment": {"green": 2, "red": 2, "gold": 1}})
    assert state["players"][0]["tokens"]["red"] == 1 and state["players"][0]["tokens"]["gold"] == 0


@pytest.mark.parametrize("payment", [
    {"green": 2, "red": 2},  # short
    {"green": 2, "red": 3, "gold": 1},  # too much gold
    {"green": 3, "red": 2},  # more green than needed
    {"green": 2, "red": 4},  # more red than held
])
def test_buy_with_a_wrong_payment_is_refused(payment):
    state = position("L1-05", green=3, red=3, gold=1)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L1-05", "payment": payment})
    assert err.value.code == "bad_payment" and state == before


def test_buy_from_own_reserve():
    state = set_tokens(set_board(fresh(), {"E5": "red"}), 0, blue=3)
    give_reserved(state, 0, "L1-02", blind=True)
    apply(state, 0, {"type": "buy", "card": "L1-02"})
    me = state["players"][0]
    assert me["reserved"] == [] and me["cards"] == [["L1-02", "white"]] and me["crowns"] == 1


def test_buy_not_from_the_opponents_reserve_or_a_deck():
    state = set_tokens(set_board(fresh(), {"E5": "red"}), 0, blue=3)
    give_reserved(state, 1, "L1-02")
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L1-02"})
    assert err.value.code == "not_available"
    to_deck_top(state, "L1-07")
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "buy", "card": "L1-07"})


def test_pyramid_refill_after_a_purchase():
    state = position("L1-05", green=2, red=3)
    top = state["decks"]["1"][-1]
    apply(state, 0, {"type": "buy", "card": "L1-05"})
    assert state["pyramid"]["1"][0] == top


def test_pyramid_refill_empty_deck_leaves_the_slot_empty():
    state = position("L1-05", green=2, red=3)
    state["decks"]["1"] = []
    apply(state, 0, {"type": "buy", "card": "L1-05"})
    assert state["pyramid"]["1"][0] is None


def test_double_bonus_card_counts_two():
    state = position("L2-04", blue=4, green=2)  # white x2, costs 5 blue + 2 green
    give_card(state, 0, "L1-06")
    apply(state, 0, {"type": "buy", "card": "L2-04"})
    assert state["players"][0]["bonus"]["white"] == 2


def test_points_only_card_gives_points_but_no_bonus_or_colour():
    state = position("L1-28", red=4, pearl=1)
    apply(state, 0, {"type": "buy", "card": "L1-28"})
    me = state["players"][0]
    assert me["points"] == 3 and me["cards"] == [["L1-28", None]]
    assert sum(me["bonus"].values()) == 0 and sum(me["color_points"].values()) == 0
