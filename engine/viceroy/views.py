"""Per-seat and public views: exactly what a player (or the channel) may see.

Views are built from scratch (never by copying the state and deleting), so a new secret field in the state
cannot leak by accident: only what is listed here is shown.
"""

from __future__ import annotations

import copy

from . import cards as C
from . import game as G


def _pyramid_view(pyramid: dict) -> dict:
    return {"cards": copy.deepcopy(pyramid["cards"])}


def view(state: dict, seat: int | None = None) -> dict:
    """What ``seat`` may see; with ``seat=None``, the public view for the channel."""
    over = state["phase"] == "over"
    prompts = G.pending(state)
    players = []
    for s, player in enumerate(state["players"]):
        pv = {
            "seat": s,
            "pyramid": _pyramid_view(player["pyramid"]),
            "hand_size": len(player["hand"]),
            "gem_count": sum(player["gems"].values()),
            "skip_next_auction": player["skip_next_auction"],
            "in_phase": s in state["active"],
            "submitted": str(s) in state["choices"],
            "waiting": s in prompts and not prompts[s].get("submitted", False),
            "painted": player["painted"],
        }
        if over or s == seat:
            # Screens are lifted at the end of the game (§9).
            pv["gems"] = dict(player["gems"])
            pv["attacks"] = player["attacks"]
        if s == seat:
            pv["hand"] = list(player["hand"])
            pv["used_infinite"] = list(player["used_infinite"])
        players.append(pv)
    out = {
        "game": "viceroy",
        "seat": seat,
        "options": dict(state["options"]),
        "phase": state["phase"],
        "turn": state["turn"],
        "round": state["round"],
        "last_turn": state["last_turn"],
        "reserve": dict(state["reserve"]),
        "large_deck": len(state["large_deck"]),
        "small_deck": len(state["small_deck"]),
        "law_deck": len(state["law_deck"]),
        "auction": {c: dict(state["auction"][c]) for c in C.COLORS},
        "discard": list(state["discard"]) if state["phase"] != "setup" else [],
        "players": players,
        "virtual_opponents": len(state["virtual"]),
        "decision_seat": state["decision"]["seat"] if state["decision"] else None,
        "scores": copy.deepcopy(state["scores"]),
    }
    if seat is not None:
        out["my_choice"] = copy.deepcopy(state["choices"].get(str(seat)))
        out["prompt"] = copy.deepcopy(prompts.get(seat))
    return out
