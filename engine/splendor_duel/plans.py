"""Building one turn's plan from a seat's view: which choices exist at each step, and whether a plan is legal.

Presenters and simulated players only hold a view. ``state_from_view`` rebuilds a full state consistent
with it (cards the seat has not seen fill the decks and the opponent's blind reserves, in a fixed order),
so every question is answered by the engine itself: a plan is checked by applying it to that state.
Nothing random is drawn while checking a plan: replenishing is its own step and is never simulated.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from . import board as B
from .cards import CARDS, GOLD, LEVELS, TOKEN_KINDS
from .errors import IllegalAction
from .game import DISCARD, START, _scratch, _spend_privileges, apply, excess_tokens
from .moves import buy_variants
from .rules import can_afford


def state_from_view(view: Mapping[str, Any]) -> dict:
    """A state the viewer cannot tell from the real one (hidden cards in a fixed order, a fixed seed)."""
    seen: set[str] = set()
    for lv in LEVELS:
        seen.update(c for c in view["pyramid"][str(lv)] if c)
    for pl in view["players"]:
        seen.update(c for c, _col in pl["cards"])
        seen.update(r["card"] for r in pl["reserved"] if r["card"])
    unseen = {lv: sorted(c for c in CARDS if CARDS[c].level == lv and c not in seen) for lv in LEVELS}
    players = []
    for pl in view["players"]:
        reserved = []
        for r in pl["reserved"]:
            card_id = r["card"] or unseen[int(r["level"])].pop()
            reserved.append([card_id, bool(r["blind"])])
        players.append({
            "tokens": dict(pl["tokens"]),
            "privileges": pl["privileges"],
            "cards": [list(c) for c in pl["cards"]],
            "reserved": reserved,
            "royals": list(pl["royals"]),
            "bonus": dict(pl["bonus"]),
            "color_points": dict(pl["color_points"]),
            "points": pl["points"],
            "crowns": pl["crowns"],
        })
    decks = {str(lv): unseen[lv][: int(view["decks"][str(lv)])] for lv in LEVELS}
    return {
        "game": "splendor_duel",
        "options": {},
        "seed": 0,
        "draws": 0,
        "board": list(view["board"]),
        "bag": dict(view["bag"]),
        "decks": decks,
        "pyramid": {k: list(v) for k, v in view["pyramid"].items()},
        "royals": list(view["royals"]),
        "supply": view["supply"],
        "players": players,
        "first": view["first"],
        "active": view["active"],
        "stage": view["stage"],
        "turn": view["turn"],
        "step": 0,
        "extra": view["extra"],
        "winner": view["winner"],
        "win_reason": view["win_reason"],
        "log": [],
    }


def after_privileges(view: Mapping[str, Any], seat: int, cells: list[str]) -> dict:
    """The state once the seat has spent privileges on ``cells`` (IllegalAction if it cannot)."""
    state = state_from_view(view)
    if cells:
        if state["stage"] != START:
            raise IllegalAction("after_replenish", "After replenishing the board you can no longer use privileges.")
        s = _scratch(state)
        _spend_privileges(s, seat, [_cell(c) for c in cells], [])
        state["board"], state["players"], state["supply"] = s["board"], s["players"], s["supply"]
    return state


def _cell(name: str) -> int:
    i = B.cell_index(name)
    if i is None:
        raise IllegalAction("bad_cell", f"{name!r} is not a board space.")
    return i


def privilege_cells(view: Mapping[str, Any], chosen: Sequence[str] = ()) -> list[str]:
    """Spaces a privilege may take a token from (gems and pearls), not already chosen."""
    return [B.CELL_NAMES[i] for i, t in enumerate(view["board"])
            if t is not None and t != GOLD and B.CELL_NAMES[i] not in chosen]


def first_cells(state: dict) -> list[str]:
    """Spaces a token line may start from (each gem or pearl on the board: it is a line of one)."""
    return [B.CELL_NAMES[i] for i, t in enumerate(state["board"]) if t is not None and t != GOLD]


def lines_through(state: dict, cell: str) -> list[list[str]]:
    """Every takeable line containing ``cell``: the single token, then pairs, then threes (at most 21)."""
    i = _cell(cell)
    board = state["board"]
    return [B.names(line) for line in B.LINES_THROUGH[i] if B.takeable(board, line)]


def reserve_options(state: dict, seat: int) -> dict[str, list]:
    """Gold spaces, face-up cards and decks a reservation may use (empty lists when it is impossible)."""
    me = state["players"][seat]
    golds = [B.CELL_NAMES[i] for i, t in enumerate(state["board"]) if t == GOLD]
    if len(me["reserved"]) >= 3 or not golds:
        return {"gold": [], "cards": [], "decks": []}
    cards = [c for lv in LEVELS for c in state["pyramid"][str(lv)] if c]
    decks = [lv for lv in LEVELS if state["decks"][str(lv)]]
    return {"gold": golds, "cards": cards, "decks": decks}


def buy_options(state: dict, seat: int) -> list[str]:
    """Cards the seat can pay for now (pyramid then own reserve)."""
    me = state["players"][seat]
    cards = [c for lv in LEVELS for c in state["pyramid"][str(lv)] if c] + [c for c, _b in me["reserved"]]
    return [c for c in cards if can_afford(CARDS[c], me["tokens"], me["bonus"])]


QUESTION_ORDER = ("joker", "take", "steal", "royal", "royal_steal")


def buy_questions(state: dict, seat: int, card_id: str, answers: Mapping[str, Any]) -> list[dict]:
    """The questions a purchase still asks, in order, each with only the answers that fit the ones given:
    [{"key": "joker", "options": ["red", "blue"]}, ...]."""
    variants = buy_variants(state, seat, card_id)
    for key, value in answers.items():
        if key in QUESTION_ORDER and value is not None:
            variants = [v for v in variants if v.get(key) == value]
    out = []
    for key in QUESTION_ORDER:
        if key in answers and answers[key] is not None:
            continue
        options = sorted({v[key] for v in variants if key in v}, key=_option_order)
        if options:
            out.append({"key": key, "options": options})
    return out


def _option_order(value: Any) -> tuple:
    order = {k: i for i, k in enumerate(TOKEN_KINDS)}
    if isinstance(value, str) and value in order:
        return (0, order[value], "")
    if isinstance(value, str) and value in B.CELL_INDEX:
        return (1, B.CELL_INDEX[value], "")
    return (2, 0, str(value))


def check(view: Mapping[str, Any], seat: int, action: Mapping[str, Any]) -> dict:
    """Apply a plan to a state built from the view: {"ok", "message", "discard": n, "tokens": {...}}.

    ``discard`` is how many tokens the plan must still return (0 once it names them correctly); the tokens
    are those the seat would hold before returning any.
    """
    if action.get("type") == "replenish":
        state = state_from_view(view)
        try:
            if action.get("privileges"):
                after_privileges(view, seat, list(action["privileges"]))
            if sum(state["bag"].values()) == 0:
                raise IllegalAction("bag_empty", "The bag is empty: there is nothing to replenish the board with.")
            if state["stage"] != START:
                raise IllegalAction("after_replenish", "You already replenished the board this turn.")
        except IllegalAction as exc:
            return {"ok": False, "message": exc.message, "discard": 0, "tokens": {}}
        return {"ok": True, "message": "", "discard": 0, "tokens": dict(view["players"][seat]["tokens"])}
    state = state_from_view(view)
    plan = {k: v for k, v in action.items() if k != "discard"}
    try:
        apply(state, seat, plan)
    except IllegalAction as exc:
        return {"ok": False, "message": exc.message, "discard": 0, "tokens": {}}
    me = state["players"][seat]
    need = excess_tokens(me) if state["stage"] == DISCARD else 0
    result = {"ok": True, "message": "", "discard": need, "tokens": dict(me["tokens"])}
    if action.get("discard") is not None:
        trial = state_from_view(view)
        try:
            apply(trial, seat, copy.deepcopy(dict(action)))
        except IllegalAction as exc:
            result.update(ok=False, message=exc.message)
        else:
            result["discard"] = 0  # the plan returns what it must
    return result


def discard_units(tokens: Mapping[str, int]) -> list[str]:
    """One option per token held, for a multi-select ('red:1', 'red:2', ...), at most 13."""
    return [f"{k}:{i}" for k in TOKEN_KINDS for i in range(1, int(tokens.get(k, 0)) + 1)]


def discard_from_units(units: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for unit in units:
        kind = unit.split(":", 1)[0]
        if kind in TOKEN_KINDS:
            out[kind] = out.get(kind, 0) + 1
    return out

