"""The end of the game (§9): hands discarded, painting with leftover gems, final scores."""

from __future__ import annotations

from . import pyramid as P
from .errors import IllegalAction
from .painting import apply_painting, paint_sections
from .rules import PaintSource, Phase, enter, rules_for, trust
from .scoring import final_scores as score_all
from .state import COLORS, ev, gem_total, p


def start_painting(state: dict, events: list) -> None:
    sources = rules_for(state).paint_sources
    state["phase"] = "painting"
    state["active"] = []
    for player in state["players"]:
        if player["hand"]:
            state["discard"].extend(player["hand"])
            player["hand"] = []
    paints_with = "leftover gems" + "".join(f" and {src.noun}" for src in sources)
    ev(events, "all", "game_end", "The last turn is over. Screens are lifted; hands are discarded. "
       f"Paint circle sections with {paints_with}, or skip.")
    for seat, player in enumerate(state["players"]):
        nothing = gem_total(player["gems"]) == 0 and not any(src.held(state, seat) for src in sources)
        if nothing or not P.has_paintable(player["pyramid"]):
            player["painted"] = []
    if all(pl["painted"] is not None for pl in state["players"]):
        enter(state, "over", events)


def paint(state: dict, seat: int, action: dict, events: list) -> None:
    """One seat paints (or skips); the game ends when everyone has. An item flagged by a paint source
    (``{"slot", "section", "color", "diamond": true}``) is painted with one of those instead of a gem."""
    player = state["players"][seat]
    if player["painted"] is not None:
        raise IllegalAction("You have already painted.", "already_painted")
    if action["type"] != "paint":
        raise IllegalAction("The game is over: paint circle sections with your leftover gems, or skip.", "bad_type")
    items = action.get("paint")
    sources = rules_for(state).paint_sources
    if not isinstance(items, list) or (sources and any(not isinstance(i, dict) for i in items)):
        raise IllegalAction("Painting lists the sections to paint (or nothing to skip).", "bad_paint")
    budget = player["gems"]
    if sources:
        budget = dict(budget)
        for src in sources:
            if any(not isinstance(i.get(src.key, False), bool) for i in items):
                raise IllegalAction(f"Say for each section whether a {src.key} paints it (yes or no).", "bad_paint")
            flagged = [i for i in items if i.get(src.key)]
            have = src.held(state, seat)
            if len(flagged) > have:
                raise IllegalAction(f"You have {have} {src.key if have == 1 else src.noun} to paint with, "
                                    f"not {len(flagged)}.", "no_" + src.key)
            for item in flagged:
                if item.get("color") in budget:
                    budget[item["color"]] += 1  # one more "gem" of the colour it paints
    try:
        spent = apply_painting(player["pyramid"], budget, items)
    except ValueError as exc:
        raise IllegalAction(str(exc), "bad_paint") from exc
    if not sources:
        for c in COLORS:
            player["gems"][c] -= spent[c]  # the gems now lie on the painted sections
        _painted(state, seat, items, events)
        return
    _paint_from(state, seat, items, sources, events)


def paint_trusted(state: dict, seat: int, action: dict, events: list) -> None:
    """``paint`` for a painting the engine worked out itself (``best_painting``): painted without the checks."""
    player = state["players"][seat]
    if player["painted"] is not None or action["type"] != "paint":
        paint(state, seat, action, events)  # refused, with its message
        return
    sections = action["paint"]
    paint_sections(player["pyramid"]["cards"], sections)
    sources = rules_for(state).paint_sources
    if sources:
        _paint_from(state, seat, sections, sources, events)
        return
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


def _paint_from(state: dict, seat: int, items: list[dict], sources: list[PaintSource], events: list) -> None:
    """After painting ``items`` (already on the pyramid): each paint source takes its own, gems pay the rest."""
    player = state["players"][seat]
    gems = player["gems"]
    plain = []
    used: dict[str, list[dict]] = {}
    for item in items:
        section = {"slot": item["slot"], "section": item["section"], "color": item["color"]}
        src = next((src for src in sources if item.get(src.key)), None)
        if src is None:
            gems[item["color"]] -= 1  # the gem now lies on the painted section
            plain.append(section)
        else:
            used.setdefault(src.key, []).append(section)
    recorded = {}
    for src in sources:
        mine = used.get(src.key, [])
        src.spend(state, seat, mine)
        recorded[src.noun] = mine
    player["painted"] = plain
    n = len(items)
    extra = "".join(f" ({len(used[src.key])} with {src.noun})" for src in sources if src.key in used)
    ev(events, "all", "painted", f"{p(seat)} paints {n} section{'s' if n != 1 else ''}{extra}.",
       seat=seat, paint=player["painted"], **recorded)
    if all(pl["painted"] is not None for pl in state["players"]):
        enter(state, "over", events)


def painting_pending(state: dict) -> dict[int, dict]:
    sources = rules_for(state).paint_sources
    return {
        seat: {"kind": "paint", "seat": seat, "submitted": False, "gems": dict(player["gems"]),
               **{src.noun: src.held(state, seat) for src in sources}}
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

