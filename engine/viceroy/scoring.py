"""End-of-game scoring (RULES.md §9 and the end-game laws of §10).

``score_player`` reads only ``state["options"]`` and ``state["players"]`` (each player: ``pyramid``,
``attacks``); it never mutates the state.

The categories are a list of scorers (``SCORERS``; a module adds its own through the ruleset). The base
game's seven, in the order of the rules:

1. ``circles``: each single-colour circle scores its upper card's level plus the player's circle-bonus
   tokens of that colour (every bonus token of a colour counts for every circle of that colour).
2. ``infinite_gems``: each infinite gem scores the level of its card plus the circle bonus of its colour.
3. ``laws``: end-game laws 68, 72, 74, 75, 76, 78, 79 and 85-88.
4. ``power_points``: PP tokens.
5. ``magic``: magic tokens x sum of magic-bonus tokens.
6. ``sets``: 12 per complete set of one defense, one magic and one science token.
7. ``attack``: -4 x max(0, opponents' unused attack tokens - own defense tokens). Unused attack tokens
   are those behind the screen plus those lying in the pyramid (laws 71/77). Seats without a pyramid
   (virtual opponents) hold no attack tokens; in the solo game this category is 0.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.viceroy import pyramid as pyr
from engine.viceroy.cards import IMAGES, is_character, is_law
from engine.viceroy.rules import Scorer, rules_for, zone_tokens

SET_POINTS = 12
ATTACK_PENALTY = 4
CATEGORIES: tuple[str, ...] = ("circles", "infinite_gems", "laws", "power_points", "magic", "sets", "attack")

LAW_CENSUS = 68
LAW_SECRET_SERVICE = 72
LAW_ROYAL_FAVOR = 74
LAW_ACADEMY = 75
LAW_TREASURY = 76
LAW_ARCHIVE = 78
LAW_HERALDRY = 79
LAW_ALLIANCES: frozenset[int] = frozenset({85, 86, 87, 88})


def circle_value(level: int, color: str, bonus: dict[str, int]) -> int:
    """What one single-colour circle (or infinite gem) of ``color`` at ``level`` scores."""
    return level + bonus.get(color, 0)


def unused_attacks(player: dict) -> int:
    """Attack tokens a seat still holds at the end: behind the screen plus lying on its laws (71/77)."""
    if not isinstance(player.get("pyramid"), dict):
        return 0
    return int(player.get("attacks", 0) or 0) + pyr.token_count(player["pyramid"], "attack")


def is_solo(state: dict) -> bool:
    """One real player (the solo game of RULES §11)."""
    players = state.get("options", {}).get("players")
    if players is not None:
        return players == 1
    return sum(1 for p in state["players"] if isinstance(p.get("pyramid"), dict)) == 1


class ScoreContext:
    """What the scorers of one pyramid share: the counts they need, computed once, and the details."""

    def __init__(self, pyramid: dict, opponents_attacks: int, state: dict | None = None, seat: int | None = None,
                 law_points: dict | None = None, extra_tokens: list[dict] | None = None) -> None:
        self.pyramid = pyramid
        self.state = state
        self.seat = seat
        self.opponents_attacks = opponents_attacks
        self.law_points = LAW_POINTS if law_points is None else law_points
        # One pass over the tokens gives every count (as pyramid.token_count, magic_bonus, circle_bonus,
        # power_points and infinite_gems would, one by one).
        bonus = dict.fromkeys(pyr.COLORS, 0)
        counts = {"magic": 0, "science": 0, "defense": 0}
        magic_bonus = power = 0
        infinite = []
        holders = [(slot, entry.get("tokens") or (), entry["card"]) for slot, entry in pyramid.get("cards", {}).items()]
        if extra_tokens:
            holders.append(("", extra_tokens, None))  # tokens outside the pyramid that count like its tokens
        for slot, tokens, number in holders:
            if IMAGES and number in IMAGES:
                tokens = [*tokens, *IMAGES[number]]  # token images count like tokens (aristocrats)
            for t in tokens:
                kind = t["type"]
                if kind in counts:
                    counts[kind] += t.get("amount", 1)
                elif kind == "power_points":
                    power += t.get("value", t.get("amount", 0))
                elif kind == "magic_bonus":
                    magic_bonus += t.get("value", 0)
                elif kind == "circle_bonus":
                    if t.get("color") in bonus:
                        bonus[t["color"]] += t.get("value", 0)
                elif kind == "infinite_gem" and slot:
                    infinite.append((slot, t["color"]))
        infinite.sort(key=lambda item: (pyr.parse_slot(item[0]), item[1]))
        self.bonus = bonus
        self.single = pyr.single_circles(pyramid)
        self.infinite = infinite
        self.power_points = power
        self.magic = counts["magic"]
        self.magic_bonus = magic_bonus
        self.science = counts["science"]
        self.defense = counts["defense"]
        self.sets = min(self.science, self.magic, self.defense)
        self.details: dict = {}


# End-game points of the laws, by number: fn(ctx, slot, entry) -> points.
LAW_POINTS: dict[int, Callable[[ScoreContext, str, dict], int]] = {
    LAW_CENSUS: lambda ctx, slot, entry: pyr.cards_count(ctx.pyramid),
    LAW_SECRET_SERVICE: lambda ctx, slot, entry: 5 * len(entry.get("tucked") or ()),
    LAW_ROYAL_FAVOR: lambda ctx, slot, entry: 3 * min(pyr.level_of(slot), 4),
    LAW_ACADEMY: lambda ctx, slot, entry: 3 * ctx.sets,
    LAW_TREASURY: lambda ctx, slot, entry: 2 * sum((entry.get("gems") or {}).values()),
    LAW_ARCHIVE: lambda ctx, slot, entry: 4 * len(entry.get("tucked") or ()),
    LAW_HERALDRY: lambda ctx, slot, entry: len(ctx.single) + len(ctx.infinite),
}
for _alliance in LAW_ALLIANCES:
    LAW_POINTS[_alliance] = lambda ctx, slot, entry: 2 * sum(
        1 for n in pyr.neighbours(ctx.pyramid, slot) if is_character(ctx.pyramid["cards"][n]["card"]))


def _circles(ctx: ScoreContext) -> int:
    details = [{"slot": c["slot"], "color": c["color"], "points": circle_value(c["level"], c["color"], ctx.bonus)}
               for c in ctx.single]
    ctx.details["circles"] = details
    return sum(d["points"] for d in details)


def _infinite_gems(ctx: ScoreContext) -> int:
    details = [{"slot": slot, "color": color, "points": circle_value(pyr.level_of(slot), color, ctx.bonus)}
               for slot, color in ctx.infinite]
    ctx.details["infinite_gems"] = details
    return sum(d["points"] for d in details)


def _laws(ctx: ScoreContext) -> int:
    details = []
    cards = ctx.pyramid.get("cards", {})
    for slot in sorted(cards, key=pyr.parse_slot):
        entry = cards[slot]
        if not is_law(entry["card"]):
            continue
        points = ctx.law_points.get(entry["card"])
        details.append({"slot": slot, "card": entry["card"], "points": points(ctx, slot, entry) if points else 0})
    ctx.details["laws"] = details
    return sum(d["points"] for d in details)


SCORERS: list[Scorer] = [
    Scorer("circles", _circles),
    Scorer("infinite_gems", _infinite_gems),
    Scorer("laws", _laws),
    Scorer("power_points", lambda ctx: ctx.power_points),
    Scorer("magic", lambda ctx: ctx.magic * ctx.magic_bonus),
    Scorer("sets", lambda ctx: SET_POINTS * ctx.sets),
    Scorer("attack", lambda ctx: -ATTACK_PENALTY * max(0, ctx.opponents_attacks - ctx.defense)),
]


def _score(ctx: ScoreContext, scorers: list[Scorer]) -> dict:
    breakdown = {scorer.category: scorer.score(ctx) for scorer in scorers}
    details = {
        "circles": ctx.details.get("circles", []),
        "infinite_gems": ctx.details.get("infinite_gems", []),
        "laws": ctx.details.get("laws", []),
        "circle_bonus": ctx.bonus,
        "magic_tokens": ctx.magic,
        "magic_bonus": ctx.magic_bonus,
        "science": ctx.science,
        "defense": ctx.defense,
        "sets": ctx.sets,
        "opponents_attacks": ctx.opponents_attacks,
    }
    for key, value in ctx.details.items():
        details.setdefault(key, value)
    return {"total": sum(breakdown.values()), "breakdown": breakdown, "details": details}


def score_pyramid(pyramid: dict, opponents_attacks: int = 0) -> dict:
    """Score one pyramid with the base game's scorers; ``opponents_attacks`` is the opponents' unused attacks."""
    return _score(ScoreContext(pyramid, opponents_attacks), SCORERS)


def opponents_attacks(state: dict, seat: int) -> int:
    """Unused attack tokens of every opponent of ``seat`` (0 in the solo game)."""
    if is_solo(state):
        return 0
    return sum(unused_attacks(p) for i, p in enumerate(state["players"]) if i != seat)


def score_player(state: dict, seat: int, attacks: int | None = None) -> dict:
    """``{"total", "breakdown": {category: points}, "details": {...}}`` for one seat (the game's scorers).

    ``attacks``: the opponents' unused attacks when the caller has counted them already."""
    pyramid = state["players"][seat].get("pyramid") or {"cards": {}}
    if attacks is None:
        attacks = opponents_attacks(state, seat)
    if "options" not in state or not state["options"].get("modules"):
        return score_pyramid(pyramid, attacks)
    rules = rules_for(state)
    ctx = ScoreContext(pyramid, attacks, state, seat, rules.law_points(),
                       zone_tokens(state, seat))
    return _score(ctx, rules.scorers)


def final_scores(state: dict) -> list[dict]:
    """Per seat with a pyramid: ``{"seat", "total", "breakdown", "winner"}``.

    Ruling: equal top totals share the victory (every seat on the top total is a winner).
    """
    rows = []
    # Each seat's unused attacks, counted once (every opponent's score needs them).
    held = [unused_attacks(player) for player in state["players"]]
    solo = is_solo(state)
    total = sum(held)
    for seat, player in enumerate(state["players"]):
        if not isinstance(player.get("pyramid"), dict):
            continue
        result = score_player(state, seat, 0 if solo else total - held[seat])
        rows.append(
            {"seat": seat, "total": result["total"], "breakdown": result["breakdown"], "winner": False}
        )
    if rows:
        best = max(r["total"] for r in rows)
        for r in rows:
            r["winner"] = r["total"] == best
    return rows
