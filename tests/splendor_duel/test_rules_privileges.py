"""Privileges: spent first in a turn, each for one non-gold token, back to the supply; none after
replenishing."""

from __future__ import annotations

import pytest

from engine.splendor_duel import apply
from engine.splendor_duel.errors import IllegalAction
from engine.splendor_duel.moves import legal_actions
from tests.splendor_duel.helpers import cell, fresh, set_board, snapshot


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
