"""Search hooks for Pyramido (engine/search.py): a short list of sensible moves, and a determinization.

``legal_actions`` lists every legal turn (thousands: each single block card face, block and icon corner), far
too many to compare; a search compares the baseline's best few placements instead. The only unknown in
Pyramido is the order of the dominoes under the piles' tops, which no architect sees.
"""

from __future__ import annotations

import random

from . import moves
from .ai import ranked_actions
from .game import IllegalAction
from .views import determinize

ILLEGAL = (IllegalAction,)


def candidates(state: dict, seat: int, rng: random.Random) -> list[dict]:
    if state["need"] == "fill":
        return moves.legal_actions(state, seat)[:24]
    return ranked_actions(state, seat, rng)


search_determinize = determinize
