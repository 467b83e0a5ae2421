"""Digests of a game's end, to check that stored records replay to the identical state.

``digests`` hashes the whole state, its log, the final scores and every seat's view separately, so a
mismatch says which part differs. The state is hashed in the layout the records were written with
(``stored_layout``), so a change of the state's layout is spelled out here rather than hidden.
"""

from __future__ import annotations

import hashlib
import json

from engine.viceroy import view


def _hash(value: object) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def stored_layout(state: dict) -> dict:
    """The state in the layout of the stored records (state version 1).

    Version 2 keeps the auction as a list of auction cards (``{"colors", "base", "tip"}``) instead of a
    mapping by colour, and adds ``ext`` (the modules' state, empty in the base game). Since then the state
    also counts the questions asked (``asked``, part of a decision's prompt key). Nothing else differs.
    """
    out = dict(state)
    out.pop("asked", None)
    if state.get("version") == 1:
        return out
    out["version"] = 1
    out["auction"] = {spot["colors"][0]: {"base": spot["base"], "tip": spot["tip"]} for spot in state["auction"]}
    assert state["ext"] == {}, "the stored records are base games"
    del out["ext"]
    return out


def digests(state: dict) -> dict[str, str]:
    seats = range(len(state["players"]))
    return {
        "state": _hash(stored_layout(state)),
        "log": _hash(state["log"]),
        "scores": _hash(state["scores"]),
        "views": _hash([view(state, None)] + [view(state, s) for s in seats]),
    }
