"""Paying a cost: gems from behind the screen plus the payment sources of the ruleset (§5).

The base game has one source, infinite gems: each may lower one payment of the development phase by a gem of
its colour, once per turn. A module adds a source (diamonds, combat-card gems) as a ``PaymentSource``.
"""

from __future__ import annotations

from . import cards as C
from .errors import IllegalAction
from .rules import PaymentSource, Ruleset, rules_for
from .state import COLORS, clean_gems, fmt_gems, move_gems, zero


def infinite_gems(player: dict) -> list[str]:
    """Every infinite gem in the pyramid as "slot/colour" (repeated when a card carries several)."""
    out = []
    for slot, e in player["pyramid"]["cards"].items():
        if e["tokens"]:  # most cards carry no token: skip them without starting a loop
            for t in e["tokens"]:
                if t["type"] == "infinite_gem":
                    out.append(slot + "/" + t["color"])
    return out


def unused_infinite(player: dict) -> list[str]:
    """Infinite gems not yet used this turn (each may reduce one payment per turn)."""
    left = infinite_gems(player)
    for ref in player["used_infinite"]:
        if ref in left:
            left.remove(ref)
    return left


def check_infinite(player: dict, infinite: object) -> dict[str, int]:
    """Validate a list of infinite gems to use; returns the reduction per colour."""
    if type(infinite) is list and not infinite:
        return zero()
    if not isinstance(infinite, list) or any(not isinstance(r, str) for r in infinite):
        raise IllegalAction("Name the infinite gems you use by their card's place and colour.", "bad_infinite")
    reduce = zero()
    left = unused_infinite(player)
    for ref in infinite:
        if ref not in left:
            if ref in infinite_gems(player):
                raise IllegalAction("Each infinite gem can be used once per turn.", "infinite_used")
            raise IllegalAction("You have no such infinite gem.", "bad_infinite")
        left.remove(ref)
        reduce[ref.rsplit("/", 1)[1]] += 1
    return reduce


def _auto_infinite(state: dict | None, player: dict, left: dict[str, int]) -> list[str]:
    used = []
    for ref in unused_infinite(player):
        colour = ref.rsplit("/", 1)[1]
        if left[colour] > 0:
            left[colour] -= 1
            used.append(ref)
    return used


def _spend_infinite(state: dict, seat: int, refs: list[str]) -> None:
    state["players"][seat]["used_infinite"].extend(refs)


INFINITE = PaymentSource(
    key="infinite",
    check=lambda state, player, value: (check_infinite(player, value or []), list(value or [])),
    auto=_auto_infinite,
    spend=_spend_infinite,
    empty=[],
)


def validate_payment(state: dict, player: dict, number: int, level: int, action: dict) -> dict:
    """Check that ``action`` pays the cost of a character on a level; returns the payment fields."""
    need = C.COST[number][level]
    pay = clean_gems(action.get("pay"), "payment")
    out: dict = {"pay": pay}
    given = dict(pay)
    for source in rules_for(state).payment_sources:
        value = action.get(source.key)
        if not value and source is INFINITE:
            out["infinite"] = []  # no infinite gem used: nothing to check, nothing to reduce
            continue
        reduce, out[source.key] = source.check(state, player, value)
        for c in COLORS:
            given[c] += reduce[c]
    gems = player["gems"]
    extra = C.any_cost(number, level)  # gems of any colours on top of the coloured cost (aristocrats)
    over = 0
    for c in COLORS:
        over += given[c] - need[c]
        if given[c] < need[c] or (not extra and given[c] != need[c]):
            raise IllegalAction(
                f"{C.label(number)} on level {level} costs {cost_text(need, extra)}; "
                f"your payment gives {fmt_gems(given)}.",
                "bad_payment",
            )
        if pay[c] > gems[c]:
            raise IllegalAction(f"You do not have {pay[c]} {c} gems to pay.", "cannot_pay")
    if over != extra:
        raise IllegalAction(f"{C.label(number)} on level {level} costs {cost_text(need, extra)}; "
                            f"your payment gives {fmt_gems(given)}.", "bad_payment")
    return out


def cost_text(need: dict[str, int], extra: int = 0) -> str:
    """A cost as players read it: '1 green, 1 blue', '2 gems of any colours', or both."""
    if not extra:
        return fmt_gems(need)
    text = f"{extra} gem{'s' if extra != 1 else ''} of any colours"
    return text if not any(need.values()) else f"{fmt_gems(need)} and {text}"


def auto_payment(player: dict, number: int, level: int, state: dict | None = None) -> dict | None:
    """A payment for a character (the other sources used first), or None when it cannot be paid."""
    left = dict(C.COST[number][level])
    sources = rules_for(state).payment_sources if state is not None else [INFINITE]
    out: dict = {}
    for source in sources:
        out[source.key] = source.auto(state, player, left)
    gems = player["gems"]
    if gems["red"] < left["red"] or gems["green"] < left["green"] or gems["blue"] < left["blue"] or gems["yellow"] < left["yellow"]:
        return None
    extra = C.any_cost(number, level)
    if extra:  # gems of any colours: the most plentiful colours left behind the screen
        for _ in range(extra):
            colour = max(COLORS, key=lambda c: gems[c] - left[c])
            if gems[colour] - left[colour] <= 0:
                return None
            left[colour] += 1
    return {"pay": left, **out}


def spend(state: dict, seat: int, plan: dict, rules: Ruleset | None = None) -> None:
    """Move a checked payment: gems to the reserve, and each source used."""
    player = state["players"][seat]
    move_gems(player["gems"], state["reserve"], plan["pay"])
    for source in (rules or rules_for(state)).payment_sources:
        source.spend(state, seat, plan.get(source.key, source.empty))
