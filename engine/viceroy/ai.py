"""A baseline AI player: legal moves with simple heuristics, for simulations, tests and filling seats."""

from __future__ import annotations

import random

from . import cards as C
from . import moves as M
from . import pyramid as P
from .auction import auction_cards, auction_offer, pass_gems
from .ending import painting_pending
from .flow import apply_action
from .painting import best_painting
from .payment import INFINITE, auto_payment, unused_infinite
from .prompts import pending
from .rules import Ruleset, rules_for
from .setup import new_game
from .state import DISCARD_GEMS, is_choice_law

_REWARD_VALUE = {
    "gems": 1.2,
    "power_points": 0.6,
    "cards": 1.5,
    "science": 2.0,
    "magic": 2.0,
    "defense": 2.0,
    "attack": 1.5,
    "infinite_gem": 3.0,
    "magic_bonus": 0.8,
    "circle_bonus": 1.0,
}


def _is_choice(number: int) -> bool:
    """A "choose one" law (the base game's, or one a module adds)."""
    return is_choice_law(number)


def _reward_score(items: list[dict]) -> float:
    # A module's reward types (diamonds, bonus tokens) count about as much as a gem.
    return sum(_REWARD_VALUE.get(i["type"], 1.2) * i.get("amount", i.get("value", 1)) for i in items)


def choose_action(state: dict, seat: int, rng: random.Random | None = None) -> dict:
    """A legal action for ``seat`` now (the engine accepts it as it is)."""
    return _choose(state, seat, rng or random.Random(0), rules_for(state))


def _choose(state: dict, seat: int, rng: random.Random, rules: Ruleset) -> dict:
    """``choose_action`` with the game's ruleset (looked up once per game by ``play_game``)."""
    decision = state["decision"]
    modules = rules.ai  # a module's own phases and decisions, and what it changes in the base ones
    if decision is not None:
        if decision["seat"] != seat:
            raise ValueError("not this seat's turn")
        if decision["kind"] in modules:
            return modules[decision["kind"]](state, seat, rng)
        return _answer(state, seat, decision, rng)
    phase = state["phase"]
    if phase in modules:
        return modules[phase](state, seat, rng)
    if phase == "setup":
        return _setup(state, seat, rng)
    if phase == "auction":
        return _auction(state, seat, rng)
    if phase == "development":
        return _development(state, seat, rng, rules)
    if phase == "painting":
        paint, _gain = best_painting(state, seat)
        return {"type": "paint", "paint": paint}
    raise ValueError("nothing to decide")


def _answer(state: dict, seat: int, decision: dict, rng: random.Random) -> dict:
    kind = decision["kind"]
    if kind in ("attack_pick", "solo_discard"):
        return {"type": "decide", "card": rng.choice(decision["options"])}
    if kind == "archive":
        return {"type": "decide", "archive": rng.random() < 0.5}
    if kind == "replan":
        return {"type": "decide", "plan": _development(state, seat, rng)}
    return M.default_action(state, seat)


def _setup(state: dict, seat: int, rng: random.Random) -> dict:
    hand = state["players"][seat]["hand"]
    ranked = sorted(hand, key=lambda n: (-_reward_score(C.rewards(n, 1)), rng.random()))
    start = ranked[0]
    keep = ranked[1] if len(ranked) > 1 else start
    return {"type": "setup", "start": start, "keep": keep, "reward": M.reward_choice(state, start, 1)}


def _needed_colours(player: dict) -> list[str]:
    need = dict.fromkeys(C.COLORS, 0)
    for number in player["hand"]:
        if C.is_character(number):
            for c, n in C.COST[number][2].items():
                need[c] += n
    return sorted(C.COLORS, key=lambda c: player["gems"][c] - need[c])


def _auction(state: dict, seat: int, rng: random.Random) -> dict:
    player = state["players"][seat]
    # What M.auction_options offers, worked out only as far as the choice needs it.
    attack = auction_offer(state) if player["attacks"] > 0 else []
    if attack and rng.random() < 0.4:
        return {"type": "attack", "card": rng.choice(attack), "archive": False}
    # The bids of M.auction_bids, as (colour, characters there), in the same order.
    gems = player["gems"]
    spots = auction_cards(state)
    bids = []
    for colour in C.COLORS:
        if gems[colour] > 0:
            for spot in spots:
                if colour in spot["colors"]:
                    base, tip = spot["base"], spot["tip"]
                    if base is not None:
                        bids.append((colour, [base] if tip is None else [base, tip]))
                    elif tip is not None:
                        bids.append((colour, [tip]))
                    break
    if not bids or rng.random() < 0.15 or len(player["hand"]) > 5:
        count = pass_gems(state, seat)
        return {"type": "pass", "gems": M.balanced_gems(state["reserve"], count, _needed_colours(player))}
    # The first of the highest (gems of the colour, a random number), as max() with that key picks it.
    best, best_key = bids[0], (gems[bids[0][0]], rng.random())
    for bid in bids[1:]:
        key = (gems[bid[0]], rng.random())
        if key > best_key:
            best, best_key = bid, key
    return {"type": "bid", "color": best[0], "card": rng.choice(best[1]), "archive": rng.random() < 0.5}


def _law_plan(state: dict, seat: int, number: int, rng: random.Random, places: dict | None = None) -> dict | None:
    """A plan for a law in hand; ``places`` keeps the open places for laws between the laws of one hand
    (they are the same for every law that takes an open place on any level)."""
    player = state["players"][seat]
    if number in (65, 66) or places is None or number in C.PLACED_ON:
        where = M.law_targets(state, seat, number)
    else:
        where = places.get("law")
        if where is None:
            where = places["law"] = M.law_targets(state, seat, number)
    plan: dict = {"type": "play", "card": number, "reward": {}}
    if "targets" in where:
        if not where["targets"]:
            return None
        plan["target"] = rng.choice(where["targets"])
        if number == 65:
            plan["archive"] = False
        return plan
    if not where["slots"]:
        return None
    plan["slot"] = rng.choice(where["slots"])
    if number == 69:
        offer = auction_offer(state)
        if not offer:
            return None
        plan["take"] = rng.choice(offer)
        plan["archive"] = False
    elif number == 72:
        others = [c for c in player["hand"] if c != 72]
        plan["tuck"] = others[: rng.randint(0, len(others))]
    elif number == 76:
        plan["store"] = None  # filled in by _complete if this plan is chosen
    elif _is_choice(number):
        option = rng.randrange(3)
        plan["reward"] = {"option": option, "color": rng.choice(C.COLORS)}  # completed by _complete
    return plan


def _complete(state: dict, seat: int, plan: dict) -> dict:
    """Finish the chosen law plan (the parts that draw no random number are worked out only for it)."""
    number = plan["card"]
    if number == 76:
        gems = state["players"][seat]["gems"]
        plan["store"] = M.balanced_gems(gems, min(8, sum(gems.values()) // 2))
    elif _is_choice(number) and "slot" in plan:
        option, colour = plan["reward"]["option"], plan["reward"]["color"]
        chosen = C.card(number)["effect"]["options"][option]
        items = chosen if isinstance(chosen, list) else [chosen]
        reward = M.reward_choice(state, number, 1, items)
        reward["option"] = option
        reward["color"] = colour
        plan["reward"] = reward
    return plan


def _development(state: dict, seat: int, rng: random.Random, rules: Ruleset | None = None) -> dict:
    player = state["players"][seat]
    pyramid = player["pyramid"]
    # With the base game's payment sources, the payment is worked out here from the unused infinite gems
    # (as auto_payment does), without looking them up again for every place.
    sources = (rules or rules_for(state)).payment_sources
    base_pay = len(sources) == 1 and sources[0] is INFINITE
    left = unused_infinite(player) if base_pay else None
    refs = [(ref, ref.rsplit("/", 1)[1]) for ref in left] if left else []
    gems = player["gems"]
    # The best candidate so far (the first of equal scores, as max() would keep); its plan is built at the end.
    best: tuple | None = None
    best_score = 0.0
    laws = C.LAW_SET
    # The open places for characters: the same for every character placed on any level (a card placed on
    # one level only has its own).
    places_by: dict[int | None, tuple[tuple[str, int], ...]] = {}
    law_places: dict = {}
    for number in player["hand"]:
        if number in laws:
            plan = _law_plan(state, seat, number, rng, law_places)
            if plan is not None:
                score = 2.0 + rng.random()
                if best is None or score > best_score:
                    best, best_score = (plan,), score
            continue
        placed = C.PLACED_ON.get(number)
        places = places_by.get(placed)
        if places is None:
            places = places_by[placed] = P.legal_places(pyramid, number)
        costs = C.COST[number] if base_pay else None
        values = _ROW_VALUES.get(number)
        if values is None:
            values = _ROW_VALUES[number] = {}
        paid: dict[int, tuple | None] = {}  # per level: the payment (the same for every place on it), or None
        for slot, level in places:
            if costs is not None:
                if level in paid:
                    payment = paid[level]
                    if payment is None:
                        continue
                else:
                    left = costs[level]  # shared table: copied below only when it changes
                    used = []
                    if refs:
                        left = dict(left)
                        for ref, colour in refs:
                            if left[colour] > 0:
                                left[colour] -= 1
                                used.append(ref)
                    if (gems["red"] < left["red"] or gems["green"] < left["green"] or gems["blue"] < left["blue"]
                            or gems["yellow"] < left["yellow"]):
                        paid[level] = None
                        continue
                    payment = paid[level] = (left, used)
            else:
                payment = auto_payment(player, number, level, state)
                if payment is None:
                    continue
            value = values.get(level)
            if value is None:
                value = values[level] = _row_value(number, level)
            score = level * 2 + value + rng.random()
            if best is None or score > best_score:
                best, best_score = (number, slot, level, payment), score
    if best is not None:
        if len(best) == 1:
            return _complete(state, seat, best[0])
        number, slot, level, payment = best
        if isinstance(payment, tuple):
            payment = {"pay": dict(payment[0]), "infinite": payment[1]}
        return {"type": "play", "card": number, "slot": slot, **payment,
                "reward": M.reward_choice(state, number, level), "archive": False}
    if player["hand"] and rng.random() < 0.6:
        return {"type": "discard", "card": rng.choice(player["hand"]),
                "gems": M.balanced_gems(state["reserve"], DISCARD_GEMS, _needed_colours(player))}
    return {"type": "pass"}


_ROW_VALUE: dict[tuple[int, int], float] = {}
_ROW_VALUES: dict[int, dict[int, float]] = {}  # the same, by card then level (what the development choice reads)


def _row_value(number: int, level: int) -> float:
    """What the AI thinks a character's reward on a level is worth (computed once per card and level)."""
    key = (number, level)
    value = _ROW_VALUE.get(key)
    if value is None:
        items = C.rewards(number, level) if level < 5 else [i for lv in (1, 2, 3) for i in C.rewards(number, lv)]
        value = _ROW_VALUE[key] = _reward_score(items)
    return value


def play_game(options: dict, seed: int, rng_seed: int | None = None, max_actions: int = 20000) -> tuple[dict, list[dict]]:
    """Play a whole game between AI seats. Returns the final state and the ordered actions (the record)."""
    state = new_game(options, seed)
    rng = random.Random(seed if rng_seed is None else rng_seed)
    rules = rules_for(state)  # a game keeps its ruleset (its options name the modules)
    actions: list[dict] = []
    seat = _next_seat(state)
    for _ in range(max_actions):
        if seat is None:
            return state, actions
        action = _choose(state, seat, rng, rules)
        events = apply_action(state, seat, action, trusted=True)  # built from the legal options: read, not re-checked
        actions.append({"seat": seat, "action": action})
        # A sealed choice that others still wait on: the next seat is the lowest of them (what _next_seat gives).
        last = events[-1] if events else None
        if (last is not None and last["type"] == "chosen" and last["waiting"] and state["decision"] is None
                and state["phase"] in _SEALED):
            seat = min(last["waiting"])
        else:
            seat = _next_seat(state)
    raise RuntimeError("the game did not end")


_SEALED = frozenset({"setup", "auction", "development"})
_KEYS = tuple(str(seat) for seat in range(8))  # seat keys of state["choices"], made once


def _next_seat(state: dict) -> int | None:
    """The lowest seat that still has to act (what ``min`` over the unsubmitted prompts of ``pending`` gives)."""
    decision = state["decision"]
    if decision is not None and state["phase"] != "over":
        return decision["seat"]
    if state["phase"] in _SEALED:
        choices = state["choices"]
        if not choices:
            active = state["active"]
            return min(active) if active else None  # nobody has chosen yet: the lowest active seat
        for seat in sorted(state["active"]):
            if (_KEYS[seat] if seat < 8 else str(seat)) not in choices:
                return seat
        return None
    if state["phase"] == "painting" and rules_for(state).phases["painting"].pending is painting_pending:
        for seat, player in enumerate(state["players"]):
            if player["painted"] is None:
                return seat  # the lowest seat still to paint (what the painting prompts give)
        return None
    prompts = pending(state)
    waiting = [s for s, p in prompts.items() if not p.get("submitted")]
    return min(waiting) if waiting else None
