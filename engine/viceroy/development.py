"""The development phase (§5): play a card, discard one for gems, or pass; resolved in ascending card number.

A character is placed, paid and rewarded here; a law goes to its entry in the ruleset's ``laws`` table.
"""

from __future__ import annotations

from . import cards as C
from . import pyramid as P
from .errors import IllegalAction
from .payment import INFINITE, spend, unused_infinite, validate_payment
from .rewards import circle_gem, reward_items
from .rules import DONE, Decision, Law, Phase, Ruleset, rules_for, trust
from .state import (
    COLORS,
    DISCARD_GEMS,
    MAX_ROUNDS,
    ask,
    card_number,
    clean_gems,
    ev,
    fmt_gems,
    gem_total,
    new_entry,
    p,
    push,
    slot_arg,
    trusted_gems,
)

PLACED = Law()  # a law with no effect when played: it is simply placed (its value is scored at the end)


def check_reward_choice(reward: object, piles: object = ()) -> dict:
    """Check a play's reward choices; ``piles`` names the extra card piles a card reward may draw from."""
    if reward is None:
        return {}
    if not isinstance(reward, dict):
        raise IllegalAction("Reward choices must be given as a set of options.", "bad_reward")
    out = dict(reward)
    if "gems" in out:
        out["gems"] = clean_gems(out["gems"], "gems to take")
    if "draw" in out:
        draw = out["draw"]
        if not isinstance(draw, list) or any(not isinstance(d, str) or (d not in ("law", "small") and d not in piles)
                                             for d in draw):
            extra = "".join(f", the {name} deck" for name in piles)
            raise IllegalAction(f"Each card you draw comes from the law deck{extra} or the small deck.", "bad_draw")
    if "level5" in out and out["level5"] not in ("rows", "pp"):
        raise IllegalAction("On level 5 choose the rewards of rows 1-3 or the 15-PP token.", "bad_level5")
    if "color" in out and out["color"] not in COLORS:
        raise IllegalAction("Choose a gem colour: red, green, blue or yellow.", "bad_colour")
    return out


def validate_play(state: dict, seat: int, action: dict, fresh: bool = True) -> dict:
    player = state["players"][seat]
    number = card_number(action.get("card"))
    if number not in player["hand"]:
        raise IllegalAction(f"{C.label(number)} is not in your hand.", "not_in_hand")
    pyramid = player["pyramid"]
    rules = rules_for(state)
    out = {"type": "play", "card": number, "reward": check_reward_choice(action.get("reward"), rules.piles)}
    if C.is_law(number):
        law = rules.laws.get(number, PLACED)
        if law.places:
            slot = slot_arg(action.get("slot"))
            if slot not in P.open_places(pyramid, number):
                raise IllegalAction(f"{C.label(number)} cannot go there: laws go on any open place below level 5.", "bad_slot")
            out["slot"] = slot
        if law.validate is not None:
            out = law.validate(state, seat, action, out, fresh)
        return out
    slot = action.get("slot")
    if slot not in P.open_places(pyramid, number):
        raise IllegalAction(f"{C.label(number)} cannot go there: choose one of the open places.", "bad_slot")
    level = P.parse_slot(slot)[0]
    payment = validate_payment(state, player, number, level, action)
    if level == 5 and out["reward"].get("level5") is None:
        out["reward"]["level5"] = "rows"
    out["slot"] = slot
    out.update(payment)
    return out


def validate(state: dict, seat: int, action: dict, fresh: bool = True) -> dict:
    kind = action.get("type")
    if kind == "play":
        return validate_play(state, seat, action, fresh)
    if kind == "discard":
        number = card_number(action.get("card"))
        if number not in state["players"][seat]["hand"]:
            raise IllegalAction(f"{C.label(number)} is not in your hand.", "not_in_hand")
        gems = clean_gems(action.get("gems"), "gems to take")
        if gem_total(gems) > DISCARD_GEMS:
            raise IllegalAction("Discarding a card gives you 2 gems.", "bad_gems")
        return {"type": "discard", "card": number, "gems": gems}
    if kind == "pass":
        return {"type": "pass"}
    raise IllegalAction("In the development phase you may play a card, discard one for 2 gems, or pass.", "bad_type")


# Law checks that only refuse (they add nothing to the plan): a trusted plan of such a law needs none of them.
CHECK_ONLY_LAWS: set[object] = set()
# Law checks that look at the plan alone (not at the state): a plan that passed one passes it again when it
# resolves, so only its place is checked again then.
PLAN_ONLY_LAWS: set[object] = set()


def read_trusted(state: dict, seat: int, action: dict, rules: Ruleset | None = None) -> dict | None:
    """The plan ``validate`` makes of an action built from the legal options, without its checks: a discard,
    a pass, a law placed on an open place whose check only refuses, or a character paid with gems and
    infinite gems (anything else, such as another payment source: None, checked)."""
    kind = action["type"]
    if kind == "pass":
        return {"type": "pass"}
    if kind == "discard":
        return {"type": "discard", "card": action["card"], "gems": trusted_gems(action.get("gems"), "gems to take")}
    number = action["card"]
    if kind != "play":
        return None
    if rules is None:
        rules = rules_for(state)
    if number in C.LAW_SET:
        law = rules.laws.get(number, PLACED)
        if not law.places or (law.validate is not None and law.validate not in CHECK_ONLY_LAWS):
            return None  # the law's own check adds to the plan: it runs
        return {"type": "play", "card": number, "reward": check_reward_choice(action.get("reward"), rules.piles),
                "slot": action["slot"]}
    sources = rules.payment_sources
    if len(sources) != 1 or sources[0] is not INFINITE:
        return None
    slot = action["slot"]
    reward = check_reward_choice(action.get("reward"), rules.piles)
    if reward.get("level5") is None and P.parse_slot(slot)[0] == 5:
        reward["level5"] = "rows"
    infinite = action.get("infinite")
    return {"type": "play", "card": number, "reward": reward, "slot": slot,
            "pay": trusted_gems(action.get("pay"), "payment"), "infinite": list(infinite) if infinite else []}


trust(validate, read_trusted)


def where(state: dict, seat: int, plan: dict) -> str:
    """Where a played card goes, as players say it (slots are internal coordinates)."""
    if plan.get("slot"):
        return f" on level {P.parse_slot(plan['slot'])[0]}"
    target = state["players"][seat]["pyramid"]["cards"].get(plan.get("target") or "")
    if target is not None:
        law = rules_for(state).laws.get(plan["card"], PLACED)
        return f" {law.verb} {C.label(target['card'])}"
    return ""


_PUBLIC = frozenset({"type", "card", "slot", "target"})  # what the reveal shows of each plan


def resolve(state: dict, choices: dict[int, dict], events: list) -> None:
    parts = []
    for seat, ch in sorted(choices.items()):
        if ch["type"] == "play":
            parts.append(f"{p(seat)} plays {C.label(ch['card'])}" + where(state, seat, ch))
        elif ch["type"] == "discard":
            parts.append(f"{p(seat)} discards {C.label(ch['card'])}")
        else:
            parts.append(f"{p(seat)} passes")
    public = {}
    for seat, ch in choices.items():
        shown = {}
        for k, v in ch.items():
            if k in _PUBLIC:
                shown[k] = v
        public[str(seat)] = shown
    events.append({"type": "development_reveal", "to": "all",
                   "text": f"Development round {state['round']}: " + "; ".join(parts) + ".", "choices": public})
    order = []  # the plays and discards, resolved by card number
    for seat, ch in choices.items():
        if ch["type"] == "pass":
            state["active"].remove(seat)
        else:
            order.append((ch["card"], seat))
    order.sort()
    for _, seat in order:
        state["queue"].append({"op": "develop", "seat": seat, "plan": choices[seat]})


def _still_possible(state: dict, seat: int, plan: dict, rules: Ruleset | None = None) -> bool:
    quick = _quick_recheck(state, seat, plan, rules)
    if quick is not None:
        return quick
    try:
        validate(state, seat, plan, fresh=False)
    except IllegalAction:
        return False
    return True


def _quick_recheck(state: dict, seat: int, plan: dict, rules: Ruleset | None = None) -> bool | None:
    """Whether a checked plan can still be carried out, looking only at what can have changed since it was
    checked: the hand, the open places, the gems and the unused infinite gems (the rest of the check depends
    on the plan alone). None where this does not apply (laws whose check looks at the state, other payment
    sources): the full check then."""
    kind = plan["type"]
    if kind == "pass":
        return True
    player = state["players"][seat]
    number = plan["card"]
    if number not in player["hand"]:
        return False
    if kind == "discard":
        return True
    if rules is None:
        rules = rules_for(state)
    if number in C.LAW_SET:
        # A law placed on an open place whose check looks at the plan alone: only the place can be gone.
        law = rules.laws.get(number, PLACED)
        if not law.places or (law.validate is not None and law.validate not in PLAN_ONLY_LAWS):
            return None
        return plan["slot"] in P.open_places(player["pyramid"], number)
    sources = rules.payment_sources
    if len(sources) != 1 or sources[0] is not INFINITE:
        return None
    if plan["slot"] not in P.open_places(player["pyramid"], number):
        return False
    pay, gems = plan["pay"], player["gems"]
    if pay["red"] > gems["red"] or pay["green"] > gems["green"] or pay["blue"] > gems["blue"] or pay["yellow"] > gems["yellow"]:
        return False
    refs = plan["infinite"]
    if refs:
        left = unused_infinite(player)
        for ref in refs:
            if ref not in left:
                return False
            left.remove(ref)
    return True


def step_develop(state: dict, step: dict, events: list) -> bool:
    seat = step["seat"]
    answer = step.get("answer")
    rules = rules_for(state)
    if answer is None:
        plan = step["plan"]
        if not _still_possible(state, seat, plan, rules):
            return ask(state, seat, "replan", "Your plan can no longer be carried out: choose again.")
    else:
        plan = answer.get("plan", step["plan"])
    player = state["players"][seat]
    if plan["type"] == "pass":
        if seat in state["active"]:
            state["active"].remove(seat)
        ev(events, "all", "passes", f"{p(seat)} passes.", seat=seat)
        return True
    number = plan["card"]
    player["hand"].remove(number)
    if plan["type"] == "discard":
        state["discard"].append(number)
        ev(events, "all", "discards", f"{p(seat)} discards {C.label(number)} for 2 gems.", seat=seat, card=number)
        push(state, {"op": "gain_gems", "seat": seat, "count": DISCARD_GEMS, "choice": plan.get("gems"), "why": "discarding a card"})
        return True
    if C.is_law(number):
        law = rules.laws.get(number, PLACED)
        (law.play or play_placed)(state, seat, plan, events)
        return True
    slot = plan["slot"]
    level = P.parse_slot(slot)[0]
    spend(state, seat, plan, rules)
    player["pyramid"]["cards"][slot] = new_entry(number, slot)
    text = _PLAYS.get((seat, number, level))
    if text is None:
        text = _PLAYS[(seat, number, level)] = f"{p(seat)} plays {C.label(number)} on level {level} for {fmt_gems(C.COST[number][level])}."
    events.append({"type": "plays", "to": "all", "text": text, "seat": seat, "card": number, "slot": slot, "level": level})
    circle_gem(state, seat, slot, events)
    choice = plan.get("reward") or {}
    push(state, {"op": "reward", "seat": seat, "card": number, "slot": slot, "items": reward_items(number, level, choice), "choice": choice})
    return True


# The "plays" texts by (seat, card, level): a few thousand at most, each made once.
_PLAYS: dict[tuple[int, int, int], str] = {}


def play_placed(state: dict, seat: int, plan: dict, events: list) -> dict:
    """Place a law on its open place: the event, the circle gem. Returns the new entry."""
    number, slot = plan["card"], plan["slot"]
    entry = new_entry(number, slot)
    state["players"][seat]["pyramid"]["cards"][slot] = entry
    level = P.parse_slot(slot)[0]
    ev(events, "all", "plays", f"{p(seat)} plays the law {C.label(number)} on level {level}.",
       seat=seat, card=number, slot=slot, level=level)
    circle_gem(state, seat, slot, events)
    return entry


# ------------------------------------------------------------------------------------------- the phase


def start(state: dict, events: list) -> None:
    state["phase"] = "development"
    state["round"] = 1
    state["active"] = list(range(len(state["players"])))
    ev(events, "all", "development", f"Turn {state['turn']}: development phase, round 1.", turn=state["turn"])
    auto_pass_empty_hands(state, events)
    if not state["active"]:
        state["round"] = MAX_ROUNDS


def auto_pass_empty_hands(state: dict, events: list) -> None:
    active, players = state["active"], state["players"]
    for seat in active:
        if not players[seat]["hand"]:
            break
    else:
        return  # (the usual case: everyone still holds a card)
    for seat in list(active):
        if not players[seat]["hand"]:
            active.remove(seat)
            events.append({"type": "auto_pass", "to": "all", "text": f"{p(seat)} has no card in hand and passes.",
                           "seat": seat})


def advance(state: dict, events: list) -> bool | str:
    auto_pass_empty_hands(state, events)
    if state["round"] >= MAX_ROUNDS or not state["active"]:
        return DONE
    state["round"] += 1
    events.append({"type": "development_round", "to": "all", "text": f"Development round {state['round']}.",
                   "round": state["round"]})
    return False


def after_turn(state: dict) -> str:
    """After the development phase: the next turn's auction, or painting once the last turn is over."""
    return "painting" if state["last_turn"] else "auction"


PHASE = Phase(
    name="development",
    start=start,
    next=after_turn,
    validate=validate,
    resolve=resolve,
    advance=advance,
    inactive="You are out of this development phase; wait for the next turn.",
    default=lambda state, seat: {"type": "pass"},
)

STEPS = {"develop": step_develop}


def _check_replan(state: dict, seat: int, decision: dict, action: dict) -> dict:
    plan = action.get("plan")
    if not isinstance(plan, dict):
        raise IllegalAction("Choose again: play a card, discard one, or pass.", "bad_plan")
    return {"plan": validate(state, seat, plan)}


DECISIONS = {"replan": Decision(_check_replan, lambda state, seat, d: {"type": "decide", "plan": {"type": "pass"}})}
