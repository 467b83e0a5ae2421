"""On-play effects of the 24 law cards (§10). End-game law scoring lives in scoring.py.

Laws with only an end-game effect (68, 75, 78, 79, 85-88) are simply placed; their value is scored later.
Law 78 (Archive) also acts whenever its owner takes a card: see ``game._step_take_card``.
"""

from __future__ import annotations

from . import cards as C
from . import game as G
from . import pyramid as P


def play(state: dict, seat: int, plan: dict, events: list) -> None:
    number = plan["card"]
    player = state["players"][seat]
    cards = player["pyramid"]["cards"]
    if number == 66:
        _endowment(state, seat, plan, events)
        return
    if number == 65:
        _usurpation(state, seat, plan, events)
        return
    slot = plan["slot"]
    entry = G._entry(number, slot)
    cards[slot] = entry
    G._ev(events, "all", "plays", f"{G._p(seat)} plays the law {C.label(number)} on level {G.playable_level(slot)}.",
          seat=seat, card=number, slot=slot, level=G.playable_level(slot))
    G._circle_gem(state, seat, slot, events)
    if number == 67:
        _exchange(state, seat, plan, events)
    elif number == 69:
        _royal_decree(state, seat, plan, events)
    elif number == 70:
        drawn = []
        for _ in range(3):
            if state["law_deck"]:
                drawn.append(state["law_deck"].pop())
        player["hand"].extend(drawn)
        G._ev(events, "all", "cards_drawn", f"{G._p(seat)} takes {len(drawn)} laws (Chancery).", seat=seat, counts={"law": len(drawn)})
        if drawn:
            G._ev(events, seat, "drew", "You take " + ", ".join(C.label(c) for c in drawn) + ".", cards=drawn)
        G._push(state, {"op": "chancery", "seat": seat})
    elif number == 72:
        for card in plan.get("tuck", []):
            player["hand"].remove(card)
            entry["tucked"].append(card)
        G._ev(events, "all", "tucked", f"{G._p(seat)} tucks {len(plan.get('tuck', []))} cards under Secret Service.", seat=seat)
    elif number == 74:
        G._push(state, {"op": "royal_favor", "seat": seat, "slot": slot, "choice": plan.get("tuck")})
    elif number == 76:
        store = plan.get("store") or G._zero()
        for c in C.COLORS:
            player["gems"][c] -= store[c]
            entry["gems"][c] += store[c]
        G._ev(events, "all", "treasury", f"{G._p(seat)} stores {G._gem_total(store)} gems on Treasury.", seat=seat, count=G._gem_total(store))
    elif number in G.CHOICE_LAWS:
        reward = plan.get("reward") or {}
        chosen = C.card(number)["effect"]["options"][reward["option"]]
        items = chosen if isinstance(chosen, list) else [chosen]
        G._push(state, {"op": "reward", "seat": seat, "card": number, "slot": slot, "items": list(items), "choice": reward})


def _endowment(state: dict, seat: int, plan: dict, events: list) -> None:
    """66: tuck under a character and put one more of each token lying on it (infinite gems included)."""
    entry = state["players"][seat]["pyramid"]["cards"][plan["target"]]
    entry["tucked"].append(66)
    for token in list(entry["tokens"]):
        if token["type"] == "infinite_gem":
            G._place_infinite(state, seat, entry, token["color"], events)
        else:
            entry["tokens"].append(dict(token))
    G._ev(events, "all", "endowment", f"{G._p(seat)} tucks Endowment under {C.label(entry['card'])}, doubling its tokens.",
          seat=seat, card=entry["card"])


def _usurpation(state: dict, seat: int, plan: dict, events: list) -> None:
    """65: take another card's place; its tokens and tucked cards stay with the law; the card goes to hand."""
    player = state["players"][seat]
    cards = player["pyramid"]["cards"]
    target = plan["target"]
    old = cards[target]
    new = G._entry(65, target)
    new["tokens"] = old["tokens"]
    new["tucked"] = old["tucked"]
    new["paint"] = old["paint"]
    # Ruling: gems stored on a replaced Treasury go back behind the owner's screen.
    for c in C.COLORS:
        player["gems"][c] += old["gems"][c]
    cards[target] = new
    G._ev(events, "all", "usurpation", f"{G._p(seat)} replaces {C.label(old['card'])} with Usurpation and takes it back into hand.",
          seat=seat, card=old["card"], slot=target)
    G._push(state, {"op": "take_card", "seat": seat, "card": old["card"], "archive": plan.get("archive"), "source": "pyramid"})


def _exchange(state: dict, seat: int, plan: dict, events: list) -> None:
    """67: optionally swap one token with another player's, paying them 3 gems."""
    give, take = plan.get("give"), plan.get("take")
    if not give or not take:
        return
    player = state["players"][seat]
    other = state["players"][take["seat"]]
    mine_entry = player["pyramid"]["cards"][give["slot"]]
    theirs_entry = other["pyramid"]["cards"][take["slot"]]
    mine = mine_entry["tokens"].pop(give["token"])
    theirs = theirs_entry["tokens"].pop(take["token"])
    mine_entry["tokens"].append(theirs)
    theirs_entry["tokens"].append(mine)
    for c in C.COLORS:
        player["gems"][c] -= plan["pay"][c]
        other["gems"][c] += plan["pay"][c]
    player["used_infinite"].extend(plan.get("infinite", []))
    G._ev(events, "all", "exchange", f"{G._p(seat)} swaps a {token_name(mine)} for {G._p(take['seat'])}'s {token_name(theirs)} and pays 3 gems.",
          seat=seat, other=take["seat"], gave=mine, took=theirs)


def token_name(token: dict) -> str:
    """A token as players say it: 'science', 'power points 10', 'green infinite gem'."""
    kind = token["type"].replace("_", " ")
    if "value" in token:
        kind += f" {token['value']}"
    if "color" in token:
        kind = f"{token['color']} {kind}"
    return kind


def _royal_decree(state: dict, seat: int, plan: dict, events: list) -> None:
    """69: take a displayed auction card now, refill its place from the small deck, sit out the next auction."""
    card = plan["take"]
    for colour in C.COLORS:
        spot = state["auction"][colour]
        for where in ("base", "tip"):
            if spot[where] == card:
                spot[where] = state["small_deck"].pop() if state["small_deck"] else None
    player = state["players"][seat]
    player["skip_next_auction"] = True
    G._ev(events, "all", "royal_decree", f"{G._p(seat)} takes {C.label(card)} from the auction (Royal Decree) and will sit out the next auction.",
          seat=seat, card=card)
    G._push(state, {"op": "take_card", "seat": seat, "card": card, "archive": plan.get("archive"), "source": "auction"})


def step_chancery(state: dict, step: dict, events: list) -> bool:
    """70: after taking 3 laws, return 2 law cards from the hand to the top of the law deck, in order."""
    seat = step["seat"]
    player = state["players"][seat]
    laws = [c for c in player["hand"] if C.is_law(c)]
    if not laws:
        return True
    answer = step.get("answer")
    if answer is None:
        need = min(2, len(laws))
        return G._ask(state, seat, "chancery_return", f"Chancery: return {need} law cards to the top of the law deck (the first named goes on top).",
                      options=laws, count=need)
    for card in reversed(answer["cards"]):
        player["hand"].remove(card)
        state["law_deck"].append(card)  # the end of the list is the top of the deck
    G._ev(events, "all", "chancery_return", f"{G._p(seat)} returns {len(answer['cards'])} laws to the law deck.", seat=seat)
    return True


def step_royal_favor(state: dict, step: dict, events: list) -> bool:
    """74: tuck one free card (not the law itself); its tokens go to the supply, gems to the reserve."""
    seat = step["seat"]
    player = state["players"][seat]
    cards = player["pyramid"]["cards"]
    free = [s for s in P.free_cards(player["pyramid"]) if s != step["slot"]]
    if not free:
        G._ev(events, "all", "royal_favor", f"{G._p(seat)} has no free card to put under Royal Favor.", seat=seat)
        return True
    choice = step.get("answer", {}).get("slot", step.get("choice"))
    if choice not in free:
        if len(free) == 1:
            choice = free[0]
        else:
            return G._ask(state, seat, "royal_favor", "Royal Favor: choose a free card of your pyramid to put under it.", options=free)
    tucked = cards.pop(choice)
    for token in tucked["tokens"]:
        if token["type"] == "infinite_gem":
            state["reserve"][token["color"]] += 1
    for c in C.COLORS:
        state["reserve"][c] += tucked["gems"][c]
    player["used_infinite"] = [r for r in player["used_infinite"] if not r.startswith(choice + "/")]
    cards[step["slot"]]["tucked"].append(tucked["card"])
    G._ev(events, "all", "royal_favor", f"{G._p(seat)} puts {C.label(tucked['card'])} under Royal Favor.", seat=seat, card=tucked["card"])
    return True
