"""What a seat may do now, spelled out: used by the AI, by deadline defaults and by the bot's prompts."""

from __future__ import annotations

from . import cards as C
from . import game as G
from . import pyramid as P


def balanced_gems(reserve: dict[str, int], count: int, prefer: list[str] | None = None) -> dict[str, int]:
    """``count`` gems from the reserve, spread over the colours (preferred colours first)."""
    take = G._zero()
    order = list(prefer or []) + [c for c in C.COLORS if c not in (prefer or [])]
    left = dict(reserve)
    need = min(count, sum(left.values()))
    while need > 0:
        for c in order:
            if need and left[c] > 0:
                take[c] += 1
                left[c] -= 1
                need -= 1
    return take


def auction_options(state: dict, seat: int) -> dict:
    player = state["players"][seat]
    bids = []
    for colour in C.COLORS:
        there = G.cards_at(state, colour)
        if there and player["gems"][colour] > 0:
            bids.append({"color": colour, "cards": there})
    return {
        "bids": bids,
        "attack": G.auction_offer(state) if player["attacks"] > 0 else [],
        "pass_gems": G.PASS_GEMS + G.science_count(player),
    }


def character_plays(state: dict, seat: int, number: int) -> list[dict]:
    """Every legal place for a character in hand, with its cost and a payment if it can be paid."""
    player = state["players"][seat]
    out = []
    for slot in P.legal_slots(player["pyramid"], number):
        level = P.level_of(slot)
        payment = G.auto_payment(player, number, level)
        out.append({"slot": slot, "level": level, "cost": C.cost(number, level), "payment": payment})
    return out


def law_targets(state: dict, seat: int, number: int) -> dict:
    """Where a law can go: open places below level 5, or the cards it acts on (65, 66)."""
    cards = state["players"][seat]["pyramid"]["cards"]
    if number == 66:
        return {"targets": sorted(s for s, e in cards.items() if not C.is_law(e["card"]))}
    if number == 65:
        return {"targets": sorted(s for s in cards if P.level_of(s) < 5)}
    return {"slots": P.legal_slots(state["players"][seat]["pyramid"], number)}


def development_options(state: dict, seat: int) -> dict:
    player = state["players"][seat]
    plays = {}
    for number in player["hand"]:
        if C.is_law(number):
            plays[number] = law_targets(state, seat, number)
        else:
            plays[number] = {"slots": character_plays(state, seat, number)}
    return {"hand": list(player["hand"]), "plays": plays, "discard_gems": G.DISCARD_GEMS}


def default_action(state: dict, seat: int) -> dict:
    """What a seat does when its time runs out: pass, skip painting, or the simplest answer (§ deadlines)."""
    decision = state["decision"]
    if decision is not None and decision["seat"] == seat:
        return _default_answer(state, seat, decision)
    phase = state["phase"]
    player = state["players"][seat]
    if phase == "setup":
        hand = player["hand"]
        keep = hand[1] if len(hand) > 1 else hand[0]
        return {"type": "setup", "start": hand[0], "keep": keep, "reward": reward_choice(state, hand[0], 1)}
    if phase == "auction":
        count = G.PASS_GEMS + G.science_count(player)
        return {"type": "pass", "gems": balanced_gems(state["reserve"], count)}
    if phase == "development":
        return {"type": "pass"}
    if phase == "painting":
        return {"type": "paint", "paint": []}
    raise ValueError("nothing to decide")


def reward_choice(state: dict, number: int, level: int, items: list[dict] | None = None) -> dict:
    """A simple complete set of reward choices: gems spread over the colours, cards from the small deck."""
    if items is None:
        items = C.rewards(number, level) if level < 5 else [i for lv in (1, 2, 3) for i in C.rewards(number, lv)]
    gems = sum(i["amount"] for i in items if i["type"] == "gems")
    draws = sum(i["amount"] for i in items if i["type"] == "cards")
    out: dict = {"level5": "rows"} if level == 5 else {}
    if gems:
        out["gems"] = balanced_gems(state["reserve"], gems)
    if draws:
        out["draw"] = ["small"] * draws
    return out


def _default_answer(state: dict, seat: int, decision: dict) -> dict:
    kind = decision["kind"]
    if kind == "gems":
        return {"type": "decide", "gems": balanced_gems(state["reserve"], decision["count"])}
    if kind in ("attack_pick", "solo_discard"):
        return {"type": "decide", "card": decision["options"][0]}
    if kind == "royal_favor":
        return {"type": "decide", "slot": decision["options"][0]}
    if kind == "archive":
        return {"type": "decide", "archive": False}
    if kind == "chancery_return":
        return {"type": "decide", "cards": decision["options"][: decision["count"]]}
    if kind == "replan":
        return {"type": "decide", "plan": {"type": "pass"}}
    raise ValueError(f"unknown decision {kind}")
