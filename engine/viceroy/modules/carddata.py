"""The Times of Darkness card data (``data/viceroy/darkness/*.json``), loaded and validated once at import.

These cards are designed by this project in the spirit of the expansion (the printed cards are not available
to us); every file and card says so (``designed_by_project``). As for the base cards (``cards.py``), a
malformed file fails loudly with a message naming the file, the card and the field. Loading registers the
cards with ``cards.register`` so labels, costs and sections work everywhere; only games whose modules put
them in a deck ever see them.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from .. import cards as C
from ..cards import CardDataError

# Reward types of the expansion, on top of the base game's.
DIAMONDS = "diamonds"
ANY_CIRCLE_BONUS = "any_circle_bonus"
REWARD_TYPES = C.REWARD_TYPES | {DIAMONDS, ANY_CIRCLE_BONUS}
IMAGE_TYPES = frozenset({"science", "magic", "defense", "attack", "magic_bonus", "circle_bonus", ANY_CIRCLE_BONUS})
TEXT_SCORES = frozenset({"per_law", "per_adjacent_character", "per_set", "per_card_on_level", "per_token", "by_level"})
ARISTOCRATS = tuple(range(89, 101))
ARISTOCRAT_LAWS = (101, 102, 103)
REVISED_LAWS = (66, 67, 68, 72)
DOMAIN = 104
DOMAIN_OPTIONS = ("gems", "science", "attack", "card")


def _fail(file: str, where: str, field: str, problem: str) -> CardDataError:
    return CardDataError(f"darkness/{file}: {where}: field '{field}' {problem}")


def _check_colour(file: str, where: str, field: str, value: Any, extra: tuple[str, ...] = ()) -> None:
    if value not in C.COLORS and value not in extra:
        allowed = ", ".join(C.COLORS + extra)
        raise _fail(file, where, field, f"must be one of {allowed}, got {value!r}")


def _check_reward(file: str, where: str, field: str, reward: Any, types: frozenset[str] = REWARD_TYPES) -> None:
    if not isinstance(reward, dict):
        raise _fail(file, where, field, "must be an object")
    kind = reward.get("type")
    if kind not in types:
        raise _fail(file, where, f"{field}.type", f"is not a known reward type: {kind!r}")
    if kind in ("magic_bonus", "circle_bonus", ANY_CIRCLE_BONUS):
        value = reward.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise _fail(file, where, f"{field}.value", f"must be a positive integer, got {value!r}")
    elif kind != "infinite_gem":
        amount = reward.get("amount", None if types is REWARD_TYPES else 1)  # an image is one token
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise _fail(file, where, f"{field}.amount", f"must be a positive integer, got {amount!r}")
    if kind in ("infinite_gem", "circle_bonus"):
        _check_colour(file, where, f"{field}.color", reward.get("color"), ("any",) if kind == "infinite_gem" else ())


def _check_marked(file: str, where: str, card: dict) -> None:
    if card.get("designed_by_project") is not True:
        raise _fail(file, where, "designed_by_project", "must be true (these cards are not the printed ones)")


def _check_named(file: str, where: str, card: dict) -> None:
    if not isinstance(card.get("name"), str) or not card["name"]:
        raise _fail(file, where, "name", "is missing")


def numbered_cards(file: str, raw: dict, field: str, numbers: tuple[int, ...], noun: str,
                   order: str) -> list[tuple[int, dict, str]]:
    """The cards a file lists under ``field``, checked as a list of ``numbers`` in order, each an object with
    its number, name and marking: (number, card, where) for the checks of the card's own fields."""
    cards = raw.get(field)
    if not isinstance(cards, list) or len(cards) != len(numbers):
        raise CardDataError(f"darkness/{file}: field '{field}' must list {len(numbers)} {noun}s")
    out = []
    for number, card in zip(numbers, cards, strict=True):
        if not isinstance(card, dict):
            raise CardDataError(f"darkness/{file}: each {noun} must be an object")
        where = f"{noun} #{card.get('number', '?')} ({card.get('name', 'unnamed')})"
        _check_card(file, where, card, number, order)
        out.append((number, card, where))
    return out


def _check_card(file: str, where: str, card: dict, number: int, order: str = "") -> None:
    """A card's number, name and marking (every designed card carries all three)."""
    if card.get("number") != number:
        raise _fail(file, where, "number", f"must be {number}{order}")
    _check_named(file, where, card)
    _check_marked(file, where, card)


def _check_law(file: str, law: Any, number: int) -> None:
    where = f"law #{law.get('number', '?')} ({law.get('name', 'unnamed')})" if isinstance(law, dict) else "a law"
    if not isinstance(law, dict):
        raise CardDataError(f"darkness/{file}: each law must be an object")
    _check_card(file, where, law, number)
    if not isinstance(law.get("text"), str) or not law["text"]:
        raise _fail(file, where, "text", "is missing")
    sections = law.get("sections")
    if not isinstance(sections, dict):
        raise _fail(file, where, "sections", "is missing or not an object")
    for key in ("top_left", "top_right", "bottom"):
        _check_colour(file, where, f"sections.{key}", sections.get(key))
    effect = law.get("effect")
    if not isinstance(effect, dict) or not isinstance(effect.get("kind"), str):
        raise _fail(file, where, "effect.kind", "is missing")
    if effect["kind"] == "choice":
        options = effect.get("options")
        if not isinstance(options, list) or len(options) != 3:
            raise _fail(file, where, "effect.options", "must list 3 options")
        for i, option in enumerate(options):
            for j, item in enumerate(option if isinstance(option, list) else [option]):
                _check_reward(file, where, f"effect.options[{i}]" + (f"[{j}]" if isinstance(option, list) else ""), item)


def _check_file(file: str, raw: Any) -> None:
    if not isinstance(raw, dict) or raw.get("designed_by_project") is not True or not raw.get("note"):
        raise CardDataError(f"darkness/{file}: the file must say it is designed by this project "
                            "(fields 'designed_by_project' and 'note')")


def _check_laws(file: str, raw: dict, numbers: tuple[int, ...], what: str) -> None:
    laws = raw.get("laws")
    if not isinstance(laws, list) or len(laws) != len(numbers):
        raise CardDataError(f"darkness/{file}: field 'laws' must list {what}")
    for number, law in zip(numbers, laws, strict=True):
        _check_law(file, law, number)


def validate_aristocrats(raw: Any) -> None:
    file = "aristocrats.json"
    _check_file(file, raw)
    chars = raw.get("characters")
    if not isinstance(chars, list) or len(chars) != len(ARISTOCRATS):
        raise CardDataError(f"darkness/{file}: field 'characters' must list {len(ARISTOCRATS)} aristocrats")
    for number, card in zip(ARISTOCRATS, chars, strict=True):
        if not isinstance(card, dict):
            raise CardDataError(f"darkness/{file}: each aristocrat must be an object")
        where = f"aristocrat #{card.get('number', '?')} ({card.get('name', 'unnamed')})"
        _check_card(file, where, card, number, " (aristocrats are numbered 89-100 in order)")
        sections = card.get("sections")
        if not isinstance(sections, dict):
            raise _fail(file, where, "sections", "is missing or not an object")
        _check_colour(file, where, "sections.top_left", sections.get("top_left"))
        _check_colour(file, where, "sections.top_right", sections.get("top_right"))
        if sections.get("bottom") != C.NONE:
            raise _fail(file, where, "sections.bottom", "must be 'none' (the lower sections carry the extra reward)")
        rows = card.get("rows")
        if not isinstance(rows, list) or len(rows) != 4:
            raise _fail(file, where, "rows", "must list 4 rows (levels 1-4)")
        first = rows[0]
        if not isinstance(first, dict) or first.get("level") != 1 or first.get("cost") != "any" or first.get("count") != 2:
            raise _fail(file, where, "rows[0]", "must cost two gems of any colours on level 1 (cost 'any', count 2)")
        if first.get("reward") != []:
            raise _fail(file, where, "rows[0].reward", "must be empty (aristocrats have no level-1 reward)")
        for level, row in enumerate(rows[1:], start=2):
            if not isinstance(row, dict) or row.get("level") != level:
                raise _fail(file, where, f"rows[{level - 1}].level", f"must be {level}")
            _check_colour(file, where, f"rows[{level - 1}].cost", row.get("cost"))
            rewards = row.get("reward")
            if not isinstance(rewards, list) or not rewards:
                raise _fail(file, where, f"rows[{level - 1}].reward", "must be a non-empty list")
            for j, reward in enumerate(rewards):
                _check_reward(file, where, f"rows[{level - 1}].reward[{j}]", reward)
        extra = card.get("extra")
        if extra == "images":
            images = card.get("images")
            if not isinstance(images, list) or not images:
                raise _fail(file, where, "images", "must list the token images of the lower sections")
            for j, image in enumerate(images):
                _check_reward(file, where, f"images[{j}]", image, IMAGE_TYPES)
        elif extra == "text":
            if not isinstance(card.get("text"), str) or not card["text"]:
                raise _fail(file, where, "text", "is missing")
            score = card.get("score")
            if not isinstance(score, dict) or score.get("kind") not in TEXT_SCORES:
                raise _fail(file, where, "score.kind", f"must be one of {', '.join(sorted(TEXT_SCORES))}")
            if not isinstance(score.get("pp"), int) or score["pp"] <= 0:
                raise _fail(file, where, "score.pp", "must be a positive integer")
        else:
            raise _fail(file, where, "extra", f"must be 'images' or 'text', got {extra!r}")
    _check_laws(file, raw, ARISTOCRAT_LAWS, f"{len(ARISTOCRAT_LAWS)} aristocrat laws")


def validate_revised(raw: Any) -> None:
    file = "laws.json"
    _check_file(file, raw)
    _check_laws(file, raw, REVISED_LAWS, "the revised laws 66, 67, 68 and 72")


def validate_domain(raw: Any) -> None:
    file = "domain.json"
    _check_file(file, raw)
    card = raw.get("domain")
    if not isinstance(card, dict):
        raise CardDataError(f"darkness/{file}: field 'domain' must be the domain card")
    _check_card(file, f"domain card #{card.get('number', '?')}", card, DOMAIN)
    where = f"domain card #{DOMAIN}"
    sections = card.get("sections")
    if not isinstance(sections, dict) or any(sections.get(k) != C.ANY for k in ("top_left", "top_right", "bottom")):
        raise _fail(file, where, "sections", "must all be 'any' (every section of a domain card is multicoloured)")
    rewards = card.get("rewards")
    if not isinstance(rewards, list) or [r.get("option") if isinstance(r, dict) else None for r in rewards] != list(DOMAIN_OPTIONS):
        raise _fail(file, where, "rewards", f"must offer the options {', '.join(DOMAIN_OPTIONS)} in order")
    for i, option in enumerate(rewards):
        _check_reward(file, where, f"rewards[{i}].reward", option.get("reward"))


def _read(name: str) -> Any:
    text = resources.files("data.viceroy").joinpath("darkness", name).read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardDataError(f"darkness/{name} is not valid JSON: {exc}") from exc


def load() -> tuple[dict, dict, dict]:
    """Load and validate the three files: (aristocrats, revised laws, domain)."""
    aristocrats, revised, domain = _read("aristocrats.json"), _read("laws.json"), _read("domain.json")
    validate_aristocrats(aristocrats)
    validate_revised(revised)
    validate_domain(domain)
    return aristocrats, revised, domain


_ARISTOCRATS, _REVISED, _DOMAIN = load()
C.register(_ARISTOCRATS["characters"], "character")
C.register(_ARISTOCRATS["laws"], "law")
C.register([_DOMAIN["domain"]], "other")

REVISED: dict[int, dict] = {law["number"]: law for law in _REVISED["laws"]}
DOMAIN_CARD: dict = _DOMAIN["domain"]
DOMAIN_REWARDS: dict[str, dict] = {r["option"]: r["reward"] for r in DOMAIN_CARD["rewards"]}


def aristocrat(number: int) -> dict:
    return C.CARDS[number]


def is_aristocrat(number: int) -> bool:
    return number in ARISTOCRATS


def revised_law(number: int) -> dict:
    """The revised law's data (its text and effect; its name and sections are the base card's)."""
    return REVISED[number]
