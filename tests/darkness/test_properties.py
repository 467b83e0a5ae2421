"""Property checks over hundreds of AI games for every combination of the Times of Darkness modules (the 8,
the base game included) at every seat count it allows.

After every action: gems (16 per colour) and diamonds (4 per player) are conserved and no count goes
negative; every game ends; its record replays to the identical state.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engine.contract import same_json
from engine.viceroy import GAME, apply_action, new_game
from engine.viceroy import cards as C
from engine.viceroy.ai import choose_action
from engine.viceroy.prompts import pending
from tests.darkness.helpers import diamond_total
from tests.engine.helpers import all_counts_non_negative, gem_totals

NAMES = ("darkness", "duo", "aristocrats")
COMBOS = [list(c) for n in range(0, 4) for c in itertools.combinations(NAMES, n)]
GAMES_PER_TABLE = 100  # per combination and seat count


def seat_counts(modules: list[str]) -> list[int]:
    return [1, 2] if "duo" in modules else [1, 2, 3, 4]


def play(modules: list[str], players: int, seed: int) -> tuple[dict, list[tuple[int, dict]]]:
    options = GAME.options_for({"modules": modules}, players)
    state = new_game(options, seed, players)
    rng = random.Random(seed)
    record: list[tuple[int, dict]] = []
    diamonds = 4 * players if "diamonds" in state["ext"] else None
    for _ in range(5000):
        prompts = pending(state)
        if not prompts:
            break
        seat = rng.choice(sorted(s for s, p in prompts.items() if not p.get("submitted")))
        action = choose_action(state, seat, rng)
        apply_action(state, seat, action)
        record.append((seat, action))
        assert gem_totals(state) == {c: 16 for c in C.COLORS}, (modules, players, seed)
        assert all_counts_non_negative(state)
        if diamonds is not None:
            d = state["ext"]["diamonds"]
            assert diamond_total(state) == diamonds and d["reserve"] >= 0 and min(d["held"]) >= 0
    else:
        raise AssertionError(f"no end: {modules} {players}p seed {seed}")
    assert state["phase"] == "over" and state["scores"]
    return state, record


TABLES = [(modules, players) for modules in COMBOS for players in seat_counts(modules)]


@pytest.mark.parametrize(("modules", "players"), TABLES,
                         ids=[f"{'+'.join(m) or 'base'}-{n}p" for m, n in TABLES])
def test_every_module_combination_conserves_gems_and_diamonds_and_replays(modules: list[str], players: int) -> None:
    for i in range(GAMES_PER_TABLE):
        state, record = play(modules, players, seed=1000 + i)
        if i % 4 == 0:  # replaying every fourth game keeps the suite quick
            options = GAME.options_for({"modules": modules}, players)
            assert same_json(GAME.rebuild(options, 1000 + i, players, record), state)  # same canonical JSON
