"""The token-line rule and the privilege it can give away."""

from __future__ import annotations

import pytest

from engine.splendor_duel import apply
from engine.splendor_duel.errors import IllegalAction
from tests.splendor_duel.helpers import cell, fresh, set_board, snapshot, token_totals

ROW = {"A1": "red", "B1": "blue", "C1": "green", "D1": "white", "E1": "black"}


def position(cells: dict[str, str]) -> dict:
    return set_board(fresh(), cells)


@pytest.mark.parametrize("cells", [
    ["C3"],
    ["C3", "D3"],
    ["B2", "C2", "D2"],  # row
    ["B1", "B2", "B3"],  # column
    ["A1", "B2", "C3"],  # diagonal
    ["E1", "D2", "C3"],  # anti-diagonal
    ["C3", "B2", "A1"],  # any order
])
def test_token_line_one_to_three_adjacent_in_a_straight_line(cells):
    tokens = ["red", "blue", "green"]
    state = position({c: tokens[i] for i, c in enumerate(cells)})
    apply(state, 0, {"type": "take", "tokens": cells})
    assert all(cell(state, c) is None for c in cells)
    got = state["players"][0]["tokens"]
    assert sum(got.values()) == len(cells)
    assert token_totals(state)["red"] == 4


@pytest.mark.parametrize("cells, code", [
    (["A1", "C1"], "not_a_line"),  # gap
    (["A1", "B2", "B3"], "not_a_line"),  # bent
    (["A1", "B1", "C1", "D1"], "take_count"),
    ([], "take_count"),
    (["A1", "A1"], "bad_cells"),
    (["Z9"], "bad_cell"),
])
def test_token_line_refuses_gaps_bends_and_more_than_three(cells, code):
    state = position(ROW | {"A2": "red", "B2": "red", "B3": "red"})
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "tokens": cells})
    assert err.value.code == code
    assert state == before


def test_token_line_no_gold():
    state = position({"A1": "gold", "B1": "red"})
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "tokens": ["A1"]})
    assert err.value.code == "take_gold" and "gold" in err.value.message


def test_token_line_cannot_cross_gold():
    state = position({"A1": "red", "B1": "gold", "C1": "red"})
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "tokens": ["A1", "B1", "C1"]})
    assert err.value.code == "take_gold"


def test_token_line_cannot_cross_an_empty_space():
    state = position({"A1": "red", "C1": "red"})
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "tokens": ["A1", "B1", "C1"]})
    assert err.value.code == "empty_cell"


def test_three_identical_tokens_give_the_opponent_a_privilege():
    state = position({"A1": "red", "B1": "red", "C1": "red"})
    apply(state, 0, {"type": "take", "tokens": ["A1", "B1", "C1"]})
    assert state["players"][1]["privileges"] == 2 and state["supply"] == 1


def test_both_pearls_give_the_opponent_a_privilege():
    state = position({"A1": "pearl", "B1": "pearl", "C1": "red"})
    apply(state, 0, {"type": "take", "tokens": ["A1", "B1", "C1"]})
    assert state["players"][1]["privileges"] == 2


def test_two_identical_or_one_pearl_give_nothing():
    state = position({"A1": "red", "B1": "red", "C1": "pearl"})
    apply(state, 0, {"type": "take", "tokens": ["A1", "B1", "C1"]})
    assert state["players"][1]["privileges"] == 1 and state["supply"] == 2


def test_privilege_given_comes_from_the_taker_when_the_supply_is_empty():
    state = position({"A1": "red", "B1": "red", "C1": "red"})
    state["supply"] = 0
    state["players"][0]["privileges"] = 2
    apply(state, 0, {"type": "take", "tokens": ["A1", "B1", "C1"]})
    assert state["players"][0]["privileges"] == 1 and state["players"][1]["privileges"] == 2


def test_privilege_given_is_lost_when_the_opponent_already_holds_all_three():
    state = position({"A1": "red", "B1": "red", "C1": "red"})
    state["supply"] = 0
    state["players"][1]["privileges"] = 3
    apply(state, 0, {"type": "take", "tokens": ["A1", "B1", "C1"]})
    assert state["players"][1]["privileges"] == 3 and state["supply"] == 0
    assert state["players"][0]["privileges"] == 0


def test_tokens_taken_with_privileges_do_not_count_toward_the_privilege_rule():
    # A pearl taken with a privilege plus a pearl in the line is not "both pearls" in the take action.
    state = position({"A1": "pearl", "C3": "pearl", "D3": "red", "E3": "red", "A5": "red"})
    state["players"][0]["privileges"], state["supply"] = 1, 1
    apply(state, 0, {"type": "take", "privileges": ["A1"], "tokens": ["C3"]})
    assert state["players"][1]["privileges"] == 1 and state["supply"] == 2
    state = position({"A1": "red", "C3": "red", "D3": "red"})
    state["players"][0]["privileges"], state["supply"] = 1, 1
    apply(state, 0, {"type": "take", "privileges": ["A1"], "tokens": ["C3", "D3"]})
    assert state["players"][1]["privileges"] == 1 and state["supply"] == 2
