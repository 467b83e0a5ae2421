"""Per-seat and public views: exactly what a player (or the channel) may see.

Views are built from scratch (never by copying the state and deleting), so a new secret field in the state
cannot leak by accident: only what a view contributor lists is shown. The ruleset holds the contributors, in
order; a module adds its own (its public part and each seat's private part of ``state["ext"][name]``).
A contributor is ``fn(state, seat, out, prompts)`` and adds keys to ``out``.
"""

from __future__ import annotations

from .auction import by_colour
from .clone import copy_entry, json_copy
from .prompts import pending
from .rules import rules_for


def _pyramid_view(pyramid: dict) -> dict:
    return {"cards": {slot: copy_entry(entry) for slot, entry in pyramid["cards"].items()}}


def players_part(state: dict, seat: int | None, out: dict, prompts: dict) -> None:
    over = state["phase"] == "over"
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
    out["players"] = players


def table_part(state: dict, seat: int | None, out: dict, prompts: dict) -> None:
    out.update({
        "game": "viceroy",
        "seat": seat,
        "options": json_copy(state["options"]),
        "phase": state["phase"],
        "turn": state["turn"],
        "round": state["round"],
        "last_turn": state["last_turn"],
        "reserve": dict(state["reserve"]),
        "large_deck": len(state["large_deck"]),
        "small_deck": len(state["small_deck"]),
        "law_deck": len(state["law_deck"]),
        "auction": by_colour(state),
        "discard": list(state["discard"]) if state["phase"] != "setup" else [],
        "virtual_opponents": len(state["virtual"]),
        "decision_seat": state["decision"]["seat"] if state["decision"] else None,
        "scores": json_copy(state["scores"]),
    })


def own_part(state: dict, seat: int | None, out: dict, prompts: dict) -> None:
    if seat is not None:
        out["my_choice"] = json_copy(state["choices"].get(str(seat)))
        out["prompt"] = json_copy(prompts.get(seat))


CONTRIBUTORS = [table_part, players_part, own_part]


def view(state: dict, seat: int | None = None) -> dict:
    """What ``seat`` may see; with ``seat=None``, the public view for the channel."""
    rules = rules_for(state)
    prompts = pending(state)
    out: dict = {}
    for contribute in rules.views:
        contribute(state, seat, out, prompts)
    return out
