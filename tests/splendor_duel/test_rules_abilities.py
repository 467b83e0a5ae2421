"""Card abilities, each resolved when the card is gained and skipped when it cannot resolve."""

from __future__ import annotations

import pytest

from engine.splendor_duel import apply
from engine.splendor_duel.errors import IllegalAction
from engine.splendor_duel.moves import buy_variants, legal_actions
from tests.splendor_duel.helpers import cell, fresh, give_card, set_board, set_tokens, snapshot, to_pyramid


def position(card: str, board: dict | None = None, **tokens: int) -> dict:
    state = to_pyramid(set_board(fresh(), board or {"E5": "white"}), card, 0)
    return set_tokens(state, 0, **tokens)


def test_ability_extra_turn():
    state = position("L1-03", blue=2, green=2, pearl=1)  # extra turn
    apply(state, 0, {"type": "buy", "card": "L1-03"})
    assert state["active"] == 0 and state["stage"] == "start" and state["turn"] == 2


def test_ability_extra_turn_only_if_nobody_won():
    state = position("L1-03", blue=2, green=2, pearl=1)
    state["players"][0]["points"] = 20  # already at the goal: the turn ends the game instead
    apply(state, 0, {"type": "buy", "card": "L1-03"})
    assert state["stage"] == "over" and state["winner"] == 0


def test_ability_joker_placed_on_a_coloured_column():
    state = position("L1-26", black=4, pearl=1)  # joker, 1 PP
    give_card(state, 0, "L1-21")  # red bonus
    apply(state, 0, {"type": "buy", "card": "L1-26", "joker": "red"})
    me = state["players"][0]
    assert me["cards"][-1] == ["L1-26", "red"]
    assert me["bonus"]["red"] == 2 and me["color_points"]["red"] == 1


def test_ability_joker_unbuyable_without_a_coloured_bonus():
    state = position("L1-26", black=4, pearl=1)
    give_card(state, 0, "L1-28")  # a gray points-only card is no coloured bonus
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L1-26", "joker": "red"})
    assert err.value.code == "joker_needs_bonus" and state == before
    assert not any(a.get("card") == "L1-26" for a in legal_actions(state, 0) if a["type"] == "buy")


def test_ability_joker_only_on_a_colour_held():
    state = position("L1-26", black=4, pearl=1)
    give_card(state, 0, "L1-21")
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L1-26", "joker": "blue"})
    assert err.value.code == "joker_color"
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "buy", "card": "L1-26"})
    assert {a["joker"] for a in buy_variants(state, 0, "L1-26")} == {"red"}


def test_ability_joker_copies_the_colour_not_the_number_of_bonuses():
    state = position("L1-26", black=4, pearl=1)
    give_card(state, 0, "L2-20")  # red x2
    apply(state, 0, {"type": "buy", "card": "L1-26", "joker": "red"})
    assert state["players"][0]["bonus"]["red"] == 3


def test_ability_joker_placed_on_another_joker_colour():
    state = position("L1-29", blue=2, red=2, black=1, pearl=1)
    give_card(state, 0, "L1-28")
    give_card(state, 0, "L1-30", color="green")  # a joker already on green is a green bonus
    state["players"][0]["bonus"]["green"] = 1
    apply(state, 0, {"type": "buy", "card": "L1-29", "joker": "green"})
    assert state["players"][0]["bonus"]["green"] == 2


def test_ability_take_token_of_the_cards_colour():
    # L1-04 white: 2 red, 2 black, take a white token.
    state = position("L1-04", board={"A1": "white", "C3": "white", "E5": "red"}, red=2, black=2)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L1-04"})
    assert err.value.code == "take_ability"
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "buy", "card": "L1-04", "take": "E5"})
    apply(state, 0, {"type": "buy", "card": "L1-04", "take": "C3"})
    assert cell(state, "C3") is None and cell(state, "A1") == "white"
    assert state["players"][0]["tokens"]["white"] == 1


def test_ability_take_token_skipped_when_none_on_the_board():
    state = position("L1-04", board={"E5": "red"}, red=2, black=2)
    apply(state, 0, {"type": "buy", "card": "L1-04"})
    assert state["players"][0]["tokens"]["white"] == 0 and state["active"] == 1
    state2 = position("L1-04", board={"E5": "red"}, red=2, black=2)
    with pytest.raises(IllegalAction) as err:
        apply(state2, 0, {"type": "buy", "card": "L1-04", "take": "E5"})
    assert err.value.code == "unused_answer"


def test_ability_take_privilege_from_the_supply():
    state = position("L2-03", board={"E5": "red"}, white=4, black=2, pearl=1)  # take a privilege
    apply(state, 0, {"type": "buy", "card": "L2-03"})
    assert state["players"][0]["privileges"] == 1 and state["supply"] == 1


def test_ability_take_privilege_from_the_opponent_when_the_supply_is_empty():
    state = position("L2-03", board={"E5": "red"}, white=4, black=2, pearl=1)
    state["supply"], state["players"][1]["privileges"] = 0, 3
    apply(state, 0, {"type": "buy", "card": "L2-03"})
    assert state["players"][0]["privileges"] == 1 and state["players"][1]["privileges"] == 2


def test_ability_take_privilege_nothing_when_holding_all_three():
    state = position("L2-03", board={"E5": "red"}, white=4, black=2, pearl=1)
    state["supply"], state["players"][1]["privileges"], state["players"][0]["privileges"] = 0, 0, 3
    apply(state, 0, {"type": "buy", "card": "L2-03"})
    assert state["players"][0]["privileges"] == 3 and state["supply"] == 0


def test_ability_steal_a_gem_or_pearl():
    state = position("L2-02", blue=4, red=3)  # steal
    set_tokens(state, 1, pearl=1, gold=2)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L2-02", "steal": "gold"})
    assert err.value.code == "steal_gold"
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "buy", "card": "L2-02", "steal": "red"})
    assert err.value.code == "steal_choice"
    assert {a["steal"] for a in buy_variants(state, 0, "L2-02")} == {"pearl"}
    apply(state, 0, {"type": "buy", "card": "L2-02", "steal": "pearl"})
    assert state["players"][0]["tokens"]["pearl"] == 1 and state["players"][1]["tokens"]["pearl"] == 0


def test_ability_steal_never_gold_and_skipped_when_nothing_to_steal():
    state = position("L2-02", blue=4, red=3)
    set_tokens(state, 1, gold=3)
    apply(state, 0, {"type": "buy", "card": "L2-02"})
    assert state["players"][1]["tokens"]["gold"] == 3 and state["active"] == 1
