"""Builders for the Times of Darkness tests: games with modules, past setup, and accounting of diamonds."""

from __future__ import annotations

from engine.viceroy import apply_action, default_action, new_game
from engine.viceroy.modules import common
from tests.engine.helpers import COLORS, gem_totals, settle

ALL = ["darkness", "duo", "aristocrats"]


def game(modules: list[str], players: int = 2, seed: int = 1, **options: object) -> dict:
    return new_game({"players": players, "modules": list(modules), **options}, seed)


def through_setup(state: dict) -> dict:
    """Answer every setup phase (domain reward, kept characters) with the defaults: turn 1, auction round 1."""
    while state["phase"] in ("domain", "setup"):
        if state["decision"] is not None:
            settle(state)
            continue
        for seat in list(state["active"]):
            if str(seat) not in state["choices"] and state["phase"] in ("domain", "setup"):
                apply_action(state, seat, default_action(state, seat))
    settle(state)
    assert state["phase"] == "auction" and state["turn"] == 1
    return state


def started(modules: list[str], players: int = 2, seed: int = 1, **options: object) -> dict:
    return through_setup(game(modules, players, seed, **options))


def give_diamonds(state: dict, seat: int, n: int) -> None:
    d = common.slice_of(state)
    assert d["reserve"] >= n
    d["reserve"] -= n
    d["held"][seat] += n


def diamond_total(state: dict) -> int:
    d = state["ext"][common.NAME]
    return d["reserve"] + sum(d["held"]) + sum(len(items) for items in d["painted"])


def gem_total_all(state: dict) -> dict[str, int]:
    """Every gem of each colour (the base accounting; diamonds painted are not gems)."""
    return gem_totals(state)


__all__ = ["ALL", "COLORS", "diamond_total", "game", "gem_total_all", "give_diamonds", "started", "through_setup"]
