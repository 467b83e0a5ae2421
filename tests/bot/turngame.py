"""A tiny sequential game with no hidden information, to play the generic layer's other delivery path.

Seats take turns adding 1, 2 or 3 to a running total; whoever brings it to the target (or past) loses.
"""

from __future__ import annotations

import random

from bot.games import register
from bot.ui.presenter import BasePresenter, BasePromptKind, SeatCtx
from bot.ui.spec import MessageSpec, PlanIncomplete
from engine import api
from engine.api import Game, GameType, OptionSpec, Outcome, Prompt, SeatResult


class IllegalAction(api.IllegalAction):
    pass


def new_game(options: dict, seed: int, seats: int) -> dict:
    return {"game": "nim", "seed": seed, "seats": seats, "target": int(options.get("target", 12)), "total": 0,
            "turn": 0, "moves": 0, "loser": None}


def _takes(state: dict) -> list[int]:
    return [n for n in (1, 2, 3) if n <= state["target"] - state["total"]] or [1]


def pending(state: dict) -> dict[int, Prompt]:
    if state["loser"] is not None:
        return {}
    return {state["turn"]: Prompt("turn", f"turn:{state['moves']}", True, {"take": _takes(state)})}


def apply(state: dict, seat: int, action: dict) -> list[dict]:
    if state["loser"] is not None:
        raise IllegalAction("over", "The game is over.")
    if seat != state["turn"]:
        raise IllegalAction("not_your_turn", "It is not your turn.")
    take = action.get("take") if isinstance(action, dict) else None
    if action.get("type") != "take" or take not in _takes(state):
        raise IllegalAction("bad_take", "Take 1, 2 or 3 (no more than is left).")
    state["total"] += take
    state["moves"] += 1
    events = [{"type": "took", "to": "all", "seat": seat, "take": take,
               "text": f"{{p{seat}}} adds {take}: the total is {state['total']}."}]
    if state["total"] >= state["target"]:
        state["loser"] = seat
        events.append({"type": "lost", "to": "all", "seat": seat, "text": f"{{p{seat}}} reaches the target and loses."})
    else:
        state["turn"] = (seat + 1) % state["seats"]
    return events


def view(state: dict, seat: int | None) -> dict:
    return {"total": state["total"], "target": state["target"], "turn": state["turn"], "loser": state["loser"]}


def default_action(state: dict, seat: int) -> dict:
    return {"type": "take", "take": 1}


def choose_action(state: dict, seat: int, rng: random.Random) -> dict:
    return {"type": "take", "take": rng.choice(_takes(state))}


def outcome(state: dict) -> Outcome | None:
    if state["loser"] is None:
        return None
    return Outcome(tuple(SeatResult(s, 0 if s == state["loser"] else 1, s != state["loser"], (),
                                    2 if s == state["loser"] else 1) for s in range(state["seats"])),
                   reason="the total reached the target")


TYPE = GameType("nim", "Nim", 2, 4, "sequential", False,
                (OptionSpec("target", "Target", "int", 12, min=5, max=40, help="The total that loses"),),
                description="Take turns adding 1-3; whoever reaches the target loses")
GAME = Game(type=TYPE, new_game=new_game, pending=pending, apply=apply, view=view, default_action=default_action,
            outcome=outcome, choose_action=choose_action)
KIND = register(GAME)


class TurnKind(BasePromptKind):
    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        return MessageSpec(title=f"Nim game #{ctx.game_id}: your turn",
                           description=f"The total is {ctx.view['total']} of {ctx.view['target']}.",
                           rows=[[ctx.button(f"Add {n}", f"take{n}", "primary") for n in ctx.choices["take"]]])

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        take = int(op.removeprefix("take")) if op.startswith("take") and op[4:].isdigit() else None
        if take not in ctx.choices["take"]:
            raise PlanIncomplete("Add 1, 2 or 3.")
        return {"type": "take", "take": take}


class NimPresenter(BasePresenter):
    name = "nim"
    display_name = "Nim"
    kinds = {"turn": TurnKind()}

    def describe(self, action: dict) -> str:
        return f"add {action.get('take')}"


PRESENTER = NimPresenter()
