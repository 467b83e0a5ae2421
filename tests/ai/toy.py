"""A tiny sequential game for the generic search tests: two players add 1 or 2 to a count; reaching 10 wins.

Perfect play is known (leave the count at 1, 4 or 7 after your move), so a test can check that the search
finds it while the baseline (random) does not.
"""

from __future__ import annotations

import random

from engine.api import SEQUENTIAL, Game, GameType, IllegalAction, Outcome, Prompt, SeatResult

TARGET = 10


def new_game(options: dict, seed: int, seats: int) -> dict:
    return {"count": int(options.get("start", 0)), "turn": 0, "winner": None, "seed": seed}


def pending(state: dict) -> dict[int, Prompt]:
    if state["winner"] is not None:
        return {}
    return {state["turn"]: Prompt(kind="add", key=f"add:{state['count']}", choices={"add": [1, 2]})}


def legal_actions(state: dict, seat: int) -> list[dict]:
    if state["winner"] is not None or seat != state["turn"]:
        return []
    return [{"type": "add", "n": n} for n in (1, 2) if state["count"] + n <= TARGET]


def apply(state: dict, seat: int, action: dict) -> list[dict]:
    if action not in legal_actions(state, seat):
        raise IllegalAction("bad_add", "Add 1 or 2 without passing 10, on your turn.")
    state["count"] += action["n"]
    if state["count"] == TARGET:
        state["winner"] = seat
    state["turn"] = 1 - seat
    return [{"to": "all", "type": "added", "seat": seat, "n": action["n"]}]


def outcome(state: dict) -> Outcome | None:
    if state["winner"] is None:
        return None
    w = state["winner"]
    return Outcome(tuple(SeatResult(seat=s, total=int(s == w), winner=s == w, rank=1 if s == w else 2)
                         for s in (0, 1)))


def choose_action(state: dict, seat: int, rng: random.Random) -> dict:
    return rng.choice(legal_actions(state, seat))


GAME = Game(
    type=GameType("toy", "Race to ten", 2, 2, SEQUENTIAL, False),
    new_game=new_game, pending=pending, apply=apply, view=lambda state, seat: dict(state),
    default_action=lambda state, seat: legal_actions(state, seat)[0], outcome=outcome,
    choose_action=choose_action, legal_actions=legal_actions,
)
