"""Splendor Duel card and board facts, loaded from the packaged data file and validated once at import.

A malformed data file fails loudly with a message naming the card and the field, so a bad edit to
``data/splendor_duel/cards.json`` can never start a game with wrong costs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

GEM_COLORS: tuple[str, ...] = ("white", "blue", "green", "red", "black")
PEARL = "pearl"
GOLD = "gold"
# Everything a player may pay with (gold is wild and never a printed cost).
COST_KINDS: tuple[str, ...] = GEM_COLORS + (PEARL,)
TOKEN_KINDS: tuple[str, ...] = GEM_COLORS + (PEARL, GOLD)
CARD_TYPES: frozenset[str] = frozenset({"colored", "joker", "points_only"})
ABILITIES: frozenset[str] = frozenset({
    "extra_turn",
    "joker_bonus_copy",
    "take_token_of_card_color_from_board",
    "take_privilege",
    "steal_token_from_opponent",
})
LEVELS: tuple[int, ...] = (1, 2, 3)

# Letters that tell the tokens apart without colour (K for black as in CMYK, Au for gold as in chemistry).
TOKEN_LETTER: dict[str, str] = {"white": "W", "blue": "B", "green": "G", "red": "R", "black": "K",
                                "pearl": "P", "gold": "Au"}
TOKEN_NAME: dict[str, str] = {k: k.capitalize() for k in TOKEN_KINDS}


class CardDataError(ValueError):
    """The card data file is malformed."""


@dataclass(frozen=True)
class Card:
    """One jewel card, with its cost as a tuple in COST_KINDS order (fast to compare)."""

    id: str
    level: int
    card_type: str  # colored | joker | points_only
    color: str | None  # printed colour (None for gray cards)
    bonus: int  # bonus count (0 for points_only)
    cost: tuple[int, ...]
    points: int
    crowns: int
    abilities: tuple[str, ...]
    # The non-zero part of the cost as (kind, count, bonuses apply): the hot loops iterate only this.
    cost_items: tuple[tuple[str, int, bool], ...] = ()
    is_joker: bool = False

    def cost_dict(self) -> dict[str, int]:
        return {k: n for k, n in zip(COST_KINDS, self.cost, strict=True) if n}


@dataclass(frozen=True)
class Royal:
    id: str
    points: int
    abilities: tuple[str, ...]


def _fail(where: str, field: str, problem: str) -> CardDataError:
    return CardDataError(f"splendor_duel/cards.json: {where}: field '{field}' {problem}")


def _count(value: Any, where: str, field: str, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise _fail(where, field, f"must be a whole number of at least {minimum}, got {value!r}")
    return value


def _jewel(raw: Any, index: int) -> Card:
    if not isinstance(raw, dict):
        raise _fail(f"jewel card #{index + 1}", "(card)", "must be an object")
    card_id = raw.get("id")
    where = f"jewel card {card_id!r}" if card_id else f"jewel card #{index + 1}"
    if not isinstance(card_id, str) or not card_id:
        raise _fail(where, "id", "is missing")
    level = raw.get("level")
    if level not in LEVELS:
        raise _fail(where, "level", f"must be 1, 2 or 3, got {level!r}")
    kind = raw.get("card_type")
    if kind not in CARD_TYPES:
        raise _fail(where, "card_type", f"must be one of {', '.join(sorted(CARD_TYPES))}, got {kind!r}")
    color = raw.get("color")
    bonus = raw.get("bonus")
    if kind == "colored":
        if color not in GEM_COLORS:
            raise _fail(where, "color", f"must be one of {', '.join(GEM_COLORS)}, got {color!r}")
        if not isinstance(bonus, dict) or bonus.get("color") != color:
            raise _fail(where, "bonus.color", f"must be the card's colour {color!r}")
        bonus_count = _count(bonus.get("count"), where, "bonus.count", 1)
    elif kind == "joker":
        if color is not None:
            raise _fail(where, "color", f"must be null for a joker card, got {color!r}")
        if not isinstance(bonus, dict) or bonus.get("color") != "joker":
            raise _fail(where, "bonus.color", "must be 'joker' for a joker card")
        bonus_count = _count(bonus.get("count"), where, "bonus.count", 1)
    else:
        if color is not None or bonus is not None:
            raise _fail(where, "bonus", "must be null for a points-only card")
        bonus_count = 0
    cost = raw.get("cost")
    if not isinstance(cost, dict) or not cost:
        raise _fail(where, "cost", "must be a non-empty object of colour: count")
    for key, n in cost.items():
        if key not in COST_KINDS:
            raise _fail(where, f"cost.{key}", f"is not a gem colour or pearl ({', '.join(COST_KINDS)})")
        _count(n, where, f"cost.{key}", 1)
    abilities = raw.get("abilities")
    if not isinstance(abilities, list):
        raise _fail(where, "abilities", "must be a list")
    for ability in abilities:
        if ability not in ABILITIES:
            raise _fail(where, "abilities", f"names an unknown ability {ability!r}")
    if (kind == "joker") != ("joker_bonus_copy" in abilities):
        raise _fail(where, "abilities", "must list joker_bonus_copy exactly when the card is a joker")
    if "take_token_of_card_color_from_board" in abilities and kind != "colored":
        raise _fail(where, "abilities", "take_token_of_card_color_from_board needs a coloured card")
    return Card(
        id=card_id,
        level=level,
        card_type=kind,
        color=color,
        bonus=bonus_count,
        cost=tuple(cost.get(k, 0) for k in COST_KINDS),
        points=_count(raw.get("points"), where, "points"),
        crowns=_count(raw.get("crowns"), where, "crowns"),
        abilities=tuple(abilities),
        cost_items=tuple((k, cost[k], k != PEARL) for k in COST_KINDS if cost.get(k)),
        is_joker=kind == "joker",
    )


def _royal(raw: Any, index: int) -> Royal:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        raise _fail(f"royal card #{index + 1}", "id", "is missing")
    where = f"royal card {raw['id']!r}"
    abilities = raw.get("abilities")
    if not isinstance(abilities, list) or any(
            a not in ("extra_turn", "take_privilege", "steal_token_from_opponent") for a in abilities):
        raise _fail(where, "abilities", "must list only extra_turn, take_privilege or steal_token_from_opponent")
    return Royal(id=raw["id"], points=_count(raw.get("points"), where, "points", 1), abilities=tuple(abilities))


def validate(raw: Any) -> tuple[dict[str, Card], dict[str, Royal], dict]:
    """(jewel cards by id, royal cards by id, setup facts); CardDataError names the first bad card and field."""
    if not isinstance(raw, dict):
        raise CardDataError("splendor_duel/cards.json must hold an object")
    jewels_raw = raw.get("jewel_cards")
    if not isinstance(jewels_raw, list):
        raise CardDataError("splendor_duel/cards.json: field 'jewel_cards' must be a list")
    cards: dict[str, Card] = {}
    for i, entry in enumerate(jewels_raw):
        card = _jewel(entry, i)
        if card.id in cards:
            raise _fail(f"jewel card {card.id!r}", "id", "is used twice")
        cards[card.id] = card
    counts = raw.get("counts") or {}
    for level in LEVELS:
        want = counts.get(f"level_{level}")
        have = sum(1 for c in cards.values() if c.level == level)
        if want != have:
            raise CardDataError(f"splendor_duel/cards.json: field 'counts.level_{level}' says {want!r} "
                                f"but {have} level-{level} cards are listed")
    royals_raw = raw.get("royal_cards")
    if not isinstance(royals_raw, list) or not royals_raw:
        raise CardDataError("splendor_duel/cards.json: field 'royal_cards' must be a non-empty list")
    royals = {r.id: r for r in (_royal(entry, i) for i, entry in enumerate(royals_raw))}
    tokens = raw.get("tokens")
    if not isinstance(tokens, dict) or tuple(tokens.get("gem_colors") or ()) != GEM_COLORS:
        raise CardDataError(f"splendor_duel/cards.json: field 'tokens.gem_colors' must be {list(GEM_COLORS)}")
    mix = {c: _count(tokens.get("per_gem_color"), "tokens", "per_gem_color", 1) for c in GEM_COLORS}
    mix[PEARL] = _count(tokens.get("pearl"), "tokens", "pearl", 1)
    mix[GOLD] = _count(tokens.get("gold"), "tokens", "gold", 1)
    if sum(mix.values()) != tokens.get("total"):
        raise CardDataError(f"splendor_duel/cards.json: field 'tokens.total' is {tokens.get('total')!r} "
                            f"but the mix adds up to {sum(mix.values())}")
    order = (raw.get("board_spiral_fill_order") or {}).get("order")
    if not isinstance(order, list) or len(order) != 25:
        raise CardDataError("splendor_duel/cards.json: field 'board_spiral_fill_order.order' must list 25 spaces")
    spiral: list[int] = []
    for i, rc in enumerate(order):
        if (not isinstance(rc, list) or len(rc) != 2 or any(not isinstance(v, int) or not 1 <= v <= 5 for v in rc)):
            raise _fail("board_spiral_fill_order", f"order[{i}]", f"must be [row, column] within 1-5, got {rc!r}")
        spiral.append((rc[0] - 1) * 5 + (rc[1] - 1))
    if len(set(spiral)) != 25:
        raise _fail("board_spiral_fill_order", "order", "must name each of the 25 spaces once")
    if sum(mix.values()) != 25:
        raise CardDataError("splendor_duel/cards.json: the token mix must fill the 25 board spaces")
    setup = raw.get("setup")
    if not isinstance(setup, dict):
        raise CardDataError("splendor_duel/cards.json: field 'setup' is missing")
    face_up = setup.get("pyramid_face_up") or {}
    facts = {
        "mix": mix,
        "spiral": tuple(spiral),
        "pyramid": {lv: _count(face_up.get(f"level_{lv}"), "setup", f"pyramid_face_up.level_{lv}", 1)
                    for lv in LEVELS},
        "privileges": _count(setup.get("privilege_scrolls_total"), "setup", "privilege_scrolls_total", 1),
        "second_player_privileges": _count(setup.get("second_player_starts_with_privileges"), "setup",
                                           "second_player_starts_with_privileges"),
        "max_reserved": _count(setup.get("max_reserved_cards"), "setup", "max_reserved_cards", 1),
        "token_limit": _count(setup.get("token_limit"), "setup", "token_limit", 1),
        "crown_thresholds": tuple(_count(v, "setup", "crown_thresholds_for_royal_card", 1)
                                  for v in setup.get("crown_thresholds_for_royal_card") or ()),
        "victory": {k: _count((setup.get("victory") or {}).get(k), "setup", f"victory.{k}", 1)
                    for k in ("prestige_points", "crowns", "points_in_one_color")},
    }
    return cards, royals, facts


def load(text: str | None = None) -> tuple[dict[str, Card], dict[str, Royal], dict]:
    """Load and validate the data (from the installed package unless ``text`` is given)."""
    if text is None:
        text = resources.files("data.splendor_duel").joinpath("cards.json").read_text(encoding="utf-8")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardDataError(f"splendor_duel/cards.json is not valid JSON: {exc}") from exc
    return validate(raw)


CARDS, ROYALS, FACTS = load()
DECKS: dict[int, tuple[str, ...]] = {lv: tuple(c.id for c in CARDS.values() if c.level == lv) for lv in LEVELS}
TOKEN_MIX: dict[str, int] = FACTS["mix"]
TOKEN_TOTAL: int = sum(TOKEN_MIX.values())
SPIRAL: tuple[int, ...] = FACTS["spiral"]
PYRAMID_SIZE: dict[int, int] = FACTS["pyramid"]
PRIVILEGES: int = FACTS["privileges"]
MAX_RESERVED: int = FACTS["max_reserved"]
TOKEN_LIMIT: int = FACTS["token_limit"]
CROWN_THRESHOLDS: tuple[int, ...] = FACTS["crown_thresholds"]
WIN_POINTS: int = FACTS["victory"]["prestige_points"]
WIN_CROWNS: int = FACTS["victory"]["crowns"]
WIN_COLOR_POINTS: int = FACTS["victory"]["points_in_one_color"]


def card(card_id: str) -> Card:
    """The card's facts (KeyError for an unknown id)."""
    return CARDS[card_id]


ABILITY_TEXT: dict[str, str] = {
    "extra_turn": "extra turn",
    "joker_bonus_copy": "joker",
    "take_token_of_card_color_from_board": "take a token of its colour",
    "take_privilege": "take a privilege",
    "steal_token_from_opponent": "steal a token",
}


@cache
def label(card_id: str) -> str:
    """How a card is named to players: 'L2-05 blue 2 PP 1 crown (cost 2W 2R 2K 1P)'."""
    if card_id in ROYALS:
        r = ROYALS[card_id]
        extra = "".join(f", {ABILITY_TEXT[a]}" for a in r.abilities)
        return f"royal {r.id} ({r.points} PP{extra})"
    c = CARDS[card_id]
    what = {"colored": c.color or "", "joker": "joker", "points_only": "gray"}[c.card_type]
    if c.bonus == 2:
        what += " ×2"
    bits = [what]
    if c.points:
        bits.append(f"{c.points} PP")
    if c.crowns:
        bits.append(f"{c.crowns} crown" + ("s" if c.crowns > 1 else ""))
    bits += [ABILITY_TEXT[a] for a in c.abilities if a != "joker_bonus_copy"]
    cost = " ".join(f"{n}{TOKEN_LETTER[k]}" for k, n in zip(COST_KINDS, c.cost, strict=True) if n)
    return f"{c.id} {', '.join(bits)} (cost {cost})"
