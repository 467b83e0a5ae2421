"""The Invasion cards (``data/viceroy/darkness/monsters.json``), loaded and validated once at import.

The 22 monsters, the combat card and the 3 laws are designed by this project in the spirit of the expansion
(the printed cards are not available to us); the file and every card say so (``designed_by_project``). A
malformed file fails loudly with a message naming the card and the field, as for the other card data.
Monsters are not pyramid cards: they are kept here, not in ``cards.CARDS``; the laws are registered there.
"""

from __future__ import annotations

from typing import Any

from .. import cards as C
from ..cards import CardDataError
from .carddata import (
    DIAMONDS,
    _check_law,
    _check_marked,
    _check_named,
    _check_reward,
    _fail,
    _read,
    numbered_cards,
)

FILE = "monsters.json"
MONSTERS = tuple(range(201, 223))
TIERS = {1: tuple(range(201, 207)), 2: tuple(range(207, 217)), 3: tuple(range(217, 223))}
INVASION_LAWS = (231, 232, 233)
# What one monster of each tier costs (gems of the colours on its line).
TIER_COSTS = {1: 3, 2: 2, 3: 1}
# Rewards a monster may give: gems, diamonds and attack tokens behind the screen, cards to the hand, the other
# tokens onto the combat card. Not an infinite gem: it scores the level of the card it lies on.
MONSTER_REWARDS = frozenset({"gems", DIAMONDS, "attack", "cards", "power_points", "science", "magic", "defense",
                             "magic_bonus", "circle_bonus"})


def validate(raw: Any) -> None:
    if not isinstance(raw, dict) or raw.get("designed_by_project") is not True or not raw.get("note"):
        raise CardDataError(f"darkness/{FILE}: the file must say it is designed by this project "
                            "(fields 'designed_by_project' and 'note')")
    if raw.get("tier_costs") != {str(k): v for k, v in TIER_COSTS.items()}:
        raise CardDataError(f"darkness/{FILE}: field 'tier_costs' must be {TIER_COSTS} (tier: gems)")
    if not isinstance(raw.get("penalty_pp"), int) or raw["penalty_pp"] >= 0:
        raise CardDataError(f"darkness/{FILE}: field 'penalty_pp' must be a negative integer")
    card = raw.get("combat_card")
    if not isinstance(card, dict) or card.get("count") != 4:
        raise CardDataError(f"darkness/{FILE}: field 'combat_card' must describe the 4 combat cards")
    _check_named(FILE, "the combat card", card)
    _check_marked(FILE, "the combat card", card)
    for number, monster, where in numbered_cards(FILE, raw, "monsters", MONSTERS, "monster",
                                                 " (monsters are numbered 201-222 in order)"):
        tier = next(t for t, numbers in TIERS.items() if number in numbers)
        if monster.get("tier") != tier:
            raise _fail(FILE, where, "tier", f"must be {tier} (201-206 are tier 1, 207-216 tier 2, 217-222 tier 3)")
        cost = monster.get("cost")
        if not isinstance(cost, list) or len(cost) != TIER_COSTS[tier] or any(c not in C.COLORS for c in cost):
            raise _fail(FILE, where, "cost", f"must list {TIER_COSTS[tier]} gem colours (a tier-{tier} line)")
        rewards = monster.get("reward")
        if not isinstance(rewards, list) or not rewards:
            raise _fail(FILE, where, "reward", "must be a non-empty list")
        for j, reward in enumerate(rewards):
            _check_reward(FILE, where, f"reward[{j}]", reward)
            if reward["type"] not in MONSTER_REWARDS:
                raise _fail(FILE, where, f"reward[{j}].type", f"cannot be {reward['type']!r} on a monster")
    laws = raw.get("laws")
    if not isinstance(laws, list) or len(laws) != len(INVASION_LAWS):
        raise CardDataError(f"darkness/{FILE}: field 'laws' must list {len(INVASION_LAWS)} Invasion laws")
    for number, law in zip(INVASION_LAWS, laws, strict=True):
        _check_law(FILE, law, number)


def load() -> dict:
    raw = _read(FILE)
    validate(raw)
    return raw


RAW = load()
C.register(RAW["laws"], "law")
MONSTER_CARDS: dict[int, dict] = {m["number"]: m for m in RAW["monsters"]}
PENALTY_PP: int = RAW["penalty_pp"]
COMBAT_CARD: dict = RAW["combat_card"]


def monster(number: int) -> dict:
    return MONSTER_CARDS[number]


def tier_of(number: int) -> int:
    return MONSTER_CARDS[number]["tier"]


ROMAN = {1: "I", 2: "II", 3: "III"}


def label(number: int) -> str:
    """How a monster is named to players: 'Troll (tier II)'."""
    m = MONSTER_CARDS[number]
    return f"{m['name']} (tier {ROMAN[m['tier']]})"
