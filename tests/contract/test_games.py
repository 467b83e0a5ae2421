"""The conformance suite over every registered game (and the toy game of the service tests)."""

from __future__ import annotations

import dataclasses
import decimal
import random

import pytest

from engine import api, contract, registry
from tests.service import toygame

GAMES = [registry.load_game(name) for name in registry.GAMES] + [toygame.GAME]
CASES = [(game, seats, options) for game in GAMES for seats, options in contract.option_sets(game)]


def _id(case: tuple) -> str:
    game, seats, options = case
    extra = ",".join(f"{k}={v}" for k, v in sorted(options.items()) if k != "players")
    return f"{game.name}-{seats}p-{extra}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_random_game_meets_the_contract(case: tuple) -> None:
    game, seats, options = case
    report = contract.Report()
    for seed in (1, 2):
        contract.play_and_check(game, seats, options, seed, deep_every=2, report=report)
    assert report.games == 2 and report.actions > 0 and report.refused > 0


def test_every_registered_game_is_a_game_with_a_matching_name() -> None:
    for name in registry.GAMES:
        game = registry.load_game(name)
        assert isinstance(game, api.Game) and isinstance(game, api.GameDef)
        assert game.type.name == name and game.type.dynamics in ("sealed", "sequential")
        assert 1 <= game.type.min_seats <= game.type.max_seats


def test_every_seat_count_is_covered() -> None:
    for game in GAMES:
        counts = {seats for seats, _ in contract.option_sets(game)}
        assert counts == set(range(game.type.min_seats, game.type.max_seats + 1)), game.name


def test_unknown_game_is_refused() -> None:
    with pytest.raises(registry.UnknownGame):
        registry.load_game("chess")


def test_options_are_validated_against_the_game_type() -> None:
    viceroy = registry.load_game("viceroy")
    with pytest.raises(api.IllegalAction, match="Starting deal"):
        viceroy.options_for({"deal": 3}, 2)
    with pytest.raises(api.IllegalAction, match="1–4 players"):
        viceroy.options_for({}, 5)
    with pytest.raises(api.IllegalAction, match="at most 1 virtual"):
        viceroy.options_for({"virtual_opponents": 2}, 3)
    assert viceroy.options_for({"virtual_opponents": 3}, 1)["virtual_opponents"] == 1


# ---------------------------------------------------------------- the suite catches broken games


def _broken(**changes) -> api.Game:
    return dataclasses.replace(toygame.GAME, **changes)


def _run(game: api.Game) -> None:
    for seats in (2, 3):
        contract.play_and_check(game, seats, {"rounds": 3}, 5)


def test_suite_catches_a_view_that_leaks_other_hands() -> None:
    def leaky(state, seat):
        out = toygame.view(state, seat)
        out["all_hands"] = [list(h) for h in state["hands"]]
        return out

    with pytest.raises(contract.ContractViolation, match="view"):
        _run(_broken(view=leaky))


def test_suite_catches_a_refused_action_that_changed_the_state() -> None:
    def sloppy(state, seat, action):
        state["scratch"] = state.get("scratch", 0) + 1  # mutates before validating
        return toygame.apply_action(state, seat, action)

    with pytest.raises(contract.ContractViolation):
        _run(_broken(apply=sloppy))


def test_suite_catches_an_unhandled_error_on_junk() -> None:
    def crashing(state, seat, action):
        if isinstance(action, dict) and action.get("card") == "zzz":
            raise KeyError("zzz")
        return toygame.apply_action(state, seat, action)

    with pytest.raises(contract.ContractViolation, match="KeyError"):
        _run(_broken(apply=crashing))


def test_suite_catches_an_illegal_default_action() -> None:
    with pytest.raises(contract.ContractViolation, match="default_action"):
        _run(_broken(default_action=lambda state, seat: {"type": "choose", "card": 99}))


def test_suite_catches_a_game_that_does_not_replay() -> None:
    def unseeded(options, seed, seats):
        return toygame.new_game(options, random.randrange(10**9), seats)

    with pytest.raises(contract.ContractViolation, match="replay"):
        _run(_broken(new_game=unseeded))


def test_suite_catches_a_missing_outcome() -> None:
    with pytest.raises(contract.ContractViolation, match="outcome"):
        _run(_broken(outcome=lambda state: None))


def test_suite_catches_a_state_that_is_not_json() -> None:
    def tupled(options, seed, seats):
        state = toygame.new_game(options, seed, seats)
        state["scores"] = tuple(state["scores"])
        return state

    with pytest.raises(contract.ContractViolation, match="JSON"):
        _run(_broken(new_game=tupled))


def test_suite_catches_prompts_that_are_not_prompts() -> None:
    with pytest.raises(contract.ContractViolation, match="Prompt"):
        _run(_broken(pending=toygame.pending))


def test_a_snapshot_hands_out_a_copy_again_only_when_it_is_exactly_a_fresh_one() -> None:
    state = {"a": [1, 2], "b": {"c": 1.0, "d": None}, "e": "x"}
    snapshot = contract._Snapshot(state)
    first = snapshot.copy()
    assert first == state and first is not state and first["a"] is not state["a"]
    assert snapshot.give_back(first)
    assert snapshot.copy() is first  # unchanged: handed out again
    first["a"].append(3)
    assert not snapshot.give_back(first)
    for changed in ({"a": (1, 2)}, {"b": {"d": None, "c": 1.0}}, {"b": {"c": 1, "d": None}}):
        trial = snapshot.copy()
        assert trial == state and trial is not first
        trial.update(changed)  # a tuple for a list, another key order, an int for a float: JSON-equal, not exact
        assert not snapshot.give_back(trial)
    twins = contract._Snapshot({"a": [1, 2], "f": [1, 2]})
    trial = twins.copy()
    trial["f"] = trial["a"]  # equal values, but now one shared list
    assert trial == twins.state and not twins.give_back(trial)
    kept = snapshot.copy()
    held = kept["a"]  # a part of it is still referenced from elsewhere
    assert not snapshot.give_back(kept) and held == [1, 2]
    assert snapshot.copy() == state


def test_round_trips_reads_the_log_again_only_where_it_is_as_it_was() -> None:
    rt = contract.RoundTrips()
    state = {"log": [{"a": [1, 2]}, {"b": 1.5}], "x": 1}
    assert rt(state)
    state["log"].append({"c": "new"})
    assert rt(state)
    # an event already found to survive, changed to what does not survive (or is not JSON), is read again
    for bad in ((1, 2), float("nan"), decimal.Decimal(1), {1: 2}, {"k": (1,)}, {3}, object()):
        state["log"][0]["a"] = bad
        assert not rt(state) and not contract.survives_json_round_trip(state), bad
        state["log"][0]["a"] = [1, 2]
        assert rt(state)
    state["log"].append({"d": (1,)})  # a new event that does not survive
    assert not rt(state)
    state["log"].pop()
    state["x"] = (1,)  # the rest of the state
    assert not rt(state)
    state["x"] = 1
    state["log"] = state["log"][:1]  # a shorter log
    assert rt(state)
    state["log"] = ({"a": 1},)  # not a list: the whole state is checked
    assert not rt(state)
