"""Determinization: a full Viceroy state consistent with everything one seat may know, the rest re-drawn.

Search AIs sample many such states at each decision and play them out; the secrecy tests check that two true
states that look the same to a seat give the same samples. So everything here is computed from what the seat
may know: its own screen and hand, the public table (`views.view`) and the public event log (`state["log"]`,
which holds only events sent to everyone). The true values of the hidden parts are never read; only their
*sizes* (hand sizes, deck sizes, gem counts behind each screen) are, and those are public.

What is re-drawn, for every other seat:
* the cards in hand that nobody has seen (characters and laws, shuffled together with the unseen cards of the
  three decks; a card publicly won at the auction, taken by attack, Royal Decree or Usurpation stays known
  until it shows up elsewhere);
* the gem colours behind the screen (each screen keeps its public gem count; the colour totals over all
  other screens are public by gem conservation);
* unrevealed sealed choices (re-drawn from the baseline policy), and the hidden parts of revealed plans still
  waiting in the resolution queue (payments, reward choices);
* the order of every deck (large, small, law) and the seed of later random draws (virtual opponents).

Public by deduction and so kept: attack tokens behind a screen (they come only from character rewards, which
are public, and are spent publicly: `public_attacks` recounts them from the log), and how many laws each hand
holds (every draw names its deck; every setup deals three).
"""

from __future__ import annotations

import random
from collections import Counter

from . import cards as C
from . import moves as M
from .auction import auction_offer
from .clone import clone
from .rules import rules_for

COLORS = C.COLORS
GEMS_PER_COLOUR = 16
_TAKE_EVENTS = ("bid_wins", "attack_take", "royal_decree", "usurpation")
__all__ = ["clone", "determinize", "known_in_hand", "public_attacks"]


def _visible_cards(state: dict) -> set[int]:
    """Cards whose place everybody sees: pyramids (tucked cards included), the auction and the discard."""
    seen: set[int] = set(state["discard"])
    seen.update(auction_offer(state))
    for player in state["players"]:
        for entry in player["pyramid"]["cards"].values():
            seen.add(entry["card"])
            seen.update(entry["tucked"])
    return seen


def _transit(state: dict) -> list[tuple[int, dict]]:
    """Cards on their way into a hand (take_card steps of the resolution queue), with their step index."""
    return [(i, step) for i, step in enumerate(state["queue"]) if step["op"] == "take_card"]


def known_in_hand(state: dict) -> dict[int, set[int]]:
    """Per seat, the cards everybody knows are in that hand: taken publicly and not seen anywhere since."""
    known: dict[int, set[int]] = {s: set() for s in range(len(state["players"]))}
    for event in state["log"]:
        kind = event.get("type")
        if kind in _TAKE_EVENTS and isinstance(event.get("seat"), int):
            known[event["seat"]].add(event["card"])
        elif kind == "chancery_return" and isinstance(event.get("seat"), int):
            # Which laws went back is secret: a law known to be in that hand is no longer known.
            known[event["seat"]] = {c for c in known[event["seat"]] if not C.is_law(c)}
    gone = _visible_cards(state)
    in_transit = {step["card"] for _, step in _transit(state) if step.get("source") != "draw"}
    for seat in known:
        known[seat] -= gone | in_transit
    # A card of a revealed development plan still waiting in the queue is still in its owner's hand.
    for step in state["queue"]:
        if step["op"] == "develop" and step["plan"].get("card") is not None:
            known[step["seat"]].add(step["plan"]["card"])
    return known


def public_attacks(state: dict, seat: int) -> int:
    """Attack tokens behind ``seat``'s screen, recounted from public events (rewards and attacks)."""
    return _public_attacks(state, [seat])[seat]


def _public_attacks(state: dict, seats: list[int]) -> dict[int, int]:
    """public_attacks for each of ``seats``, from one pass over the log."""
    counts = dict.fromkeys(seats, 0)
    cards_of = {s: state["players"][s]["pyramid"]["cards"] for s in seats}
    for event in state["log"]:
        seat = event.get("seat")
        try:
            if seat not in counts:
                continue
        except TypeError:  # an unhashable "seat" (a list of seats) is none of them
            continue
        kind = event.get("type")
        number = event.get("card")
        if kind == "start_card":
            counts[seat] += _attacks_in(C.rewards(number, 1))
        elif kind == "plays" and number is not None and not C.is_law(number):
            level = event["level"]
            if level < 5:
                counts[seat] += _attacks_in(C.rewards(number, level))
            else:
                entry = cards_of[seat].get(event.get("slot") or "")
                took_pp = entry is not None and any(
                    t["type"] == "power_points" and t.get("value") == 15 for t in entry["tokens"])
                if not took_pp:
                    counts[seat] += sum(_attacks_in(C.rewards(number, lv)) for lv in (1, 2, 3))
        elif kind == "attack_take":
            counts[seat] -= 1
        elif kind == "attacks_gained":  # a module's public attack reward (e.g. a domain card's)
            counts[seat] += event["amount"]
    return {s: max(0, n) for s, n in counts.items()}


def _attacks_in(items: list[dict]) -> int:
    return sum(i.get("amount", 1) for i in items if i["type"] == "attack" and not i.get("note"))


def _hidden_gem_totals(state: dict, seat: int) -> dict[str, int]:
    """Gems of each colour behind the other screens, by conservation: 16 per colour minus every seen gem."""
    total = dict.fromkeys(COLORS, GEMS_PER_COLOUR)
    for c in COLORS:
        total[c] -= state["reserve"][c] + state["box"][c] + state["players"][seat]["gems"][c]
    for player in state["players"]:
        for entry in player["pyramid"]["cards"].values():
            for c in COLORS:
                total[c] -= entry["gems"][c]
            for token in entry["tokens"]:
                if token["type"] == "infinite_gem":
                    total[token["color"]] -= 1
        for item in player["painted"] or []:
            total[item["color"]] -= 1
    for zone in rules_for(state).public_gems:  # a module's public gems (combat cards)
        for c, n in zone(state).items():
            total[c] -= n
    return total


def determinize(state: dict, seat: int, rng: random.Random, *, keep_log: bool = True,
                redraw_choices: bool = True) -> dict:
    """A full state that ``seat`` cannot tell from ``state``, with every secret of the others re-drawn.

    keep_log=False drops the public log from the copy (search play-outs do not need it and copy faster).
    redraw_choices=False leaves the other seats' sealed choices out instead of re-drawing them (the search
    samples them itself).
    """
    log = state["log"]
    if keep_log:
        out = clone(state)
    else:
        state["log"] = []
        try:
            out = clone(state)
        finally:
            state["log"] = log
    out["seed"] = rng.getrandbits(48)  # later random draws (virtual opponents) are unknown too
    others = [s for s in range(len(state["players"])) if s != seat]
    known = known_in_hand(state)
    if state["phase"] == "over":
        return out

    # Cards: everything not seen by this seat is one pool per kind, dealt back into the same hidden places.
    rules = rules_for(state)  # the cards in this game (modules add theirs)
    seen = _visible_cards(state) | set(state["players"][seat]["hand"])
    for s in others:
        seen |= known[s]
    transit = []
    for i, step in _transit(state):
        if step["seat"] == seat or step.get("source") != "draw":
            seen.add(step["card"])  # a public take, or one's own draw
        if step["seat"] != seat:
            transit.append((i, step))
    hidden_transit = [i for i, step in transit if step.get("source") == "draw"]
    pools = {
        "char": [n for n in rules.characters if n not in seen],
        "law": [n for n in rules.law_cards if n not in seen],
    }
    slots: dict[str, list[tuple]] = {"char": [], "law": []}
    slots["char"] += [("large_deck", len(state["large_deck"])), ("small_deck", len(state["small_deck"]))]
    slots["law"].append(("law_deck", len(state["law_deck"])))
    for s in others:
        hand = state["players"][s]["hand"]
        laws = sum(1 for c in hand if C.is_law(c)) - sum(1 for c in known[s] if C.is_law(c))
        # Cards of a module's own kind (criminals) are neither: the module's determinize hook re-draws them.
        chars = sum(1 for c in hand if C.is_character(c)) - sum(1 for c in known[s] if C.is_character(c))
        slots["char"].append(("hand", s, chars))
        slots["law"].append(("hand", s, laws))
    for i in hidden_transit:
        kind = "law" if C.is_law(state["queue"][i]["card"]) else "char"
        slots[kind].append(("transit", i, 1))
    new_hands: dict[int, list[int]] = {s: sorted(known[s]) for s in others}
    for kind in ("char", "law"):
        pool = pools[kind]
        need = sum(slot[-1] for slot in slots[kind])
        if need == 0:
            continue  # e.g. laws before setup resolves: they are not dealt yet
        if len(pool) != need:
            raise ValueError(f"determinize: {len(pool)} unseen {kind} cards for {need} hidden places")
        rng.shuffle(pool)
        at = 0
        for slot in slots[kind]:
            count = slot[-1]
            cards = pool[at:at + count]
            at += count
            if slot[0] in ("large_deck", "small_deck", "law_deck"):
                out[slot[0]] = cards
            elif slot[0] == "hand":
                new_hands[slot[1]] += cards
            else:
                out["queue"][slot[1]]["card"] = cards[0]
    for s in others:
        out["players"][s]["hand"] = new_hands[s]
    for redraw in rules.determinize:  # a module's own secrets
        redraw(state, out, seat, rng)

    # Gems behind the other screens: same count per screen, colours dealt from the hidden colour totals.
    totals = _hidden_gem_totals(state, seat)
    counts = {s: sum(state["players"][s]["gems"].values()) for s in others}
    if sum(totals.values()) != sum(counts.values()) or min(totals.values()) < 0:
        raise ValueError("determinize: gem accounting does not add up")
    gems = [c for c in COLORS for _ in range(totals[c])]
    rng.shuffle(gems)
    attacks = _public_attacks(state, others)
    at = 0
    for s in others:
        mine = dict.fromkeys(COLORS, 0)
        for c in gems[at:at + counts[s]]:
            mine[c] += 1
        at += counts[s]
        out["players"][s]["gems"] = mine
        out["players"][s]["attacks"] = attacks[s]
        out["players"][s]["used_infinite"] = []

    _scrub_queue(out, seat, rng)
    # Sealed choices of the others are secret until the reveal.
    out["choices"] = {k: v for k, v in state["choices"].items() if k == str(seat)}
    if redraw_choices:
        _redraw_choices(out, state, seat, rng)
    return out


def _redraw_choices(out: dict, state: dict, seat: int, rng: random.Random) -> None:
    from .ai import choose_action
    from .game import apply_action

    for key in sorted(state["choices"], key=int):
        s = int(key)
        if s == seat:
            continue
        action = choose_action(out, s, rng)
        # Record it as the engine does, without resolving the round: the probe (a shallow copy whose
        # validation reads but never writes the shared parts) keeps a placeholder seat waiting.
        probe = dict(out)
        probe.update({"choices": {}, "active": [s, -1], "log": []})
        apply_action(probe, s, action)
        out["choices"][key] = probe["choices"][key]


def _scrub_queue(out: dict, seat: int, rng: random.Random) -> None:
    """Hidden parts of the other seats' steps still waiting in the resolution queue are re-drawn."""
    for step in out["queue"]:
        owner = step.get("seat")
        if step["op"] in ("auction_resolve", "bids", "diamond_bids_done"):  # (a module's diamond-bid step too)
            for key, choice in step["choices"].items():
                if key != str(seat):
                    choice.pop("gems", None)
                    choice["archive"] = None
            continue
        if owner is None or owner == seat:
            continue
        if "archive" in step:
            step["archive"] = None
        if step["op"] in ("gain_gems", "royal_favor"):
            step["choice"] = None
        elif step["op"] in ("reward", "monster_reward"):  # (a module's reward step too)
            step["choice"] = _public_reward(step.get("choice"))
        elif step["op"] == "develop":
            step["plan"] = _public_plan(out, owner, step["plan"], rng)


def _public_reward(choice: dict | None) -> dict:
    """What of a reward choice is kept: the law option and colour (they shape the queued items)."""
    choice = choice or {}
    return {k: v for k, v in choice.items() if k in ("option", "color", "level5")}


def _public_plan(state: dict, seat: int, plan: dict, rng: random.Random) -> dict:
    """A revealed plan keeps what was revealed (type, card, place); the rest is re-drawn."""
    kind = plan["type"]
    out = {k: v for k, v in plan.items() if k in ("type", "card", "slot", "target")}
    if kind == "discard":
        out["gems"] = M.balanced_gems(state["reserve"], 2, list(rng.sample(COLORS, 4)))
        return out
    if kind != "play":
        return out
    number = plan["card"]
    reward: dict = {}
    if not C.is_law(number) and not C.is_character(number):
        # A module's own card (a criminal): its place and line are revealed; the reward choices are re-drawn.
        return {**{k: v for k, v in plan.items() if k != "reward"}, "reward": {}}
    if C.is_law(number):
        effect = C.card(number)["effect"]
        if effect.get("kind") == "choice":
            reward = {"option": rng.randrange(3), "color": rng.choice(COLORS)}
        if number in (65, 69):
            out["archive"] = None
        if number == 69:
            offer = auction_offer(state)
            if offer:
                out["take"] = rng.choice(offer)
        elif number == 72:
            out["tuck"] = []
        elif number == 76:
            gems = state["players"][seat]["gems"]
            out["store"] = M.balanced_gems(gems, min(8, sum(gems.values()) // 2))
        out["reward"] = reward
        return out
    for option in M.character_plays(state, seat, number):
        if option["slot"] == plan.get("slot") and option["payment"] is not None:
            out.update(option["payment"])
            break
    else:
        out.update({"pay": dict(C.cost(number, int(plan["slot"].split(":")[0]))), "infinite": []})
    out["reward"] = {"level5": "rows"} if plan["slot"].startswith("5:") else {}
    out["archive"] = None
    return out


def hidden_summary(state: dict, seat: int) -> Counter:
    """For tests: how many hidden cards of each kind the others hold (a public quantity)."""
    out: Counter = Counter()
    known = known_in_hand(state)
    for s, player in enumerate(state["players"]):
        if s != seat:
            for c in player["hand"]:
                if c not in known[s]:
                    out["law" if C.is_law(c) else "char"] += 1
    return out
