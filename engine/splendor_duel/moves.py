"""What a seat may do now: prompts, the enumerated legal actions, the default action, and the outcome.

``legal_actions`` lists the step-by-step forms: privileges one token at a time, plans without a discard
(the engine then asks for the discard as its own step). Every position a complete plan reaches is
reached by a sequence of these, and the list stays small (a few hundred at most).
"""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

from engine.api import Outcome, Prompt, SeatResult

from . import board as B
from .cards import CARDS, GEM_COLORS, GOLD, LEVELS, PEARL, ROYALS, TOKEN_KINDS, label
from .game import (
    CROWN_THRESHOLDS,
    DISCARD,
    OVER,
    START,
    WIN_TEXT,
    buyable,
    can_replenish,
    can_reserve,
    excess_tokens,
    face_up,
    must_replenish,
    no_way_forward,
    prompt_key,
)


def pending(state: dict) -> dict[int, Prompt]:
    if state["stage"] == OVER:
        return {}
    seat = state["active"]
    player = state["players"][seat]
    if state["stage"] == DISCARD:
        return {seat: Prompt(kind="discard", key=prompt_key(state), choices={
            "count": excess_tokens(player), "tokens": dict(player["tokens"])})}
    board = state["board"]
    choices: dict[str, Any] = {
        "stage": state["stage"],
        "privileges": player["privileges"] if state["stage"] == START else 0,
        "privilege_cells": [B.CELL_NAMES[i] for i, t in enumerate(board) if t is not None and t != GOLD]
        if state["stage"] == START and player["privileges"] else [],
        "can_replenish": can_replenish(state),
        "must_replenish": must_replenish(state, seat),
        "lines": [B.names(line) for line in B.takeable_lines(board)],
        "gold": [B.CELL_NAMES[i] for i, t in enumerate(board) if t == GOLD] if can_reserve(state, seat) else [],
        "reserve_cards": face_up(state) if can_reserve(state, seat) else [],
        "reserve_decks": [lv for lv in LEVELS if state["decks"][str(lv)]] if can_reserve(state, seat) else [],
        "buy": buyable(state, seat),
        "extra": bool(state["extra"]),
    }
    return {seat: Prompt(kind="turn", key=prompt_key(state), choices=choices)}


def buy_variants(state: dict, seat: int, card_id: str) -> list[dict]:
    """Every way to buy an affordable card: joker colours, ability and royal answers (auto payment)."""
    me, other = state["players"][seat], state["players"][1 - seat]
    card = CARDS[card_id]
    base: list[dict] = [{"type": "buy", "card": card_id}]
    if card.is_joker:
        base = [dict(a, joker=c) for a in base for c in GEM_COLORS if me["bonus"][c] > 0]
    # Tokens the opponent will hold when a steal resolves (unchanged by our purchase).
    stealable = [k for k in GEM_COLORS + (PEARL,) if other["tokens"][k] > 0]
    for ability in card.abilities:
        if ability == "take_token_of_card_color_from_board":
            cells = [B.CELL_NAMES[i] for i, t in enumerate(state["board"]) if t == card.color]
            if cells:
                base = [dict(a, take=c) for a in base for c in cells]
        elif ability == "steal_token_from_opponent" and stealable:
            base = [dict(a, steal=k) for a in base for k in stealable]
    crowns = me["crowns"]
    if card.crowns and state["royals"] and any(crowns < t <= crowns + card.crowns for t in CROWN_THRESHOLDS):
        out = []
        for a in base:
            for royal_id in state["royals"]:
                royal = ROYALS[royal_id]
                with_royal = dict(a, royal=royal_id)
                if "steal_token_from_opponent" in royal.abilities and stealable:
                    out += [dict(with_royal, royal_steal=k) for k in stealable]
                else:
                    out.append(with_royal)
        base = out
    return base


def mandatory_actions(state: dict, seat: int) -> list[dict]:
    out: list[dict] = [{"type": "take", "tokens": B.names(line)} for line in B.takeable_lines(state["board"])]
    if can_reserve(state, seat):
        golds = [B.CELL_NAMES[i] for i, t in enumerate(state["board"]) if t == GOLD]
        targets: list[dict] = [{"card": c} for c in face_up(state)]
        targets += [{"deck": lv} for lv in LEVELS if state["decks"][str(lv)]]
        out += [dict({"type": "reserve", "gold": g}, **t) for g in golds for t in targets]
    for card_id in buyable(state, seat):
        out += buy_variants(state, seat, card_id)
    return out


def discard_options(tokens: dict[str, int], count: int) -> list[dict[str, int]]:
    """Every distinct way to return ``count`` tokens from a holding."""
    pool = [k for k in TOKEN_KINDS for _ in range(tokens.get(k, 0))]
    out = []
    for combo in sorted(set(itertools.combinations(pool, count))):
        counts: dict[str, int] = {}
        for k in combo:
            counts[k] = counts.get(k, 0) + 1
        out.append(counts)
    return out


def legal_actions(state: dict, seat: int) -> list[dict]:
    if state["stage"] == OVER or seat != state["active"]:
        return []
    player = state["players"][seat]
    if state["stage"] == DISCARD:
        return [{"type": "discard", "tokens": d} for d in discard_options(player["tokens"], excess_tokens(player))]
    if state["stage"] == START and must_replenish(state, seat):
        return [{"type": "replenish"}]
    out: list[dict] = []
    if state["stage"] == START:
        if player["privileges"]:
            for i, t in enumerate(state["board"]):
                if t is not None and t != GOLD and not _privilege_dead_end(state, seat, i):
                    out.append({"type": "privileges", "tokens": [B.CELL_NAMES[i]]})
        if can_replenish(state):
            out.append({"type": "replenish"})
    out += mandatory_actions(state, seat)
    return out


def _privilege_dead_end(state: dict, seat: int, cell: int) -> bool:
    """True when taking the token at ``cell`` with a privilege would leave no action at all."""
    board = list(state["board"])
    token = board[cell]
    board[cell] = None
    if any(t is not None and t != GOLD for t in board):
        return False
    probe = dict(state)
    me = dict(state["players"][seat])
    me["tokens"] = dict(me["tokens"])
    me["tokens"][token] += 1
    players = list(state["players"])
    players[seat] = me
    probe.update(board=board, players=players)
    return no_way_forward(probe, seat)


def default_action(state: dict, seat: int) -> dict:
    """A legal action when a player's time runs out: the baseline AI's choice (deterministic per turn)."""
    if state["stage"] == DISCARD:
        player = state["players"][seat]
        return {"type": "discard", "tokens": default_discard(player["tokens"], excess_tokens(player))}
    from .ai import choose_action

    return choose_action(state, seat, random.Random(state["step"]))


def default_discard(tokens: dict[str, int], count: int) -> dict[str, int]:
    """Return the most plentiful gems first, gold and pearls last."""
    held = dict(tokens)
    out: dict[str, int] = {}
    order = sorted(GEM_COLORS, key=lambda k: -held[k]) + [PEARL, GOLD]
    for _ in range(count):
        kind = max(order, key=lambda k: (held[k] if k in GEM_COLORS else held[k] - 10, -order.index(k)))
        held[kind] -= 1
        out[kind] = out.get(kind, 0) + 1
    return out


def outcome(state: dict) -> Outcome | None:
    if state["stage"] != OVER:
        return None
    winner = state["winner"]
    results = []
    for seat, pl in enumerate(state["players"]):
        won = seat == winner
        rows = (
            ("Prestige points", pl["points"]),
            ("Crowns", pl["crowns"]),
            ("Best colour (points)", max(pl["color_points"].values())),
            ("Jewel cards", len(pl["cards"])),
            ("Royal cards", len(pl["royals"])),
        )
        note = f"won with {WIN_TEXT[state['win_reason']]}" if won else ""
        results.append(SeatResult(seat=seat, total=pl["points"], winner=won, breakdown=rows,
                                  rank=1 if won else 2, note=note))
    return Outcome(results=tuple(results), reason=WIN_TEXT[state["win_reason"]])


def determinize(state: dict, seat: int, rng: random.Random) -> dict:
    """A full state the seat cannot tell from the real one: deck orders and the opponent's blind reserves
    re-drawn from the cards the seat has not seen, and a fresh seed for later draws."""
    out = copy.deepcopy(state)
    other = out["players"][1 - seat]
    for level in LEVELS:
        key = str(level)
        blind_slots = [i for i, (c, blind) in enumerate(other["reserved"]) if blind and CARDS[c].level == level]
        pool = list(out["decks"][key]) + [other["reserved"][i][0] for i in blind_slots]
        pool.sort()
        rng.shuffle(pool)
        for i in blind_slots:
            other["reserved"][i] = [pool.pop(), True]
        out["decks"][key] = pool
    out["seed"] = rng.randrange(2**31)
    return out


def _words(value: object) -> str:
    return ", ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)


def describe(action: dict) -> str:
    """A short text of an action, for records and logs."""
    kind = action.get("type")
    parts: list[str] = []
    if action.get("privileges"):
        parts.append(f"privileges on {_words(action['privileges'])}")
    if kind == "privileges":
        parts.append(f"privileges on {_words(action.get('tokens') or [])}")
    elif kind == "replenish":
        parts.append("replenish the board")
    elif kind == "take":
        parts.append(f"take {_words(action.get('tokens') or [])}")
    elif kind == "reserve":
        card = action.get("card")
        what = label(card) if isinstance(card, str) and card in CARDS else f"the top of deck {action.get('deck')}"
        parts.append(f"gold from {action.get('gold')}, reserve {what}")
    elif kind == "buy":
        card = action.get("card")
        text = f"buy {label(card)}" if isinstance(card, str) and card in CARDS else "buy"
        if action.get("joker"):
            text += f" as {action['joker']}"
        if action.get("take"):
            text += f", take {action['take']}"
        if action.get("steal"):
            text += f", steal {action['steal']}"
        if action.get("royal"):
            text += f", royal {action['royal']}"
        if action.get("royal_steal"):
            text += f", steal {action['royal_steal']}"
        parts.append(text)
    elif kind == "discard":
        tokens = action.get("tokens")
        parts.append("return " + (", ".join(f"{n} {k}" for k, n in tokens.items()) if isinstance(tokens, dict)
                                  else _words(tokens)))
    else:
        parts.append(str(kind))
    if isinstance(action.get("discard"), dict) and action["discard"]:
        parts.append("return " + ", ".join(f"{n} {k}" for k, n in action["discard"].items() if n))
    return "; ".join(parts)


def token_total(state: dict) -> dict[str, int]:
    """Tokens of each kind on the board, in the bag and with the players (always the starting mix)."""
    out = dict(state["bag"])
    for t in state["board"]:
        if t is not None:
            out[t] += 1
    for pl in state["players"]:
        for k, n in pl["tokens"].items():
            out[k] += n
    return out



