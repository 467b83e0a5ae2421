"""Viceroy's expansion modules (Times of Darkness): each is a ``rules.Module`` registered here.

A game switches them on with ``options["modules"]`` (any subset; the lobby offers them through the game type's
"modules" option). See each module's file for its rules and docs/rules.md for the player-facing text.
"""

from __future__ import annotations

from ..rules import register
from . import carddata  # noqa: F401  (loads, validates and registers the designed cards)
from .aristocrats import MODULE as ARISTOCRATS
from .darkness import MODULE as DARKNESS
from .duo import MODULE as DUO
from .invasion import MODULE as INVASION
from .underworld import MODULE as UNDERWORLD

MODULES = (DARKNESS, DUO, ARISTOCRATS, INVASION, UNDERWORLD)
# (name, label) for the lobby, in the order players read them.
CHOICES: tuple[tuple[str, str], ...] = (
    ("darkness", "Domain cards, diamonds, revised laws"),
    ("duo", "Revised two-player and solo game"),
    ("aristocrats", "Aristocrats"),
    ("invasion", "Invasion (monsters and combat)"),
    ("underworld", "Underworld: criminals and judgement tokens (needs domain cards)"),
)

for _module in MODULES:
    register(_module)
