"""Pyramid geometry: slots, legal placements, circles, neighbours, free cards and token totals.

A pyramid is ``{"cards": {slot: entry}}`` (see docs/architecture.md, "Slots" and "Pyramid entry").
A slot is ``"L:x"``: level ``L`` (1 = bottom) and a doubled horizontal coordinate ``x``. Same-level
neighbours sit at ``x - 2`` and ``x + 2``; a card at ``"L:x"`` (L >= 2) rests on ``"L-1:x-1"`` and
``"L-1:x+1"``.

Level 0 (the *underworld*) exists only for cards that are placed on it (``cards.PLACED_ON``, the criminals
of the Underworld module): a card at ``"0:x"`` lies under the two level-1 cards ``"1:x-1"`` and ``"1:x+1"``.
Geometry is the same at every level: a level-1 card then closes the circle over the two level-0 cards under
it, and a level-1 card with a card under it is not free (the card under it would lose one of its two cards).
Without level-0 cards every function answers as it always did.

Every function here is pure and cheap: nothing is copied and nothing is mutated, so the engine, the
painting solver and the renderer can call them freely.

Circle description (returned by :func:`circles` and :func:`completed_circle`)::

    {"slot": "2:1",               # the upper card (it names the circle)
     "level": 2,                  # the upper card's level (what the circle scores)
     "sections": [("1:0", "top_right"), ("1:2", "top_left"),
                  ("2:1", "bottom_left"), ("2:1", "bottom_right")],
     "colors": ["red", "red", "blue", "blue"],   # current colours, paint included, same order
     "single": False,             # all four sections one colour
     "color": None}               # that colour when single, else None
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.viceroy.cards import (
    ANY,
    COLORS,
    IMAGES,
    LAW_SET,
    NONE,
    PLACED_ON,
    SECTION_COLORS,
    SECTIONS,
    in_pyramid,
    is_law,
)

MAX_LEVEL = 5

# Tokens whose count matters (each token entry may carry an "amount"; absent means one token).
COUNTED_TOKENS: tuple[str, ...] = ("science", "magic", "defense", "attack")


# --------------------------------------------------------------------------- slots


_PARSED: dict[str, tuple[int, int]] = {}


def parse_slot(slot: str) -> tuple[int, int]:
    """``"L:x"`` -> ``(L, x)``; raises ValueError for anything else."""
    try:
        return _PARSED[slot]
    except (KeyError, TypeError):
        pass
    try:
        level_text, x_text = slot.split(":")
        parsed = int(level_text), int(x_text)
    except (AttributeError, ValueError) as exc:
        raise ValueError(f"'{slot}' is not a pyramid position (expected level:x, e.g. 2:1)") from exc
    if len(_PARSED) > 50_000:
        _PARSED.clear()  # slots come from a small set; this only bounds what odd input can add
    _PARSED[slot] = parsed
    return parsed


def slot_name(level: int, x: int) -> str:
    """``(L, x)`` -> ``"L:x"``."""
    return f"{level}:{x}"


def free_after_placing(pyramid: dict, slot: str, card_number: int) -> list[str]:
    """The free cards once ``card_number`` is placed at ``slot`` (the placed card itself left out).

    What Royal Favor (74) may tuck: the cards the law comes to rest on are no longer free.
    """
    cards = dict(_cards(pyramid))
    cards[slot] = {"card": card_number, "tucked": []}
    return [s for s in free_cards({"cards": cards}) if s != slot]


def level_of(slot: str) -> int:
    """The level of a slot (1 = bottom)."""
    return parse_slot(slot)[0]


_NO_CARDS: dict[str, dict] = {}  # what a pyramid without a "cards" entry holds (read only)


def _cards(pyramid: dict) -> dict[str, dict]:
    return pyramid.get("cards", _NO_CARDS)


# --------------------------------------------------------------------------- placement


_LEGAL: dict[tuple, tuple[str, ...]] = {}


def legal_slots(pyramid: dict, card_number: int) -> list[str]:
    """Every empty slot where ``card_number`` may be placed, ordered by level then x.

    Empty pyramid: ``["1:0"]``. Level 1: the left end and the right end of the row. Level L >= 2:
    every empty slot resting on two cards of level L - 1 at ``x - 1`` and ``x + 1``. Five levels at
    most; a law is never placed on level 5. A card placed on one level only (``cards.PLACED_ON``) goes on
    that level; on level 0, under two adjacent level-1 cards.
    """
    return list(open_places(pyramid, card_number))


_FIRST = ("1:0",)
_FIRST_PLACES = (("1:0", 1),)
_PLACES: dict[tuple, tuple[tuple[str, int], ...]] = {}


def open_places(pyramid: dict, card_number: int) -> tuple[str, ...]:
    """``legal_slots`` as a tuple shared between callers (read it, never change it)."""
    cards = _cards(pyramid)
    placed = PLACED_ON.get(card_number)
    if not cards:
        return _FIRST if placed is None else ()
    # The answer depends only on which slots are taken: remember it per shape (pyramids repeat a lot; the
    # sorted slots, not the order the cards were placed in, so that the same shape built in another order is
    # found too; a tuple of strings, which the garbage collector stops tracking, unlike a frozenset: the
    # remembered shapes then cost no collection time).
    key = (card_number in LAW_SET, placed, tuple(sorted(cards)))
    found = _LEGAL.get(key)
    if found is None:
        found = tuple(_legal_slots(cards, card_number))
        if len(_LEGAL) > 20_000:
            _LEGAL.clear()
        _LEGAL[key] = found
    return found


def legal_places(pyramid: dict, card_number: int) -> tuple[tuple[str, int], ...]:
    """``legal_slots`` with each slot's level, ``((slot, level), ...)``, shared (read it, never change it)."""
    cards = _cards(pyramid)
    placed = PLACED_ON.get(card_number)
    if not cards:
        return _FIRST_PLACES if placed is None else ()
    key = (card_number in LAW_SET, placed, tuple(sorted(cards)))  # as in open_places
    found = _PLACES.get(key)
    if found is None:
        found = tuple((slot, parse_slot(slot)[0]) for slot in open_places(pyramid, card_number))
        if len(_PLACES) > 20_000:
            _PLACES.clear()
        _PLACES[key] = found
    return found


def _legal_slots(cards: dict, card_number: int) -> list[str]:
    by_level: dict[int, set[int]] = {}
    parsed = _PARSED
    for slot in cards:
        level, x = parsed[slot] if slot in parsed else parse_slot(slot)
        row = by_level.get(level)
        if row is None:
            by_level[level] = {x}
        else:
            row.add(x)
    placed = PLACED_ON.get(card_number)
    if placed == 0:
        row1, under = by_level.get(1, set()), by_level.get(0, set())
        return [slot_name(0, x + 1) for x in sorted(row1) if x + 2 in row1 and x + 1 not in under]
    result: list[tuple[int, int]] = []
    row1 = by_level.get(1)
    if row1:
        left, right = min(row1) - 2, max(row1) + 2
        result.append((1, left))
        result.append((1, right))
    top = MAX_LEVEL - 1 if is_law(card_number) else MAX_LEVEL
    for level in range(2, top + 1):
        below = by_level.get(level - 1)
        if not below:
            break
        here = by_level.get(level, set())
        for x in sorted(below):
            upper = x + 1
            if x + 2 in below and upper not in here:
                result.append((level, upper))
    result.sort()
    return [slot_name(level, x) for level, x in result if placed is None or level == placed]


# --------------------------------------------------------------------------- circles


def circle_of(slot: str) -> tuple[str, str]:
    """The two lower cards ``(lower_left, lower_right)`` of the circle under a card at L >= 2."""
    level, x = parse_slot(slot)
    if level < 2:
        raise ValueError(f"a card on level 1 ({slot}) has no circle under it")
    return slot_name(level - 1, x - 1), slot_name(level - 1, x + 1)


def section_color(entry: dict, section: str) -> str:
    """The current colour of one section of a placed card (painting overrides the printed colour)."""
    paint = entry.get("paint")
    if paint and section in paint:
        return paint[section]
    return SECTION_COLORS[entry["card"]][section]


_BELOW: dict[str, tuple[int, str, str] | None] = {}


def _below(slot: str) -> tuple[int, str, str] | None:
    """``(level, lower-left slot, lower-right slot)`` of a card at L >= 2, else None (remembered per slot)."""
    try:
        return _BELOW[slot]
    except KeyError:
        pass
    level, x = parse_slot(slot)
    # Level 1 too: a level-1 card closes a circle over two level-0 cards when there are any.
    found = (level, slot_name(level - 1, x - 1), slot_name(level - 1, x + 1)) if level >= 1 else None
    if len(_BELOW) > 50_000:
        _BELOW.clear()
    _BELOW[slot] = found
    return found


def circle_colors(ll_entry: dict, lr_entry: dict, upper: dict) -> list[str]:
    """The current colours of a circle's four sections, paint included (as ``section_color`` gives them), in
    circle order: the lower-left card's top right, the lower-right card's top left, the upper card's bottom
    left and bottom right (written out: every circle of every score and every painting reads them)."""
    paint = ll_entry.get("paint")
    c0 = paint["top_right"] if paint and "top_right" in paint else SECTION_COLORS[ll_entry["card"]]["top_right"]
    paint = lr_entry.get("paint")
    c1 = paint["top_left"] if paint and "top_left" in paint else SECTION_COLORS[lr_entry["card"]]["top_left"]
    paint = upper.get("paint")
    printed = SECTION_COLORS[upper["card"]]
    if paint:
        return [c0, c1, paint["bottom_left"] if "bottom_left" in paint else printed["bottom_left"],
                paint["bottom_right"] if "bottom_right" in paint else printed["bottom_right"]]
    return [c0, c1, printed["bottom_left"], printed["bottom_right"]]


# The four sections of the circle under a slot, per slot (a slot's circle is always the same four places).
_SECTIONS_AT: dict[str, tuple[tuple[str, str], ...]] = {}


def _circle(cards: dict[str, dict], slot: str, upper: dict) -> dict | None:
    below = _below(slot)
    if below is None:
        return None
    level, ll, lr = below
    ll_entry = cards.get(ll)
    lr_entry = cards.get(lr)
    if ll_entry is None or lr_entry is None:
        return None
    colors = circle_colors(ll_entry, lr_entry, upper)
    first = colors[0]
    single = colors[1] == first and colors[2] == first and colors[3] == first
    color = first if single else None
    if not single and ANY in colors:
        # A multicoloured section (a domain card's) takes whatever colour the others share.
        real = [c for c in colors if c != ANY]
        if real.count(real[0]) == len(real):
            single, color = True, real[0]
    if color == NONE:  # a section without colour (an aristocrat's lower half) never makes a circle single
        single, color = False, None
    sections = _SECTIONS_AT.get(slot)
    if sections is None:
        if len(_SECTIONS_AT) > 50_000:
            _SECTIONS_AT.clear()
        sections = _SECTIONS_AT[slot] = ((ll, "top_right"), (lr, "top_left"), (slot, "bottom_left"), (slot, "bottom_right"))
    return {
        "slot": slot,
        "level": level,
        "sections": list(sections),
        "colors": colors,
        "single": single,
        "color": color,
    }


def circles(pyramid: dict) -> list[dict]:
    """Every circle that exists (an upper card at L >= 2 with both lower cards present), by level then x."""
    cards = _cards(pyramid)
    found = []
    for slot in sorted(cards, key=parse_slot):
        circle = _circle(cards, slot, cards[slot])
        if circle is not None:
            found.append(circle)
    return found


def single_circles(pyramid: dict) -> list[dict]:
    """The single-colour circles of ``circles(pyramid)`` (the ones that score), in the same order; the other
    circles are only looked at, not described."""
    cards = _cards(pyramid)
    found = []
    for slot in sorted(cards, key=parse_slot):
        below = _BELOW[slot] if slot in _BELOW else _below(slot)
        if below is None:
            continue
        ll_entry = cards.get(below[1])
        lr_entry = cards.get(below[2])
        if ll_entry is None or lr_entry is None:
            continue
        upper = cards[slot]
        colors = circle_colors(ll_entry, lr_entry, upper)
        first = colors[0]
        if (colors[1] == first and colors[2] == first and colors[3] == first and first != NONE) or ANY in colors:
            circle = _circle(cards, slot, upper)
            if circle is not None and circle["single"]:
                found.append(circle)
    return found


def completed_circle(pyramid: dict, slot: str, card: int | None = None) -> dict | None:
    """The circle completed by the card at ``slot``, or None on level 1.

    With ``card`` given, the card is treated as being placed there (nothing is mutated); otherwise the
    entry already at ``slot`` is used.
    """
    cards = _cards(pyramid)
    upper = {"card": card} if card is not None else cards[slot]
    return _circle(cards, slot, upper)


def circles_closed_by(pyramid: dict, slot: str) -> list[dict]:
    """Every circle the card at ``slot`` completes: the one under it, and (for a card slid under the row
    above, on level 0) those of the cards above it whose other lower card is there."""
    cards = _cards(pyramid)
    level, x = parse_slot(slot)
    found = []
    for upper in (slot, slot_name(level + 1, x - 1), slot_name(level + 1, x + 1)):
        if upper in cards and (upper == slot or level == 0):
            circle = _circle(cards, upper, cards[upper])
            if circle is not None:
                found.append(circle)
    return found


def single_colour(pyramid: dict, slot: str, card: int | None = None) -> str | None:
    """The colour of the single-colour circle completed at ``slot`` (the gem to take), else None."""
    below = _below(slot)
    if below is None:
        return None
    cards = _cards(pyramid)
    ll_entry = cards.get(below[1])
    lr_entry = cards.get(below[2])
    if ll_entry is None or lr_entry is None:
        return None
    upper = {"card": card} if card is not None else cards[slot]
    first = section_color(ll_entry, "top_right")
    second = section_color(lr_entry, "top_left")
    if second == first and section_color(upper, "bottom_left") == first and section_color(upper, "bottom_right") == first:
        return first
    if first == ANY or second == ANY:  # a domain card's multicoloured section: the full rule
        return _circle(cards, slot, upper)["color"]  # type: ignore[index]
    return None


def paintable_sections(pyramid: dict) -> list[tuple[str, str]]:
    """Every ``(slot, section)`` that belongs to an existing circle; only these may be painted.

    Each section belongs to at most one circle, so circles can be painted independently.
    """
    cards = _cards(pyramid)
    result: list[tuple[str, str]] = []
    for slot in sorted(cards, key=parse_slot):
        below = _below(slot)
        if below is not None and below[1] in cards and below[2] in cards:
            for where, section in ((below[1], "top_right"), (below[2], "top_left"), (slot, "bottom_left"),
                                   (slot, "bottom_right")):
                # Multicoloured sections (domain) need no paint and colourless ones (aristocrats) take none.
                if section_color(cards[where], section) not in (ANY, NONE):
                    result.append((where, section))
    return result


def has_paintable(pyramid: dict) -> bool:
    """``bool(paintable_sections(pyramid))``, stopping at the first paintable section (every seat's check at
    the end of the game)."""
    cards = _cards(pyramid)
    for slot, upper in cards.items():
        below = _BELOW[slot] if slot in _BELOW else _below(slot)
        if below is None:
            continue
        ll_entry = cards.get(below[1])
        if ll_entry is None:
            continue
        lr_entry = cards.get(below[2])
        if lr_entry is None:
            continue
        for entry, section in ((ll_entry, "top_right"), (lr_entry, "top_left"), (upper, "bottom_left"),
                               (upper, "bottom_right")):
            if section_color(entry, section) not in (ANY, NONE):
                return True
    return False


# --------------------------------------------------------------------------- adjacency


def neighbours(pyramid: dict, slot: str) -> list[str]:
    """Slots of the up to 6 adjacent cards: left, right, lower-left, lower-right, upper-left, upper-right."""
    cards = _cards(pyramid)
    level, x = parse_slot(slot)
    candidates = (
        (level, x - 2),
        (level, x + 2),
        (level - 1, x - 1),
        (level - 1, x + 1),
        (level + 1, x - 1),
        (level + 1, x + 1),
    )
    return [name for name in (slot_name(lv, cx) for lv, cx in candidates) if name in cards]


def free_cards(pyramid: dict) -> list[str]:
    """Slots of the free cards, by level then x.

    A free card has no card resting on it, no card tucked under it, and is at an end of its row.
    Ruling: rows above level 1 can have gaps, so "at an end of its row" means the card has no
    same-level neighbour (at x - 2 or x + 2) on at least one side.
    """
    cards = _cards(pyramid)
    result = []
    for slot in sorted(cards, key=parse_slot):
        if cards[slot].get("tucked") or not in_pyramid(cards[slot]["card"]):
            continue
        level, x = parse_slot(slot)
        if slot_name(level + 1, x - 1) in cards or slot_name(level + 1, x + 1) in cards:
            continue
        if level == 1 and (slot_name(0, x - 1) in cards or slot_name(0, x + 1) in cards):
            continue  # a card of level 0 lies under it
        if slot_name(level, x - 2) in cards and slot_name(level, x + 2) in cards:
            continue
        result.append(slot)
    return result


# --------------------------------------------------------------------------- counts and tokens


def cards_count(pyramid: dict) -> int:
    """Cards in the pyramid including the cards tucked under them (law 68, Census)."""
    return sum(1 + len(entry.get("tucked") or ()) for entry in _cards(pyramid).values())


def tokens(pyramid: dict) -> Iterable[tuple[str, dict]]:
    """Every token lying in the pyramid, and the token images printed on its cards (aristocrats): images
    count like tokens for their effects (pass gems, scoring) but are not tokens (no law moves them)."""
    for slot, entry in _cards(pyramid).items():
        for token in entry.get("tokens") or ():
            yield slot, token
        if IMAGES:
            for image in IMAGES.get(entry["card"], ()):
                yield slot, image


_tokens = tokens


def token_count(pyramid: dict, token_type: str) -> int:
    """How many tokens of a type lie in the pyramid (science, magic, defense, attack on laws 71/77)."""
    return sum(t.get("amount", 1) for _, t in _tokens(pyramid) if t["type"] == token_type)


def power_points(pyramid: dict) -> int:
    """The sum of the power-point tokens lying in the pyramid."""
    return sum(t.get("value", t.get("amount", 0)) for _, t in _tokens(pyramid) if t["type"] == "power_points")


def magic_bonus(pyramid: dict) -> int:
    """The sum of the magic-bonus token values."""
    return sum(t.get("value", 0) for _, t in _tokens(pyramid) if t["type"] == "magic_bonus")


def circle_bonus(pyramid: dict) -> dict[str, int]:
    """Circle-bonus value per colour (every colour present, 0 when none)."""
    total = dict.fromkeys(COLORS, 0)
    for _, t in _tokens(pyramid):
        if t["type"] == "circle_bonus" and t.get("color") in total:
            total[t["color"]] += t.get("value", 0)
    return total


def infinite_gems(pyramid: dict) -> list[tuple[str, str]]:
    """Every infinite gem as ``(slot, colour)``, by slot (a card may hold more than one)."""
    found = [(slot, t["color"]) for slot, t in _tokens(pyramid) if t["type"] == "infinite_gem"]
    found.sort(key=lambda item: (parse_slot(item[0]), item[1]))
    return found


def law_slots(pyramid: dict, numbers: Iterable[int]) -> list[str]:
    """Slots holding one of the given law numbers, by level then x."""
    wanted = set(numbers)
    cards = _cards(pyramid)
    return sorted((s for s, e in cards.items() if e["card"] in wanted), key=parse_slot)


__all__ = [
    "COUNTED_TOKENS",
    "MAX_LEVEL",
    "SECTIONS",
    "cards_count",
    "circle_bonus",
    "circle_colors",
    "circle_of",
    "circles",
    "circles_closed_by",
    "completed_circle",
    "free_after_placing",
    "free_cards",
    "has_paintable",
    "infinite_gems",
    "law_slots",
    "legal_places",
    "legal_slots",
    "level_of",
    "magic_bonus",
    "neighbours",
    "open_places",
    "paintable_sections",
    "parse_slot",
    "power_points",
    "section_color",
    "single_circles",
    "single_colour",
    "slot_name",
    "token_count",
]
