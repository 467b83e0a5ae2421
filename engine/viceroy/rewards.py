"""Rewards (§7): one handler per reward type, and the steps that hand out gems and cards.

A reward step grants the items of a card's row. Each item goes to the handler of its type in the ruleset's
``rewards`` table: ``handler(grant, item)``, where ``grant`` knows the seat, the card's entry, the player's
choices and collects what needs its own step (gems to take, cards to draw). A module adds a reward type by
adding a handler.
"""

from __future__ import annotations

from . import cards as C
from . import pyramid as P
from .errors import IllegalAction
from .rules import Decision, rules_for
from .state import (
    COLORS,
    LEVEL5_PP,
    ask,
    balanced_gems,
    clean_gems,
    ev,
    find_entry,
    fmt_gems,
    gem_total,
    move_gems,
    p,
    push,
)


class Grant:
    """One reward step being granted: what the handlers may read and what they collect."""

    __slots__ = ("state", "seat", "player", "entry", "choice", "step", "events", "gems", "draws", "followups")

    def __init__(self, state: dict, step: dict, events: list) -> None:
        self.state = state
        self.seat = step["seat"]
        self.player = state["players"][self.seat]
        self.entry = self.player["pyramid"]["cards"].get(step["slot"])
        self.choice = step.get("choice") or {}
        self.step = step
        self.events = events
        self.gems = 0
        self.draws = 0
        self.followups: list[dict] = []


def _gems(g: Grant, item: dict) -> None:
    g.gems += item["amount"]


def _cards(g: Grant, item: dict) -> None:
    g.draws += item["amount"]


def _attack(g: Grant, item: dict) -> None:
    if item.get("note"):
        g.entry["tokens"].append({"type": "attack"})  # laws 71/77: the token lies on the law card
    else:
        g.player["attacks"] += item["amount"]


def _infinite(g: Grant, item: dict) -> None:
    colour = item["color"] if item["color"] != "any" else g.choice.get("color", "red")
    place_infinite(g.state, g.seat, g.entry, colour, g.events)


def _power_points(g: Grant, item: dict) -> None:
    g.entry["tokens"].append({"type": "power_points", "value": item["amount"]})


def _counted(g: Grant, item: dict) -> None:
    g.entry["tokens"].extend({"type": item["type"]} for _ in range(item["amount"]))


def _magic_bonus(g: Grant, item: dict) -> None:
    g.entry["tokens"].append({"type": "magic_bonus", "value": item["value"]})


def _circle_bonus(g: Grant, item: dict) -> None:
    g.entry["tokens"].append({"type": "circle_bonus", "color": item["color"], "value": item["value"]})


REWARDS = {
    "gems": _gems,
    "cards": _cards,
    "attack": _attack,
    "infinite_gem": _infinite,
    "power_points": _power_points,
    "science": _counted,
    "magic": _counted,
    "defense": _counted,
    "magic_bonus": _magic_bonus,
    "circle_bonus": _circle_bonus,
}


def step_reward(state: dict, step: dict, events: list) -> bool:
    """Grant reward items onto a card (tokens), behind the screen (gems, attacks) or into the hand (cards)."""
    grant = Grant(state, step, events)
    table = rules_for(state).rewards
    for item in step["items"]:
        handler = table.get(item["type"])
        if handler is not None:
            handler(grant, item)
    followups = grant.followups
    if grant.draws:
        followups.extend(draw(state, grant.seat, list(grant.choice.get("draw") or []), grant.draws, events))
    if grant.gems:
        followups.append({"op": "gain_gems", "seat": grant.seat, "count": grant.gems, "choice": grant.choice.get("gems"),
                          "why": f"reward of {C.label(step['card'])}"})
    push(state, *followups)
    return True


def reward_items(number: int, level: int, choice: dict) -> list[dict]:
    if level == 5:
        if choice.get("level5") == "pp":
            return [{"type": "power_points", "amount": LEVEL5_PP}]
        return [item for lv in (1, 2, 3) for item in C.rewards(number, lv)]
    return list(C.rewards(number, level))


def _counts(items: list[dict]) -> tuple[int, int]:
    """The gems to take and the cards to draw that reward items give."""
    gems = draws = 0
    for i in items:
        kind = i["type"]
        if kind == "gems":
            gems += i["amount"]
        elif kind == "cards":
            draws += i["amount"]
    return gems, draws


# (gems, cards) of the printed rows, by (card, level): the same for every play of a card on a level.
_ROW_COUNTS: dict[tuple[int, int], tuple[int, int]] = {}


def reward_choice(state: dict, number: int, level: int, items: list[dict] | None = None) -> dict:
    """A simple complete set of reward choices: gems spread over the colours, cards from the small deck."""
    if items is None:
        counts = _ROW_COUNTS.get((number, level))
        if counts is None:
            items = C.rewards(number, level) if level < 5 else [i for lv in (1, 2, 3) for i in C.rewards(number, lv)]
            counts = _ROW_COUNTS[(number, level)] = _counts(items)
        gems, draws = counts
    else:
        gems, draws = _counts(items)
    out: dict = {"level5": "rows"} if level == 5 else {}
    if gems:
        out["gems"] = balanced_gems(state["reserve"], gems)
    if draws:
        out["draw"] = ["small"] * draws
    return out


def step_gain_gems(state: dict, step: dict, events: list) -> bool:
    """Take gems of the player's choice from the reserve, as many as it allows."""
    seat = step["seat"]
    reserve = state["reserve"]
    in_reserve = reserve["red"] + reserve["green"] + reserve["blue"] + reserve["yellow"]
    count = min(step["count"], in_reserve)
    if count <= 0:
        ev(events, "all", "gems_none", f"{p(seat)} gets no gems ({step['why']}): the reserve is empty.", seat=seat)
        return True
    answer = step.get("answer")
    choice = (answer.get("gems") if answer else None) or step.get("choice")
    if count == in_reserve:
        choice = dict(reserve)  # the reserve holds no more than is due: take all of it
    if choice is None or gem_total(choice) != count or (
            choice["red"] > reserve["red"] or choice["green"] > reserve["green"] or choice["blue"] > reserve["blue"]
            or choice["yellow"] > reserve["yellow"]):
        text = f"Choose {count} gems from the reserve ({step['why']})."
        return ask(state, seat, "gems", text, count=count, reserve=dict(reserve), why=step["why"])
    move_gems(reserve, state["players"][seat]["gems"], choice)
    events.append({"type": "gems_taken", "to": "all", "text": f"{p(seat)} takes {count} gems from the reserve ({step['why']}).",
                   "seat": seat, "count": count})
    events.append({"type": "gems_taken_private", "to": seat, "text": f"You take {fmt_gems(choice)}.", "gems": choice})
    return True


def step_take_card(state: dict, step: dict, events: list) -> bool:
    """A card goes into the hand, or under Archive (law 78) if the player wants (every card taken, §10)."""
    seat = step["seat"]
    player = state["players"][seat]
    archive = find_entry(player, 78)
    card = step["card"]
    if archive is not None:
        want = step.get("answer", {}).get("archive", step.get("archive"))
        if want is None:
            return ask(state, seat, "archive", f"Tuck {C.label(card)} under your Archive (4 PP at the end) instead of taking it into your hand?", card=card)
        if want:
            archive["tucked"].append(card)
            ev(events, "all", "archived", f"{p(seat)} tucks a card under Archive.", seat=seat)
            return True
    player["hand"].append(card)
    if step.get("source") == "draw":
        ev(events, seat, "drew", f"You draw {C.label(card)}.", card=card)
    return True


def take_card(seat: int, card: int, archive: bool | None = None, source: str = "auction") -> dict:
    """The step that brings a card into a hand."""
    return {"op": "take_card", "seat": seat, "card": card, "archive": archive, "source": source}


def draw(state: dict, seat: int, wants: list, count: int, events: list) -> list[dict]:
    """Draw cards from the law deck or the small deck (the other deck when the chosen one is empty)."""
    steps = []
    counts = {"law": 0, "small": 0}
    piles = rules_for(state).piles  # a module's own piles (the criminal deck)
    for i in range(count):
        want = wants[i] if i < len(wants) else "small"
        if want in piles:
            pile = piles[want](state)
            if pile:
                counts[want] = counts.get(want, 0) + 1
                steps.append(take_card(seat, pile.pop(), None, "draw"))
                continue
            want = "small"
        deck = "law_deck" if want == "law" else "small_deck"
        other = "small_deck" if deck == "law_deck" else "law_deck"
        if not state[deck]:
            deck = other
        if not state[deck]:
            break
        card = state[deck].pop()
        counts["law" if deck == "law_deck" else "small"] += 1
        steps.append(take_card(seat, card, None, "draw"))
    names = {"law": "law deck", "small": "small deck"}
    drawn = ", ".join(f"{n} from the {names.get(k, k + ' deck')}" for k, n in counts.items() if n)
    if drawn:
        ev(events, "all", "cards_drawn", f"{p(seat)} draws {drawn}.", seat=seat, counts=counts)
    return steps


def place_infinite(state: dict, seat: int, entry: dict, colour: str, events: list) -> None:
    """An infinite gem comes from the reserve; failing that from the player's screen; else none (§7)."""
    player = state["players"][seat]
    if state["reserve"][colour] > 0:
        state["reserve"][colour] -= 1
    elif player["gems"][colour] > 0:
        player["gems"][colour] -= 1
    else:
        ev(events, "all", "no_infinite", f"No {colour} gem is left for {p(seat)}'s infinite gem.", seat=seat)
        return
    entry["tokens"].append({"type": "infinite_gem", "color": colour})


def circle_gem(state: dict, seat: int, slot: str, events: list) -> None:
    """A card that completes a single-colour circle earns a gem of that colour, if the reserve has one (§6)."""
    colour = P.single_colour(state["players"][seat]["pyramid"], slot)
    if colour is None:
        return
    took = state["reserve"][colour] > 0
    if took:
        state["reserve"][colour] -= 1
        state["players"][seat]["gems"][colour] += 1
    else:  # none in the reserve: a module may give it from elsewhere (a combat card)
        took = any(fallback(state, seat, colour) for fallback in rules_for(state).gem_fallbacks)
    if took:
        ev(events, "all", "circle_gem", f"{p(seat)} completes a single-colour {colour} circle and takes a {colour} gem.", seat=seat, color=colour)
    else:
        ev(events, "all", "circle_gem", f"{p(seat)} completes a single-colour {colour} circle; no {colour} gem is left.", seat=seat, color=colour)


STEPS = {"reward": step_reward, "gain_gems": step_gain_gems, "take_card": step_take_card}


def _check_gems(state: dict, seat: int, decision: dict, action: dict) -> dict:
    gems = clean_gems(action.get("gems"), "gems to take")
    count = decision["count"]
    if gem_total(gems) != count:
        raise IllegalAction(f"Take exactly {count} gems.", "bad_gems")
    for c in COLORS:
        if gems[c] > state["reserve"][c]:
            raise IllegalAction(f"The reserve has only {state['reserve'][c]} {c} gems.", "reserve_short")
    return {"gems": gems}


def _check_archive(state: dict, seat: int, decision: dict, action: dict) -> dict:
    if not isinstance(action.get("archive"), bool):
        raise IllegalAction("Answer yes or no: tuck the card under Archive?", "bad_archive")
    return {"archive": action["archive"]}


DECISIONS = {
    "gems": Decision(_check_gems, lambda state, seat, d: {"type": "decide", "gems": balanced_gems(state["reserve"], d["count"])}),
    "archive": Decision(_check_archive, lambda state, seat, d: {"type": "decide", "archive": False}),
}
