"""The 24 law cards (§10) as a table: number -> ``Law(validate, play, steps, score)``.

Laws with only an end-game effect (68, 75, 78, 79, 85-88) are simply placed; their points come from
``scoring.LAW_POINTS``. Law 78 (Archive) also acts whenever its owner takes a card into the hand: see
``rewards.step_take_card``. A revised law (Times of Darkness) replaces an entry by its number.
"""

from __future__ import annotations

from dataclasses import replace

from . import cards as C
from . import pyramid as P
from .auction import auction_offer, remove_from_auction
from .development import CHECK_ONLY_LAWS, PLAN_ONLY_LAWS, play_placed
from .errors import IllegalAction
from .payment import check_infinite
from .rewards import place_infinite, take_card
from .rules import Decision, Law
from .scoring import LAW_POINTS
from .state import (
    CHOICE_LAWS,
    COLORS,
    ask,
    bool_arg,
    clean_gems,
    ev,
    gem_total,
    int_arg,
    new_entry,
    p,
    push,
    slot_arg,
    zero,
)


def _archive(action: dict, out: dict) -> dict:
    # The card these laws bring into the hand may go under Archive (law 78): keep the answer given.
    out["archive"] = bool_arg(action.get("archive"), "Archive must be yes or no.", "bad_archive")
    return out


def token_name(token: dict) -> str:
    """A token as players say it: 'science', 'power points 10', 'green infinite gem'."""
    kind = token["type"].replace("_", " ")
    if "value" in token:
        kind += f" {token['value']}"
    if "color" in token:
        kind = f"{token['color']} {kind}"
    return kind


# ------------------------------------------------------------------------------------------- 65, 66


def _validate_usurpation(state: dict, seat: int, action: dict, out: dict, fresh: bool) -> dict:
    _archive(action, out)
    cards = state["players"][seat]["pyramid"]["cards"]
    target = slot_arg(action.get("target"))
    if target not in cards or not C.in_pyramid(cards[target]["card"]):
        raise IllegalAction("Usurpation replaces a card of your pyramid: choose which.", "bad_target")
    if P.parse_slot(target)[0] == 5:
        raise IllegalAction("Usurpation cannot replace a card on level 5.", "bad_target")
    out["target"] = target
    return out


def _usurpation(state: dict, seat: int, plan: dict, events: list) -> None:
    """65: take another card's place; its tokens and tucked cards stay with the law; the card goes to hand."""
    player = state["players"][seat]
    cards = player["pyramid"]["cards"]
    target = plan["target"]
    old = cards[target]
    new = new_entry(65, target)
    new["tokens"] = old["tokens"]
    new["tucked"] = old["tucked"]
    new["paint"] = old["paint"]
    # Ruling: gems stored on a replaced Treasury go back behind the owner's screen.
    for c in COLORS:
        player["gems"][c] += old["gems"][c]
    cards[target] = new
    ev(events, "all", "usurpation", f"{p(seat)} replaces {C.label(old['card'])} with Usurpation and takes it back into hand.",
       seat=seat, card=old["card"], slot=target)
    push(state, take_card(seat, old["card"], plan.get("archive"), "pyramid"))


def _validate_endowment(state: dict, seat: int, action: dict, out: dict, fresh: bool) -> dict:
    cards = state["players"][seat]["pyramid"]["cards"]
    target = slot_arg(action.get("target"))
    if target not in cards or not C.is_character(cards[target]["card"]):
        raise IllegalAction("Endowment goes under a character card of your pyramid.", "bad_target")
    out["target"] = target
    return out


def _endowment(state: dict, seat: int, plan: dict, events: list) -> None:
    """66: tuck under a character and put one more of each token lying on it (infinite gems included)."""
    entry = state["players"][seat]["pyramid"]["cards"][plan["target"]]
    entry["tucked"].append(66)
    for token in list(entry["tokens"]):
        if token["type"] == "infinite_gem":
            place_infinite(state, seat, entry, token["color"], events)
        else:
            entry["tokens"].append(dict(token))
    ev(events, "all", "endowment", f"{p(seat)} tucks Endowment under {C.label(entry['card'])}, doubling its tokens.",
       seat=seat, card=entry["card"])


# ------------------------------------------------------------------------------------------- 67


def _token_ref(cards: dict, ref: dict, whose: str) -> None:
    slot, index = slot_arg(ref.get("slot")), int_arg(ref.get("token"))
    if slot not in cards or not isinstance(index, int) or not 0 <= index < len(cards[slot]["tokens"]):
        raise IllegalAction(f"Choose a token lying on a card of {whose} pyramid.", "bad_swap")
    if cards[slot]["tokens"][index]["type"] == "infinite_gem":
        # An infinite gem is a gem, not a token (RULES.md §1): the law swaps tokens only.
        raise IllegalAction("An infinite gem is not a token: Exchange of Favors cannot swap it.", "bad_swap")


def _validate_exchange(state: dict, seat: int, action: dict, out: dict, fresh: bool) -> dict:
    player = state["players"][seat]
    give, take = action.get("give"), action.get("take")
    if give is None and take is None:
        return out  # the exchange is optional
    if not isinstance(give, dict) or not isinstance(take, dict):
        raise IllegalAction("Exchange of Favors swaps one of your tokens for one of another player's.", "bad_swap")
    other = int_arg(take.get("seat"))
    if not isinstance(other, int) or other == seat or not 0 <= other < len(state["players"]):
        raise IllegalAction("Choose another player to exchange a token with.", "bad_swap")
    _token_ref(player["pyramid"]["cards"], give, "your")
    _token_ref(state["players"][other]["pyramid"]["cards"], take, "their")
    pay = clean_gems(action.get("pay"), "payment")
    infinite = action.get("infinite") or []
    check_infinite(player, infinite)
    if gem_total(pay) + len(infinite) != 3:
        raise IllegalAction("The exchange costs 3 gems paid to the other player.", "bad_payment")
    if any(pay[c] > player["gems"][c] for c in COLORS):
        raise IllegalAction("You do not have those gems to pay.", "cannot_pay")
    out.update({"give": dict(give), "take": dict(take), "pay": pay, "infinite": list(infinite)})
    return out


def _exchange(state: dict, seat: int, plan: dict, events: list) -> None:
    """67: optionally swap one token with another player's, paying them 3 gems."""
    play_placed(state, seat, plan, events)
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
    for c in COLORS:
        player["gems"][c] -= plan["pay"][c]
        other["gems"][c] += plan["pay"][c]
    player["used_infinite"].extend(plan.get("infinite", []))
    ev(events, "all", "exchange", f"{p(seat)} swaps a {token_name(mine)} for {p(take['seat'])}'s {token_name(theirs)} and pays 3 gems.",
       seat=seat, other=take["seat"], gave=mine, took=theirs)


# ------------------------------------------------------------------------------------------- 69, 70


def _validate_decree(state: dict, seat: int, action: dict, out: dict, fresh: bool) -> dict:
    _archive(action, out)
    take = int_arg(action.get("take"))
    if take not in auction_offer(state):
        raise IllegalAction("Royal Decree takes a character displayed at the auction.", "bad_card")
    out["take"] = take
    return out


def _royal_decree(state: dict, seat: int, plan: dict, events: list) -> None:
    """69: take a displayed auction card now, refill its place from the small deck, sit out the next auction."""
    play_placed(state, seat, plan, events)
    card = plan["take"]
    remove_from_auction(state, card, refill=state["small_deck"])
    state["players"][seat]["skip_next_auction"] = True
    ev(events, "all", "royal_decree", f"{p(seat)} takes {C.label(card)} from the auction (Royal Decree) and will sit out the next auction.",
       seat=seat, card=card)
    push(state, take_card(seat, card, plan.get("archive"), "auction"))


def _chancery(state: dict, seat: int, plan: dict, events: list) -> None:
    """70: take 3 laws (each may go under Archive, law 78), then return 2 law cards from the hand."""
    play_placed(state, seat, plan, events)
    player = state["players"][seat]
    drawn = []
    for _ in range(3):
        if state["law_deck"]:
            drawn.append(state["law_deck"].pop())
    ev(events, "all", "cards_drawn", f"{p(seat)} takes {len(drawn)} laws (Chancery).", seat=seat, counts={"law": len(drawn)})
    if drawn:
        ev(events, seat, "drew", "You take " + ", ".join(C.label(c) for c in drawn) + ".", cards=drawn)
    if any(e["card"] == 78 for e in player["pyramid"]["cards"].values()):
        # Archive applies to every card taken into the hand, these laws included (§10).
        push(state, *[take_card(seat, c, None, "chancery") for c in drawn], {"op": "chancery", "seat": seat})
        return
    player["hand"].extend(drawn)
    push(state, {"op": "chancery", "seat": seat})


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
        return ask(state, seat, "chancery_return", f"Chancery: return {need} law cards to the top of the law deck (the first named goes on top).",
                   options=laws, count=need)
    for card in reversed(answer["cards"]):
        player["hand"].remove(card)
        state["law_deck"].append(card)  # the end of the list is the top of the deck
    ev(events, "all", "chancery_return", f"{p(seat)} returns {len(answer['cards'])} laws to the law deck.", seat=seat)
    return True


def _check_chancery_return(state: dict, seat: int, decision: dict, action: dict) -> dict:
    ret = action.get("cards")
    laws_in_hand = [c for c in state["players"][seat]["hand"] if C.is_law(c)]
    need = min(2, len(laws_in_hand))
    if (not isinstance(ret, list) or any(int_arg(c) is None for c in ret) or len(ret) != need or len(set(ret)) != need
            or any(c not in laws_in_hand for c in ret)):
        raise IllegalAction(f"Return {need} law cards from your hand to the law deck.", "bad_return")
    return {"cards": list(ret)}


# ------------------------------------------------------------------------------------------- 72, 74, 76


def _validate_secret_service(state: dict, seat: int, action: dict, out: dict, fresh: bool) -> dict:
    hand = state["players"][seat]["hand"]
    tuck = action.get("tuck") or []
    if (not isinstance(tuck, list) or any(int_arg(c) is None for c in tuck) or any(c not in hand or c == 72 for c in tuck)
            or len(set(tuck)) != len(tuck)):
        raise IllegalAction("Secret Service takes cards from your hand.", "bad_tuck")
    out["tuck"] = list(tuck)
    return out


def _secret_service(state: dict, seat: int, plan: dict, events: list) -> None:
    entry = play_placed(state, seat, plan, events)
    player = state["players"][seat]
    for card in plan.get("tuck", []):
        player["hand"].remove(card)
        entry["tucked"].append(card)
    ev(events, "all", "tucked", f"{p(seat)} tucks {len(plan.get('tuck', []))} cards under Secret Service.", seat=seat)


def royal_favor_options(pyramid: dict, slot: str) -> list[str]:
    """The cards Royal Favor placed at ``slot`` may tuck: those still free once it is placed."""
    return P.free_after_placing(pyramid, slot, 74)


def _validate_royal_favor(state: dict, seat: int, action: dict, out: dict, fresh: bool) -> dict:
    tuck = action.get("tuck")
    if tuck is None:
        out["tuck"] = None
        return out
    cards = state["players"][seat]["pyramid"]["cards"]
    if slot_arg(tuck) not in cards:
        raise IllegalAction("Royal Favor takes a free card of your pyramid.", "bad_tuck")
    # Named cards must be free once the law is placed (the cards it rests on are not). If one stops being
    # free before the law resolves, the player is asked again then, so this is checked at submission only.
    if fresh and tuck not in royal_favor_options(state["players"][seat]["pyramid"], out["slot"]):
        raise IllegalAction(f"{C.label(cards[tuck]['card'])} will not be a free card once Royal Favor is placed: "
                            "choose a card at an end of its row with nothing resting on it.", "not_free")
    out["tuck"] = tuck
    return out


def _royal_favor(state: dict, seat: int, plan: dict, events: list) -> None:
    play_placed(state, seat, plan, events)
    push(state, {"op": "royal_favor", "seat": seat, "slot": plan["slot"], "choice": plan.get("tuck")})


def step_royal_favor(state: dict, step: dict, events: list) -> bool:
    """74: tuck one free card (not the law itself); its tokens go to the supply, gems to the reserve."""
    seat = step["seat"]
    player = state["players"][seat]
    cards = player["pyramid"]["cards"]
    free = [s for s in P.free_cards(player["pyramid"]) if s != step["slot"]]
    if not free:
        ev(events, "all", "royal_favor", f"{p(seat)} has no free card to put under Royal Favor.", seat=seat)
        return True
    answer = step.get("answer")
    choice = answer["slot"] if answer else step.get("choice")
    if choice not in free:
        if choice is None and len(free) == 1:
            choice = free[0]  # nothing named and only one card free: it is that one
        else:
            text = ("Royal Favor: choose a free card of your pyramid to put under it." if choice is None else
                    f"Royal Favor: {C.label(cards[choice]['card']) if choice in cards else 'the card you named'} "
                    "is no longer free: choose another free card to put under it.")
            return ask(state, seat, "royal_favor", text, options=free)
    tucked = cards.pop(choice)
    for token in tucked["tokens"]:
        if token["type"] == "infinite_gem":
            state["reserve"][token["color"]] += 1
    for c in COLORS:
        state["reserve"][c] += tucked["gems"][c]
    player["used_infinite"] = [r for r in player["used_infinite"] if not r.startswith(choice + "/")]
    cards[step["slot"]]["tucked"].append(tucked["card"])
    ev(events, "all", "royal_favor", f"{p(seat)} puts {C.label(tucked['card'])} under Royal Favor.", seat=seat, card=tucked["card"])
    return True


def _check_royal_favor(state: dict, seat: int, decision: dict, action: dict) -> dict:
    if action.get("slot") not in decision["options"]:
        raise IllegalAction("Choose one of your free cards.", "bad_slot")
    return {"slot": action["slot"]}


def _validate_treasury(state: dict, seat: int, action: dict, out: dict, fresh: bool) -> dict:
    player = state["players"][seat]
    store = clean_gems(action.get("store"), "gems to store")
    if gem_total(store) > 8:
        raise IllegalAction("Treasury holds at most 8 gems.", "bad_store")
    if any(store[c] > player["gems"][c] for c in COLORS):
        raise IllegalAction("You do not have those gems behind your screen.", "cannot_pay")
    out["store"] = store
    return out


def _treasury(state: dict, seat: int, plan: dict, events: list) -> None:
    entry = play_placed(state, seat, plan, events)
    player = state["players"][seat]
    store = plan.get("store") or zero()
    for c in COLORS:
        player["gems"][c] -= store[c]
        entry["gems"][c] += store[c]
    ev(events, "all", "treasury", f"{p(seat)} stores {gem_total(store)} gems on Treasury.", seat=seat, count=gem_total(store))


# ------------------------------------------------------------------------------------------- choose one


def choice_items(number: int, option: int) -> list[dict]:
    chosen = C.card(number)["effect"]["options"][option]
    return list(chosen) if isinstance(chosen, list) else [chosen]


def _validate_choice(state: dict, seat: int, action: dict, out: dict, fresh: bool) -> dict:
    number = out["card"]
    option = int_arg(out["reward"].get("option"))
    if option not in (0, 1, 2):
        raise IllegalAction(f"{C.label(number)}: choose one of its three options.", "choose_option")
    if any(i["type"] == "infinite_gem" for i in choice_items(number, option)) and out["reward"].get("color") is None:
        raise IllegalAction("Choose the colour of the infinite gem.", "choose_colour")
    return out


def _choose_one(state: dict, seat: int, plan: dict, events: list) -> None:
    play_placed(state, seat, plan, events)
    reward = plan.get("reward") or {}
    number = plan["card"]
    push(state, {"op": "reward", "seat": seat, "card": number, "slot": plan["slot"],
                 "items": choice_items(number, reward["option"]), "choice": reward})


LAWS: dict[int, Law] = {number: Law(play=play_placed) for number in C.LAW_NUMBERS}
LAWS.update({
    65: Law(validate=_validate_usurpation, play=_usurpation, places=False),
    66: Law(validate=_validate_endowment, play=_endowment, places=False, verb="under"),
    67: Law(validate=_validate_exchange, play=_exchange),
    69: Law(validate=_validate_decree, play=_royal_decree),
    70: Law(play=_chancery, steps={"chancery": step_chancery}),
    72: Law(validate=_validate_secret_service, play=_secret_service),
    74: Law(validate=_validate_royal_favor, play=_royal_favor, steps={"royal_favor": step_royal_favor}),
    76: Law(validate=_validate_treasury, play=_treasury),
})
LAWS.update({number: Law(validate=_validate_choice, play=_choose_one) for number in CHOICE_LAWS})
CHECK_ONLY_LAWS.add(_validate_choice)  # it adds nothing to the plan (a trusted plan skips it)
PLAN_ONLY_LAWS.add(_validate_choice)  # it looks at the plan alone (not checked again when the plan resolves)
for _number, _law in list(LAWS.items()):
    if _number in LAW_POINTS:
        LAWS[_number] = replace(_law, score=LAW_POINTS[_number])

DECISIONS = {
    "chancery_return": Decision(_check_chancery_return,
                                lambda state, seat, d: {"type": "decide", "cards": d["options"][: d["count"]]}),
    "royal_favor": Decision(_check_royal_favor, lambda state, seat, d: {"type": "decide", "slot": d["options"][0]}),
}
