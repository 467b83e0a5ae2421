"""The trusted reading of an action built from the legal options (the AI's seats) gives what the full check gives.

``apply_action(..., trusted=True)`` reads a sealed phase's choice without checking it again where the phase's
check has a trusted reading (``rules.trust``). Checked here on every sealed action of random AI games, with and
without modules: the reading equals the check's choice (or declines, and the check runs), and a game played
trusted ends in the state its record replays to through the full checks, with the same events.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.viceroy import IllegalAction, apply_action, new_game, new_record, replay
from engine.viceroy.ai import _next_seat, choose_action, play_game
from engine.viceroy.rules import rules_for, trusted_reading

MODULE_SETS = [[], ["darkness"], ["invasion"], ["aristocrats"], ["darkness", "underworld"], ["duo"],
               ["darkness", "aristocrats", "invasion", "underworld"]]


def _options(players: int, modules: list[str], deal: int) -> dict:
    if "duo" in modules:
        players = min(players, 2)
    options: dict = {"players": players, "deal": deal}
    if modules:
        options["modules"] = list(modules)
    return options


def _sealed_check(state: dict):
    if state["decision"] is not None:
        return None
    return rules_for(state).phases[state["phase"]].validate


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), modules=st.sampled_from(MODULE_SETS), deal=st.sampled_from([2, 4]),
       seed=st.integers(0, 2**31 - 1))
def test_the_trusted_reading_of_every_ai_action_equals_the_full_check(players: int, modules: list[str], deal: int,
                                                                      seed: int) -> None:
    options = _options(players, modules, deal)
    state = new_game(options, seed)
    rng = random.Random(seed)
    read = 0
    while (seat := _next_seat(state)) is not None:
        action = choose_action(state, seat, rng)
        check = _sealed_check(state)
        reading = trusted_reading(check)
        if reading is not None and seat in state["active"]:
            before = copy.deepcopy(state)
            fast = reading(state, seat, copy.deepcopy(action))
            assert state == before, "a trusted reading changes nothing"
            if fast is not None:
                read += 1
                assert fast == check(state, seat, copy.deepcopy(action))
                assert list(fast) == list(check(state, seat, copy.deepcopy(action))), "the same fields, in order"
        apply_action(state, seat, action)
    assert state["phase"] == "over"
    if not modules:
        assert read > 0


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), modules=st.sampled_from(MODULE_SETS), seed=st.integers(0, 2**31 - 1))
def test_a_game_played_trusted_replays_to_the_same_state_through_the_full_checks(players: int, modules: list[str],
                                                                                 seed: int) -> None:
    options = _options(players, modules, 4)
    state, actions = play_game(options, seed)
    record = new_record(options, seed, [str(s) for s in range(options["players"])])
    record["actions"] = actions
    assert replay(record) == state


@pytest.mark.parametrize("seed", range(6))
def test_trusted_and_checked_actions_give_the_same_events(seed: int) -> None:
    checked, trusted = new_game({"players": 4}, seed), new_game({"players": 4}, seed)
    rng = random.Random(seed)
    while (seat := _next_seat(checked)) is not None:
        action = choose_action(checked, seat, rng)
        assert apply_action(trusted, seat, copy.deepcopy(action), trusted=True) == apply_action(checked, seat, action)
        assert trusted == checked


def test_an_illegal_action_marked_trusted_outside_the_readings_is_still_refused() -> None:
    # A decision, a painting or a law is always checked; so is an action no reading covers.
    state = new_game({"players": 2}, 3)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "decide", "card": 1}, trusted=True)
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "setup", "start": 999, "keep": 998}, trusted=True)
    assert state == before


def _painting_state(seed: int) -> dict:
    state = new_game({"players": 3}, seed)
    rng = random.Random(seed)
    while state["phase"] not in ("painting", "over"):
        seat = _next_seat(state)
        apply_action(state, seat, choose_action(state, seat, rng))
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), gems=st.lists(st.integers(0, 9), min_size=4, max_size=4))
def test_a_trusted_painting_paints_as_the_checked_one(seed: int, gems: list[int]) -> None:
    from engine.viceroy.painting import best_painting

    state = _painting_state(seed % 500)
    assume(state["phase"] == "painting")  # (every seat may have had nothing to paint)
    for seat, player in enumerate(state["players"]):
        if player["painted"] is None:
            player["gems"] = dict(zip(("red", "green", "blue", "yellow"), gems, strict=True))
            action = {"type": "paint", "paint": best_painting(state, seat)[0]}
            checked, trusted = copy.deepcopy(state), copy.deepcopy(state)
            assert apply_action(trusted, seat, copy.deepcopy(action), trusted=True) == apply_action(checked, seat, action)
            assert trusted == checked
            break


def test_a_trusted_painting_twice_is_refused_as_the_checked_one() -> None:
    state = _painting_state(11)
    assert state["phase"] == "painting"
    seat = _next_seat(state)
    apply_action(state, seat, {"type": "paint", "paint": []}, trusted=True)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="already painted"):
        apply_action(state, seat, {"type": "paint", "paint": []}, trusted=True)
    assert state == before
