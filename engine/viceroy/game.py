"""Compatibility names for code written against the single-file engine; the rules live in their own files.

See docs/engine.md for where each part went (flow, setup, auction, development, rewards, payment, laws,
ending) and for the tables they fill.
"""

from __future__ import annotations

from . import cards as C  # noqa: F401
from . import pyramid as P  # noqa: F401
from .auction import auction_offer, cards_at
from .auction import remove_from_auction as _remove_from_auction
from .ending import final_scores
from .errors import IllegalAction
from .flow import apply_action
from .payment import auto_payment, infinite_gems, unused_infinite
from .prompts import is_over, pending, prompt_key
from .setup import new_game
from .state import (
    CHOICE_LAWS,
    COLORS,
    DISCARD_GEMS,
    GEMS_IN_BOX,
    LEVEL5_PP,
    MAX_ROUNDS,
    PASS_GEMS,
    has_law_in_pyramid,
    playable_level,
    priority_order,
    science_count,
)
from .state import new_entry as _entry
from .state import zero as _zero

__all__ = [
    "CHOICE_LAWS",
    "COLORS",
    "DISCARD_GEMS",
    "GEMS_IN_BOX",
    "LEVEL5_PP",
    "MAX_ROUNDS",
    "PASS_GEMS",
    "IllegalAction",
    "_entry",
    "_remove_from_auction",
    "_zero",
    "apply_action",
    "auction_offer",
    "auto_payment",
    "cards_at",
    "final_scores",
    "has_law_in_pyramid",
    "infinite_gems",
    "is_over",
    "new_game",
    "pending",
    "playable_level",
    "priority_order",
    "prompt_key",
    "science_count",
    "unused_infinite",
]
