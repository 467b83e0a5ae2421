"""A tiny sealed-choice game used to test the service without the Viceroy engine.

Each seat holds a private hand of numbers.  Every round all seats secretly choose one number (they may change
it until the last seat has chosen).  On the reveal the highest unique number wins; the winner then decides
("points": score the number, or "draw": take a new card).  After `rounds` rounds the game is over.
`GAME` is its engine.api.Game (validate first, then mutate; prompts say what may be chosen): the service
tests, the conformance suite and tests/bot/test_second_game.py (played through the real bot) all use it.
`pending` is the raw form the contract suite uses as an example of prompts that are not Prompts.
"""

from __future__ import annotations

import random
from typing import Any

from bot.games import register
from engine import api


class IllegalAction(api.IllegalAction):
    pass


def _rng(state: dict) -> random.Random:
    state["rng_counter"] += 1
    return random.Random(f"{state['seed']}:{state['rng_counter']}")


def new_game(options: dict, seed: int, seats: int) -> dict:
    rounds = int(options.get("rounds", 3))
    state: dict[str, Any] = {
        "game": "toy", "options": {"rounds": rounds}, "seed": seed, "rng_counter": 0, "seats": seats,
        "phase": "choose", "round": 1, "scores": [0] * seats, "hands": [], "choices": [None] * seats,
        "decision": None, "log": [],
    }
    rng = _rng(state)
    state["hands"] = [sorted(rng.randint(1, 9) for _ in range(rounds + 1)) for _ in range(seats)]
    return state


def pending(state: dict) -> dict[int, dict]:
    if state["phase"] == "choose":
        return {s: {"kind": "choose", "round": state["round"], "options": list(state["hands"][s]),
                    "chosen": state["choices"][s] is not None} for s in range(state["seats"])}
    if state["phase"] == "decide":
        d = state["decision"]
        return {d["seat"]: {"kind": "decide", "round": state["round"], "options": ["points", "draw"]}}
    return {}


def apply_action(state: dict, seat: int, action: dict) -> list[dict]:
    # Validate completely before touching the state.
    if not isinstance(action, dict) or "type" not in action:
        raise IllegalAction("bad_action", "That is not an action.")
    if not 0 <= seat < state["seats"]:
        raise IllegalAction("bad_seat", "There is no such seat.")
    if state["phase"] == "over":
        raise IllegalAction("over", "The game is over.")
    if seat not in pending(state):
        raise IllegalAction("not_your_turn", "You have nothing to decide right now.")
    kind = action["type"]
    if state["phase"] == "choose":
        if kind != "choose":
            raise IllegalAction("wrong_phase", "Choose a number now.")
        card = action.get("card")
        if card not in state["hands"][seat]:
            raise IllegalAction("not_in_hand", f"You do not hold a {card}.")
        return _choose(state, seat, card)
    if kind != "decide" or action.get("take") not in ("points", "draw"):
        raise IllegalAction("wrong_decision", "Decide: points or draw.")
    return _decide(state, seat, action["take"])


def _choose(state: dict, seat: int, card: int) -> list[dict]:
    amended = state["choices"][seat] is not None
    state["choices"][seat] = card
    events = [{"type": "chose", "to": seat, "card": card, "amended": amended},
              {"type": "has_chosen", "to": "all", "seat": seat, "amended": amended}]
    if all(c is not None for c in state["choices"]):
        events += _reveal(state)
    return events


def _reveal(state: dict) -> list[dict]:
    choices = list(state["choices"])
    for s, c in enumerate(choices):
        state["hands"][s].remove(c)
    state["choices"] = [None] * state["seats"]
    counts = {c: choices.count(c) for c in choices}
    unique = [c for c in choices if counts[c] == 1]
    events: list[dict] = [{"type": "reveal", "to": "all", "choices": choices}]
    if unique:
        best = max(unique)
        winner = choices.index(best)
        state["phase"] = "decide"
        state["decision"] = {"seat": winner, "value": best}
        events.append({"type": "round_won", "to": "all", "seat": winner, "value": best})
    else:
        events += _next_round(state)
    return events


def _decide(state: dict, seat: int, take: str) -> list[dict]:
    value = state["decision"]["value"]
    events: list[dict] = []
    if take == "points":
        state["scores"][seat] += value
        events.append({"type": "scored", "to": "all", "seat": seat, "points": value})
    else:
        card = _rng(state).randint(1, 9)
        state["hands"][seat].append(card)
        state["hands"][seat].sort()
        events += [{"type": "drew", "to": seat, "card": card}, {"type": "drew", "to": "all", "seat": seat}]
    state["decision"] = None
    return events + _next_round(state)


def _next_round(state: dict) -> list[dict]:
    if state["round"] >= state["options"]["rounds"]:
        state["phase"] = "over"
        return [{"type": "game_over", "to": "all", "scores": list(state["scores"])}]
    state["round"] += 1
    state["phase"] = "choose"
    return [{"type": "round_start", "to": "all", "round": state["round"]}]


def view(state: dict, seat: int | None) -> dict:
    out = {"phase": state["phase"], "round": state["round"], "scores": list(state["scores"]),
           "hand_sizes": [len(h) for h in state["hands"]],
           "chosen": [c is not None for c in state["choices"]], "decision": state["decision"]}
    if seat is not None or state["phase"] == "over":
        if state["phase"] == "over":
            out["hands"] = [list(h) for h in state["hands"]]
        else:
            out["hand"] = list(state["hands"][seat])
            out["choice"] = state["choices"][seat]
    return out


def default_action(state: dict, seat: int) -> dict:
    if state["phase"] == "decide":
        return {"type": "decide", "take": "points"}
    return {"type": "choose", "card": min(state["hands"][seat])}


def is_over(state: dict) -> bool:
    return state["phase"] == "over"


def final_scores(state: dict) -> list[dict] | None:
    if not is_over(state):
        return None
    best = max(state["scores"])
    return [{"seat": s, "total": t, "breakdown": {"rounds": t}, "winner": t == best}
            for s, t in enumerate(state["scores"])]


def replay(record: dict) -> dict:
    state = new_game(record["options"], record["seed"], record["seats"])
    for entry in record["actions"]:
        apply_action(state, entry["seat"], entry["action"])
    return state


def choose_action(state: dict, seat: int, rng: random.Random) -> dict:
    if state["phase"] == "decide":
        return {"type": "decide", "take": rng.choice(["points", "draw"])}
    return {"type": "choose", "card": rng.choice(state["hands"][seat])}


def _options(options: dict, seats: int) -> dict:
    return {"rounds": int(options.get("rounds", 3))}  # the OptionSpec has checked the range


def prompts(state: dict) -> dict[int, api.Prompt]:
    """pending() on the game contract: the decision's key names the round (amending keeps it)."""
    out = {}
    for seat, p in pending(state).items():
        key = f"{p['kind']}:{p['round']}"
        choices = {"options": list(p["options"])}
        if p["kind"] == "decide":
            choices["value"] = state["decision"]["value"]
        out[seat] = api.Prompt(kind=p["kind"], key=key, waiting=not p.get("chosen", False), choices=choices)
    return out


def outcome(state: dict) -> api.Outcome | None:
    rows = final_scores(state)
    if rows is None:
        return None
    ranks = api.rank_results([(r["total"],) for r in rows])
    return api.Outcome(tuple(api.SeatResult(seat=r["seat"], total=r["total"], winner=r["winner"], rank=rank,
                                            breakdown=(("Rounds", r["total"]),))
                             for r, rank in zip(rows, ranks, strict=True)), reason="all rounds played")


def legal_actions(state: dict, seat: int) -> list[dict]:
    if state["phase"] == "decide":
        return [{"type": "decide", "take": t} for t in ("points", "draw")]
    return [{"type": "choose", "card": c} for c in sorted(set(state["hands"][seat]))]


def determinize(state: dict, seat: int, rng: random.Random) -> dict:
    """Other seats' hands and unrevealed choices re-drawn (the seat only knows their sizes)."""
    for s in range(state["seats"]):
        if s != seat and state["phase"] != "over":
            chosen = state["choices"][s] is not None
            hand = sorted(rng.randint(1, 9) for _ in state["hands"][s])
            state["hands"][s] = hand
            state["choices"][s] = rng.choice(hand) if chosen else None
    return state


TYPE = api.GameType(name="toy", display_name="Toy", min_seats=1, max_seats=6, dynamics="sealed",
                    hidden_information=True,
                    options=(api.OptionSpec("rounds", "Rounds", "int", 3, min=1, max=50),))

GAME = api.Game(type=TYPE, new_game=new_game, pending=prompts, apply=apply_action, view=view,
                default_action=default_action, outcome=outcome, choose_action=choose_action,
                legal_actions=legal_actions, determinize=determinize, normalize_options=_options)
KIND = register(GAME)
