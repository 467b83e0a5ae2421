"""The base game's ruleset: every table filled from the rules files. Loading this module installs it."""

from __future__ import annotations

from . import auction, development, ending, laws, rewards, setup, views
from .cards import CHARACTER_NUMBERS, LAW_NUMBERS
from .payment import INFINITE
from .rules import Ruleset, set_base
from .scoring import SCORERS


def build() -> Ruleset:
    rules = Ruleset(
        phases={
            "setup": setup.PHASE,
            "auction": auction.PHASE,
            "development": development.PHASE,
            "painting": ending.PAINTING,
            "over": ending.OVER,
        },
        steps={**rewards.STEPS, **auction.STEPS, **development.STEPS},
        decisions={**rewards.DECISIONS, **auction.DECISIONS, **development.DECISIONS, **laws.DECISIONS},
        rewards=dict(rewards.REWARDS),
        payment_sources=[INFINITE],
        scorers=list(SCORERS),
        views=list(views.CONTRIBUTORS),
        setup=[setup.deal],
        bid_gem=auction.bid_gem_to_reserve,
        characters=CHARACTER_NUMBERS,
        law_cards=LAW_NUMBERS,
    )
    for number, law in laws.LAWS.items():
        rules.add_law(number, law)
    return rules


BASE = build()
set_base(BASE)
