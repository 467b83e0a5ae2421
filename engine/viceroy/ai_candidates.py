"""Candidate actions for Viceroy's search AI, and the hooks the generic search (engine/search.py) uses.

Viceroy's actions cannot be enumerated (gem colours, payments, reward choices multiply), so the search ranks a
short list of sensible, legal actions instead: every bid, attack and pass (with two ways of taking the gems);
the best few places for each card in hand with a payment and reward choices; discards; and every answer to a
decision. Everything here reads only what the deciding seat may see (its hand and screen, the table).
"""

from __future__ import annotations

import random
from itertools import combinations

from . import cards as C
from . import moves as M
from .auction import auction_offer
from .determinize import clone, determinize
from .errors import IllegalAction as _ViceroyIllegal
from .rules import rules_for

COLORS = C.COLORS
PLACES_PER_CARD = 3  # best places kept per card in hand (by level, then reward)
LAW_CHOICES = {71, 73, 77, 80, 81, 82, 83, 84}  # laws whose effect is one of three options
_REWARD_VALUE = {"gems": 1.2, "power_points": 0.6, "cards": 1.5, "science": 2.0, "magic": 2.0, "defense": 2.0,
                 "attack": 1.5, "infinite_gem": 3.0, "magic_bonus": 0.8, "circle_bonus": 1.0}


def _reward_score(items: list[dict]) -> float:
    return sum(_REWARD_VALUE.get(i["type"], 1.0) * i.get("amount", i.get("value", 1)) for i in items)


def needed_colours(player: dict) -> list[str]:
    """Colours from most to least wanted: what the characters in hand cost on level 2, minus the screen."""
    need = dict.fromkeys(COLORS, 0)
    for number in player["hand"]:
        if C.is_character(number):
            for c, n in C.cost(number, 2).items():
                need[c] += n
    return sorted(COLORS, key=lambda c: (player["gems"][c] - need[c], COLORS.index(c)))


def _gem_variants(reserve: dict[str, int], count: int, prefer: list[str]) -> list[dict[str, int]]:
    """Two ways of taking ``count`` gems: spread over the wanted colours, or as many of the most wanted."""
    spread = M.balanced_gems(reserve, count, prefer)
    focus = dict.fromkeys(COLORS, 0)
    left = count
    for c in prefer:
        take = min(left, reserve[c])
        focus[c] += take
        left -= take
    out = [spread]
    if focus != spread and sum(focus.values()) == sum(spread.values()):
        out.append(focus)
    return out


def _has_law(player: dict, number: int) -> bool:
    return any(e["card"] == number for e in player["pyramid"]["cards"].values())


def _archive_options(player: dict) -> list[bool | None]:
    return [False, True] if _has_law(player, 78) else [None]


def candidates(state: dict, seat: int, rng: random.Random) -> list[dict]:
    """A short list of legal actions for ``seat`` now, most promising first (never empty)."""
    decision = state["decision"]
    if decision is not None:
        return _decision(state, seat, decision, rng)
    phase = state["phase"]
    if phase == "setup":
        return _setup(state, seat)
    if phase == "auction":
        return _auction(state, seat)
    if phase == "development":
        return _development(state, seat, rng)
    if phase == "painting":
        from .painting import best_painting

        return [{"type": "paint", "paint": best_painting(state, seat)[0]}]
    return [M.default_action(state, seat)]


def _setup(state: dict, seat: int) -> list[dict]:
    hand = state["players"][seat]["hand"]
    out = []
    for start in hand:
        keeps = [c for c in hand if c != start] if state["options"].get("deal", 4) == 4 else [None]
        for keep in keeps:
            action = {"type": "setup", "start": start, "keep": keep if keep is not None else start,
                      "reward": M.reward_choice(state, start, 1)}
            out.append(action)
    return out


def _auction(state: dict, seat: int) -> list[dict]:
    player = state["players"][seat]
    opts = M.auction_options(state, seat)
    out: list[dict] = []
    for bid in opts["bids"]:
        for card in bid["cards"]:
            for archive in _archive_options(player):
                out.append({"type": "bid", "color": bid["color"], "card": card, "archive": archive})
    for card in opts["attack"]:
        for archive in _archive_options(player):
            out.append({"type": "attack", "card": card, "archive": archive})
    for gems in _gem_variants(state["reserve"], opts["pass_gems"], needed_colours(player)):
        out.append({"type": "pass", "gems": gems})
    return out


def _reward_variants(state: dict, number: int, level: int, prefer: list[str]) -> list[dict]:
    base = M.reward_choice(state, number, level)
    if "gems" in base:
        base["gems"] = M.balanced_gems(state["reserve"], sum(base["gems"].values()), prefer)
    out = [base]
    if base.get("draw"):
        out.append(dict(base, draw=["law"] * len(base["draw"])))
    if level == 5:
        out.append({"level5": "pp"})
    return out


def _character_plays(state: dict, seat: int, number: int, prefer: list[str]) -> list[dict]:
    scored = []
    for option in M.character_plays(state, seat, number):
        if option["payment"] is None:
            continue
        level = option["level"]
        items = C.rewards(number, level) if level < 5 else [i for lv in (1, 2, 3) for i in C.rewards(number, lv)]
        scored.append((level * 2 + _reward_score(items), option["slot"], option))
    scored.sort(key=lambda x: (-x[0], x[1]))
    out = []
    for _score, _slot, option in scored[:PLACES_PER_CARD]:
        for reward in _reward_variants(state, number, option["level"], prefer):
            out.append({"type": "play", "card": number, "slot": option["slot"], **option["payment"],
                        "reward": reward, "archive": False})
    return out


def _law_plays(state: dict, seat: int, number: int, prefer: list[str], rng: random.Random) -> list[dict]:
    player = state["players"][seat]
    where = M.law_targets(state, seat, number)
    plans: list[dict] = []
    if "targets" in where:
        cards = player["pyramid"]["cards"]
        # Endowment doubles the tokens: the richest characters first. Usurpation: the cheapest card first.
        if number == 66:
            targets = sorted(where["targets"], key=lambda s: (-len(cards[s]["tokens"]), s))
        else:
            targets = sorted(where["targets"], key=lambda s: (len(cards[s]["tokens"]), s))
        for target in targets[:PLACES_PER_CARD]:
            plan = {"type": "play", "card": number, "target": target, "reward": {}}
            if number == 65:
                plan["archive"] = False
            plans.append(plan)
        return plans
    slots = sorted(where["slots"], key=lambda s: (-int(s.split(":")[0]), s))
    if not slots:
        return []
    # Higher places first (a law there frees the low ends for characters), then one random other place.
    chosen = slots[:2]
    rest = slots[2:]
    if rest:
        chosen.append(rng.choice(rest))
    for slot in chosen:
        plan: dict = {"type": "play", "card": number, "slot": slot, "reward": {}}
        if number == 69:
            offer = sorted(_offer(state))
            for take in offer[:4]:
                plans.append(dict(plan, take=take, archive=False))
            continue
        if number == 72:
            others = sorted(c for c in player["hand"] if c != 72)
            plans.append(dict(plan, tuck=[]))
            if others:
                plans.append(dict(plan, tuck=others))
            continue
        if number == 76:
            gems = player["gems"]
            total = sum(gems.values())
            for count in sorted({min(8, total), min(8, total // 2)}):
                plans.append(dict(plan, store=M.balanced_gems(gems, count, list(reversed(prefer)))))
            continue
        if number in LAW_CHOICES:
            for option in range(3):
                chosen_items = C.card(number)["effect"]["options"][option]
                items = chosen_items if isinstance(chosen_items, list) else [chosen_items]
                reward = M.reward_choice(state, number, 1, items)
                if "gems" in reward:
                    reward["gems"] = M.balanced_gems(state["reserve"], sum(reward["gems"].values()), prefer)
                reward.update({"option": option, "color": prefer[0]})
                plans.append(dict(plan, reward=reward))
            continue
        plans.append(plan)
    return plans


def _offer(state: dict) -> list[int]:
    return auction_offer(state)


def _development(state: dict, seat: int, rng: random.Random) -> list[dict]:
    player = state["players"][seat]
    prefer = needed_colours(player)
    out: list[dict] = []
    for number in sorted(player["hand"]):
        if C.is_law(number):
            out.extend(_law_plays(state, seat, number, prefer, rng))
        elif C.is_character(number):  # a module's own cards (criminals) come from its search_candidates
            out.extend(_character_plays(state, seat, number, prefer))
    extra = rules_for(state).search_candidates.get("development")
    if extra is not None:  # a module's own cards (criminals): its plays first, so a short list keeps them
        out = extra(state, seat, rng) + out
    gems = M.balanced_gems(state["reserve"], 2, prefer)
    for number in sorted(n for n in player["hand"] if C.is_law(n) or C.is_character(n)):
        out.append({"type": "discard", "card": number, "gems": gems})
    out.append({"type": "pass"})
    return out


def _decision(state: dict, seat: int, decision: dict, rng: random.Random) -> list[dict]:
    kind = decision["kind"]
    player = state["players"][seat]
    if kind == "gems":
        return [{"type": "decide", "gems": g}
                for g in _gem_variants(state["reserve"], decision["count"], needed_colours(player))]
    if kind in ("attack_pick", "solo_discard"):
        return [{"type": "decide", "card": c} for c in decision["options"]]
    if kind == "royal_favor":
        return [{"type": "decide", "slot": s} for s in decision["options"]]
    if kind == "archive":
        return [{"type": "decide", "archive": False}, {"type": "decide", "archive": True}]
    if kind == "chancery_return":
        return [{"type": "decide", "cards": list(combo)}
                for combo in combinations(sorted(decision["options"]), decision["count"])]
    if kind == "replan":
        return [{"type": "decide", "plan": plan} for plan in _development(state, seat, rng)]
    return [M.default_action(state, seat)]


# ------------------------------------------------------------------------------------ hooks for the search


def waiting(state: dict) -> list[int]:
    """Seats that must still decide now (cheaper than building every prompt)."""
    from .game import pending

    return sorted(s for s, p in pending(state).items() if not p.get("submitted"))


def is_over(state: dict) -> bool:
    return state["phase"] == "over"


ILLEGAL = (_ViceroyIllegal,)


def search_determinize(state: dict, seat: int, rng: random.Random) -> dict:
    """The determinization the search plays out: no log, every sealed choice left to the search (the
    others' are drawn from the opponent model, the seat's own is the one being chosen)."""
    out = determinize(state, seat, rng, keep_log=False, redraw_choices=False)
    out["choices"] = {}
    return out


def fast_clone(state: dict) -> dict:
    return clone(state)


def evaluate(state: dict, seat: int) -> float:
    """Value in [0, 1] of an unfinished game for ``seat``: the score if it ended now, against the best other
    (gems behind the screen count a little: they become cards or paint). Used when a play-out is cut short."""
    import math

    from .scoring import score_player

    def estimate(s: int) -> float:
        player = state["players"][s]
        return score_player(state, s)["total"] + 0.5 * sum(player["gems"].values()) + 1.5 * len(player["hand"])

    mine = estimate(seat)
    others = [estimate(s) for s in range(len(state["players"])) if s != seat]
    if not others:
        return 0.5 + 0.5 * math.tanh(mine / 50.0)
    return 0.5 + 0.5 * math.tanh((mine - max(others)) / 10.0)

