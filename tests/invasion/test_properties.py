"""Property checks over AI games with the invasion module in every combination with the other modules.

After every action: gems (16 per colour, combat cards included) and diamonds (4 per player) are conserved and
no count goes negative; no seat is asked again under a prompt key it has already acted on (the game master
would take the new question for the one answered); every game ends with three combats; its record replays to
the identical state; no view shows another seat's sealed combat plan or screen.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engine.contract import same_json
from engine.viceroy import GAME, apply_action, new_game, view
from engine.viceroy.ai import choose_action
from engine.viceroy.prompts import pending, prompt_key
from tests.darkness.test_properties import seat_counts
from tests.engine.helpers import all_counts_non_negative
from tests.invasion.helpers import COLORS, invasion, total_diamonds, total_gems

OTHERS = ("darkness", "duo", "aristocrats")
COMBOS = [["invasion", *c] for n in range(0, 4) for c in itertools.combinations(OTHERS, n)]
GAMES_PER_COMBO = 12


def play(modules: list[str], players: int, seed: int) -> tuple[dict, list[tuple[int, dict]]]:
    options = GAME.options_for({"modules": modules}, players)
    state = new_game(options, seed, players)
    rng = random.Random(seed)
    record: list[tuple[int, dict]] = []
    acted_on: set[tuple[int, str | None]] = set()
    for _ in range(5000):
        prompts = pending(state)
        if not prompts:
            break
        seat = rng.choice(sorted(s for s, p in prompts.items() if not p.get("submitted")))
        key = (seat, prompt_key(state, seat))
        assert key not in acted_on, (modules, players, seed, key)
        acted_on.add(key)
        action = choose_action(state, seat, rng)
        apply_action(state, seat, action)
        record.append((seat, action))
        assert total_gems(state) == dict.fromkeys(COLORS, 16), (modules, players, seed)
        assert total_diamonds(state) == 4 * players
        assert all_counts_non_negative(state)
        x = invasion(state)
        assert all(min(card["gems"].values()) >= 0 and card["diamonds"] >= 0 for card in x["cards"])
        if state["phase"] == "combat" and state["choices"] and players > 1:
            for key in state["choices"]:
                for other in [None, *(s for s in range(players) if str(s) != key)]:
                    seen = view(state, other)
                    assert seen.get("my_choice") is None or other is not None
                    assert "gems" not in seen["players"][int(key)]
    else:
        raise AssertionError(f"no end: {modules} {players}p seed {seed}")
    assert state["phase"] == "over" and state["scores"]
    assert invasion(state)["combats"] == 3
    return state, record


@pytest.mark.parametrize("modules", COMBOS, ids=["+".join(c) for c in COMBOS])
def test_invasion_with_every_module_combination_conserves_gems_and_diamonds_and_replays(modules: list[str]) -> None:
    counts = seat_counts(modules)
    for i in range(GAMES_PER_COMBO):
        players = counts[i % len(counts)]
        state, record = play(modules, players, seed=2000 + i)
        if i % 3 == 0:
            options = GAME.options_for({"modules": modules}, players)
            assert same_json(GAME.rebuild(options, 2000 + i, players, record), state)  # same canonical JSON
