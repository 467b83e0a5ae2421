"""Fast copies of the state, for search and simulation (a specialised deep copy of the JSON layout).

``clone(state)`` is a deep copy in every respect but one: the log's events are shared, because an event is
never changed once it is in the log (the log itself is a new list, so appending to it stays private).
"""

from __future__ import annotations


def json_copy(value):  # noqa: ANN001, ANN201  (any JSON value)
    """A deep copy of plain JSON data (dicts, lists, scalars)."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list:
        return [json_copy(v) for v in value]
    return value


_ENTRY_KEYS = ("card", "slot", "tokens", "tucked", "gems", "paint")  # an entry's keys, in state.new_entry's order


def copy_entry(entry: dict) -> dict:
    """A deep copy of a pyramid entry (an entry of the usual layout written out, its empty parts made anew)."""
    if len(entry) != 6 or tuple(entry) != _ENTRY_KEYS:
        return json_copy(entry)
    tokens, paint = entry["tokens"], entry["paint"]
    return {"card": entry["card"], "slot": entry["slot"], "tokens": [dict(t) for t in tokens] if tokens else [],
            "tucked": entry["tucked"][:], "gems": dict(entry["gems"]), "paint": dict(paint) if paint else {}}


_PLAYER_KEYS = frozenset({"gems", "attacks", "hand", "pyramid", "skip_next_auction", "used_infinite", "painted"})


def _copy_player(player: dict) -> dict:
    if player.keys() != _PLAYER_KEYS or len(player["pyramid"]) != 1 or "cards" not in player["pyramid"]:
        return json_copy(player)
    out = dict(player)
    out["gems"] = dict(player["gems"])
    out["hand"] = list(player["hand"])
    out["used_infinite"] = list(player["used_infinite"])
    out["pyramid"] = {"cards": {slot: copy_entry(e) for slot, e in player["pyramid"]["cards"].items()}}
    painted = player["painted"]
    if painted is not None:
        out["painted"] = [dict(item) for item in painted]
    return out


# Lists of card numbers or seats: a shallow copy is a deep one.
_NUMBER_LISTS = frozenset({"large_deck", "small_deck", "law_deck", "discard", "active"})


def clone(state: dict) -> dict:
    """A copy of the state that shares nothing mutable with it (log events excepted, see above)."""
    out = {}
    for key, value in state.items():
        kind = type(value)
        if key == "players":
            out[key] = [_copy_player(pl) for pl in value]
        elif key == "log":
            out[key] = value[:]
        elif key in _NUMBER_LISTS and kind is list:
            out[key] = value[:] if all(type(v) is int for v in value) else json_copy(value)
        elif kind is list or kind is dict:
            out[key] = json_copy(value)
        else:
            out[key] = value
    return out
