"""The auction phase (§4) and the virtual opponents' bids (§11).

The display is a list of *auction cards* (``state["auction"]``), each with its colours and a base and a tip
place: ``{"colors": ["red"], "base": 12, "tip": None}``. The base game lays four one-colour cards; a bid names
a colour and goes to the auction card showing it.
"""

from __future__ import annotations

from . import cards as C
from .errors import IllegalAction
from .rewards import take_card
from .rules import DONE, Decision, Phase, rules_for, trust, zone_tokens
from .state import (
    COLORS,
    MAX_ROUNDS,
    PASS_GEMS,
    ask,
    balanced_gems,
    bool_arg,
    clean_gems,
    ev,
    gem_total,
    int_arg,
    p,
    priority_order,
    push,
    rng,
    science_count,
    trusted_gems,
)

# ------------------------------------------------------------------------------------------- the display


def base_layout() -> list[dict]:
    """The base game's display: one auction card per colour."""
    return [{"colors": [c], "base": None, "tip": None} for c in COLORS]


def auction_cards(state: dict) -> list[dict]:
    auction = state["auction"]
    if isinstance(auction, dict):  # a state stored before the auction became a list
        rules_for(state)
        auction = state["auction"]
    return auction


def auction_card(state: dict, colour: str) -> dict | None:
    """The auction card showing ``colour``."""
    for spot in auction_cards(state):
        if colour in spot["colors"]:
            return spot
    return None


def auction_offer(state: dict) -> list[int]:
    """Every character on offer at the auction (bases and tips)."""
    out = []
    for spot in auction_cards(state):
        if spot["base"] is not None:
            out.append(spot["base"])
        if spot["tip"] is not None:
            out.append(spot["tip"])
    return out


def cards_at(state: dict, colour: str) -> list[int]:
    spot = auction_card(state, colour)
    if spot is None:
        return []
    base, tip = spot["base"], spot["tip"]
    if base is None:
        return [] if tip is None else [tip]
    return [base] if tip is None else [base, tip]


def remove_from_auction(state: dict, number: int, refill: list | None = None) -> str | None:
    """Take a card off the display (its place refilled from ``refill`` when given); returns its colour."""
    for spot in auction_cards(state):
        for where in ("base", "tip"):
            if spot[where] == number:
                spot[where] = refill.pop() if refill else None
                return spot["colors"][0]
    return None


def by_colour(state: dict) -> dict[str, dict]:
    """The display as ``{colour: {"base", "tip"}}`` (what views and events show)."""
    out = {}
    for spot in auction_cards(state):
        for colour in spot["colors"]:
            out[colour] = {"base": spot["base"], "tip": spot["tip"]}
    return out


def reveal(state: dict, events: list) -> None:
    deck = state["large_deck"]
    shown = {}
    for spot in auction_cards(state):
        if deck:
            spot["base"] = deck.pop()
        shown["/".join(spot["colors"])] = spot["base"]
    ev(events, "all", "reveal", "New characters at the auction: " + ", ".join(
        f"{c}: {C.label(n)}" for c, n in shown.items() if n is not None) + ".", cards=shown)
    for hook in rules_for(state).reveal_hooks:
        hook(state, events)
    if not deck and not state["last_turn"]:
        # The turn after the last reveal is the last one (§3); the next turn sets the flag.
        ev(events, "all", "last_turn_next", "The large deck is empty: the next turn is the last.")


def end_auction(state: dict, events: list) -> None:
    gone = []
    for spot in auction_cards(state):
        if spot["tip"] is not None:
            gone.append(spot["tip"])
            state["discard"].append(spot["tip"])
        spot["tip"], spot["base"] = spot["base"], None
    if gone:
        ev(events, "all", "tips_discarded", "Discarded from the auction tips: " + ", ".join(C.label(c) for c in gone) + ".", cards=gone)
    if state["large_deck"]:
        reveal(state, events)


# ------------------------------------------------------------------------------------------- the phase


def start_turn(state: dict, events: list) -> None:
    state["turn"] += 1
    state["phase"] = "auction"
    state["round"] = 0
    if not state["large_deck"]:
        state["last_turn"] = True  # its characters were revealed during the previous turn
    for v in state["virtual"]:
        v["out"] = False
    active = []
    for seat, player in enumerate(state["players"]):
        player["used_infinite"] = []
        if player["skip_next_auction"]:
            player["skip_next_auction"] = False
            ev(events, "all", "sits_out", f"{p(seat)} sits out this auction (Royal Decree).", seat=seat)
        else:
            active.append(seat)
    state["active"] = active
    text = f"Turn {state['turn']}" + (" (the last turn)" if state["last_turn"] else "") + ": auction phase."
    events.append({"type": "turn", "to": "all", "text": text, "turn": state["turn"], "last_turn": state["last_turn"]})
    if active:
        state["round"] = 1
        events.append({"type": "auction_round", "to": "all", "text": "Auction round 1.", "round": 1})


def validate(state: dict, seat: int, action: dict) -> dict:
    player = state["players"][seat]
    kind = action.get("type")
    archive = bool_arg(action.get("archive"), "Archive must be yes or no.", "bad_archive")
    if kind == "bid":
        colour = action.get("color")
        if colour not in COLORS:
            raise IllegalAction("Bid a gem colour: red, green, blue or yellow.", "bad_colour")
        there = cards_at(state, colour)
        if not there:
            raise IllegalAction(f"There is no character at the {colour} auction card.", "empty_colour")
        if player["gems"][colour] < 1:
            raise IllegalAction(f"You have no {colour} gem to bid.", "no_gem")
        card = int_arg(action.get("card"))
        if len(there) == 2:
            if card not in there:
                raise IllegalAction(
                    f"Two characters wait at the {colour} auction card: name the one you bid for.", "name_card"
                )
        else:
            if card is not None and card != there[0]:
                raise IllegalAction(f"{C.label(card) if card in C.CARDS else 'That card'} is not at the {colour} auction card.", "bad_card")
            card = there[0]
        return {"type": "bid", "color": colour, "card": card, "archive": archive}
    if kind == "attack":
        if player["attacks"] < 1:
            raise IllegalAction("You have no attack token behind your screen.", "no_attack")
        card = int_arg(action.get("card"))
        if card not in auction_offer(state):
            raise IllegalAction("Attack to take a character that is on offer at the auction.", "bad_card")
        return {"type": "attack", "card": card, "archive": archive}
    if kind == "pass":
        gems = action.get("gems")
        out = {"type": "pass"}
        if gems is not None:
            gems = clean_gems(gems, "gems to take")
            want = pass_gems(state, seat)
            if gem_total(gems) > want:
                raise IllegalAction(f"Passing gives you {want} gems, not {gem_total(gems)}.", "bad_gems")
            out["gems"] = gems
        return out
    raise IllegalAction("In the auction you may bid, attack or pass.", "bad_type")


def read_trusted(state: dict, seat: int, action: dict, rules: object = None) -> dict | None:
    """The choice ``validate`` makes of an action built from the legal options, without its checks."""
    kind = action["type"]
    if kind == "bid":
        card = action.get("card")
        return None if card is None else {"type": "bid", "color": action["color"], "card": card, "archive": action.get("archive")}
    if kind == "attack":
        return {"type": "attack", "card": action["card"], "archive": action.get("archive")}
    gems = action.get("gems")
    return {"type": "pass"} if gems is None else {"type": "pass", "gems": trusted_gems(gems, "gems to take")}


trust(validate, read_trusted)


def pass_gems(state: dict, seat: int) -> int:
    """Gems a pass gives: 3, plus 1 per science token (in the pyramid, or in a zone that counts like it)."""
    extra = 0
    if rules_for(state).token_zones:
        extra = sum(1 for t in zone_tokens(state, seat) if t["type"] == "science")
    return PASS_GEMS + science_count(state["players"][seat]) + extra


def _virtual_draw(state: dict) -> str | None:
    pool = [c for c in COLORS for _ in range(state["box"][c])]
    if not pool:
        return None
    return rng(state).choice(pool)


def resolve(state: dict, choices: dict[int, dict], events: list) -> None:
    virtual_bids: list[str | None] = []
    if state["options"]["players"] == 1:
        if any(c["type"] == "bid" for c in choices.values()):
            virtual_bids.append(_virtual_draw(state))
    else:
        for v in state["virtual"]:
            if not v["out"]:
                virtual_bids.append(_virtual_draw(state))
    reveal_bids(state, choices, virtual_bids, events)


def reveal_bids(state: dict, choices: dict[int, dict], virtual_bids: list[str | None], events: list) -> None:
    """Show the round's sealed choices (bids, attacks and passes: not the gems a pass takes, nor archiving)
    and the virtual opponents' bids, and queue their resolution."""
    public = {}
    for seat, ch in choices.items():
        if ch["type"] == "bid":
            public[seat] = {"type": "bid", "color": ch["color"], "card": ch["card"]}
        elif ch["type"] == "attack":
            public[seat] = {"type": "attack", "card": ch["card"]}
        else:
            public[seat] = {"type": "pass"}
    parts = []
    for s in sorted(public):
        c = public[s]
        if c["type"] == "bid":
            parts.append(f"{p(s)} bids {c['color']} for {C.label(c['card'])}")
        elif c["type"] == "attack":
            parts.append(f"{p(s)} attacks for {C.label(c['card'])}")
        else:
            parts.append(f"{p(s)} passes")
    text = "; ".join(parts)
    if virtual_bids:
        text += "; virtual opponents bid " + ", ".join(c or "nothing" for c in virtual_bids)
    # Seat keys as strings: events are kept in the state's log, which must stay plain JSON.
    shown, kept = {}, {}
    for seat, ch in choices.items():
        key = str(seat)
        shown[key] = public[seat]
        kept[key] = ch
    events.append({"type": "auction_reveal", "to": "all", "text": f"Round {state['round']} bids: {text}.", "choices": shown,
                   "virtual": virtual_bids})
    state["queue"].append({"op": "auction_resolve", "choices": kept, "virtual": virtual_bids, "stage": 0})


def advance(state: dict, events: list) -> bool | str:
    if state["round"] >= MAX_ROUNDS or not state["active"]:
        if state["active"]:
            # Anyone still without a card after round 3 counts as having passed (§4).
            for seat in priority_order(state, state["active"]):
                state["queue"].append(pass_step(state, seat, None))
                ev(events, "all", "forced_pass", f"{p(seat)} got no card and passes.", seat=seat)
            state["active"] = []
            return True
        end_auction(state, events)
        return DONE
    state["round"] += 1
    events.append({"type": "auction_round", "to": "all", "text": f"Auction round {state['round']}.", "round": state["round"]})
    return False


def default(state: dict, seat: int) -> dict:
    count = pass_gems(state, seat)
    return {"type": "pass", "gems": balanced_gems(state["reserve"], count)}


PHASE = Phase(
    name="auction",
    start=start_turn,
    next="development",
    validate=validate,
    resolve=resolve,
    advance=advance,
    inactive="You are out of this auction phase; wait for the development phase.",
    default=default,
)

# ------------------------------------------------------------------------------------------- resolution


def pass_step(state: dict, seat: int, gems: dict | None) -> dict:
    count = pass_gems(state, seat)
    return {"op": "gain_gems", "seat": seat, "count": count, "choice": gems, "why": "passing"}


def step_resolve(state: dict, step: dict, events: list) -> bool:
    """Attacks, then bids per colour, then passers take gems (§4)."""
    attacks = {}
    for key, choice in step["choices"].items():
        if choice["type"] == "attack":
            attacks[int(key)] = choice
    steps: list[dict] = []
    for seat in priority_order(state, list(attacks)):
        steps.append({"op": "attack", "seat": seat, "card": attacks[seat]["card"], "archive": attacks[seat].get("archive")})
    steps.append({"op": "bids", "choices": step["choices"], "virtual": step["virtual"]})
    push(state, *steps)
    return True


def step_attack(state: dict, step: dict, events: list) -> bool:
    seat = step["seat"]
    player = state["players"][seat]
    card = step.get("answer", {}).get("card", step["card"])
    offer = auction_offer(state)
    if card not in offer:
        if not offer:
            ev(events, "all", "attack_empty", f"{p(seat)} attacked but nothing is left; the token is kept.", seat=seat)
            state["active"].remove(seat)
            push(state, pass_step(state, seat, None))
            return True
        return ask(state, seat, "attack_pick", "The character you attacked for is gone: choose another.", options=offer)
    player["attacks"] -= 1
    remove_from_auction(state, card)
    state["active"].remove(seat)
    ev(events, "all", "attack_take", f"{p(seat)} attacks and takes {C.label(card)}.", seat=seat, card=card)
    push(state, take_card(seat, card, step.get("archive"), "auction"))
    return True


def bid_gem_to_reserve(state: dict, seat: int, colour: str, won: bool = True) -> None:
    state["players"][seat]["gems"][colour] -= 1
    state["reserve"][colour] += 1  # every bid gem goes to the reserve


def step_bids(state: dict, step: dict, events: list) -> bool:
    choices = {int(k): v for k, v in step["choices"].items()}
    solo = state["options"]["players"] == 1
    virtual = step["virtual"]
    bid_gem = rules_for(state).bid_gem or bid_gem_to_reserve
    takes: list[dict] = []
    winners: set[int] = set()
    bids: list[tuple[int, str]] = []
    by_colour: dict[str, list[int]] = {}  # the bidders per colour, in seat order, in one pass
    for s, c in choices.items():
        if c["type"] == "bid":
            by_colour.setdefault(c["color"], []).append(s)
    for colour in COLORS:
        bidders = by_colour.get(colour)
        vcount = virtual.count(colour) if virtual else 0
        if bidders is None:
            if not vcount:
                continue
            bidders = []
        else:
            for s in bidders:
                bids.append((s, colour))
        there = cards_at(state, colour)
        if not there:
            if bidders:
                ev(events, "all", "bid_fails", f"No character is left at {colour}: the bids there fail.", color=colour)
            continue
        if solo:
            continue  # settled below
        won = _settle_colour(state, colour, bidders, choices, vcount, events, there)
        for seat, card in won:
            winners.add(seat)
            takes.append(take_card(seat, card, choices[seat].get("archive"), "auction"))
    if solo:
        takes.extend(_settle_solo(state, choices, virtual, winners, events))
    for seat, colour in bids:  # once settled, so where a gem goes may depend on whether it won
        bid_gem(state, seat, colour, seat in winners)
    bids_settled(state, choices, winners, takes)
    return True


def bids_settled(state: dict, choices: dict[int, dict], winners: set[int], takes: list[dict]) -> None:
    """Once the bids are settled: the winners and the passers leave the auction; the cards won are taken, then
    the passers take their gems in priority order (their steps are added to ``takes``)."""
    passers = []
    for seat, choice in choices.items():
        if choice["type"] == "pass":
            passers.append(seat)
    passers = priority_order(state, passers)
    active = state["active"]
    for seat in winners:
        if seat in active:
            active.remove(seat)
    for seat in passers:
        active.remove(seat)
        takes.append(pass_step(state, seat, choices[seat].get("gems")))
    push(state, *takes)


def _settle_colour(state: dict, colour: str, bidders: list[int], choices: dict, vcount: int, events: list,
                   there: list[int] | None = None) -> list[tuple[int, int]]:
    """The per-colour table of §4 with virtual opponents (§11). Returns (seat, card) wins."""
    if there is None:
        there = cards_at(state, colour)
    spot = auction_card(state, colour)
    k = len(bidders) + vcount
    wins: list[tuple[int, int]] = []
    if k == 1:
        if bidders:
            seat = bidders[0]
            card = choices[seat]["card"] if choices[seat]["card"] in there else there[0]
            remove_from_auction(state, card)
            ev(events, "all", "bid_wins", f"{p(seat)} wins {C.label(card)} with a {colour} bid.", seat=seat, card=card)
            return [(seat, card)]
        # A lone virtual opponent takes the card at the base (or the only one): it is discarded.
        card = spot["base"] if spot["base"] is not None else spot["tip"]
        remove_from_auction(state, card)
        state["discard"].append(card)
        _mark_virtual_out(state)
        ev(events, "all", "virtual_takes", f"A virtual opponent takes {C.label(card)} ({colour}); it is discarded.", card=card)
        return []
    if k == 2 and len(there) == 2:
        if vcount == 2:
            for card in there:
                remove_from_auction(state, card)
                state["discard"].append(card)
            _mark_virtual_out(state, 2)
            ev(events, "all", "virtual_takes", f"Two virtual opponents bid {colour}: both characters there are discarded.", color=colour)
            return []
        wants = {}
        for seat in bidders:
            wants[seat] = choices[seat]["card"]
        if vcount == 1:
            wants[-1] = spot["base"]  # Ruling: a virtual opponent wants the card at the base.
        if len(set(wants.values())) == 1:
            return _bids_fail(events, colour, "both bidders want the same character")
        for seat, card in wants.items():
            remove_from_auction(state, card)
            if seat == -1:
                state["discard"].append(card)
                _mark_virtual_out(state)
                ev(events, "all", "virtual_takes", f"A virtual opponent takes {C.label(card)}; it is discarded.", card=card)
            else:
                wins.append((seat, card))
                ev(events, "all", "bid_wins", f"{p(seat)} wins {C.label(card)} with a {colour} bid.", seat=seat, card=card)
        return wins
    return _bids_fail(events, colour, f"{k} bids for {len(there)} card{'s' if len(there) > 1 else ''}")


def _bids_fail(events: list, colour: str, reason: str) -> list:
    ev(events, "all", "bid_fails", f"{colour.capitalize()}: {reason}; nobody gets a card.", color=colour)
    return []


def _mark_virtual_out(state: dict, count: int = 1) -> None:
    # Which virtual opponent drew which colour does not matter; count them out.
    for v in state["virtual"]:
        if count and not v["out"]:
            v["out"] = True
            count -= 1


def _settle_solo(state: dict, choices: dict, virtual: list, winners: set, events: list) -> list[dict]:
    """Solo auction (§11): the player's bid against one virtual gem drawn from the box."""
    choice = choices.get(0)
    if not choice or choice["type"] != "bid":
        return []
    colour = choice["color"]
    vcolour = virtual[0] if virtual else None
    there = cards_at(state, colour)
    if not there:
        return []
    if vcolour == colour:
        ev(events, "all", "solo_clash", f"The virtual opponent also bid {colour}: a new round starts.", color=colour)
        return []
    card = choice["card"] if choice["card"] in there else there[0]
    remove_from_auction(state, card)
    winners.add(0)
    ev(events, "all", "bid_wins", f"{p(0)} wins {C.label(card)} with a {colour} bid.", seat=0, card=card)
    steps = [take_card(0, card, choice.get("archive"), "auction")]
    vthere = cards_at(state, vcolour) if vcolour else []
    if vthere:
        spot = auction_card(state, vcolour)
        gone = spot["base"] if spot["base"] is not None else spot["tip"]
        remove_from_auction(state, gone)
        state["discard"].append(gone)
        ev(events, "all", "virtual_takes", f"The virtual opponent takes {C.label(gone)}; it is discarded.", card=gone)
    elif auction_offer(state):
        steps.append({"op": "solo_discard", "seat": 0})
    return steps


def step_solo_discard(state: dict, step: dict, events: list) -> bool:
    offer = auction_offer(state)
    if not offer:
        return True
    answer = step.get("answer")
    if answer is None:
        return ask(state, 0, "solo_discard", "The virtual opponent bid a colour with no card: discard one auction card.", options=offer)
    remove_from_auction(state, answer["card"])
    state["discard"].append(answer["card"])
    ev(events, "all", "solo_discard", f"{p(0)} discards {C.label(answer['card'])} from the auction.", card=answer["card"])
    return True


STEPS = {
    "auction_resolve": step_resolve,
    "attack": step_attack,
    "bids": step_bids,
    "solo_discard": step_solo_discard,
}


def _check_card(state: dict, seat: int, decision: dict, action: dict) -> dict:
    card = int_arg(action.get("card"))
    if card not in decision["options"]:
        raise IllegalAction("Choose one of the characters still on offer.", "bad_card")
    return {"card": card}


_FIRST_CARD = Decision(_check_card, lambda state, seat, d: {"type": "decide", "card": d["options"][0]})
DECISIONS = {"attack_pick": _FIRST_CARD, "solo_discard": _FIRST_CARD}
