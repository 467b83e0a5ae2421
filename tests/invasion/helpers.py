"""Builders for the Invasion tests: games with the module, a combat about to be chosen, and accounting."""

from __future__ import annotations

import random

from engine.viceroy import apply_action, new_game
from engine.viceroy.ai import choose_action
from engine.viceroy.modules import common
from engine.viceroy.modules.invasion import NAME
from tests.engine.helpers import COLORS, gem_totals, gems, settle

__all__ = ["COLORS", "at_combat", "game", "gems", "invasion", "set_screen", "settle", "total_gems", "total_diamonds"]


def game(modules: tuple[str, ...] = ("invasion",), players: int = 2, seed: int = 1) -> dict:
    return new_game({"players": players, "modules": list(modules)}, seed)


def invasion(state: dict) -> dict:
    return state["ext"][NAME]


def play_until(state: dict, stop, rng: random.Random | None = None, limit: int = 5000) -> dict:  # noqa: ANN001
    """Play baseline-AI moves until ``stop(state)`` holds."""
    from engine.viceroy.prompts import pending

    rng = rng or random.Random(0)
    for _ in range(limit):
        if stop(state):
            return state
        prompts = pending(state)
        assert prompts, "the game ended first"
        seat = min(s for s, p in prompts.items() if not p.get("submitted"))
        apply_action(state, seat, choose_action(state, seat, rng))
    raise AssertionError("no stop")


def at_combat(modules: tuple[str, ...] = ("invasion",), players: int = 2, seed: int = 1,
              stack: list[int] | None = None) -> dict:
    """A game at the start of its first combat (nobody has chosen yet), optionally with a given stack."""
    state = play_until(game(modules, players, seed), lambda s: s["phase"] == "combat" and s["decision"] is None)
    assert not state["choices"]
    if stack is not None:
        x = invasion(state)
        x["discard"].extend(x["stack"])
        x["stack"] = list(stack)
    return state


def set_screen(state: dict, seat: int, wanted: dict[str, int], card: dict[str, int] | None = None) -> None:
    """Give a seat exactly these gems behind the screen (and on its combat card), through the reserve."""
    player = state["players"][seat]
    combat = invasion(state)["cards"][seat]
    for c in COLORS:
        state["reserve"][c] += player["gems"][c] + combat["gems"][c]
        player["gems"][c] = combat["gems"][c] = 0
    for where, want in ((player["gems"], wanted), (combat["gems"], card or gems())):
        for c in COLORS:
            assert state["reserve"][c] >= want[c], "not enough gems in the reserve for this test"
            state["reserve"][c] -= want[c]
            where[c] += want[c]


def total_gems(state: dict) -> dict[str, int]:
    """Every gem of each colour, combat cards included (16 per colour in the box)."""
    total = gem_totals(state)
    for card in invasion(state)["cards"]:
        for c in COLORS:
            total[c] += card["gems"][c]
    return total


def total_diamonds(state: dict) -> int:
    d = state["ext"][common.NAME]
    return (d["reserve"] + sum(d["held"]) + sum(len(i) for i in d["painted"])
            + sum(card["diamonds"] for card in invasion(state)["cards"]))
