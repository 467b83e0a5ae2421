"""End-of-game scoring (RULES.md §9 and the end-game laws of §10).

``score_player`` reads only ``state["options"]`` and ``state["players"]`` (each player: ``pyramid``,
``attacks``); it never mutates the state.

Seven categories, in the order of the rules:

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

from engine.viceroy import pyramid as pyr
from engine.viceroy.cards import is_law

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


def _law_points(
    pyramid: dict, slot: str, entry: dict, single_circles: int, gems_count: int, sets: int
) -> int:
    number = entry["card"]
    tucked = len(entry.get("tucked") or ())
    if number == LAW_CENSUS:
        return pyr.cards_count(pyramid)
    if number == LAW_SECRET_SERVICE:
        return 5 * tucked
    if number == LAW_ROYAL_FAVOR:
        return 3 * min(pyr.level_of(slot), 4)
    if number == LAW_ACADEMY:
        return 3 * sets
    if number == LAW_TREASURY:
        return 2 * sum((entry.get("gems") or {}).values())
    if number == LAW_ARCHIVE:
        return 4 * tucked
    if number == LAW_HERALDRY:
        return single_circles + gems_count
    if number in LAW_ALLIANCES:
        cards = pyramid["cards"]
        return 2 * sum(1 for n in pyr.neighbours(pyramid, slot) if not is_law(cards[n]["card"]))
    return 0


def score_pyramid(pyramid: dict, opponents_attacks: int = 0) -> dict:
    """Score one pyramid; ``opponents_attacks`` is the opponents' total of unused attack tokens."""
    bonus = pyr.circle_bonus(pyramid)
    single = [c for c in pyr.circles(pyramid) if c["single"]]
    circle_details = [
        {"slot": c["slot"], "color": c["color"], "points": circle_value(c["level"], c["color"], bonus)}
        for c in single
    ]
    gem_details = [
        {"slot": slot, "color": color, "points": circle_value(pyr.level_of(slot), color, bonus)}
        for slot, color in pyr.infinite_gems(pyramid)
    ]
    magic = pyr.token_count(pyramid, "magic")
    bonus_sum = pyr.magic_bonus(pyramid)
    science = pyr.token_count(pyramid, "science")
    defense = pyr.token_count(pyramid, "defense")
    sets = min(science, magic, defense)

    law_details = []
    for slot in sorted(pyramid.get("cards", {}), key=pyr.parse_slot):
        entry = pyramid["cards"][slot]
        if not is_law(entry["card"]):
            continue
        points = _law_points(pyramid, slot, entry, len(single), len(gem_details), sets)
        law_details.append({"slot": slot, "card": entry["card"], "points": points})

    breakdown = {
        "circles": sum(d["points"] for d in circle_details),
        "infinite_gems": sum(d["points"] for d in gem_details),
        "laws": sum(d["points"] for d in law_details),
        "power_points": pyr.power_points(pyramid),
        "magic": magic * bonus_sum,
        "sets": SET_POINTS * sets,
        "attack": -ATTACK_PENALTY * max(0, opponents_attacks - defense),
    }
    details = {
        "circles": circle_details,
        "infinite_gems": gem_details,
        "laws": law_details,
        "circle_bonus": bonus,
        "magic_tokens": magic,
        "magic_bonus": bonus_sum,
        "science": science,
        "defense": defense,
        "sets": sets,
        "opponents_attacks": opponents_attacks,
    }
    return {"total": sum(breakdown.values()), "breakdown": breakdown, "details": details}


def opponents_attacks(state: dict, seat: int) -> int:
    """Unused attack tokens of every opponent of ``seat`` (0 in the solo game)."""
    if is_solo(state):
        return 0
    return sum(unused_attacks(p) for i, p in enumerate(state["players"]) if i != seat)


def score_player(state: dict, seat: int) -> dict:
    """``{"total", "breakdown": {category: points}, "details": {...}}`` for one seat."""
    pyramid = state["players"][seat].get("pyramid") or {"cards": {}}
    return score_pyramid(pyramid, opponents_attacks(state, seat))


def final_scores(state: dict) -> list[dict]:
    """Per seat with a pyramid: ``{"seat", "total", "breakdown", "winner"}``.

    Ruling: equal top totals share the victory (every seat on the top total is a winner).
    """
    rows = []
    for seat, player in enumerate(state["players"]):
        if not isinstance(player.get("pyramid"), dict):
            continue
        result = score_player(state, seat)
        rows.append(
            {"seat": seat, "total": result["total"], "breakdown": result["breakdown"], "winner": False}
        )
    if rows:
        best = max(r["total"] for r in rows)
        for r in rows:
            r["winner"] = r["total"] == best
    return rows
