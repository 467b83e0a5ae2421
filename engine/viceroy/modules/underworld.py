"""The ``underworld`` module: criminals under the pyramid, paid for with secret judgement tokens (Times of
Darkness). It needs the ``darkness`` module: judgement tokens lie face down on the domain card.

* Setup: the criminal deck is shuffled and every player is dealt one criminal after the domain card; the
  judgement tokens (32; with fewer seats some stay in the box, ``criminals.LEFT_OUT``) and bribe tokens (15)
  make two reserves.
* Development: a player may play a criminal instead of a character or a law: it goes on level 0, under two
  adjacent level-1 cards (``cards.PLACED_ON``; the geometry is ``pyramid``'s), and the player chooses one of
  its three lines. The top line takes 2 judgement tokens, the middle 3 and the bottom 4; the player looks at
  them and returns one (then the reserve is shuffled), and gains the line's reward. A criminal costs no gems.
  A criminal that completes a single-colour circle (its top corners under a level-1 card) earns its gem.
  Ruling: a criminal cannot be discarded for gems (the end-of-phase return is how to get rid of one).
* New rewards: *bribes* (take them behind the screen, then pay up to 5 to gain once more the reward of a
  character on that level; tokens it gives lie on the criminal), *discard judgement tokens*, *relocate a
  free character* (it keeps its tokens and gains the reward of its new level; tokens again on the criminal).
  Ruling: relocation and paying bribes are optional.
* After each development phase but the last, the *underworld* phase: each player holding criminals may put
  one under the criminal deck; then every player without a criminal in hand draws one.
* After the last turn, the *judgement* phase: every player's tokens are revealed; players holding "discard"
  tokens choose, in the order they like, which token each discards (one of those shown, if they have any).
  The other tokens are scored by the ``judgement`` category (no penalty, -PP, -PP per circle and infinite
  gem or per magic / defense / science token; token images are not tokens).
* Laws 154 Amnesty (discard 2 judgement tokens), 155 Corruption (3 bribes), 156 Thieves' Guild (2 PP per
  criminal in the pyramid).

State (``state["ext"]["underworld"]``)::

    {"deck": [criminal numbers, top last], "reserve": [judgement token ids, shuffled],
     "box": [ids],                              # left out with fewer seats (public; absent in older games)
     "held": [[ids] per seat],                 # secret: only the owner sees them before the judgement
     "bribes": {"reserve": 15, "held": [0, 0]},  # held behind the screen: only the owner sees them
     "revealed": False, "discarded": [[{"token", "slot", "kind"}] per seat]}
"""

from __future__ import annotations

import random
from dataclasses import replace

from .. import cards as C
from .. import pyramid as P
from ..development import check_reward_choice, play_placed
from ..errors import IllegalAction
from ..rewards import circle_gem, reward_choice, reward_items
from ..rules import DONE, Decision, Law, Phase, Ruleset, Scorer, zone_tokens
from ..scoring import ScoreContext
from ..state import ask, ev, int_arg, new_entry, p, push, rng, slot_arg
from . import common
from .criminals import (
    BRIBE_TOKENS,
    BRIBES,
    CRIMINALS,
    DISCARD_JUDGEMENT,
    JUDGEMENT,
    LEFT_OUT,
    MAX_BRIBE,
    RELOCATE,
    UNDERWORLD_LAWS,
    is_criminal,
    lines,
    reward_text,
    token_text,
)

NAME = "underworld"
LINE_NAMES = ("top", "middle", "bottom")
AMNESTY, CORRUPTION, GUILD = UNDERWORLD_LAWS


def _ext(state: dict) -> dict:
    return state["ext"][NAME]


def check_options(options: dict) -> None:
    if "darkness" not in (options.get("modules") or []):
        raise IllegalAction("The Underworld module needs the domain cards: switch on 'darkness' too "
                            "(judgement tokens lie on the domain card).", "bad_options")


def setup(state: dict, draw: random.Random) -> None:
    """Runs after the darkness setup: deal one criminal to each player, lay out the two token reserves."""
    deck = list(CRIMINALS)
    draw.shuffle(deck)
    n = len(state["players"])
    box = LEFT_OUT.get(n, ())
    reserve = [t for t in range(len(JUDGEMENT)) if t not in box]
    draw.shuffle(reserve)
    for player in state["players"]:
        player["hand"].append(deck.pop())
    state["ext"][NAME] = {"deck": deck, "reserve": reserve, "box": list(box), "held": [[] for _ in range(n)],
                          "bribes": {"reserve": BRIBE_TOKENS, "held": [0] * n}, "revealed": False,
                          "discarded": [[] for _ in range(n)]}


def criminals_in_hand(player: dict) -> list[int]:
    return [c for c in player["hand"] if is_criminal(c)]


def _line_arg(value: object) -> int:
    line = int_arg(value)
    if line is None or not 0 <= line < 3:
        raise IllegalAction("Choose one of the criminal's three lines: 0 (top), 1 (middle) or 2 (bottom).",
                            "bad_line")
    return line


# ------------------------------------------------------------------------------------------- development


def validate_criminal(state: dict, seat: int, action: dict) -> dict:
    from ..rules import rules_for

    number = action["card"]
    player = state["players"][seat]
    if number not in player["hand"]:
        raise IllegalAction(f"{C.label(number)} is not in your hand.", "not_in_hand")
    slot = slot_arg(action.get("slot"))
    slots = P.legal_slots(player["pyramid"], number)
    if slot not in slots:
        where = "" if slots else " (you need two adjacent cards on level 1 with no criminal under them)"
        raise IllegalAction(f"{C.label(number)} goes on level 0, under two adjacent level-1 cards{where}.",
                            "bad_slot")
    line = _line_arg(action.get("line"))
    reward = check_reward_choice(action.get("reward"), rules_for(state).piles)
    return {"type": "play", "card": number, "slot": slot, "line": line, "reward": reward}


def _wrap_validate(inner):  # noqa: ANN001, ANN202
    def validate(state: dict, seat: int, action: dict) -> dict:
        number = action.get("card")
        if isinstance(number, int) and not isinstance(number, bool) and is_criminal(number):
            if action.get("type") == "play":
                return validate_criminal(state, seat, action)
            if action.get("type") == "discard":
                raise IllegalAction("A criminal cannot be discarded for gems; at the end of the development phase "
                                    "you may put one under the criminal deck.", "criminal_discard")
        return inner(state, seat, action)

    return validate


def _wrap_resolve(inner):  # noqa: ANN001, ANN202
    def resolve(state: dict, choices: dict[int, dict], events: list) -> None:
        inner(state, choices, events)
        played = [(s, c) for s, c in sorted(choices.items()) if c["type"] == "play" and is_criminal(c["card"])]
        if played:
            text = "; ".join(f"{p(s)}: the {LINE_NAMES[c['line']]} line of {C.label(c['card'])}" for s, c in played)
            ev(events, "all", "criminal_lines", f"Criminal lines: {text}.",
               lines={str(s): {"card": c["card"], "line": c["line"]} for s, c in played})

    return resolve


def _stuck_with_criminals(state: dict, events: list) -> None:
    """A player whose hand holds only criminals that have no place passes, as one with an empty hand does."""
    for seat in list(state["active"]):
        player = state["players"][seat]
        if player["hand"] and all(is_criminal(c) and not P.legal_slots(player["pyramid"], c) for c in player["hand"]):
            state["active"].remove(seat)
            ev(events, "all", "auto_pass", f"{p(seat)} has only criminals without a place and passes.", seat=seat)


def _wrap_start(inner):  # noqa: ANN001, ANN202
    def start(state: dict, events: list) -> None:
        inner(state, events)
        _stuck_with_criminals(state, events)

    return start


def _wrap_advance(inner):  # noqa: ANN001, ANN202
    def advance(state: dict, events: list) -> bool | str:
        _stuck_with_criminals(state, events)
        return inner(state, events)

    return advance


def _criminal_still_possible(state: dict, seat: int, plan: dict) -> bool:
    try:
        validate_criminal(state, seat, plan)
    except IllegalAction:
        return False
    return True


def _wrap_develop(inner):  # noqa: ANN001, ANN202
    def step(state: dict, step: dict, events: list) -> bool:
        answer = step.get("answer")
        plan = answer.get("plan", step["plan"]) if answer else step["plan"]
        if not (plan.get("type") == "play" and is_criminal(plan.get("card", 0))):
            return inner(state, step, events)
        seat = step["seat"]
        if answer is None and not _criminal_still_possible(state, seat, plan):
            return ask(state, seat, "replan", "Your plan can no longer be carried out: choose again.")
        play_criminal(state, seat, plan, events)
        return True

    return step


def play_criminal(state: dict, seat: int, plan: dict, events: list) -> None:
    """Place the criminal, take the circle gems it completes, pay its line in judgement tokens, gain the reward."""
    from ..state import new_entry

    player = state["players"][seat]
    number, slot, line = plan["card"], plan["slot"], plan["line"]
    player["hand"].remove(number)
    player["pyramid"]["cards"][slot] = new_entry(number, slot)
    row = lines(number)[line]
    ev(events, "all", "criminal_plays",
       f"{p(seat)} plays {C.label(number)} on level 0, {LINE_NAMES[line]} line: {row['judgement']} judgement tokens "
       f"for {reward_text(row['reward'])}.", seat=seat, card=number, slot=slot, line=line)
    attacks = sum(i["amount"] for i in row["reward"] if i["type"] == "attack")
    if attacks:
        ev(events, "all", "attacks_gained", f"{p(seat)} takes {attacks} attack token{'s' if attacks != 1 else ''}.",
           seat=seat, amount=attacks)
    for circle in P.circles_closed_by(player["pyramid"], slot):
        circle_gem(state, seat, circle["slot"], events)
    push(state, {"op": "judgement_take", "seat": seat, "count": row["judgement"]},
         {"op": "reward", "seat": seat, "card": number, "slot": slot, "items": [dict(i) for i in row["reward"]],
          "choice": plan.get("reward") or {}})


def _check_replan(state: dict, seat: int, decision: dict, action: dict) -> dict:
    from ..rules import rules_for

    plan = action.get("plan")
    if not isinstance(plan, dict):
        raise IllegalAction("Choose again: play a card, discard one, or pass.", "bad_plan")
    return {"plan": rules_for(state).phases["development"].validate(state, seat, plan)}


# ------------------------------------------------------------------------------------------- judgement tokens


def penalty_estimate(token_id: int, state: dict | None = None, seat: int | None = None) -> float:
    """Roughly what a judgement token costs (for the defaults and the AI): its PP, or a guess for the others."""
    t = JUDGEMENT[token_id]
    if t["kind"] == "none":
        return 0.0
    if t["kind"] == "pp":
        return float(t["value"])
    if state is not None and seat is not None:
        pyramid = state["players"][seat]["pyramid"]
        if t["kind"] == "per_circle":
            single = sum(1 for c in P.circles(pyramid) if c["single"]) + len(P.infinite_gems(pyramid))
            return float(t["value"] * (single + 3))  # more circles come later in the game
        if t["kind"] == "per_token":
            return float(t["value"] * max(_real_tokens(pyramid, t["token"]), 1))
        return 2.5 if any(_real_tokens(pyramid, k) for k in t["tokens"]) else 1.0
    return 2.0


def _real_tokens(pyramid: dict, kind: str) -> int:
    """Tokens of a kind lying on the cards (images are not tokens)."""
    return sum(t.get("amount", 1) for e in pyramid["cards"].values() for t in e["tokens"] if t["type"] == kind)


def _private_tokens(ids: list[int]) -> str:
    return ", ".join(token_text(i) for i in ids)


def step_judgement_take(state: dict, step: dict, events: list) -> bool:
    """Take the line's judgement tokens (as many as the reserve has), then return one of them."""
    seat = step["seat"]
    x = _ext(state)
    if "drawn" not in step:
        drawn = [x["reserve"].pop() for _ in range(min(step["count"], len(x["reserve"])))]
        step["drawn"] = drawn
        x["held"][seat].extend(drawn)
        n = len(drawn)
        ev(events, "all", "judgement_taken", f"{p(seat)} takes {n} judgement token{'s' if n != 1 else ''}"
           + (" and returns one." if n else ": the reserve is empty."), seat=seat, count=n)
        if n:
            ev(events, seat, "judgement_drawn", f"Your judgement tokens: {_private_tokens(drawn)}.", tokens=drawn)
    drawn = step["drawn"]
    if not drawn:
        return True
    answer = step.get("answer")
    if answer is None:
        return ask(state, seat, "judgement_return", "Return one of the judgement tokens you took to the reserve.",
                   tokens=list(drawn), kinds=[dict(JUDGEMENT[i]) for i in drawn])
    _return_tokens(state, seat, [answer["token"]], events)
    return True


def _return_tokens(state: dict, seat: int, ids: list[int], events: list) -> None:
    x = _ext(state)
    for token in ids:
        x["held"][seat].remove(token)
        x["reserve"].append(token)
    rng(state).shuffle(x["reserve"])
    n = len(ids)
    if n:
        ev(events, "all", "judgement_returned", f"{p(seat)} returns {n} judgement token{'s' if n != 1 else ''} "
           "to the reserve (shuffled).", seat=seat, count=n)


def _check_return(state: dict, seat: int, decision: dict, action: dict) -> dict:
    token = int_arg(action.get("token"))
    if token not in decision["tokens"]:
        raise IllegalAction("Return one of the judgement tokens you just took.", "bad_token")
    return {"token": token}


def _default_return(state: dict, seat: int, decision: dict) -> dict:
    worst = max(decision["tokens"], key=lambda t: (penalty_estimate(t, state, seat), -t))
    return {"type": "decide", "token": worst}


def step_judgement_discard(state: dict, step: dict, events: list) -> bool:
    """A reward: return that many of one's judgement tokens (all of them when one holds fewer)."""
    seat = step["seat"]
    held = _ext(state)["held"][seat]
    count = min(step["amount"], len(held))
    if not count:
        ev(events, "all", "judgement_none", f"{p(seat)} has no judgement token to discard.", seat=seat)
        return True
    answer = step.get("answer")
    if answer is None:
        return ask(state, seat, "judgement_discard",
                   f"Return {count} of your judgement tokens to the reserve.", count=count, tokens=list(held),
                   kinds=[dict(JUDGEMENT[i]) for i in held])
    _return_tokens(state, seat, answer["tokens"], events)
    return True


def _check_discard(state: dict, seat: int, decision: dict, action: dict) -> dict:
    tokens = action.get("tokens")
    count = decision["count"]
    if (not isinstance(tokens, list) or len(tokens) != count or len(set(map(str, tokens))) != count
            or any(int_arg(t) not in decision["tokens"] for t in tokens)):
        raise IllegalAction(f"Choose {count} of your judgement tokens to return.", "bad_tokens")
    return {"tokens": list(tokens)}


def _default_discard(state: dict, seat: int, decision: dict) -> dict:
    ranked = sorted(decision["tokens"], key=lambda t: (-penalty_estimate(t, state, seat), t))
    return {"type": "decide", "tokens": ranked[: decision["count"]]}


# ------------------------------------------------------------------------------------------- bribes


def _bribe_reward(g, item: dict) -> None:  # noqa: ANN001  (a rewards.Grant)
    g.followups.append({"op": "bribes_take", "seat": g.seat, "amount": item["amount"], "slot": g.step["slot"]})


def _discard_reward(g, item: dict) -> None:  # noqa: ANN001
    g.followups.append({"op": "judgement_discard", "seat": g.seat, "amount": item["amount"]})


def _relocate_reward(g, item: dict) -> None:  # noqa: ANN001
    g.followups.append({"op": "relocate", "seat": g.seat, "slot": g.step["slot"]})


def bribe_options(state: dict, seat: int) -> list[dict]:
    """The characters a seat may bribe now: one per level up to its bribes behind the screen (and 5)."""
    have = min(_ext(state)["bribes"]["held"][seat], MAX_BRIBE)
    cards = state["players"][seat]["pyramid"]["cards"]
    return [{"slot": s, "card": cards[s]["card"], "level": P.level_of(s)}
            for s in sorted(cards, key=P.parse_slot)
            if C.is_character(cards[s]["card"]) and 1 <= P.level_of(s) <= have]


def step_bribes_take(state: dict, step: dict, events: list) -> bool:
    """Take the bribe tokens, then (optionally) pay 1-5 of them for a character's reward on that level."""
    seat = step["seat"]
    b = _ext(state)["bribes"]
    if "taken" not in step:
        take = min(step["amount"], b["reserve"])
        b["reserve"] -= take
        b["held"][seat] += take
        step["taken"] = take
        ev(events, "all", "bribes_taken", f"{p(seat)} takes {take} bribe token{'s' if take != 1 else ''}"
           + (f" (the reserve was short of {step['amount'] - take})" if take < step["amount"] else "") + ".",
           seat=seat, count=take)
    options = bribe_options(state, seat)
    if not options:
        return True
    answer = step.get("answer")
    if answer is None:
        return ask(state, seat, "bribe", "Pay bribe tokens to gain once more the reward of one of your characters "
                   "(as many bribes as its level), or keep them.", options=options,
                   bribes=b["held"][seat])
    target = answer.get("slot")
    if target is None:
        ev(events, "all", "bribe_kept", f"{p(seat)} keeps the bribe tokens.", seat=seat)
        return True
    cards = state["players"][seat]["pyramid"]["cards"]
    number, level = cards[target]["card"], P.level_of(target)
    b["held"][seat] -= level
    b["reserve"] += level
    choice = answer.get("reward") or {}
    items = reward_items(number, level, choice)
    ev(events, "all", "bribe_paid", f"{p(seat)} pays {level} bribe token{'s' if level != 1 else ''} to gain the "
       f"level-{level} reward of {C.label(number)} once more.", seat=seat, card=number, slot=target, level=level)
    _regain(state, seat, number, step["slot"], items, choice, events)
    return True


def _regain(state: dict, seat: int, number: int, onto: str, items: list[dict], choice: dict, events: list) -> None:
    """A character's reward gained again; its tokens lie on ``onto`` (the criminal or the law)."""
    attacks = sum(i.get("amount", 1) for i in items if i["type"] == "attack" and not i.get("note"))
    if attacks:
        ev(events, "all", "attacks_gained", f"{p(seat)} takes {attacks} attack token{'s' if attacks != 1 else ''}.",
           seat=seat, amount=attacks)
    push(state, {"op": "reward", "seat": seat, "card": number, "slot": onto, "items": items, "choice": choice})


def _check_bribe(state: dict, seat: int, decision: dict, action: dict) -> dict:
    from ..rules import rules_for

    slot = action.get("slot")
    if slot is None:
        return {"slot": None}
    option = next((o for o in decision["options"] if o["slot"] == slot), None)
    if option is None:
        raise IllegalAction("Choose one of your characters on a level you can pay in bribes, or keep the bribes.",
                            "bad_bribe")
    reward = check_reward_choice(action.get("reward"), rules_for(state).piles)
    if option["level"] == 5 and reward.get("level5") is None:
        reward["level5"] = "rows"
    return {"slot": slot, "reward": reward}


def _default_bribe(state: dict, seat: int, decision: dict) -> dict:
    return {"type": "decide", "slot": None}


# ------------------------------------------------------------------------------------------- relocation


def relocation_options(state: dict, seat: int) -> dict[str, list[str]]:
    """Free characters and, for each, the other places it may go (computed without it)."""
    pyramid = state["players"][seat]["pyramid"]
    out = {}
    for slot in P.free_cards(pyramid):
        number = pyramid["cards"][slot]["card"]
        if not C.is_character(number):
            continue
        rest = {"cards": {s: e for s, e in pyramid["cards"].items() if s != slot}}
        targets = [t for t in P.legal_slots(rest, number) if t != slot]
        if targets:
            out[slot] = targets
    return out


def step_relocate(state: dict, step: dict, events: list) -> bool:
    seat = step["seat"]
    options = relocation_options(state, seat)
    if not options:
        ev(events, "all", "relocate_none", f"{p(seat)} has no free character to relocate.", seat=seat)
        return True
    answer = step.get("answer")
    if answer is None:
        return ask(state, seat, "relocate", "Relocate one free character of your pyramid (it keeps its tokens and "
                   "gains the reward of its new level), or skip.", options=options)
    origin = answer.get("from")
    if origin is None:
        ev(events, "all", "relocate_skipped", f"{p(seat)} relocates no character.", seat=seat)
        return True
    relocate(state, seat, origin, answer["to"], answer.get("reward") or {}, step["slot"], events)
    return True


def relocate(state: dict, seat: int, origin: str, target: str, choice: dict, onto: str, events: list) -> None:
    cards = state["players"][seat]["pyramid"]["cards"]
    entry = cards.pop(origin)
    entry["slot"] = target
    cards[target] = entry
    # Infinite gems are named by their card's place: one used this turn stays used at the new place.
    used = state["players"][seat]["used_infinite"]
    used[:] = [f"{target}/{ref.rsplit('/', 1)[1]}" if ref.rsplit("/", 1)[0] == origin else ref for ref in used]
    number, level = entry["card"], P.level_of(target)
    ev(events, "all", "relocated", f"{p(seat)} moves {C.label(number)} from level {P.level_of(origin)} to level "
       f"{level}.", seat=seat, card=number, origin=origin, slot=target, level=level)
    circle_gem(state, seat, target, events)
    _regain(state, seat, number, onto, reward_items(number, level, choice), choice, events)


def _check_relocate(state: dict, seat: int, decision: dict, action: dict) -> dict:
    from ..rules import rules_for

    origin = action.get("from")
    if origin is None:
        return {"from": None}
    targets = decision["options"].get(origin) if isinstance(origin, str) else None
    if targets is None:
        raise IllegalAction("Choose a free character of your pyramid to relocate (or skip).", "bad_relocate")
    target = action.get("to")
    if target not in targets:
        raise IllegalAction("That character cannot go there: choose one of the open places.", "bad_relocate")
    reward = check_reward_choice(action.get("reward"), rules_for(state).piles)
    if P.level_of(target) == 5 and reward.get("level5") is None:
        reward["level5"] = "rows"
    return {"from": origin, "to": target, "reward": reward}


def _default_relocate(state: dict, seat: int, decision: dict) -> dict:
    return {"type": "decide", "from": None}


# ------------------------------------------------------------------------------------------- end of development


def _start_underworld(state: dict, events: list) -> None:
    state["phase"] = NAME
    state["round"] = 0
    state["choices"] = {}
    state["active"] = [s for s, pl in enumerate(state["players"]) if criminals_in_hand(pl)]
    if not state["active"]:
        _draw_missing(state, events)


def _validate_return(state: dict, seat: int, action: dict) -> dict:
    if action.get("type") != "criminal_return":
        raise IllegalAction("The development phase is over: put one criminal under the criminal deck, or keep them.",
                            "bad_type")
    card = action.get("card")
    # A card number, not 131.0: the card goes back into the criminal deck as named.
    if card is not None and (int_arg(card) is None or card not in criminals_in_hand(state["players"][seat])):
        raise IllegalAction("Name a criminal card in your hand (or none to keep them).", "bad_card")
    return {"type": "criminal_return", "card": card}


def _resolve_return(state: dict, choices: dict[int, dict], events: list) -> None:
    deck = _ext(state)["deck"]
    for seat, choice in sorted(choices.items()):
        card = choice["card"]
        if card is None:
            continue
        state["players"][seat]["hand"].remove(card)
        deck.insert(0, card)  # under the deck
        ev(events, "all", "criminal_returned", f"{p(seat)} puts a criminal under the criminal deck.", seat=seat)
        ev(events, seat, "criminal_returned_private", f"You put {C.label(card)} under the criminal deck.", card=card)
    _draw_missing(state, events)


def _draw_missing(state: dict, events: list) -> None:
    deck = _ext(state)["deck"]
    for seat, player in enumerate(state["players"]):
        if criminals_in_hand(player) or not deck:
            continue
        card = deck.pop()
        player["hand"].append(card)
        ev(events, "all", "criminal_drawn", f"{p(seat)} draws a criminal.", seat=seat)
        ev(events, seat, "drew", f"You draw {C.label(card)}.", card=card)


UNDERWORLD_PHASE = Phase(
    name=NAME,
    start=_start_underworld,
    validate=_validate_return,
    resolve=_resolve_return,
    advance=lambda state, events: DONE,
    inactive="You hold no criminal card: wait for the others.",
    default=lambda state, seat: {"type": "criminal_return", "card": None},
)


# ------------------------------------------------------------------------------------------- the judgement


def discard_tokens(state: dict, seat: int) -> list[int]:
    return [t for t in _ext(state)["held"][seat] if JUDGEMENT[t]["kind"] == "discard"]


def _start_judgement(state: dict, events: list) -> None:
    x = _ext(state)
    x["revealed"] = True
    state["phase"] = "judgement"
    state["round"] = 0
    state["choices"] = {}
    parts = []
    for seat, held in enumerate(x["held"]):
        parts.append(f"{p(seat)}: " + (_private_tokens(sorted(held)) if held else "none"))
    ev(events, "all", "judgement_revealed", "Judgement tokens are revealed. " + "; ".join(parts) + ".",
       tokens=[sorted(h) for h in x["held"]])
    state["active"] = [s for s in range(len(state["players"]))
                       if any(n and k in JUDGEMENT[t]["tokens"] for (_, k), n in _token_stock(state, s).items()
                              for t in discard_tokens(state, s))]


def _token_lists(state: dict, seat: int) -> dict[str, list[dict]]:
    """Where a discard token may take a token from: each pyramid card (the domain card among them) by its
    slot, and each token zone beside the pyramid (a combat card) by its key; the lists themselves."""
    from ..rules import rules_for

    places = {slot: entry["tokens"] for slot, entry in state["players"][seat]["pyramid"]["cards"].items()}
    for zone in common.token_zones(rules_for(state)):
        places[zone.key] = zone.live(state, seat)
    return places


def _place_order(place: str) -> tuple:
    """Pyramid slots in pyramid order, then the zones beside it."""
    return (0, P.parse_slot(place)) if ":" in place else (1, (0, 0), place)


def _place_label(state: dict, seat: int, place: str) -> str:
    cards = state["players"][seat]["pyramid"]["cards"]
    if place in cards:
        return C.label(cards[place]["card"])
    from ..rules import rules_for

    return next(f"their {z.label}" for z in common.token_zones(rules_for(state)) if z.key == place)


def _token_stock(state: dict, seat: int) -> dict[tuple[str, str], int]:
    stock: dict[tuple[str, str], int] = {}
    for place, tokens in _token_lists(state, seat).items():
        for t in tokens:
            if t["type"] in ("science", "magic", "defense"):
                stock[(place, t["type"])] = stock.get((place, t["type"]), 0) + t.get("amount", 1)
    return stock


def _validate_judgement(state: dict, seat: int, action: dict) -> dict:
    if action.get("type") != "judgement":
        raise IllegalAction("Resolve your discard judgement tokens first: which token each one discards.", "bad_type")
    mine = discard_tokens(state, seat)
    items = action.get("discards")
    if (not isinstance(items, list) or any(not isinstance(i, dict) or int_arg(i.get("token")) is None for i in items)
            or sorted(i["token"] for i in items) != sorted(mine)):
        raise IllegalAction("List each of your discard judgement tokens once, in the order you resolve them.",
                            "bad_judgement")
    stock = _token_stock(state, seat)
    out = []
    for item in items:
        token = item["token"]
        shown = JUDGEMENT[token]["tokens"]
        possible = [k for k in stock if k[1] in shown and stock[k] > 0]
        slot, kind = item.get("slot"), item.get("kind")
        if not possible:
            out.append({"token": token, "slot": None, "kind": None})
            continue
        if (slot, kind) not in possible:
            raise IllegalAction(f"Your token '{token_text(token)}' must discard one of those tokens from a card of "
                                "your pyramid or your combat card (you have one).", "must_discard")
        stock[(slot, kind)] -= 1
        out.append({"token": token, "slot": slot, "kind": kind})
    return {"type": "judgement", "discards": out}


def _resolve_judgement(state: dict, choices: dict[int, dict], events: list) -> None:
    x = _ext(state)
    for seat, choice in sorted(choices.items()):
        places = _token_lists(state, seat)
        for item in choice["discards"]:
            if item["slot"] is None:
                continue
            _remove_token(places[item["slot"]], item["kind"])
            x["discarded"][seat].append(dict(item))
            ev(events, "all", "judgement_discard",
               f"{p(seat)} discards a {item['kind']} token from {_place_label(state, seat, item['slot'])} "
               f"({token_text(item['token'])}).", seat=seat, slot=item["slot"], token=item["kind"])


def _remove_token(tokens: list[dict], kind: str) -> None:
    for i, t in enumerate(tokens):
        if t["type"] == kind:
            if t.get("amount", 1) > 1:
                t["amount"] -= 1
            else:
                del tokens[i]
            return
    raise ValueError(f"no {kind} token here")


def _default_judgement(state: dict, seat: int) -> dict:
    stock = _token_stock(state, seat)
    out = []
    for token in discard_tokens(state, seat):
        possible = sorted((k for k in stock if k[1] in JUDGEMENT[token]["tokens"] and stock[k] > 0),
                          key=lambda k: (-stock[k], _place_order(k[0]), k[1]))
        if possible:
            stock[possible[0]] -= 1
            out.append({"token": token, "slot": possible[0][0], "kind": possible[0][1]})
        else:
            out.append({"token": token, "slot": None, "kind": None})
    return {"type": "judgement", "discards": out}


def judgement_plans(state: dict, seat: int) -> list[dict]:
    """Every distinct outcome of a seat's discard tokens (which tokens end up discarded), each with one order
    and choice that gives it: what the judgement prompt offers. The card a token leaves does not change the
    score, so each discard takes it from the card holding most of that kind."""
    from itertools import permutations

    mine = discard_tokens(state, seat)
    base = _token_stock(state, seat)
    found: dict[tuple, list[dict]] = {}

    def walk(order: tuple, i: int, stock: dict, done: list[dict]) -> None:
        if i == len(order):
            key = tuple(sorted(d["kind"] or "" for d in done))
            found.setdefault(key, list(done))
            return
        token = order[i]
        kinds = sorted({k for (_, k), n in stock.items() if n > 0 and k in JUDGEMENT[token]["tokens"]})
        if not kinds:
            walk(order, i + 1, stock, [*done, {"token": token, "slot": None, "kind": None}])
        for kind in kinds:
            slot = min((sl for (sl, k), n in stock.items() if k == kind and n > 0),
                       key=lambda sl: (-stock[(sl, kind)], _place_order(sl)))
            after = dict(stock)
            after[(slot, kind)] -= 1
            walk(order, i + 1, after, [*done, {"token": token, "slot": slot, "kind": kind}])

    for order in permutations(mine):
        walk(order, 0, base, [])
    plans = []
    for key, discards in sorted(found.items()):
        kinds = [k for k in key if k]
        text = ("discard " + ", ".join(f"a {k} token" for k in kinds)) if kinds else "discard nothing"
        plans.append({"discards": discards, "text": text})
    return plans


JUDGEMENT_PHASE = Phase(
    name="judgement",
    start=_start_judgement,
    validate=_validate_judgement,
    resolve=_resolve_judgement,
    advance=lambda state, events: DONE,
    inactive="Your judgement tokens need no choice: wait for the others.",
    default=_default_judgement,
)


def penalty(token_id: int, ctx: ScoreContext) -> int:
    t = JUDGEMENT[token_id]
    kind = t["kind"]
    if kind == "pp":
        return t["value"]
    if kind == "per_circle":
        return t["value"] * (len(ctx.single) + len(ctx.infinite))
    if kind == "per_token":  # tokens on the cards and in other token zones (a combat card); images are not tokens
        zones = sum(z.get("amount", 1) for z in zone_tokens(ctx.state, ctx.seat) if z["type"] == t["token"])
        return t["value"] * (_real_tokens(ctx.pyramid, t["token"]) + zones)
    return 0


def score_judgement(ctx: ScoreContext) -> int:
    if ctx.state is None or NAME not in ctx.state["ext"]:
        return 0
    details = [{"token": t, "text": token_text(t), "points": -penalty(t, ctx)}
               for t in sorted(_ext(ctx.state)["held"][ctx.seat])]
    ctx.details["judgement"] = details
    return sum(d["points"] for d in details)


# ------------------------------------------------------------------------------------------- laws


def _amnesty(state: dict, seat: int, plan: dict, events: list) -> None:
    play_placed(state, seat, plan, events)
    push(state, {"op": "judgement_discard", "seat": seat, "amount": C.card(AMNESTY)["effect"]["amount"]})


def _corruption(state: dict, seat: int, plan: dict, events: list) -> None:
    play_placed(state, seat, plan, events)
    push(state, {"op": "bribes_take", "seat": seat, "amount": C.card(CORRUPTION)["effect"]["amount"],
                 "slot": plan["slot"]})


def guild_points(ctx: ScoreContext, slot: str, entry: dict) -> int:
    pp = C.card(GUILD)["effect"]["pp"]
    return pp * sum(1 for e in ctx.pyramid["cards"].values() if is_criminal(e["card"]))


# ------------------------------------------------------------------------------------------- views


def view(state: dict, seat: int | None, out: dict, prompts: dict) -> None:
    x = state["ext"].get(NAME)
    if x is None:
        return
    over = state["phase"] == "over"
    for s, held in enumerate(x["held"]):
        pv = out["players"][s]
        pv["judgement"] = len(held)  # face down on the domain card: everyone sees how many
        if x["revealed"] or s == seat:  # only the owner may look at them before the judgement
            pv["judgement_tokens"] = [{"id": t, **JUDGEMENT[t]} for t in sorted(held)]
        if over or s == seat:  # bribe tokens lie behind the screen
            pv["bribes"] = x["bribes"]["held"][s]
        pv["judgement_discarded"] = [dict(i) for i in x["discarded"][s]]
    out[NAME] = {"deck": len(x["deck"]), "judgement_reserve": len(x["reserve"]),
                 "bribe_reserve": x["bribes"]["reserve"], "max_bribe": MAX_BRIBE, "revealed": x["revealed"]}


# ------------------------------------------------------------------------------------------- determinization


def determinize(true: dict, out: dict, seat: int, rng_: random.Random) -> None:
    """Re-draw the others' judgement tokens and criminals in hand (and the order of both reserves)."""
    x, y = true["ext"][NAME], out["ext"][NAME]
    others = [s for s in range(len(true["players"])) if s != seat]
    if not x["revealed"]:
        pending = {s: [] for s in others}  # tokens of an unanswered return: the last ones drawn, re-drawn too
        pool = list(x["reserve"]) + [t for s in others for t in x["held"][s]]
        rng_.shuffle(pool)
        at = 0
        for s in others:
            n = len(x["held"][s])
            y["held"][s] = pool[at:at + n]
            pending[s] = y["held"][s]
            at += n
        y["reserve"] = pool[at:]
        for step in out["queue"]:
            if step["op"] == "judgement_take" and step.get("seat") in pending and "drawn" in step:
                n = len(step["drawn"])
                step["drawn"] = pending[step["seat"]][-n:] if n else []
        decision = out["decision"]
        if decision is not None and decision["seat"] != seat and decision["kind"] in ("judgement_return",
                                                                                      "judgement_discard"):
            step = out["queue"][0]
            ids = step.get("drawn") if decision["kind"] == "judgement_return" else y["held"][decision["seat"]]
            decision["tokens"] = list(ids)
            decision["kinds"] = [dict(JUDGEMENT[i]) for i in ids]
    # Criminals in the other hands: all re-drawn with the deck (a criminal known from Usurpation may have gone
    # back under the deck since, face down, so what is known of them is not kept).
    crims = list(x["deck"])
    counts = {}
    for s in others:
        held = criminals_in_hand(true["players"][s])
        counts[s] = len(held)
        crims += held
    rng_.shuffle(crims)
    at = 0
    for s in others:
        hand = [c for c in out["players"][s]["hand"] if not is_criminal(c)]
        out["players"][s]["hand"] = hand + crims[at:at + counts[s]]
        at += counts[s]
    y["deck"] = crims[at:]


# ------------------------------------------------------------------------------------------- AI


def _base_development_ai(state: dict, seat: int, rng_: random.Random, inner) -> dict:  # noqa: ANN001
    player = state["players"][seat]
    hand = player["hand"]
    player["hand"] = [c for c in hand if not is_criminal(c)]
    try:
        return inner(state, seat, rng_)
    finally:
        player["hand"] = hand


def _wrap_ai_development(inner):  # noqa: ANN001, ANN202
    def choose(state: dict, seat: int, rng_: random.Random) -> dict:
        player = state["players"][seat]
        for number in criminals_in_hand(player):
            slots = P.legal_slots(player["pyramid"], number)
            if slots and rng_.random() < 0.45:
                line = rng_.choices((0, 1, 2), weights=(5, 3, 2))[0]
                items = lines(number)[line]["reward"]
                return {"type": "play", "card": number, "slot": rng_.choice(slots), "line": line,
                        "reward": reward_choice(state, number, 0, items)}
        return _base_development_ai(state, seat, rng_, inner)

    return choose


def _slot_value(pyramid: dict, number: int, slot: str) -> tuple[int, str]:
    """A place for a criminal: one where it completes a single-colour circle first (its gem, its points)."""
    trial = dict(pyramid, cards={**pyramid["cards"], slot: new_entry(number, slot)})
    return (-sum(1 for c in P.circles_closed_by(trial, slot) if c["single"]), slot)


def search_candidates(state: dict, seat: int, rng_: random.Random) -> list[dict]:
    """The search AI's criminal plays: every criminal in hand on its best two places, each of its three
    lines (the line's judgement tokens are what the play-outs weigh against its reward)."""
    player = state["players"][seat]
    out = []
    for number in sorted(criminals_in_hand(player)):
        slots = sorted(P.legal_slots(player["pyramid"], number), key=lambda s: _slot_value(player["pyramid"], number, s))
        for slot in slots[:2]:
            for line in range(3):
                items = lines(number)[line]["reward"]
                out.append({"type": "play", "card": number, "slot": slot, "line": line,
                            "reward": reward_choice(state, number, 0, items)})
    return out


def ai_bribe(state: dict, seat: int, rng_: random.Random) -> dict:
    from ..ai import _reward_score

    decision = state["decision"]
    best = max(decision["options"], key=lambda o: (_reward_score(reward_items(o["card"], o["level"], {})),
                                                   rng_.random()))
    if rng_.random() < 0.2:
        return {"type": "decide", "slot": None}
    items = reward_items(best["card"], best["level"], {})
    return {"type": "decide", "slot": best["slot"], "reward": reward_choice(state, best["card"], best["level"], items)}


def ai_relocate(state: dict, seat: int, rng_: random.Random) -> dict:
    options = state["decision"]["options"]
    origin = rng_.choice(sorted(options))
    target = max(options[origin], key=lambda t: (P.level_of(t), rng_.random()))
    number = state["players"][seat]["pyramid"]["cards"][origin]["card"]
    level = P.level_of(target)
    return {"type": "decide", "from": origin, "to": target, "reward": reward_choice(state, number, level)}


def ai_return(state: dict, seat: int, rng_: random.Random) -> dict:
    held = criminals_in_hand(state["players"][seat])
    if len(held) > 1 and rng_.random() < 0.5:
        return {"type": "criminal_return", "card": rng_.choice(held)}
    return {"type": "criminal_return", "card": None}


# ------------------------------------------------------------------------------------------- prompts


def criminal_options(state: dict, seat: int) -> dict:
    """For each criminal in hand: where it may go and its three lines."""
    player = state["players"][seat]
    return {str(n): {"slots": P.legal_slots(player["pyramid"], n),
                     "lines": [{"judgement": row["judgement"], "reward": [dict(i) for i in row["reward"]],
                                "text": reward_text(row["reward"])} for row in lines(n)]}
            for n in criminals_in_hand(player)}


def _wrap_development_choices(kind: str):  # noqa: ANN202
    def choices(state: dict, seat: int, prompt: dict) -> dict:
        from .. import moves as M

        player = state["players"][seat]
        hand = player["hand"]
        player["hand"] = [c for c in hand if not is_criminal(c)]
        try:
            options = M.development_options(state, seat)
        finally:
            player["hand"] = hand
        options["plays"] = {str(n): v for n, v in options["plays"].items()}
        options["hand"] = list(hand)
        options["criminals"] = criminal_options(state, seat)
        if kind == "replan":
            options.update({k: v for k, v in prompt.items() if k not in ("seat", "submitted", "kind")})
        return options

    return choices


class Underworld:
    name = NAME
    order = 50  # after the modules that add phases after the development phase: criminals return first

    def install(self, rules: Ruleset) -> None:
        from ..ai import _development as base_ai_development
        from ..development import after_turn  # noqa: F401  (the phase after ours is whatever came next before)

        common.install(rules)
        rules.option_checks.append(check_options)
        rules.setup.append(setup)
        dev = rules.phases["development"]
        inner_next = dev.next

        def dev_next(state: dict) -> str:
            return "judgement" if state["last_turn"] else NAME

        def after_ours(state: dict) -> str:
            return inner_next(state) if callable(inner_next) else inner_next  # type: ignore[return-value]

        rules.phases["development"] = replace(dev, next=dev_next, validate=_wrap_validate(dev.validate),
                                              resolve=_wrap_resolve(dev.resolve), start=_wrap_start(dev.start),
                                              advance=_wrap_advance(dev.advance))
        rules.phases[NAME] = replace(UNDERWORLD_PHASE, next=after_ours)
        rules.phases["judgement"] = replace(JUDGEMENT_PHASE, next=after_ours)
        rules.steps["develop"] = _wrap_develop(rules.steps["develop"])
        rules.steps["judgement_take"] = step_judgement_take
        rules.steps["judgement_discard"] = step_judgement_discard
        rules.steps["bribes_take"] = step_bribes_take
        rules.steps["relocate"] = step_relocate
        rules.decisions["replan"] = replace(rules.decisions["replan"], validate=_check_replan)
        rules.decisions["judgement_return"] = Decision(_check_return, _default_return)
        rules.decisions["judgement_discard"] = Decision(_check_discard, _default_discard)
        rules.decisions["bribe"] = Decision(_check_bribe, _default_bribe)
        rules.decisions["relocate"] = Decision(_check_relocate, _default_relocate)
        rules.rewards[BRIBES] = _bribe_reward
        rules.rewards[DISCARD_JUDGEMENT] = _discard_reward
        rules.rewards[RELOCATE] = _relocate_reward
        rules.piles["criminal"] = lambda state: state["ext"][NAME]["deck"]
        rules.law_cards = tuple(rules.law_cards) + UNDERWORLD_LAWS
        rules.add_law(AMNESTY, Law(play=_amnesty))
        rules.add_law(CORRUPTION, Law(play=_corruption))
        rules.add_law(GUILD, Law(play=play_placed, score=guild_points))
        rules.scorers.append(Scorer("judgement", score_judgement, "Judgement tokens"))
        rules.views.append(view)
        rules.determinize.append(determinize)
        develop_ai = _wrap_ai_development(rules.ai.get("development", base_ai_development))
        rules.ai["development"] = develop_ai
        rules.ai["replan"] = lambda state, seat, rng_: {"type": "decide", "plan": develop_ai(state, seat, rng_)}
        rules.ai["judgement"] = lambda state, seat, rng_: _default_judgement(state, seat)
        rules.ai[NAME] = ai_return
        rules.ai["bribe"] = ai_bribe
        rules.ai["relocate"] = ai_relocate
        rules.search_candidates["development"] = search_candidates
        rules.prompt_choices["development"] = _wrap_development_choices("development")
        rules.prompt_choices["replan"] = _wrap_development_choices("replan")
        rules.prompt_choices[NAME] = lambda state, seat, prompt: {
            "criminals": criminals_in_hand(state["players"][seat])}
        rules.prompt_choices["judgement"] = lambda state, seat, prompt: {
            "tokens": discard_tokens(state, seat), "texts": {str(t): token_text(t) for t in discard_tokens(state, seat)},
            "plans": judgement_plans(state, seat)}


MODULE = Underworld()
