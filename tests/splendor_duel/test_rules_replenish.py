"""Replenishing the board: the bag's tokens in spiral order, a privilege for the opponent, never with an
empty bag, only once and before the mandatory action, forced when nothing else is possible."""

from __future__ import annotations

import pytest

from engine.splendor_duel import apply
from engine.splendor_duel import board as B
from engine.splendor_duel.cards import SPIRAL
from engine.splendor_duel.errors import IllegalAction
from engine.splendor_duel.moves import legal_actions, pending
from tests.splendor_duel.helpers import (
    MIX,
    fresh,
    give_reserved,
    set_board,
    set_tokens,
    snapshot,
    token_totals,
)


def test_replenish_fills_empty_spaces_in_spiral_order():
    state = fresh()
    # Empty the first six spaces of the spiral: six tokens go to the bag.
    for i in SPIRAL[:3] + SPIRAL[10:13]:
        state["board"][i] = None
    set_board(state, keep=True)
    assert sum(state["bag"].values()) == 6
    apply(state, 0, {"type": "replenish"})
    assert None not in state["board"] and sum(state["bag"].values()) == 0
    assert token_totals(state) == MIX


def test_replenish_with_a_small_bag_fills_the_first_empty_spaces_of_the_spiral():
    state = set_board(fresh(), {})
    # Everything is in the bag except what the players hold: give them most of it.
    set_tokens(state, 0, white=4, blue=4, green=2)
    set_tokens(state, 1, green=2, red=4, black=4)
    left = sum(state["bag"].values())
    assert left == 5  # 2 pearls + 3 gold
    apply(state, 0, {"type": "replenish"})
    filled = [i for i in range(25) if state["board"][i] is not None]
    assert sorted(filled) == sorted(SPIRAL[:5])


def test_replenish_gives_the_opponent_a_privilege():
    state = fresh()
    state["board"][SPIRAL[0]] = None
    set_board(state, keep=True)
    apply(state, 0, {"type": "replenish"})
    assert state["players"][1]["privileges"] == 2 and state["supply"] == 1


def test_replenish_privilege_from_the_replenisher_when_the_supply_is_empty():
    state = fresh()
    state["board"][SPIRAL[0]] = None
    set_board(state, keep=True)
    state["supply"] = 0
    state["players"][0]["privileges"] = 2
    apply(state, 0, {"type": "replenish"})
    assert state["players"][0]["privileges"] == 1 and state["players"][1]["privileges"] == 2


def test_replenish_impossible_with_an_empty_bag():
    state = fresh()
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "replenish"})
    assert err.value.code == "bag_empty" and state == before
    assert {"type": "replenish"} not in legal_actions(state, 0)
    assert pending(state)[0].choices["can_replenish"] is False


def test_replenish_only_once_and_its_own_step():
    state = fresh()
    state["board"][SPIRAL[0]] = None
    set_board(state, keep=True)
    apply(state, 0, {"type": "replenish"})
    assert state["active"] == 0 and state["stage"] == "replenished"
    assert pending(state)[0].choices["stage"] == "replenished"
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "replenish"})
    assert err.value.code == "after_replenish"


def test_replenish_after_privileges_in_the_same_action():
    state = fresh()
    state["board"][SPIRAL[0]] = None
    set_board(state, keep=True)
    state["players"][0]["privileges"] = 1
    state["supply"] = 1
    target = next(i for i, t in enumerate(state["board"]) if t not in ("gold", None))
    apply(state, 0, {"type": "replenish", "privileges": [B.CELL_NAMES[target]]})
    # The privilege's token is the player's; the bag's one token refills the first empty space.
    assert state["board"][SPIRAL[0]] is not None and state["board"][target] is None
    assert state["players"][0]["privileges"] == 0 and sum(state["players"][0]["tokens"].values()) == 1


def test_replenish_forced_when_no_mandatory_action_is_possible():
    # Only gold on the board, three cards reserved, nothing affordable: replenishing is the only move.
    state = set_board(fresh(), {"A1": "gold"})
    for c in ("L3-01", "L3-03", "L3-05"):
        give_reserved(state, 0, c)
    prompt = pending(state)[0]
    assert prompt.choices["must_replenish"] is True
    assert legal_actions(state, 0) == [{"type": "replenish"}]
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "reserve", "gold": "A1", "deck": 1})
    assert err.value.code == "must_replenish"
    apply(state, 0, {"type": "replenish"})
    assert pending(state)[0].choices["must_replenish"] is False
    assert legal_actions(state, 0)


def test_replenish_privilege_lost_when_the_opponent_already_holds_all_three():
    state = fresh()
    state["board"][SPIRAL[0]] = None
    set_board(state, keep=True)
    state["supply"], state["players"][1]["privileges"] = 0, 3
    apply(state, 0, {"type": "replenish"})
    assert state["players"][1]["privileges"] == 3 and state["players"][0]["privileges"] == 0
    assert state["supply"] == 0 and state["board"][SPIRAL[0]] is not None
