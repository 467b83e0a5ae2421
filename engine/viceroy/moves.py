"""What a seat may do now, spelled out: used by the AI, by deadline defaults and by the bot's prompts."""

from __future__ import annotations

from . import cards as C
from . import pyramid as P
from .auction import auction_cards, auction_offer, pass_gems
from .laws import royal_favor_options
from .payment import auto_payment
from .rewards import reward_choice
from .rules import rules_for
from .state import DISCARD_GEMS, balanced_gems

__all__ = [
    "auction_bids",
    "auction_options",
    "balanced_gems",
    "character_plays",
    "default_action",
    "development_options",
    "law_targets",
    "reward_choice",
    "royal_favor_options",
]


def auction_bids(state: dict, gems: dict[str, int]) -> list[dict]:
    """The bids a seat with ``gems`` may make: per colour it holds, the characters at that colour's card."""
    bids = []
    cards = auction_cards(state)
    for colour in C.COLORS:
        if gems[colour] > 0:
            for spot in cards:
                if colour in spot["colors"]:
                    there = [c for c in (spot["base"], spot["tip"]) if c is not None]
                    if there:
                        bids.append({"color": colour, "cards": there})
                    break
    return bids


def auction_options(state: dict, seat: int) -> dict:
    player = state["players"][seat]
    return {
        "bids": auction_bids(state, player["gems"]),
        "attack": auction_offer(state) if player["attacks"] > 0 else [],
        "pass_gems": pass_gems(state, seat),
    }


def character_plays(state: dict, seat: int, number: int) -> list[dict]:
    """Every legal place for a character in hand, with its cost and a payment if it can be paid."""
    player = state["players"][seat]
    out = []
    for slot in P.legal_slots(player["pyramid"], number):
        level = P.parse_slot(slot)[0]
        payment = auto_payment(player, number, level, state)
        out.append({"slot": slot, "level": level, "cost": C.cost(number, level), "payment": payment})
    return out


def law_targets(state: dict, seat: int, number: int) -> dict:
    """Where a law can go: open places below level 5, or the cards it acts on (65, 66)."""
    cards = state["players"][seat]["pyramid"]["cards"]
    if number == 66:
        return {"targets": sorted(s for s, e in cards.items() if C.is_character(e["card"]))}
    if number == 65:
        return {"targets": sorted(s for s, e in cards.items() if P.level_of(s) < 5 and C.in_pyramid(e["card"]))}
    return {"slots": P.legal_slots(state["players"][seat]["pyramid"], number)}


def development_options(state: dict, seat: int) -> dict:
    player = state["players"][seat]
    plays = {}
    for number in player["hand"]:
        if C.is_law(number):
            plays[number] = law_targets(state, seat, number)
        else:
            plays[number] = {"slots": character_plays(state, seat, number)}
    return {"hand": list(player["hand"]), "plays": plays, "discard_gems": DISCARD_GEMS}


def default_action(state: dict, seat: int) -> dict:
    """What a seat does when its time runs out: pass, skip painting, or the simplest answer (§ deadlines)."""
    rules = rules_for(state)
    decision = state["decision"]
    if decision is not None and decision["seat"] == seat:
        question = rules.decisions.get(decision["kind"])
        if question is None:
            raise ValueError(f"unknown decision {decision['kind']}")
        return question.default(state, seat, decision)
    phase = rules.phases.get(state["phase"])
    if phase is None or phase.default is None:
        raise ValueError("nothing to decide")
    return phase.default(state, seat)
