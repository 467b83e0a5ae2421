"""Reserving: one gold from the board plus a face-up card or a deck's hidden top card; at most 3."""

from __future__ import annotations

import pytest

from engine.splendor_duel import apply, view
from engine.splendor_duel.errors import IllegalAction
from tests.splendor_duel.helpers import (
    card_places,
    cell,
    fresh,
    give_reserved,
    set_board,
    set_tokens,
    snapshot,
    to_deck_top,
    to_pyramid,
)


def position() -> dict:
    state = set_board(fresh(), {"A1": "gold", "B1": "red", "E5": "gold"})
    return to_pyramid(state, "L2-05", 0)


def test_reserve_face_up_card_takes_gold_and_refills_the_slot():
    state = position()
    top = state["decks"]["2"][-1]
    apply(state, 0, {"type": "reserve", "gold": "A1", "card": "L2-05"})
    me = state["players"][0]
    assert me["reserved"] == [["L2-05", False]] and me["tokens"]["gold"] == 1
    assert cell(state, "A1") is None
    assert state["pyramid"]["2"][0] == top and len(state["decks"]["2"]) == 19
    assert set(card_places(state).values()) == {1}


def test_reserve_blind_from_a_deck_top():
    state = to_deck_top(position(), "L3-07")
    apply(state, 0, {"type": "reserve", "gold": "E5", "deck": 3})
    assert state["players"][0]["reserved"] == [["L3-07", True]]
    assert len(state["decks"]["3"]) == 9


def test_reserve_blind_card_is_secret_from_the_opponent_and_the_public():
    state = to_deck_top(position(), "L3-07")
    events = apply(state, 0, {"type": "reserve", "gold": "E5", "deck": 3})
    assert view(state, 0)["players"][0]["reserved"] == [{"card": "L3-07", "level": 3, "blind": True}]
    for viewer in (1, None):
        assert view(state, viewer)["players"][0]["reserved"] == [{"card": None, "level": 3, "blind": True}]
        assert "L3-07" not in repr(view(state, viewer))
    public = [e for e in events if e["to"] == "all"]
    assert public and "L3-07" not in repr(public)
    assert any(e["to"] == 0 and "L3-07" in e["text"] for e in events)


def test_reserve_face_up_card_stays_visible_to_both():
    state = position()
    apply(state, 0, {"type": "reserve", "gold": "A1", "card": "L2-05"})
    assert view(state, 1)["players"][0]["reserved"] == [{"card": "L2-05", "level": 2, "blind": False}]


def test_reserve_needs_gold_on_the_board():
    state = set_board(fresh(), {"B1": "red"})
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "reserve", "gold": "A1", "deck": 1})
    assert err.value.code == "not_gold"
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "reserve", "deck": 1})
    assert err.value.code == "no_gold"


def test_reserve_at_most_three_cards():
    state = position()
    for c in ("L1-01", "L1-02", "L1-03"):
        give_reserved(state, 0, c)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "reserve", "gold": "A1", "deck": 1})
    assert err.value.code == "reserve_full" and state == before


def test_reserve_from_an_empty_deck_is_refused():
    state = position()
    state["decks"]["3"] = []
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "reserve", "gold": "A1", "deck": 3})
    assert err.value.code == "deck_empty"


def test_reserve_a_card_not_face_up_is_refused():
    state = to_deck_top(position(), "L1-09")
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "reserve", "gold": "A1", "card": "L1-09"})
    assert err.value.code == "not_face_up"


def test_reserve_either_a_card_or_a_deck():
    state = position()
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "reserve", "gold": "A1", "card": "L2-05", "deck": 2})
    assert err.value.code == "reserve_what"


def test_pyramid_refill_empty_deck_leaves_a_hole():
    state = position()
    state["decks"]["2"] = []
    apply(state, 0, {"type": "reserve", "gold": "A1", "card": "L2-05"})
    assert state["pyramid"]["2"][0] is None


def test_reserved_card_has_no_effect_until_bought():
    # L3-01: white, 3 PP, 2 crowns; reserving it gives neither, nor a royal card at 3 crowns.
    state = to_pyramid(position(), "L3-01", 0)
    state["players"][0]["crowns"] = 2
    apply(state, 0, {"type": "reserve", "gold": "A1", "card": "L3-01"})
    me = state["players"][0]
    assert me["crowns"] == 2 and me["points"] == 0 and me["royals"] == [] and sum(me["bonus"].values()) == 0
    assert me["cards"] == [] and state["active"] == 1


def test_reserve_gold_counts_toward_the_ten_token_limit():
    state = set_tokens(position(), 0, white=4, blue=4, pearl=2)
    apply(state, 0, {"type": "reserve", "gold": "A1", "deck": 1})
    assert state["stage"] == "discard" and state["active"] == 0
    apply(state, 0, {"type": "discard", "tokens": {"gold": 1}})
    assert state["players"][0]["tokens"]["gold"] == 0 and state["bag"]["gold"] == 2 and state["active"] == 1
