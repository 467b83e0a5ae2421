"""Helpers for Pyramido rule tests: fresh games, a chosen domino in the quarry, scripted placements."""

from __future__ import annotations

import random

from engine.pyramido import GAME
from engine.pyramido import game as G
from engine.pyramido import geometry as geo
from engine.pyramido.tiles import COLOURS, DOMINOES


def fresh(seats: int = 2, seed: int = 1) -> dict:
    """A new game where seat 0 starts."""
    return GAME.new_game({"starter": "first"}, seed, seats)


def bring_to_quarry(state: dict, domino: int, slot: int = 0) -> None:
    """Swap ``domino`` into a quarry slot (from a pile or another slot): the set stays 90 dominoes."""
    quarry = state["quarry"]
    if domino in quarry:
        i = quarry.index(domino)
        quarry[i], quarry[slot] = quarry[slot], quarry[i]
        return
    for pile in state["piles"]:
        if domino in pile:
            i = pile.index(domino)
            pile[i], quarry[slot] = quarry[slot], domino
            return
    raise AssertionError(f"domino {domino} is not free")


def find_domino(state: dict, colour_a: str, colour_b: str | None = None) -> int:
    """A free domino whose first block has ``colour_a`` (and second ``colour_b``)."""
    free = set(state["quarry"]) | {d for pile in state["piles"] for d in pile}
    for d in sorted(free):
        (ca, _), (cb, _) = DOMINOES[d]
        if ca == colour_a and (colour_b is None or cb == colour_b):
            return d
    raise AssertionError("no such domino free")


def place(state: dict, seat: int, at, direction: str, domino: int | None = None, gem="auto", card=None,
          refill="auto") -> list[dict]:
    """Play a placement; gem 'auto' = the first block a gem may go on, refill 'auto' = the first pile allowed."""
    if domino is None:
        domino = state["quarry"][0]
    bring_to_quarry(state, domino, 0)
    slot = state["quarry"].index(domino)
    if gem == "auto":
        blocks = G.gem_blocks(state, seat, domino)
        gem = blocks[0] if blocks else None
    if refill == "auto":
        piles = G.refill_piles(state, slot)
        refill = piles[0] if piles else None
    return GAME.apply(state, seat, {"type": "place", "domino": domino, "at": list(at), "dir": direction,
                                    "gem": gem, "card": card, "refill": refill})


def ai_turn(state: dict, rng: random.Random | None = None) -> list[dict]:
    seat = state["turn"]
    return GAME.apply(state, seat, GAME.choose_action(state, seat, rng or random.Random(state["step"])))


def tiling(cells: set) -> list[tuple]:
    """Domino pairs covering ``cells`` exactly, in an order where each touches the ones before."""
    cells = set(cells)

    def solve(left: frozenset) -> list | None:
        if not left:
            return []
        c = min(left, key=lambda c: (c[1], c[0]))
        for d in ((c[0] + 1, c[1]), (c[0], c[1] + 1)):
            if d in left:
                rest = solve(left - {c, d})
                if rest is not None:
                    return [(c, d), *rest]
        return None

    pairs = solve(frozenset(cells))
    assert pairs is not None, "cells cannot be tiled"
    ordered = [pairs.pop(0)]
    done = set(ordered[0])
    while pairs:
        for i, (a, b) in enumerate(pairs):
            if any((x + dx, y + dy) in done for x, y in (a, b) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                ordered.append(pairs.pop(i))
                done |= {a, b}
                break
        else:
            raise AssertionError("tiling is not connected")
    return ordered


def lay(state: dict, seat: int, pair: tuple, **kw) -> list[dict]:
    a, b = pair
    direction = "E" if b[0] > a[0] else "S"
    return place(state, seat, a, direction, **kw)


def shift_to_origin(pairs: list[tuple]) -> list[tuple]:
    """Move a tiling so that its first pair starts at (0, 0), as the first domino of a floor must."""
    (x0, y0), _ = pairs[0]
    return [((a[0] - x0, a[1] - y0), (b[0] - x0, b[1] - y0)) for a, b in pairs]


def others_pass_turns(state: dict, seat: int) -> None:
    """Let the AI play every other seat until it is ``seat``'s turn again (or the game ends)."""
    while not state["over"] and state["turn"] != seat:
        ai_turn(state)


ALL_COLOURS = COLOURS
DIRS = geo.DIRS
