"""The Underworld card data (``data/viceroy/darkness/criminals.json``), loaded and validated once at import.

Designed by this project, not the printed cards (every card and the file say so: ``designed_by_project``).
The file holds the 24 criminals (three lines each: the judgement tokens taken, 2, 3 or 4, and the reward),
the three underworld laws, the distribution of the 32 judgement tokens (and those left in the box with fewer
seats) and the number of bribe tokens. A
malformed file fails loudly naming the card and the field, as the other card files do.
"""

from __future__ import annotations

from typing import Any

from .. import cards as C
from ..cards import CardDataError
from .carddata import REWARD_TYPES, _check_law, _check_reward, _fail, _read, numbered_cards

FILE = "criminals.json"
CRIMINALS = tuple(range(130, 154))
UNDERWORLD_LAWS = (154, 155, 156)
LINE_TOKENS = (2, 3, 4)  # judgement tokens taken for the top, middle and bottom line (one is returned)
BRIBES = "bribes"
DISCARD_JUDGEMENT = "discard_judgement"
RELOCATE = "relocate"
CRIMINAL_REWARDS = REWARD_TYPES | {BRIBES, DISCARD_JUDGEMENT}
JUDGEMENT_KINDS = ("none", "pp", "per_circle", "per_token", "discard")
PENALTY_TOKENS = ("magic", "defense", "science")  # tokens a judgement token may count or discard
JUDGEMENT_COUNT = 32


def _check_line(where: str, i: int, line: Any) -> None:
    field = f"lines[{i}]"
    if not isinstance(line, dict) or line.get("judgement") != LINE_TOKENS[i]:
        raise _fail(FILE, where, f"{field}.judgement", f"must be {LINE_TOKENS[i]} (top, middle, bottom: 2, 3, 4)")
    rewards = line.get("reward")
    if not isinstance(rewards, list) or not rewards:
        raise _fail(FILE, where, f"{field}.reward", "must be a non-empty list")
    for j, reward in enumerate(rewards):
        if isinstance(reward, dict) and reward.get("type") == RELOCATE:
            if set(reward) != {"type"}:
                raise _fail(FILE, where, f"{field}.reward[{j}]", "relocate takes no amount")
            continue
        _check_reward(FILE, where, f"{field}.reward[{j}]", reward, CRIMINAL_REWARDS)
        if reward["type"] == "infinite_gem":
            raise _fail(FILE, where, f"{field}.reward[{j}].type", "cannot be an infinite gem on level 0")


def _check_token(i: int, token: Any) -> int:
    where = f"judgement_tokens[{i}]"
    if not isinstance(token, dict) or token.get("kind") not in JUDGEMENT_KINDS:
        raise CardDataError(f"darkness/{FILE}: {where}: field 'kind' must be one of {', '.join(JUDGEMENT_KINDS)}")
    count = token.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
        raise CardDataError(f"darkness/{FILE}: {where}: field 'count' must be a positive integer")
    kind = token["kind"]
    if kind in ("pp", "per_circle", "per_token"):
        value = token.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise CardDataError(f"darkness/{FILE}: {where}: field 'value' must be a positive integer")
    if kind == "per_token" and token.get("token") not in PENALTY_TOKENS:
        raise CardDataError(f"darkness/{FILE}: {where}: field 'token' must be one of {', '.join(PENALTY_TOKENS)}")
    if kind == "discard":
        shown = token.get("tokens")
        if not isinstance(shown, list) or not shown or any(t not in PENALTY_TOKENS for t in shown):
            raise CardDataError(f"darkness/{FILE}: {where}: field 'tokens' must list tokens of "
                                f"{', '.join(PENALTY_TOKENS)}")
    return count


def validate(raw: Any) -> None:
    if not isinstance(raw, dict) or raw.get("designed_by_project") is not True or not raw.get("note"):
        raise CardDataError(f"darkness/{FILE}: the file must say it is designed by this project "
                            "(fields 'designed_by_project' and 'note')")
    for _number, card, where in numbered_cards(FILE, raw, "criminals", CRIMINALS, "criminal",
                                               " (criminals are numbered 130-153 in order)"):
        if card.get("placed_on") != 0:
            raise _fail(FILE, where, "placed_on", "must be 0 (criminals lie on level 0, under the first row)")
        sections = card.get("sections")
        if not isinstance(sections, dict):
            raise _fail(FILE, where, "sections", "is missing or not an object")
        for key in ("top_left", "top_right", "bottom"):
            if sections.get(key) not in C.COLORS:
                raise _fail(FILE, where, f"sections.{key}", f"must be one of {', '.join(C.COLORS)}")
        lines = card.get("lines")
        if not isinstance(lines, list) or len(lines) != 3:
            raise _fail(FILE, where, "lines", "must list 3 lines (top, middle, bottom)")
        for i, line in enumerate(lines):
            _check_line(where, i, line)
    laws = raw.get("laws")
    if not isinstance(laws, list) or len(laws) != len(UNDERWORLD_LAWS):
        raise CardDataError(f"darkness/{FILE}: field 'laws' must list {len(UNDERWORLD_LAWS)} underworld laws")
    for number, law in zip(UNDERWORLD_LAWS, laws, strict=True):
        _check_law(FILE, law, number)
    tokens = raw.get("judgement_tokens")
    if not isinstance(tokens, list) or sum(_check_token(i, t) for i, t in enumerate(tokens)) != JUDGEMENT_COUNT:
        raise CardDataError(f"darkness/{FILE}: field 'judgement_tokens' must describe {JUDGEMENT_COUNT} tokens")
    for field in ("bribe_tokens", "max_bribe"):
        value = raw.get(field)
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise CardDataError(f"darkness/{FILE}: field '{field}' must be a positive integer")
    _check_left_out(raw.get("judgement_left_out", []), tokens)


def _check_left_out(left_out: Any, tokens: list[dict]) -> None:
    """``judgement_left_out``: with ``players`` seats, ``count`` tokens of one kind of ``judgement_tokens``
    (named by its fields but the count) stay in the box."""
    if not isinstance(left_out, list):
        raise CardDataError(f"darkness/{FILE}: field 'judgement_left_out' must be a list")
    for i, entry in enumerate(left_out):
        where = f"judgement_left_out[{i}]"
        if not isinstance(entry, dict):
            raise CardDataError(f"darkness/{FILE}: {where} must be an object")
        players, count = entry.get("players"), entry.get("count")
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
            raise CardDataError(f"darkness/{FILE}: {where}: field 'players' must be 1 to 4")
        spec = {k: v for k, v in entry.items() if k not in ("players", "count")}
        same = [t for t in tokens if {k: v for k, v in t.items() if k != "count"} == spec]
        if not same:
            raise CardDataError(f"darkness/{FILE}: {where} names no kind of 'judgement_tokens'")
        if not isinstance(count, int) or isinstance(count, bool) or not 0 < count <= same[0]["count"]:
            raise CardDataError(f"darkness/{FILE}: {where}: field 'count' must be 1 to {same[0]['count']}")


def load() -> dict:
    raw = _read(FILE)
    validate(raw)
    return raw


_RAW = load()
C.register(_RAW["criminals"], "pyramid")
C.register(_RAW["laws"], "law")

# The judgement tokens by id (0-31): the reserve and the domain cards hold ids, the kinds are public data.
JUDGEMENT: tuple[dict, ...] = tuple(
    {k: v for k, v in spec.items() if k != "count"} for spec in _RAW["judgement_tokens"] for _ in range(spec["count"])
)
BRIBE_TOKENS: int = _RAW["bribe_tokens"]


def _left_out(players: int) -> tuple[int, ...]:
    """The ids of the judgement tokens that stay in the box with ``players`` seats (the last ids of a kind)."""
    out: list[int] = []
    for entry in _RAW.get("judgement_left_out", []):
        if entry["players"] != players:
            continue
        spec = {k: v for k, v in entry.items() if k not in ("players", "count")}
        ids = [i for i, t in enumerate(JUDGEMENT) if t == spec]
        out += ids[len(ids) - entry["count"]:]
    return tuple(sorted(out))


# Per seat count, the judgement tokens left in the box (none with three or more seats).
LEFT_OUT: dict[int, tuple[int, ...]] = {n: _left_out(n) for n in range(1, 5)}
MAX_BRIBE: int = _RAW["max_bribe"]


def is_criminal(number: int) -> bool:
    return number in CRIMINALS


def lines(number: int) -> list[dict]:
    """The three lines of a criminal (top first): ``{"judgement": 2|3|4, "reward": [...]}``."""
    return C.card(number)["lines"]


def token_text(token_id: int) -> str:
    """A judgement token as players read it."""
    t = JUDGEMENT[token_id]
    kind = t["kind"]
    if kind == "none":
        return "no penalty"
    if kind == "pp":
        return f"-{t['value']} PP"
    if kind == "per_circle":
        return f"-{t['value']} PP per single-colour circle and infinite gem"
    if kind == "per_token":
        return f"-{t['value']} PP per {t['token']} token"
    return "discard a " + " or ".join(t["tokens"]) + " token"


def reward_text(items: list[dict]) -> str:
    """A criminal line's reward as players read it."""
    parts = []
    for item in items:
        kind, n = item["type"], item.get("amount", 1)
        if kind == RELOCATE:
            parts.append("relocate a free character")
        elif kind == BRIBES:
            parts.append(f"{n} bribe token{'s' if n != 1 else ''}")
        elif kind == DISCARD_JUDGEMENT:
            parts.append(f"discard {n} judgement token{'s' if n != 1 else ''}")
        elif kind == "power_points":
            parts.append(f"{n} PP")
        elif kind == "cards":
            parts.append(f"{n} card{'s' if n != 1 else ''}")
        elif kind == "gems":
            parts.append(f"{n} gem{'s' if n != 1 else ''}")
        elif kind == "diamonds":
            parts.append(f"{n} diamond{'s' if n != 1 else ''}")
        else:
            parts.append(f"{n} {kind} token{'s' if n != 1 else ''}")
    return " + ".join(parts)
