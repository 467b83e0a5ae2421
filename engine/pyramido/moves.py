"""Every legal action (for tests, search and tools) and the default action when time runs out."""

from __future__ import annotations

import itertools
import random

from . import game as G
from . import geometry as geo
from .tiles import CARD_FACES, DOMINOES, QUADRANTS


def _card_options(player: dict, gem: str | None, gems: list[str], domino: int) -> list[dict | None]:
    out: list[dict | None] = [None]
    left = list(gems)
    if gem is not None:
        left.remove(DOMINOES[domino][0 if gem == "a" else 1][0])
    for card in G.unused_cards(player):
        for side in CARD_FACES[card]:
            for block in ("a", "b"):
                if block == gem:
                    continue
                for icon in QUADRANTS:
                    out.append({"card": card, "side": side, "block": block, "icon": icon})
    return out


def legal_actions(state: dict, seat: int) -> list[dict]:
    """Every legal action for ``seat`` now: dominoes × positions × directions × gem × single block card ×
    refill pile (or every way to fill the gaps). Empty when the seat has nothing to decide."""
    if state["over"] or seat != state["turn"]:
        return []
    player = state["players"][seat]
    if state["need"] == "fill":
        gaps = G.gap_cells(state, seat)
        out = []
        for cards in itertools.permutations(G.unused_cards(player), len(gaps)):
            for sides in itertools.product(*(CARD_FACES[c] for c in cards)):
                for icons in itertools.product(QUADRANTS, repeat=len(gaps)):
                    out.append({"type": "fill", "cards": [
                        {"card": c, "side": s, "at": [g[0], g[1]], "icon": i}
                        for c, s, g, i in zip(cards, sides, gaps, icons, strict=True)]})
        return out
    placements = [p for pair in G.current_pairs(state, seat) for p in geo.placements_of(pair)]
    out = []
    for slot, domino in enumerate(state["quarry"]):
        if domino is None:
            continue
        gem_options = G.gem_blocks(state, seat, domino) or [None]
        refills = G.refill_piles(state, slot) or [None]
        for at, direction in placements:
            for gem in gem_options:
                for card in _card_options(player, gem, player["gems"], domino):
                    for refill in refills:
                        out.append({"type": "place", "domino": domino, "at": [at[0], at[1]], "dir": direction,
                                    "gem": gem, "card": card, "refill": refill})
    return out


def default_action(state: dict, seat: int) -> dict:
    """What an architect who let the time run out plays: the baseline AI's safe choice, without a card."""
    from .ai import choose_action

    action = choose_action(state, seat, random.Random(state["step"]))
    if action["type"] == "place":
        action["card"] = None  # a player's single block cards are theirs to spend, not the clock's
    return action
