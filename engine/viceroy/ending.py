"""The end of the game (§9): hands discarded, painting with leftover gems, final scores."""

from __future__ import annotations

from . import pyramid as P
from .errors import IllegalAction
from .painting import apply_painting, paint_sections
from .rules import Phase, enter, trust
from .scoring import final_scores as score_all
from .state import COLORS, ev, gem_total, p


def start_painting(state: dict, events: list) -> None:
    state["phase"] = "painting"
    state["active"] = []
    for player in state["players"]:
        if player["hand"]:
            state["discard"].extend(player["hand"])
            player["hand"] = []
    ev(events, "all", "game_end", "The last turn is over. Screens are lifted; hands are discarded. Paint circle sections with leftover gems, or skip.")
    for player in state["players"]:
        if gem_total(player["gems"]) == 0 or not P.has_paintable(player["pyramid"]):
            player["painted"] = []
    if all(pl["painted"] is not None for pl in state["players"]):
        enter(state, "over", events)


def paint(state: dict, seat: int, action: dict, events: list) -> None:
    """One seat paints (or skips); the game ends when everyone has."""
    player = state["players"][seat]
    if player["painted"] is not None:
        raise IllegalAction("You have already painted.", "already_painted")
    if action["type"] != "paint":
        raise IllegalAction("The game is over: paint circle sections with your leftover gems, or skip.", "bad_type")
    sections = action.get("paint")
    if not isinstance(sections, list):
        raise IllegalAction("Painting lists the sections to paint (or nothing to skip).", "bad_paint")
    try:
        spent = apply_painting(player["pyramid"], player["gems"], sections)
    except ValueError as exc:
        raise IllegalAction(str(exc), "bad_paint") from exc
    for c in COLORS:
        player["gems"][c] -= spent[c]  # the gems now lie on the painted sections
    _painted(state, seat, sections, events)


def paint_trusted(state: dict, seat: int, action: dict, events: list) -> None:
    """``paint`` for a painting the engine worked out itself (``best_painting``): painted without the checks."""
    player = state["players"][seat]
    if player["painted"] is not None or action["type"] != "paint":
        paint(state, seat, action, events)  # refused, with its message
        return
    sections = action["paint"]
    paint_sections(player["pyramid"]["cards"], sections)
    gems = player["gems"]
    for item in sections:
        gems[item["color"]] -= 1  # the gem now lies on the painted section
    _painted(state, seat, sections, events)


def _painted(state: dict, seat: int, sections: list[dict], events: list) -> None:
    player = state["players"][seat]
    player["painted"] = [dict(item) for item in sections]
    n = len(sections)
    ev(events, "all", "painted", f"{p(seat)} paints {n} section{'s' if n != 1 else ''}.", seat=seat, paint=player["painted"])
    if all(pl["painted"] is not None for pl in state["players"]):
        enter(state, "over", events)


def painting_pending(state: dict) -> dict[int, dict]:
    return {
        seat: {"kind": "paint", "seat": seat, "submitted": False, "gems": dict(player["gems"])}
        for seat, player in enumerate(state["players"])
        if player["painted"] is None
    }


def finish(state: dict, events: list) -> None:
    state["phase"] = "over"
    state["active"] = []
    state["scores"] = score_all(state)
    winners = [s["seat"] for s in state["scores"] if s["winner"]]
    text = "Final scores: " + "; ".join(f"{p(s['seat'])} {s['total']}" for s in state["scores"]) + ". "
    text += ("Winner: " if len(winners) == 1 else "Shared victory: ") + ", ".join(p(s) for s in winners) + "."
    ev(events, "all", "final_scores", text, scores=state["scores"], winners=winners)


def final_scores(state: dict) -> list[dict] | None:
    return state["scores"]


PAINTING = Phase(
    name="painting",
    start=start_painting,
    next="over",
    act=paint,
    pending=painting_pending,
    prompt_key=lambda state, seat, prompt: "paint",
    default=lambda state, seat: {"type": "paint", "paint": []},
)

OVER = Phase(name="over", start=finish, pending=lambda state: {})

trust(paint, paint_trusted)

