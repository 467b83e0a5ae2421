"""Privileges: spent first in a turn, each for one non-gold token, back to the supply; none after
replenishing."""

from __future__ import annotations

import pytest

from engine.splendor_duel import apply
from engine.splendor_duel.errors import IllegalAction
from engine.splendor_duel.moves import legal_actions
from tests.splendor_duel.helpers import (
    cell,
    fresh,
    give_reserved,
    set_board,
    set_tokens,
    snapshot,
    to_pyramid,
)


def position(privileges: int = 2) -> dict:
    state = set_board(fresh(), {"A1": "red", "B1": "blue", "C1": "green", "E5": "gold", "C3": "pearl",
                                "D4": "black"})
    state["players"][0]["privileges"] = privileges
    state["supply"] = 3 - privileges - state["players"][1]["privileges"]
    return state


def test_privilege_takes_one_non_gold_token_and_returns_to_the_supply():
    state = position(2)
    apply(state, 0, {"type": "take", "privileges": ["C3", "D4"], "tokens": ["A1", "B1", "C1"]})
    me = state["players"][0]
    assert me["privileges"] == 0 and state["supply"] == 2
    assert me["tokens"]["pearl"] == 1 and me["tokens"]["black"] == 1 and sum(me["tokens"].values()) == 5
    assert cell(state, "C3") is None and cell(state, "D4") is None


def test_privilege_cannot_take_gold():
    state = position(1)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "privileges": ["E5"], "tokens": ["A1"]})
    assert err.value.code == "privilege_gold" and state == before


def test_privilege_cannot_spend_more_than_held():
    state = position(1)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "privileges": ["C3", "D4"], "tokens": ["A1"]})
    assert err.value.code == "no_privilege"


def test_privileges_come_before_the_mandatory_action():
    # A token taken with a privilege is no longer there for the line.
    state = position(1)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "privileges": ["B1"], "tokens": ["A1", "B1"]})
    assert err.value.code == "empty_cell" and state == before


def test_privileges_alone_keep_the_turn_open():
    state = position(2)
    apply(state, 0, {"type": "privileges", "tokens": ["C3"]})
    assert state["active"] == 0 and state["stage"] == "start"
    apply(state, 0, {"type": "privileges", "tokens": ["D4"]})
    apply(state, 0, {"type": "take", "tokens": ["A1"]})
    assert state["active"] == 1 and state["players"][0]["tokens"]["pearl"] == 1


def test_privileges_not_after_replenishing():
    state = position(2)
    apply(state, 0, {"type": "replenish"})
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "privileges": ["C3"], "tokens": ["A1"]})
    assert err.value.code == "after_replenish"
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "privileges", "tokens": ["C3"]})
    assert not any(a["type"] == "privileges" or a.get("privileges") for a in legal_actions(state, 0))


def test_privileges_offered_one_token_at_a_time_in_legal_actions():
    state = position(1)
    offered = {a["tokens"][0] for a in legal_actions(state, 0) if a["type"] == "privileges"}
    assert offered == {"A1", "B1", "C1", "C3", "D4"}


def stuck_position(bag_gold: int) -> dict:
    """Seat 0 holds 10 tokens, three reserved cards and nothing it can buy; the board holds red and green
    and the other gems are with seat 1, so the bag holds only what gold the board and players do not."""
    state = set_board(fresh(), {"A1": "red", "B1": "green"} | {c: "gold" for c in ("C5", "D5", "E5")[bag_gold:]})
    set_tokens(state, 0, white=4, black=4, pearl=2)
    set_tokens(state, 1, blue=4, green=3, red=3)
    for c in ("L3-01", "L3-03", "L3-05"):
        give_reserved(state, 0, c)
    # A pyramid of cards seat 0 cannot pay for, even with the red and green it may take.
    for row in (("L1-01", "L1-02", "L1-03", "L1-04", "L1-05"), ("L2-01", "L2-02", "L2-04", "L2-05"),
                ("L3-02", "L3-04", "L3-06")):
        for i, c in enumerate(row):
            to_pyramid(state, c, i)
    state["players"][0]["privileges"], state["players"][1]["privileges"], state["supply"] = 2, 0, 1
    return state


def test_privileges_cannot_leave_no_possible_action_with_an_empty_bag():
    state = stuck_position(bag_gold=0)
    # Gold is on the board but three cards are reserved: without a gem or pearl, nothing can be done.
    apply(state, 0, {"type": "privileges", "tokens": ["A1"]})
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "privileges", "tokens": ["B1"]})
    assert err.value.code == "dead_end" and state == before
    assert not any(a["type"] == "privileges" for a in legal_actions(state, 0))


def test_privileges_cannot_leave_only_gold_to_replenish_with():
    # Replenishing would lay only gold, which a player with three reserved cards cannot use.
    state = stuck_position(bag_gold=3)
    apply(state, 0, {"type": "privileges", "tokens": ["A1"]})
    assert not any(a["type"] == "privileges" for a in legal_actions(state, 0))
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "privileges", "tokens": ["B1"]})
    assert err.value.code == "dead_end" and state == before
    # Taking that last token as the turn's line is fine.
    apply(state, 0, {"type": "take", "tokens": ["B1"], "discard": {"white": 2}})
    assert state["active"] == 1


def test_privileges_may_leave_only_gold_when_a_reservation_follows():
    state = stuck_position(bag_gold=3)
    state["players"][0]["reserved"].pop()
    apply(state, 0, {"type": "privileges", "tokens": ["A1"]})
    apply(state, 0, {"type": "privileges", "tokens": ["B1"]})
    apply(state, 0, {"type": "replenish"})
    assert [a["type"] for a in legal_actions(state, 0)] and all(
        a["type"] == "reserve" for a in legal_actions(state, 0))


def test_privilege_cannot_take_from_an_empty_space():
    state = position(1)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "privileges": ["E1"], "tokens": ["A1"]})
    assert err.value.code == "empty_cell" and state == before
