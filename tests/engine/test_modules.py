"""Modules: every extension point of the engine is reachable from a module (tests/engine/pageantry.py)."""

from __future__ import annotations

import pytest

from engine.viceroy import IllegalAction, apply_action, default_action, new_game, pending, replay, view
from engine.viceroy import rules as R
from engine.viceroy.ai import choose_action
from engine.viceroy.records import new_record
from engine.viceroy.scoring import score_player
from tests.engine import pageantry  # noqa: F401  (registers the test modules)
from tests.engine.helpers import set_hand, set_pyramid, settle, started, to_development


def pageant(players: int = 2, seed: int = 3) -> dict:
    return new_game({"players": players, "modules": ["pageantry"]}, seed)


def play_until(state: dict, phase: str, record: dict | None = None) -> None:
    """Play with the baseline AI (default actions in phases the AI does not know) until ``phase``."""
    import random

    rng = random.Random(1)
    while state["phase"] != phase:
        prompts = pending(state)
        seat = min(s for s, p in prompts.items() if not p.get("submitted"))
        if state["phase"] in ("parade",) and state["decision"] is None:
            action = {"type": "salute"} if seat == 0 else default_action(state, seat)
        else:
            action = choose_action(state, seat, rng)
        apply_action(state, seat, action)
        if record is not None:
            record["actions"].append({"seat": seat, "action": action})


def test_a_game_names_its_modules_in_its_options_and_keeps_them_in_the_state() -> None:
    state = new_game({"players": 2, "modules": ["pageantry", "fanfare"]}, 1)
    assert state["options"]["modules"] == ["fanfare", "pageantry"]  # installation order, whatever was asked
    assert state["ext"]["pageantry"] == {"salutes": [0, 0]}
    assert view(state, 0)["ext"]["order"] == ["fanfare"]


def test_an_unknown_module_is_refused() -> None:
    with pytest.raises(IllegalAction) as err:
        new_game({"players": 2, "modules": ["no-such-module"]}, 1)
    assert err.value.code == "bad_options"


def test_the_base_game_has_no_module_state_in_its_views() -> None:
    state = started(2)
    assert state["ext"] == {} and "modules" not in state["options"]
    assert "ext" not in view(state, 0) and "ext" not in view(state, None)


def test_a_module_adds_a_phase_after_the_development_phase() -> None:
    state = pageant()
    play_until(state, "parade")
    assert state["turn"] == 1 and set(pending(state)) == {0, 1}
    assert pending(state)[0]["kind"] == "parade"
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "bid"})
    before = list(state["ext"]["pageantry"]["salutes"])
    apply_action(state, 0, {"type": "salute"})
    apply_action(state, 1, default_action(state, 1))
    assert state["phase"] == "auction" and state["turn"] == 2  # the parade's next: the next turn
    assert state["ext"]["pageantry"]["salutes"] == [before[0] + 1, before[1]]
    play_until(state, "over")
    assert sum(1 for e in state["log"] if e["type"] == "parade") == 1  # after turn 1 only


def test_a_module_revises_a_law_by_number_and_adds_a_reward_type() -> None:
    state = new_game({"players": 2, "modules": ["pageantry"]}, 31)
    for seat in range(2):
        apply_action(state, seat, default_action(state, seat))
    settle(state)
    to_development(state)
    set_pyramid(state, 0, {"1:0": 50})
    set_hand(state, 0, [68])
    set_hand(state, 1, [])
    state["active"] = [0]
    apply_action(state, 0, {"type": "play", "card": 68, "slot": "1:2"})
    settle(state)
    assert state["ext"]["pageantry"]["salutes"] == [2, 0]
    assert state["players"][0]["pyramid"]["cards"]["1:2"]["card"] == 68


def test_a_module_adds_a_scorer_and_a_view_part() -> None:
    state = pageant()
    state["ext"]["pageantry"]["salutes"] = [3, 1]
    assert score_player(state, 0)["breakdown"]["pageantry"] == 6
    assert score_player(state, 1)["breakdown"]["pageantry"] == 2
    assert view(state, 0)["ext"]["pageantry"] == {"salutes": [3, 1], "mine": 3}
    assert view(state, None)["ext"]["pageantry"] == {"salutes": [3, 1]}


def test_a_record_with_modules_replays_to_the_identical_state() -> None:
    state = pageant(3, seed=8)
    record = new_record(state["options"], 8, ["a", "b", "c"])
    play_until(state, "over", record)
    assert state["scores"][0]["breakdown"]["pageantry"] >= 2
    assert replay(record) == state


def test_modules_are_installed_in_their_fixed_order() -> None:
    assert R.ordered(["pageantry", "fanfare"]) == ["fanfare", "pageantry"]
    assert R.build(("fanfare", "pageantry")) is R.build(("fanfare", "pageantry"))  # assembled once
