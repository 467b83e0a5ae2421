"""Card facts for Viceroy, loaded from the packaged data file and validated once at import.

A malformed data file fails loudly with a message naming the card and the field, so a bad edit to
``data/viceroy/cards.json`` can never start a game with wrong costs.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

COLORS: tuple[str, ...] = ("red", "green", "blue", "yellow")
SECTIONS: tuple[str, ...] = ("top_left", "top_right", "bottom_left", "bottom_right")
REWARD_TYPES: frozenset[str] = frozenset(
    {
        "gems",
        "power_points",
        "cards",
        "science",
        "magic",
        "defense",
        "attack",
        "infinite_gem",
        "magic_bonus",
        "circle_bonus",
    }
)
FIRST_LAW = 65
LAST_CARD = 88


class CardDataError(ValueError):
    """The card data file is malformed."""


def _fail(where: str, field: str, problem: str) -> CardDataError:
    return CardDataError(f"cards.json: {where}: field '{field}' {problem}")


def _check_color(value: Any, where: str, field: str, allow_any: bool = False) -> None:
    if value in COLORS or (allow_any and value == "any"):
        return
    raise _fail(where, field, f"must be one of {', '.join(COLORS)}, got {value!r}")


def _check_sections(card: dict, where: str) -> None:
    sections = card.get("sections")
    if not isinstance(sections, dict):
        raise _fail(where, "sections", "is missing or not an object")
    for key in ("top_left", "top_right", "bottom"):
        _check_color(sections.get(key), where, f"sections.{key}")


def _check_reward(reward: Any, where: str, field: str) -> None:
    if not isinstance(reward, dict):
        raise _fail(where, field, "must be an object")
    kind = reward.get("type")
    if kind not in REWARD_TYPES:
        raise _fail(where, f"{field}.type", f"is not a known reward type: {kind!r}")
    if kind in ("magic_bonus", "circle_bonus"):
        value = reward.get("value")
        if not isinstance(value, int) or value <= 0:
            raise _fail(where, f"{field}.value", f"must be a positive integer, got {value!r}")
    elif kind != "infinite_gem":
        amount = reward.get("amount")
        if not isinstance(amount, int) or amount <= 0:
            raise _fail(where, f"{field}.amount", f"must be a positive integer, got {amount!r}")
    if kind in ("infinite_gem", "circle_bonus"):
        _check_color(reward.get("color"), where, f"{field}.color", allow_any=True)


def validate(raw: dict) -> None:
    """Raise CardDataError naming the first malformed card and field."""
    chars = raw.get("characters")
    laws = raw.get("laws")
    if not isinstance(chars, list) or len(chars) != 64:
        raise CardDataError("cards.json: field 'characters' must list 64 character cards")
    if not isinstance(laws, list) or len(laws) != 24:
        raise CardDataError("cards.json: field 'laws' must list 24 law cards")
    for i, card in enumerate(chars, start=1):
        where = f"character #{card.get('number', '?')} ({card.get('name', 'unnamed')})"
        if card.get("number") != i:
            raise _fail(where, "number", f"must be {i} (characters are numbered 1-64 in order)")
        if not isinstance(card.get("name"), str) or not card["name"]:
            raise _fail(where, "name", "is missing")
        _check_sections(card, where)
        rows = card.get("rows")
        if not isinstance(rows, list) or len(rows) != 4:
            raise _fail(where, "rows", "must list 4 rows (levels 1-4)")
        for level, row in enumerate(rows, start=1):
            if not isinstance(row, dict) or row.get("level") != level:
                raise _fail(where, f"rows[{level - 1}].level", f"must be {level}")
            _check_color(row.get("cost"), where, f"rows[{level - 1}].cost")
            rewards = row.get("reward")
            if not isinstance(rewards, list) or not rewards:
                raise _fail(where, f"rows[{level - 1}].reward", "must be a non-empty list")
            for j, reward in enumerate(rewards):
                _check_reward(reward, where, f"rows[{level - 1}].reward[{j}]")
    for i, law in enumerate(laws, start=FIRST_LAW):
        where = f"law #{law.get('number', '?')} ({law.get('name', 'unnamed')})"
        if law.get("number") != i:
            raise _fail(where, "number", f"must be {i} (laws are numbered 65-88 in order)")
        if not isinstance(law.get("name"), str) or not law["name"]:
            raise _fail(where, "name", "is missing")
        if not isinstance(law.get("text"), str) or not law["text"]:
            raise _fail(where, "text", "is missing")
        _check_sections(law, where)
        effect = law.get("effect")
        if not isinstance(effect, dict) or not isinstance(effect.get("kind"), str):
            raise _fail(where, "effect.kind", "is missing")


def load(text: str | None = None) -> dict:
    """Load and validate the card data (from the installed package unless ``text`` is given)."""
    if text is None:
        text = resources.files("data.viceroy").joinpath("cards.json").read_text(encoding="utf-8")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardDataError(f"cards.json is not valid JSON: {exc}") from exc
    validate(raw)
    return raw


_RAW = load()

CARDS: dict[int, dict] = {c["number"]: c for c in _RAW["characters"]}
CARDS.update({law["number"]: law for law in _RAW["laws"]})
CHARACTER_NUMBERS: tuple[int, ...] = tuple(range(1, 65))
LAW_NUMBERS: tuple[int, ...] = tuple(range(FIRST_LAW, LAST_CARD + 1))


# What kind each card is. The base game's cards are fixed; a module adds its own with ``register``.
_LAWS: set[int] = set(LAW_NUMBERS)
_CHARACTERS: set[int] = set(CHARACTER_NUMBERS)
# Cards that lie in a pyramid but are not "a card in the pyramid" for effects (the domain cards).
_OUTSIDE: set[int] = set()
# Gems of any colours a card costs on each level, on top of ``COST`` (aristocrats: two on level 1).
ANY_COST: dict[int, list[int]] = {}
# Token images printed on a card (aristocrats): they count like tokens for their effects but are not tokens.
IMAGES: dict[int, tuple[dict, ...]] = {}
# Cards that may be placed on one level only (criminals: level 0, under the first row), by number.
PLACED_ON: dict[int, int] = {}
# Section colours a card may have besides the four: "any" (multicoloured, counts as every colour) and
# "none" (text or symbols: never part of a single-colour circle, cannot be painted).
ANY = "any"
NONE = "none"


# Every law number, the modules' included (``register`` adds to it): shared, read it, never change it.
LAW_SET = _LAWS


def is_law(number: int) -> bool:
    return number in _LAWS


def is_character(number: int) -> bool:
    return number in _CHARACTERS


def in_pyramid(number: int) -> bool:
    """False for cards that lie in the pyramid's geometry but that effects naming a pyramid card cannot
    target (a domain card)."""
    return number not in _OUTSIDE


def register(cards: list[dict], kind: str) -> None:
    """Add cards a module brings (already validated by its loader): ``kind`` is "character", "law", "pyramid"
    (a card in the pyramid that is neither a character nor a law, such as a criminal) or "other".

    A character's rows give its cost and rewards as in the base data; a row cost of ``"any"`` with a
    ``"count"`` costs that many gems of any colours. ``"images"`` lists the token images it carries.
    """
    for card_data in cards:
        number = card_data["number"]
        CARDS[number] = card_data
        SECTION_COLORS[number] = _section_colors(number)
        LABELS[number] = f"#{number} {card_data['name']}"
        if kind == "law":
            _LAWS.add(number)
        elif kind == "character":
            _CHARACTERS.add(number)
            rows = card_data["rows"]
            any_count = sum(r.get("count", 1) for r in rows[:1] if r["cost"] == ANY)
            COST[number] = [dict.fromkeys(COLORS, 0)] + [_cost(number, level) for level in range(1, 6)]
            ANY_COST[number] = [0] + [any_count] * 5
        elif kind == "pyramid":
            if "placed_on" in card_data:
                PLACED_ON[number] = card_data["placed_on"]
        else:
            _OUTSIDE.add(number)
        if card_data.get("images"):
            IMAGES[number] = tuple(dict(i) for i in card_data["images"])


def any_cost(number: int, level: int) -> int:
    """Gems of any colours a character costs on a level, besides its coloured cost (0 for base cards)."""
    extra = ANY_COST.get(number)
    return extra[level] if extra else 0


def card(number: int) -> dict:
    """The card's data (raises KeyError for an unknown number)."""
    return CARDS[number]


def name(number: int) -> str:
    return CARDS[number]["name"]


LABELS: dict[int, str] = {n: f"#{n} {c['name']}" for n, c in CARDS.items()}


def label(number: int) -> str:
    """How a card is named to players: '#32 Captain'."""
    return LABELS[number]


def _section_colors(number: int) -> dict[str, str]:
    s = CARDS[number]["sections"]
    return {
        "top_left": s["top_left"],
        "top_right": s["top_right"],
        "bottom_left": s["bottom"],
        "bottom_right": s["bottom"],
    }


# SECTION_COLORS[number]: the four sections of every card, computed once. Shared: read it, never change it.
SECTION_COLORS: dict[int, dict[str, str]] = {n: _section_colors(n) for n in CARDS}


def section_colors(number: int) -> dict[str, str]:
    """The four sections of a card (the bottom half circle counts as two sections of one colour)."""
    return dict(SECTION_COLORS[number])


def _cost(number: int, level: int) -> dict[str, int]:
    rows = CARDS[number]["rows"]
    total = dict.fromkeys(COLORS, 0)
    for row in rows[: min(level, 4)]:
        if row["cost"] in total:  # an "any" cost is kept apart, in ANY_COST
            total[row["cost"]] += 1
    if level == 5 and rows[3]["cost"] in total:
        total[rows[3]["cost"]] += 1
    return total


# COST[number][level]: the cost table, computed once (index 0 unused). Shared: read it, never change it.
COST: dict[int, list[dict[str, int]]] = {
    n: [dict.fromkeys(COLORS, 0)] + [_cost(n, level) for level in range(1, 6)] for n in CHARACTER_NUMBERS
}


def cost(number: int, level: int) -> dict[str, int]:
    """Gems a character costs on a level (cumulative rows; level 5 adds one more of the row-4 colour)."""
    if 1 <= level <= 5 and number in COST:
        return dict(COST[number][level])
    return _cost(number, level)


def rewards(number: int, level: int) -> list[dict]:
    """The reward items of the row of a level (1-4)."""
    return CARDS[number]["rows"][level - 1]["reward"]
