"""Game positions for the AI tests: real Viceroy games played by the baseline, stopped along the way."""

from __future__ import annotations

import random

from engine.viceroy import game as G
from engine.viceroy.ai import choose_action
from engine.viceroy.determinize import clone


def waiting(state: dict) -> list[int]:
    return sorted(s for s, p in G.pending(state).items() if not p.get("submitted"))


def positions(seed: int, players: int = 4, every: int = 7, virtual: int = 0, deal: int = 4) -> list[tuple[dict, int]]:
    """(state, seat to decide) every ``every`` actions of one baseline game, the end excluded."""
    state = G.new_game({"players": players, "virtual_opponents": virtual, "deal": deal}, seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while state["phase"] != "over":
        seat = waiting(state)[0]
        if step % every == 0:
            out.append((clone(state), seat))
        G.apply_action(state, seat, choose_action(state, seat, rng))
        step += 1
    return out


def finished(seed: int, players: int = 4) -> dict:
    state = G.new_game({"players": players}, seed)
    rng = random.Random(seed)
    while state["phase"] != "over":
        seat = waiting(state)[0]
        G.apply_action(state, seat, choose_action(state, seat, rng))
    return state
