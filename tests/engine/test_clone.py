"""``engine.viceroy.clone``: a copy for search that equals the state and shares nothing that changes."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.viceroy import apply_action, clone, new_game, pending
from engine.viceroy.ai import choose_action


def _played(seed: int, players: int, steps: int) -> dict:
    state = new_game({"players": players}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        prompts = pending(state)
        if not prompts:
            break
        seat = min(s for s, p in prompts.items() if not p.get("submitted"))
        apply_action(state, seat, choose_action(state, seat, rng))
    return state


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 200))
def test_a_clone_equals_the_state_and_plays_on_alone(seed: int, players: int, steps: int) -> None:
    state = _played(seed, players, steps)
    before = copy.deepcopy(state)
    twin = clone(state)
    assert twin == state
    # Play the clone to the end: the original does not change.
    rng = random.Random(seed + 1)
    while pending(twin):
        prompts = pending(twin)
        seat = min(s for s, p in prompts.items() if not p.get("submitted"))
        apply_action(twin, seat, choose_action(twin, seat, rng))
    assert state == before


def test_a_clone_shares_no_mutable_part_but_the_log_events() -> None:
    state = _played(5, 4, 150)
    twin = clone(state)
    seen = {}

    def walk(value: object, path: str) -> None:
        if isinstance(value, (dict, list)):
            seen[id(value)] = path
            for key, child in (value.items() if isinstance(value, dict) else enumerate(value)):
                walk(child, f"{path}/{key}")

    walk(state, "")
    shared = []

    def check(value: object, path: str) -> None:
        if isinstance(value, (dict, list)):
            if id(value) in seen and path != "/log":
                shared.append(path)
            for key, child in (value.items() if isinstance(value, dict) else enumerate(value)):
                if path == "/log":
                    continue  # events in the log are never changed once logged
                check(child, f"{path}/{key}")

    check(twin, "")
    assert shared == []
