"""State helpers shared by every rules file: constants, the random draw, events, argument checks, queue.

The state is plain JSON data (its layout: docs/architecture.md; rule tables and modules: docs/engine.md).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from . import cards as C
from . import pyramid as P
from .errors import IllegalAction

COLORS = C.COLORS
MAX_ROUNDS = 3
PASS_GEMS = 3
DISCARD_GEMS = 2
LEVEL5_PP = 15
CHOICE_LAWS = frozenset({71, 73, 77, 80, 81, 82, 83, 84})


def is_choice_law(number: int) -> bool:
    """A "choose one of three" law: the base game's, or one a module adds (its effect is a "choice")."""
    return number in CHOICE_LAWS or (C.is_law(number) and (C.card(number).get("effect") or {}).get("kind") == "choice")
GEMS_IN_BOX = 16
STATE_VERSION = 2


def rng(state: dict) -> random.Random:
    """A generator for the next random draw; the counter in the state makes every draw replayable."""
    state["rng_counter"] += 1
    return random.Random(state["seed"] * 1_000_003 + state["rng_counter"])


def zero() -> dict[str, int]:
    return {"red": 0, "green": 0, "blue": 0, "yellow": 0}


def move_gems(source: dict[str, int], target: dict[str, int], gems: dict[str, int]) -> None:
    """``gems`` leave ``source`` for ``target`` (every play and every gem taken: written out per colour, and
    only the colours that move: most moves are of one or two colours)."""
    n = gems["red"]
    if n:
        source["red"] -= n
        target["red"] += n
    n = gems["green"]
    if n:
        source["green"] -= n
        target["green"] += n
    n = gems["blue"]
    if n:
        source["blue"] -= n
        target["blue"] += n
    n = gems["yellow"]
    if n:
        source["yellow"] -= n
        target["yellow"] += n


def gem_total(gems: dict[str, int]) -> int:
    return sum(gems.values())


_GEM_TEXT: dict[tuple, str] = {}


def fmt_gems(gems: dict[str, int]) -> str:
    """Gems as players read them: '1 green, 2 blue' (the texts repeat a lot: each is made once)."""
    key = tuple(gems.items())
    text = _GEM_TEXT.get(key)
    if text is None:
        parts = [f"{n} {c}" for c, n in key if n]
        text = ", ".join(parts) if parts else "no gems"
        if len(_GEM_TEXT) > 5000:
            _GEM_TEXT.clear()
        _GEM_TEXT[key] = text
    return text


_SEATS = tuple("{p" + str(seat) + "}" for seat in range(8))


def p(seat: int) -> str:
    """Placeholder for a seat's display name in event texts (the bot substitutes names)."""
    if 0 <= seat < 8:
        return _SEATS[seat]
    return "{p" + str(seat) + "}"


def ev(events: list, to: object, kind: str, text: str, **data: object) -> None:
    events.append({"type": kind, "to": to, "text": text, **data})


def clean_gems(value: object, what: str) -> dict[str, int]:
    """Parse a {colour: count} mapping from an action."""
    if value is None:
        return zero()
    if type(value) is dict and len(value) == 4:
        # The usual case, checked quickly: all four colours, each a whole number 0 or more.
        try:
            r, g, b, y = value["red"], value["green"], value["blue"], value["yellow"]
        except KeyError:
            pass
        else:
            if (type(r) is int and type(g) is int and type(b) is int and type(y) is int
                    and r >= 0 and g >= 0 and b >= 0 and y >= 0):
                return {"red": r, "green": g, "blue": b, "yellow": y}
    if not isinstance(value, dict):
        raise IllegalAction(f"The {what} must name gem colours and counts.", "bad_gems")
    out = zero()
    for colour, n in value.items():
        if colour not in out:
            raise IllegalAction(f"'{colour}' is not a gem colour (red, green, blue, yellow).", "bad_colour")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise IllegalAction(f"The number of {colour} gems must be a whole number, 0 or more.", "bad_gems")
        out[colour] = n
    return out


def trusted_gems(value: object, what: str) -> dict[str, int]:
    """``clean_gems`` of gems in an action the engine built from the legal options (a trusted reading): the
    four colours read without checking their counts again (anything else goes through ``clean_gems``)."""
    if type(value) is dict and len(value) == 4:
        try:
            return {"red": value["red"], "green": value["green"], "blue": value["blue"], "yellow": value["yellow"]}
        except KeyError:
            pass
    return clean_gems(value, what)


def slot_arg(value: object) -> str | None:
    return value if isinstance(value, str) else None


def int_arg(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def card_number(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in C.CARDS:
        raise IllegalAction("That is not a Viceroy card.", "bad_card")
    return value


def bool_arg(value: object, message: str, code: str) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise IllegalAction(message, code)
    return value


def priority_order(state: dict, seats: Iterable[int]) -> list[int]:
    """Seats ordered by the lowest-numbered card in their pyramid (§8)."""
    players = state["players"]
    seats = list(seats)
    if len(seats) < 2:
        return seats

    def key(seat: int) -> tuple[int, int]:
        low = 999
        for e in players[seat]["pyramid"]["cards"].values():
            if e["card"] < low:
                low = e["card"]
        return (low, seat)

    return sorted(seats, key=key)


def science_count(player: dict) -> int:
    n = 0
    images = C.IMAGES  # science images on aristocrats count too (not tokens, but they give the pass gem)
    for e in player["pyramid"]["cards"].values():
        tokens = e["tokens"]
        if tokens:  # most cards carry no token
            for t in tokens:
                if t["type"] == "science":
                    n += 1
        if images and e["card"] in images:
            for i in images[e["card"]]:
                if i["type"] == "science":
                    n += 1
    return n


def has_law_in_pyramid(player: dict, number: int) -> bool:
    return any(e["card"] == number for e in player["pyramid"]["cards"].values())


def find_entry(player: dict, number: int) -> dict | None:
    for e in player["pyramid"]["cards"].values():
        if e["card"] == number:
            return e
    return None


def new_entry(number: int, slot: str) -> dict:
    """A card placed in a pyramid."""
    return {"card": number, "slot": slot, "tokens": [], "tucked": [], "gems": zero(), "paint": {}}


def playable_level(slot: str) -> int:
    return P.parse_slot(slot)[0]


def ask(state: dict, seat: int, kind: str, text: str, **info: object) -> bool:
    """Stop the queue and ask ``seat`` a question (a *decision*); the answer resumes the current step.

    ``state["asked"]`` counts the questions asked so far (absent in states stored before it was kept): it is
    part of the decision's prompt key, so two questions in a row are told apart even when nothing public
    happened between them (a "no" to Archive for each of two cards drawn)."""
    state["asked"] = state.get("asked", 0) + 1
    state["decision"] = {"seat": seat, "kind": kind, "text": text, **info}
    return False


def push(state: dict, *steps: dict) -> None:
    """Queue steps to run right after the current one."""
    state["queue"][1:1] = steps


def ext(state: dict, name: str) -> dict:
    """A module's own slice of the state."""
    return state["ext"].setdefault(name, {})


def balanced_gems(reserve: dict[str, int], count: int, prefer: list[str] | None = None) -> dict[str, int]:
    """``count`` gems from the reserve, spread over the colours (preferred colours first)."""
    take = {"red": 0, "green": 0, "blue": 0, "yellow": 0}
    need = min(count, sum(reserve.values()))
    if need <= 0:
        return take
    order = COLORS if not prefer else list(prefer) + [c for c in COLORS if c not in prefer]
    while True:  # one gem a colour in turn, while the reserve has that colour left
        for c in order:
            if reserve[c] > take[c]:
                take[c] += 1
                need -= 1
                if not need:
                    return take
