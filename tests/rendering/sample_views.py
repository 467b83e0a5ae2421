"""Hand-made views of the documented shape (docs/architecture.md), for rendering tests and the gallery.

Cards are chosen from the real card data so that circles are genuine: the single-colour circle below is
found by searching the data, not assumed.
"""

from __future__ import annotations

import random

from engine.viceroy import cards as cardlib

ALL_TOKENS = [
    {"type": "power_points", "value": 10},
    {"type": "science"},
    {"type": "magic"},
    {"type": "defense"},
    {"type": "attack"},
    {"type": "magic_bonus", "value": 3},
    {"type": "circle_bonus", "color": "red", "value": 2},
    {"type": "infinite_gem", "color": "green"},
]


def base_slots(n: int, start: int = 0) -> list[str]:
    return [f"1:{start + 2 * i}" for i in range(n)]


def full_slots(base: int) -> list[str]:
    """Every slot of a complete pyramid on ``base`` level-1 cards (capped at 5 levels)."""
    out = []
    for level in range(1, min(base, 5) + 1):
        for i in range(base - level + 1):
            out.append(f"{level}:{level - 1 + 2 * i}")
    return out


def _mono_circle_cards(color: str = "blue") -> tuple[int, int, int]:
    """(lower-left, lower-right, upper) characters whose circle is single-coloured."""
    chars = cardlib.CHARACTER_NUMBERS
    left = next(n for n in chars if cardlib.section_colors(n)["top_right"] == color)
    right = next(n for n in chars if n != left and cardlib.section_colors(n)["top_left"] == color)
    upper = next(n for n in chars if n not in (left, right) and cardlib.section_colors(n)["bottom_left"] == color)
    return left, right, upper


def pyramid(slots: list[str], seed: int = 1, tokens: bool = True, laws: bool = True) -> dict:
    """A pyramid filling ``slots`` with distinct cards; a few entries carry tokens, a law carries tucked cards."""
    rng = random.Random(seed)
    numbers = list(cardlib.CHARACTER_NUMBERS)
    rng.shuffle(numbers)
    cards: dict[str, dict] = {}
    for i, slot in enumerate(slots):
        level = int(slot.split(":")[0])
        number = numbers[i]
        if laws and level < 5 and i % 7 == 3:
            number = 65 + (i * 5 + seed) % 24
        entry: dict = {"card": number, "slot": slot, "tokens": [], "tucked": [],
                       "gems": dict.fromkeys(cardlib.COLORS, 0), "paint": {}}
        if tokens and not cardlib.is_law(number):
            entry["tokens"] = [dict(t) for t in rng.sample(ALL_TOKENS, k=rng.randint(0, 3))]
        cards[slot] = entry
    return {"cards": cards}


def pyramid_15(seed: int = 7) -> dict:
    """A complete 5-level pyramid (15 cards) with one real single-colour circle, tokens of every kind,
    a law with tucked cards and Treasury gems."""
    p = pyramid(full_slots(5), seed=seed)
    cards = p["cards"]
    left, right, upper = _mono_circle_cards("blue")
    used = {left, right, upper}
    for slot in cards:
        if cards[slot]["card"] in used:
            cards[slot]["card"] = next(n for n in range(64, 0, -1) if n not in used and
                                       n not in {e["card"] for e in cards.values()})
    cards["1:0"]["card"], cards["1:2"]["card"], cards["2:1"]["card"] = left, right, upper
    cards["1:4"]["tokens"] = [dict(t) for t in ALL_TOKENS]
    cards["2:3"].update(card=72, tokens=[], tucked=[5, 9])
    cards["2:5"].update(card=76, tokens=[], gems={"red": 2, "green": 0, "blue": 1, "yellow": 3})
    return p


def pyramid_shapes() -> dict[str, dict]:
    """Pyramids of many shapes: 1-5 levels, wide bases, gaps in upper levels, tucked cards, all tokens."""
    shapes = {
        "empty": {"cards": {}},
        "one": pyramid(["1:0"]),
        "two_levels": pyramid(["1:0", "1:2", "2:1"]),
        "three_levels": pyramid(full_slots(3)),
        "four_levels": pyramid(full_slots(4)),
        "five_levels": pyramid_15(),
        "wide_base_9": pyramid(base_slots(9, start=-8)),
        "wide_with_towers": pyramid(base_slots(8) + ["2:1", "2:3", "2:9", "3:2", "2:13"]),
        "negative_coords": pyramid(base_slots(4, start=-6) + ["2:-5", "2:-3", "3:-4"]),
    }
    heavy = pyramid(full_slots(2))
    for entry in heavy["cards"].values():
        entry["tokens"] = [dict(t) for t in ALL_TOKENS] + [
            {"type": "infinite_gem", "color": "red"},
            {"type": "circle_bonus", "color": "blue", "value": 4},
            {"type": "power_points", "value": 15},
        ]
        entry["tucked"] = [66, 70, 71]
        entry["gems"] = {"red": 1, "green": 2, "blue": 3, "yellow": 4}
    shapes["all_tokens_everywhere"] = heavy
    painted = pyramid(full_slots(3), seed=3)
    painted["cards"]["2:1"]["paint"] = {"bottom_left": "red", "bottom_right": "red"}
    painted["cards"]["1:0"]["paint"] = {"top_right": "red"}
    painted["cards"]["1:2"]["paint"] = {"top_left": "red"}
    shapes["painted"] = painted
    return shapes


AUCTION = {
    "red": {"base": 12, "tip": 40},
    "green": {"base": 3, "tip": None},
    "blue": {"base": 51, "tip": 27},
    "yellow": {"base": None, "tip": None},
}

NAMES = ["Alice", "Bartholomew", "Chen", "Dagny"]


def public_view(players: int = 4, seed: int = 11) -> dict:
    """A public view (no seat's secrets) in the middle of a game."""
    shapes = [full_slots(3), base_slots(5) + ["2:1", "2:3", "3:2"], full_slots(5), base_slots(3) + ["2:3"]]
    return {
        "options": {"players": players, "deal": 4, "virtual_opponents": 0},
        "phase": "development",
        "turn": 7,
        "round": 2,
        "last_turn": False,
        "reserve": {"red": 5, "green": 2, "blue": 9, "yellow": 0},
        "decks": {"large": 20, "small": 9, "law": 11},
        "auction": {c: dict(v) for c, v in AUCTION.items()},
        "players": [
            {
                "seat": s,
                "pyramid": pyramid(shapes[s % 4], seed=seed + s),
                "hand_size": 2 + s % 2,
                "submitted": s % 2 == 0,
                "out": False,
            }
            for s in range(players)
        ],
    }


def seat_view(seat: int = 0, players: int = 4) -> dict:
    """The view of one seat: the public view plus that seat's gems, attack tokens and hand."""
    v = public_view(players)
    v["seat"] = seat
    me = v["players"][seat]
    me["gems"] = {"red": 3, "green": 0, "blue": 2, "yellow": 1}
    me["attacks"] = 2
    me["hand"] = [32, 70, 18, 55]
    v["gems"], v["attacks"], v["hand"] = me["gems"], me["attacks"], me["hand"]
    return v


def final_scores(players: int = 4) -> list[dict]:
    rows = [
        {"circles": 9, "infinite_gems": 6, "laws": 10, "pp_tokens": 41, "magic": 21, "sets": 24, "attack": 0},
        {"circles": 4, "infinite_gems": 3, "laws": 4, "pp_tokens": 55, "magic": 0, "sets": 12, "attack": -8},
        {"circles": 12, "infinite_gems": 0, "laws": 0, "pp_tokens": 30, "magic": 40, "sets": 36, "attack": -4},
        {"circles": 2, "infinite_gems": 8, "laws": 15, "pp_tokens": 20, "magic": 6, "sets": 0, "attack": 0},
    ][:players]
    totals = [sum(r.values()) for r in rows]
    best = max(totals)
    return [{"seat": s, "total": totals[s], "breakdown": rows[s], "winner": totals[s] == best} for s in range(players)]
