"""The auction phase (RULES.md §4) and priority (§8)."""

from __future__ import annotations

import pytest

from engine.viceroy import IllegalAction, apply_action, pending
from tests.engine.helpers import (
    COLORS,
    events_of,
    gems,
    set_auction,
    set_pyramid,
    settle,
    spot,
    started,
    submit,
)


def test_auction_bid_needs_gem_of_colour() -> None:
    state = started(2)
    set_auction(state, {"red": (20, None), "blue": (21, None)})
    state["players"][0]["gems"] = gems(blue=2)
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, 0, {"type": "bid", "color": "red"})
    assert exc.value.code == "no_gem"
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, 0, {"type": "bid", "color": "green"})  # no character at green
    assert exc.value.code == "empty_colour"
    apply_action(state, 0, {"type": "bid", "color": "blue"})
    assert state["choices"]["0"]["card"] == 21


def test_attacks_resolve_first_in_priority_order() -> None:
    state = started(3)
    set_auction(state, {"red": (20, None), "blue": (21, None), "green": (22, None)})
    set_pyramid(state, 0, {"1:0": 30})
    set_pyramid(state, 1, {"1:0": 7})  # lowest card: attacks first
    for seat in (0, 1):
        state["players"][seat]["attacks"] = 1
    state["players"][2]["gems"] = gems(red=1)
    submit(state, {0: {"type": "attack", "card": 20}, 1: {"type": "attack", "card": 20}, 2: {"type": "bid", "color": "red"}})
    assert 20 in state["players"][1]["hand"]
    assert state["players"][1]["attacks"] == 0
    # The red bid fails: the attacker took the last red card first.
    assert 20 not in state["players"][2]["hand"]
    # Seat 0's target is gone: it picks another character on offer.
    decision = state["decision"]
    assert decision["seat"] == 0 and decision["kind"] == "attack_pick"
    assert sorted(decision["options"]) == [21, 22]
    apply_action(state, 0, {"type": "decide", "card": 22})
    assert 22 in state["players"][0]["hand"]
    assert state["players"][0]["attacks"] == 0
    assert spot(state, "green")["base"] is None


def test_attacker_with_nothing_left_keeps_token_and_passes() -> None:
    state = started(2)
    set_auction(state, {"red": (20, None)})
    set_pyramid(state, 0, {"1:0": 3})
    set_pyramid(state, 1, {"1:0": 40})
    for seat in (0, 1):
        state["players"][seat]["attacks"] = 1
    before = sum(state["players"][1]["gems"].values())
    state["reserve"] = gems(red=3, blue=3)
    events = submit(state, {0: {"type": "attack", "card": 20}, 1: {"type": "attack", "card": 20}})
    events += settle(state)
    assert 20 in state["players"][0]["hand"]
    assert state["players"][1]["attacks"] == 1  # nothing left to take: the token is kept
    assert events_of(events, "attack_empty")
    assert sum(state["players"][1]["gems"].values()) == before + 3  # and the seat passes


def test_all_bid_gems_go_to_reserve() -> None:
    state = started(3)
    set_auction(state, {"red": (20, None), "blue": (21, None)})
    for seat in range(3):
        state["players"][seat]["gems"] = gems(red=1, blue=1)
    state["reserve"] = gems()
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "bid", "color": "red"}, 2: {"type": "bid", "color": "blue"}})
    assert state["reserve"]["red"] == 2  # two losing bids
    assert state["reserve"]["blue"] == 1  # the winning bid too
    assert 21 in state["players"][2]["hand"]
    assert state["players"][0]["gems"] == gems(blue=1)


def test_pass_reward_3_plus_science() -> None:
    state = started(2)
    science = [{"type": "science"}] * 2
    set_pyramid(state, 0, {"1:0": 30}, tokens={"1:0": science})
    state["players"][0]["gems"] = gems()
    state["reserve"] = gems(red=4, green=4, blue=4, yellow=4)
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "pass", "gems": gems(red=6)})
    submit(state, {0: {"type": "pass", "gems": gems(red=3, green=2)}, 1: {"type": "pass", "gems": gems(blue=3)}})
    assert state["players"][0]["gems"] == gems(red=3, green=2)


def test_pass_example_4_science_7_gems() -> None:
    state = started(2)
    set_pyramid(state, 0, {"1:0": 30, "1:2": 31}, tokens={"1:0": [{"type": "science"}] * 3, "1:2": [{"type": "science"}]})
    state["players"][0]["gems"] = gems()
    state["reserve"] = gems(red=4, green=4, blue=4, yellow=4)
    submit(state, {0: {"type": "pass", "gems": gems(red=4, yellow=3)}, 1: {"type": "pass", "gems": gems(blue=3)}})
    assert sum(state["players"][0]["gems"].values()) == 7


def test_pass_takes_what_the_reserve_allows_in_priority_order() -> None:
    state = started(2)
    set_pyramid(state, 0, {"1:0": 40})
    set_pyramid(state, 1, {"1:0": 4})  # goes first
    for seat in (0, 1):
        state["players"][seat]["gems"] = gems()
    state["reserve"] = gems(green=4)
    submit(state, {0: {"type": "pass", "gems": gems(green=3)}, 1: {"type": "pass", "gems": gems(green=3)}})
    settle(state)
    assert state["players"][1]["gems"] == gems(green=3)
    assert state["players"][0]["gems"] == gems(green=1)


def test_winner_and_passer_leave_the_auction() -> None:
    state = started(3)
    set_auction(state, {"red": (20, None), "blue": (21, None)})
    for seat in range(3):
        state["players"][seat]["gems"] = gems(red=2, blue=1)
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "pass"}, 2: {"type": "bid", "color": "red"}})
    settle(state)
    assert state["active"] == [0, 2] and state["round"] == 2
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, 1, {"type": "pass"})  # a seat passes only once per turn
    assert exc.value.code == "not_active"
    submit(state, {0: {"type": "bid", "color": "blue"}, 2: {"type": "bid", "color": "red"}})
    settle(state)
    assert 21 in state["players"][0]["hand"] and 20 in state["players"][2]["hand"]
    assert state["phase"] == "development"


def test_forced_pass_after_round_3() -> None:
    state = started(2)
    set_auction(state, {"red": (20, None)})
    hands = [list(p["hand"]) for p in state["players"]]
    for seat in (0, 1):
        state["players"][seat]["gems"] = gems(red=3)
    state["reserve"] = gems(blue=8, yellow=8)
    for rnd in (1, 2, 3):
        assert state["phase"] == "auction" and state["round"] == rnd
        events = submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "bid", "color": "red"}})
    events += settle(state)
    assert [e["seat"] for e in events_of(events, "forced_pass")] == sorted([0, 1], key=lambda s: state["players"][s]["pyramid"]["cards"]["1:0"]["card"])
    for seat in (0, 1):
        assert state["players"][seat]["hand"] == hands[seat]
        assert sum(state["players"][seat]["gems"].values()) == 3  # 3 passing gems, the reds were bid
    assert state["phase"] == "development"


def test_end_of_auction_discard_shift_reveal() -> None:
    state = started(2)
    set_auction(state, {"red": (20, 24), "green": (21, None), "blue": (22, None), "yellow": (23, None)})
    top = state["large_deck"][-4:]
    size = len(state["large_deck"])
    submit(state, {0: {"type": "pass"}, 1: {"type": "pass"}})
    settle(state)
    assert state["phase"] == "development"
    assert 24 in state["discard"]
    assert {c: spot(state, c)["tip"] for c in COLORS} == {"red": 20, "green": 21, "blue": 22, "yellow": 23}
    assert [spot(state, c)["base"] for c in COLORS] == list(reversed(top))
    assert len(state["large_deck"]) == size - 4


def test_one_card_per_turn_then_development() -> None:
    state = started(2)
    set_auction(state, {"red": (20, None), "blue": (21, None)})
    for seat in (0, 1):
        state["players"][seat]["gems"] = gems(red=1, blue=1)
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "bid", "color": "blue"}})
    settle(state)
    assert state["phase"] == "development"
    assert 20 in state["players"][0]["hand"] and 21 in state["players"][1]["hand"]
    assert set(pending(state)) == {0, 1}
