"""The Viceroy rules engine: setup, auction, development, laws, painting and the game's end.

The state is plain JSON data. ``apply_action`` validates the whole action before it changes anything, so an
illegal action leaves the state untouched. Resolution runs as a queue of small steps kept in the state; a
step that needs a player's answer (for example a gem colour the reserve no longer has) stops the queue and
records a *decision*, and the answer resumes it. This keeps every game resumable from its stored state and
replayable from its record.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from . import cards as C
from . import pyramid as P
from .errors import IllegalAction

COLORS = C.COLORS
MAX_ROUNDS = 3
PASS_GEMS = 3
DISCARD_GEMS = 2
LEVEL5_PP = 15
CHOICE_LAWS = {71, 73, 77, 80, 81, 82, 83, 84}
GEMS_IN_BOX = 16


# --------------------------------------------------------------------------------------------------- helpers


def _rng(state: dict) -> random.Random:
    """A generator for the next random draw; the counter in the state makes every draw replayable."""
    state["rng_counter"] += 1
    return random.Random(state["seed"] * 1_000_003 + state["rng_counter"])


def _zero() -> dict[str, int]:
    return dict.fromkeys(COLORS, 0)


def _gem_total(gems: dict[str, int]) -> int:
    return sum(gems.values())


def _fmt_gems(gems: dict[str, int]) -> str:
    parts = [f"{n} {c}" for c, n in gems.items() if n]
    return ", ".join(parts) if parts else "no gems"


def _p(seat: int) -> str:
    """Placeholder for a seat's display name in event texts (the bot substitutes names)."""
    return "{p" + str(seat) + "}"


def _ev(events: list, to: object, kind: str, text: str, **data: object) -> None:
    event = {"type": kind, "to": to, "text": text}
    event.update(data)
    events.append(event)


def _clean_gems(value: object, what: str) -> dict[str, int]:
    """Parse a {colour: count} mapping from an action."""
    if value is None:
        return _zero()
    if not isinstance(value, dict):
        raise IllegalAction(f"The {what} must name gem colours and counts.", "bad_gems")
    out = _zero()
    for colour, n in value.items():
        if colour not in COLORS:
            raise IllegalAction(f"'{colour}' is not a gem colour (red, green, blue, yellow).", "bad_colour")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise IllegalAction(f"The number of {colour} gems must be a whole number, 0 or more.", "bad_gems")
        out[colour] = n
    return out


def _slot_arg(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _int_arg(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _card_number(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in C.CARDS:
        raise IllegalAction("That is not a Viceroy card.", "bad_card")
    return value


def priority_order(state: dict, seats: Iterable[int]) -> list[int]:
    """Seats ordered by the lowest-numbered card in their pyramid (§8)."""

    def key(seat: int) -> tuple[int, int]:
        cards = state["players"][seat]["pyramid"]["cards"]
        low = min((e["card"] for e in cards.values()), default=999)
        return (low, seat)

    return sorted(seats, key=key)


def science_count(player: dict) -> int:
    return sum(
        1 for e in player["pyramid"]["cards"].values() for t in e["tokens"] if t["type"] == "science"
    )


def has_law_in_pyramid(player: dict, number: int) -> bool:
    return any(e["card"] == number for e in player["pyramid"]["cards"].values())


def _find_entry(player: dict, number: int) -> dict | None:
    for e in player["pyramid"]["cards"].values():
        if e["card"] == number:
            return e
    return None


def auction_offer(state: dict) -> list[int]:
    """Every character on offer at the auction (bases and tips)."""
    out = []
    for colour in COLORS:
        spot = state["auction"][colour]
        for where in ("base", "tip"):
            if spot[where] is not None:
                out.append(spot[where])
    return out


def cards_at(state: dict, colour: str) -> list[int]:
    spot = state["auction"][colour]
    return [c for c in (spot["base"], spot["tip"]) if c is not None]


def _remove_from_auction(state: dict, number: int) -> str | None:
    for colour in COLORS:
        spot = state["auction"][colour]
        for where in ("base", "tip"):
            if spot[where] == number:
                spot[where] = None
                return colour
    return None


def infinite_gems(player: dict) -> list[str]:
    """Every infinite gem in the pyramid as "slot/colour" (repeated when a card carries several)."""
    out = []
    for slot, e in player["pyramid"]["cards"].items():
        for t in e["tokens"]:
            if t["type"] == "infinite_gem":
                out.append(f"{slot}/{t['color']}")
    return out


def unused_infinite(player: dict) -> list[str]:
    """Infinite gems not yet used this turn (each may reduce one payment per turn)."""
    left = infinite_gems(player)
    for ref in player["used_infinite"]:
        if ref in left:
            left.remove(ref)
    return left


def _check_infinite(player: dict, infinite: object) -> dict[str, int]:
    """Validate a list of infinite gems to use; returns the reduction per colour."""
    if not isinstance(infinite, list) or any(not isinstance(r, str) for r in infinite):
        raise IllegalAction("Name the infinite gems you use by their card's place and colour.", "bad_infinite")
    left = unused_infinite(player)
    reduce = _zero()
    for ref in infinite:
        if ref not in left:
            if ref in infinite_gems(player):
                raise IllegalAction("Each infinite gem can be used once per turn.", "infinite_used")
            raise IllegalAction("You have no such infinite gem.", "bad_infinite")
        left.remove(ref)
        reduce[ref.rsplit("/", 1)[1]] += 1
    return reduce


def playable_level(slot: str) -> int:
    return P.parse_slot(slot)[0]


# ------------------------------------------------------------------------------------------------ new game


def new_game(options: dict | None = None, seed: int = 0, seats: int | None = None) -> dict:
    """Set up a game: reserve, starting gems, the deal (players then choose start and kept card)."""
    options = dict(options or {})
    players = seats if seats is not None else options.get("players", 2)
    if not isinstance(players, int) or not 1 <= players <= 4:
        raise IllegalAction("Viceroy is played by 1 to 4 players.", "bad_options")
    deal = options.get("deal", 4)
    if deal not in (2, 4):
        raise IllegalAction("The starting deal is 4 cards (or 2 in the first-printing variant).", "bad_options")
    virtual = options.get("virtual_opponents", 0)
    if players == 1:
        virtual = 1  # the solo game always has its virtual opponent (§11)
    if not isinstance(virtual, int) or virtual < 0 or (players >= 2 and players + virtual > 4):
        raise IllegalAction("Virtual opponents may only fill seats up to 4.", "bad_options")
    options.update({"players": players, "deal": deal, "virtual_opponents": virtual})

    state: dict = {
        "game": "viceroy",
        "version": 1,
        "options": options,
        "seed": int(seed),
        "rng_counter": 0,
        "phase": "setup",
        "turn": 0,
        "round": 0,
        "last_turn": False,
        "reserve": {c: 4 * players for c in COLORS},
        "box": {c: GEMS_IN_BOX - 4 * players for c in COLORS},
        "large_deck": [],
        "small_deck": [],
        "law_deck": [],
        "auction": {c: {"base": None, "tip": None} for c in COLORS},
        "discard": [],
        "players": [],
        "choices": {},
        "active": list(range(players)),
        "queue": [],
        "decision": None,
        "virtual": [{"out": False} for _ in range(virtual)],
        "log": [],
        "scores": None,
    }
    rng = _rng(state)
    deck = list(C.CHARACTER_NUMBERS)
    rng.shuffle(deck)
    for _ in range(players):
        gems = {c: 2 for c in COLORS}
        for c in COLORS:
            state["reserve"][c] -= 2
        pool = [c for c in COLORS for _ in range(2)]
        for c in rng.sample(pool, 2):  # return 2 random gems of the 8
            gems[c] -= 1
            state["reserve"][c] += 1
        hand = [deck.pop() for _ in range(deal)]
        state["players"].append(
            {
                "gems": gems,
                "attacks": 0,
                "hand": hand,
                "pyramid": {"cards": {}},
                "skip_next_auction": False,
                "used_infinite": [],
                "painted": None,
            }
        )
    state["large_deck"] = deck  # the rest of the characters until setup resolves
    return state


# ----------------------------------------------------------------------------------------------- prompts


def pending(state: dict) -> dict[int, dict]:
    """Seats that may act now and what each may choose."""
    if state["phase"] == "over":
        return {}
    decision = state["decision"]
    if decision is not None:
        return {decision["seat"]: dict(decision, submitted=False)}
    out: dict[int, dict] = {}
    phase = state["phase"]
    if phase == "painting":
        for seat, player in enumerate(state["players"]):
            if player["painted"] is None:
                out[seat] = {"kind": "paint", "seat": seat, "submitted": False, "gems": dict(player["gems"])}
        return out
    for seat in state["active"]:
        out[seat] = {
            "kind": phase,
            "seat": seat,
            "round": state["round"],
            "turn": state["turn"],
            "submitted": str(seat) in state["choices"],
        }
    return out


def prompt_key(state: dict, seat: int) -> str | None:
    """A short key naming the decision a seat faces now; a prompt shown with another key is stale."""
    p = pending(state).get(seat)
    if p is None:
        return None
    if p["kind"] in ("setup", "auction", "development"):
        return f"{p['kind']}:{state['turn']}:{state['round']}"
    if p["kind"] == "paint":
        return "paint"
    return f"decide:{p['kind']}:{len(state['log'])}"


def is_over(state: dict) -> bool:
    return state["phase"] == "over"


# ---------------------------------------------------------------------------------------------- validation


def _check_reward_choice(state: dict, reward: object) -> dict:
    if reward is None:
        return {}
    if not isinstance(reward, dict):
        raise IllegalAction("Reward choices must be given as a set of options.", "bad_reward")
    out = dict(reward)
    if "gems" in out:
        out["gems"] = _clean_gems(out["gems"], "gems to take")
    if "draw" in out:
        draw = out["draw"]
        if not isinstance(draw, list) or any(d not in ("law", "small") for d in draw):
            raise IllegalAction("Each card you draw comes from the law deck or the small deck.", "bad_draw")
    if "level5" in out and out["level5"] not in ("rows", "pp"):
        raise IllegalAction("On level 5 choose the rewards of rows 1-3 or the 15-PP token.", "bad_level5")
    if "color" in out and out["color"] not in COLORS:
        raise IllegalAction("Choose a gem colour: red, green, blue or yellow.", "bad_colour")
    return out


def _validate_setup(state: dict, seat: int, action: dict) -> dict:
    player = state["players"][seat]
    start, keep = action.get("start"), action.get("keep")
    hand = player["hand"]
    if start not in hand:
        raise IllegalAction("Choose your starting card from the cards you were dealt.", "bad_start")
    if state["options"]["deal"] == 2:
        keep = next(c for c in hand if c != start)
    elif keep not in hand or keep == start:
        raise IllegalAction("Choose a different dealt card to keep in your hand.", "bad_keep")
    return {"type": "setup", "start": start, "keep": keep, "reward": _check_reward_choice(state, action.get("reward"))}


def _validate_auction(state: dict, seat: int, action: dict) -> dict:
    player = state["players"][seat]
    kind = action.get("type")
    archive = action.get("archive")
    if archive is not None and not isinstance(archive, bool):
        raise IllegalAction("Archive must be yes or no.", "bad_archive")
    if kind == "bid":
        colour = action.get("color")
        if colour not in COLORS:
            raise IllegalAction("Bid a gem colour: red, green, blue or yellow.", "bad_colour")
        there = cards_at(state, colour)
        if not there:
            raise IllegalAction(f"There is no character at the {colour} auction card.", "empty_colour")
        if player["gems"][colour] < 1:
            raise IllegalAction(f"You have no {colour} gem to bid.", "no_gem")
        card = _int_arg(action.get("card"))
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
        card = action.get("card")
        if card not in auction_offer(state):
            raise IllegalAction("Attack to take a character that is on offer at the auction.", "bad_card")
        return {"type": "attack", "card": card, "archive": archive}
    if kind == "pass":
        gems = action.get("gems")
        out = {"type": "pass"}
        if gems is not None:
            gems = _clean_gems(gems, "gems to take")
            want = PASS_GEMS + science_count(player)
            if _gem_total(gems) > want:
                raise IllegalAction(f"Passing gives you {want} gems, not {_gem_total(gems)}.", "bad_gems")
            out["gems"] = gems
        return out
    raise IllegalAction("In the auction you may bid, attack or pass.", "bad_type")


def _validate_payment(player: dict, number: int, level: int, action: dict) -> tuple[dict, list[str]]:
    need = C.cost(number, level)
    pay = _clean_gems(action.get("pay"), "payment")
    infinite = action.get("infinite") or []
    reduce = _check_infinite(player, infinite)
    for c in COLORS:
        if pay[c] + reduce[c] != need[c]:
            raise IllegalAction(
                f"{C.label(number)} on level {level} costs {_fmt_gems(need)}; "
                f"your payment gives {_fmt_gems({k: pay[k] + reduce[k] for k in COLORS})}.",
                "bad_payment",
            )
        if pay[c] > player["gems"][c]:
            raise IllegalAction(f"You do not have {pay[c]} {c} gems to pay.", "cannot_pay")
    return pay, list(infinite)


def auto_payment(player: dict, number: int, level: int) -> dict | None:
    """A payment for a character (infinite gems used first), or None when it cannot be paid."""
    need = C.cost(number, level)
    infinite = []
    left = dict(need)
    for ref in unused_infinite(player):
        colour = ref.rsplit("/", 1)[1]
        if left[colour] > 0:
            left[colour] -= 1
            infinite.append(ref)
    if any(player["gems"][c] < left[c] for c in COLORS):
        return None
    return {"pay": left, "infinite": infinite}


def _validate_play(state: dict, seat: int, action: dict) -> dict:
    player = state["players"][seat]
    number = _card_number(action.get("card"))
    if number not in player["hand"]:
        raise IllegalAction(f"{C.label(number)} is not in your hand.", "not_in_hand")
    pyr = player["pyramid"]
    out = {"type": "play", "card": number, "reward": _check_reward_choice(state, action.get("reward"))}
    if C.is_law(number):
        return _validate_law(state, seat, number, action, out)
    slot = action.get("slot")
    if slot not in P.legal_slots(pyr, number):
        raise IllegalAction(f"{C.label(number)} cannot go there: choose one of the open places.", "bad_slot")
    level = playable_level(slot)
    pay, infinite = _validate_payment(player, number, level, action)
    if level == 5 and out["reward"].get("level5") is None:
        out["reward"]["level5"] = "rows"
    out.update({"slot": slot, "pay": pay, "infinite": infinite})
    return out


def _validate_law(state: dict, seat: int, number: int, action: dict, out: dict) -> dict:
    player = state["players"][seat]
    pyr = player["pyramid"]
    cards = pyr["cards"]
    if number in (65, 69):
        # The card these laws bring into the hand may go under Archive (law 78): keep the answer given.
        archive = action.get("archive")
        if archive is not None and not isinstance(archive, bool):
            raise IllegalAction("Archive must be yes or no.", "bad_archive")
        out["archive"] = archive
    if number == 66:
        target = _slot_arg(action.get("target"))
        if target not in cards or C.is_law(cards[target]["card"]):
            raise IllegalAction("Endowment goes under a character card of your pyramid.", "bad_target")
        out["target"] = target
        return out
    if number == 65:
        target = _slot_arg(action.get("target"))
        if target not in cards:
            raise IllegalAction("Usurpation replaces a card of your pyramid: choose which.", "bad_target")
        if playable_level(target) == 5:
            raise IllegalAction("Usurpation cannot replace a card on level 5.", "bad_target")
        out["target"] = target
        return out
    slot = _slot_arg(action.get("slot"))
    if slot not in P.legal_slots(pyr, number):
        raise IllegalAction(f"{C.label(number)} cannot go there: laws go on any open place below level 5.", "bad_slot")
    out["slot"] = slot
    if number == 67:
        give, take = action.get("give"), action.get("take")
        if give is None and take is None:
            return out  # the exchange is optional
        if not isinstance(give, dict) or not isinstance(take, dict):
            raise IllegalAction("Exchange of Favors swaps one of your tokens for one of another player's.", "bad_swap")
        other = take.get("seat")
        if not isinstance(other, int) or other == seat or not 0 <= other < len(state["players"]):
            raise IllegalAction("Choose another player to exchange a token with.", "bad_swap")
        _token_ref(cards, give, "your")
        _token_ref(state["players"][other]["pyramid"]["cards"], take, "their")
        pay = _clean_gems(action.get("pay"), "payment")
        infinite = action.get("infinite") or []
        _check_infinite(player, infinite)
        if _gem_total(pay) + len(infinite) != 3:
            raise IllegalAction("The exchange costs 3 gems paid to the other player.", "bad_payment")
        if any(pay[c] > player["gems"][c] for c in COLORS):
            raise IllegalAction("You do not have those gems to pay.", "cannot_pay")
        out.update({"give": dict(give), "take": dict(take), "pay": pay, "infinite": list(infinite)})
    elif number == 69:
        take = action.get("take")
        if take not in auction_offer(state):
            raise IllegalAction("Royal Decree takes a character displayed at the auction.", "bad_card")
        out["take"] = take
    elif number == 72:
        tuck = action.get("tuck") or []
        if not isinstance(tuck, list) or any(_int_arg(c) is None for c in tuck) or any(c not in player["hand"] or c == 72 for c in tuck) or len(set(tuck)) != len(tuck):
            raise IllegalAction("Secret Service takes cards from your hand.", "bad_tuck")
        out["tuck"] = list(tuck)
    elif number == 74:
        tuck = action.get("tuck")
        if tuck is not None and _slot_arg(tuck) not in cards:
            raise IllegalAction("Royal Favor takes a free card of your pyramid.", "bad_tuck")
        out["tuck"] = tuck
    elif number == 76:
        store = _clean_gems(action.get("store"), "gems to store")
        if _gem_total(store) > 8:
            raise IllegalAction("Treasury holds at most 8 gems.", "bad_store")
        if any(store[c] > player["gems"][c] for c in COLORS):
            raise IllegalAction("You do not have those gems behind your screen.", "cannot_pay")
        out["store"] = store
    elif number in CHOICE_LAWS:
        option = out["reward"].get("option")
        if option not in (0, 1, 2):
            raise IllegalAction(f"{C.label(number)}: choose one of its three options.", "choose_option")
        chosen = C.card(number)["effect"]["options"][option]
        items = chosen if isinstance(chosen, list) else [chosen]
        if any(i["type"] == "infinite_gem" for i in items) and out["reward"].get("color") is None:
            raise IllegalAction("Choose the colour of the infinite gem.", "choose_colour")
    return out


def _token_ref(cards: dict, ref: dict, whose: str) -> None:
    slot, index = _slot_arg(ref.get("slot")), _int_arg(ref.get("token"))
    if slot not in cards or not isinstance(index, int) or not 0 <= index < len(cards[slot]["tokens"]):
        raise IllegalAction(f"Choose a token lying on a card of {whose} pyramid.", "bad_swap")


def _validate_development(state: dict, seat: int, action: dict) -> dict:
    kind = action.get("type")
    player = state["players"][seat]
    if kind == "play":
        return _validate_play(state, seat, action)
    if kind == "discard":
        number = _card_number(action.get("card"))
        if number not in player["hand"]:
            raise IllegalAction(f"{C.label(number)} is not in your hand.", "not_in_hand")
        gems = _clean_gems(action.get("gems"), "gems to take")
        if _gem_total(gems) > DISCARD_GEMS:
            raise IllegalAction("Discarding a card gives you 2 gems.", "bad_gems")
        return {"type": "discard", "card": number, "gems": gems}
    if kind == "pass":
        return {"type": "pass"}
    raise IllegalAction("In the development phase you may play a card, discard one for 2 gems, or pass.", "bad_type")


def _paint(state: dict, seat: int, action: dict) -> dict[str, int]:
    """Validate and apply a painting in one go (the painting helper checks everything before it paints)."""
    from .painting import apply_painting

    paint = action.get("paint")
    if not isinstance(paint, list):
        raise IllegalAction("Painting lists the sections to paint (or nothing to skip).", "bad_paint")
    player = state["players"][seat]
    try:
        return apply_painting(player["pyramid"], player["gems"], paint)
    except ValueError as exc:
        raise IllegalAction(str(exc), "bad_paint") from exc


# ------------------------------------------------------------------------------------------- apply_action


def apply_action(state: dict, seat: int, action: dict) -> list[dict]:
    """Apply one seat's action. Raises IllegalAction (state unchanged) if the rules do not allow it."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("That is not an action.", "bad_action")
    if not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        raise IllegalAction("There is no such seat in this game.", "bad_seat")
    if state["phase"] == "over":
        raise IllegalAction("This game is over.", "game_over")
    events: list[dict] = []
    decision = state["decision"]
    if decision is not None:
        if decision["seat"] != seat:
            raise IllegalAction("We are waiting for another player's answer.", "not_your_turn")
        if action["type"] != "decide":
            raise IllegalAction("Answer the question you were asked first.", "decision_pending")
        answer = _validate_decision(state, seat, decision, action)
        state["queue"][0]["answer"] = answer
        state["decision"] = None
        _run(state, events)
        return _record(state, events)
    if action["type"] == "decide":
        raise IllegalAction("There is no question waiting for an answer.", "no_decision")
    phase = state["phase"]
    if phase == "painting":
        player = state["players"][seat]
        if player["painted"] is not None:
            raise IllegalAction("You have already painted.", "already_painted")
        if action["type"] != "paint":
            raise IllegalAction("The game is over: paint circle sections with your leftover gems, or skip.", "bad_type")
        spent = _paint(state, seat, action)
        _after_paint(state, seat, action["paint"], spent, events)
        if all(p["painted"] is not None for p in state["players"]):
            _finish(state, events)
        return _record(state, events)
    if seat not in state["active"]:
        raise IllegalAction(_not_active_message(state, seat), "not_active")
    if phase == "setup":
        choice = _validate_setup(state, seat, action)
    elif phase == "auction":
        choice = _validate_auction(state, seat, action)
    else:
        choice = _validate_development(state, seat, action)
    amended = str(seat) in state["choices"]
    state["choices"][str(seat)] = choice
    _ev(events, seat, "choice_recorded", "Your choice is recorded" + (" (changed)" if amended else "") + ".", choice=choice)
    waiting = [s for s in state["active"] if str(s) not in state["choices"]]
    _ev(events, "all", "chosen", f"{_p(seat)} has chosen.", seat=seat, waiting=waiting)
    if not waiting:
        _resolve_round(state, events)
        _run(state, events)
    return _record(state, events)


def _not_active_message(state: dict, seat: int) -> str:
    if state["phase"] == "auction":
        return "You are out of this auction phase; wait for the development phase."
    if state["phase"] == "development":
        return "You are out of this development phase; wait for the next turn."
    return "You have nothing to decide now."


def _record(state: dict, events: list[dict]) -> list[dict]:
    state["log"].extend(e for e in events if e["to"] == "all")
    return events


# ------------------------------------------------------------------------------------------- decisions


def _ask(state: dict, seat: int, kind: str, text: str, **info: object) -> bool:
    state["decision"] = {"seat": seat, "kind": kind, "text": text, **info}
    return False


def _validate_decision(state: dict, seat: int, decision: dict, action: dict) -> dict:
    kind = decision["kind"]
    player = state["players"][seat]
    if kind == "gems":
        gems = _clean_gems(action.get("gems"), "gems to take")
        count = decision["count"]
        if _gem_total(gems) != count:
            raise IllegalAction(f"Take exactly {count} gems.", "bad_gems")
        for c in COLORS:
            if gems[c] > state["reserve"][c]:
                raise IllegalAction(f"The reserve has only {state['reserve'][c]} {c} gems.", "reserve_short")
        return {"gems": gems}
    if kind in ("attack_pick", "solo_discard"):
        card = action.get("card")
        if card not in decision["options"]:
            raise IllegalAction("Choose one of the characters still on offer.", "bad_card")
        return {"card": card}
    if kind == "royal_favor":
        if action.get("slot") not in decision["options"]:
            raise IllegalAction("Choose one of your free cards.", "bad_slot")
        return {"slot": action["slot"]}
    if kind == "archive":
        if not isinstance(action.get("archive"), bool):
            raise IllegalAction("Answer yes or no: tuck the card under Archive?", "bad_archive")
        return {"archive": action["archive"]}
    if kind == "chancery_return":
        ret = action.get("cards")
        laws_in_hand = [c for c in player["hand"] if C.is_law(c)]
        need = min(2, len(laws_in_hand))
        if not isinstance(ret, list) or len(ret) != need or len(set(ret)) != need or any(c not in laws_in_hand for c in ret):
            raise IllegalAction(f"Return {need} law cards from your hand to the law deck.", "bad_return")
        return {"cards": list(ret)}
    if kind == "replan":
        plan = action.get("plan")
        if not isinstance(plan, dict):
            raise IllegalAction("Choose again: play a card, discard one, or pass.", "bad_plan")
        return {"plan": _validate_development(state, seat, plan)}
    raise IllegalAction("That answer does not fit the question.", "bad_answer")


# -------------------------------------------------------------------------------------------- resolution


def _resolve_round(state: dict, events: list) -> None:
    """All sealed choices are in: reveal them and queue their resolution."""
    choices = {int(k): v for k, v in state["choices"].items()}
    state["choices"] = {}
    phase = state["phase"]
    if phase == "setup":
        _resolve_setup(state, choices, events)
    elif phase == "auction":
        _resolve_auction_round(state, choices, events)
    else:
        _resolve_development_round(state, choices, events)


def _run(state: dict, events: list) -> None:
    """Work through the resolution queue, then advance the game until someone must decide."""
    while True:
        queue = state["queue"]
        while queue:
            step = queue[0]
            done = STEPS[step["op"]](state, step, events)
            if not done:
                return
            queue.pop(0)
        if not _advance(state, events):
            return


def _push(state: dict, *steps: dict) -> None:
    """Queue steps to run right after the current one."""
    state["queue"][1:1] = list(steps)


def _advance(state: dict, events: list) -> bool:
    """The queue is empty: move on. Returns True if more automatic work was queued."""
    phase = state["phase"]
    if phase == "setup":
        _start_turn(state, events)
        return _runs_on(state)
    if phase == "auction":
        if state["round"] >= MAX_ROUNDS or not state["active"]:
            if state["active"]:
                # Anyone still without a card after round 3 counts as having passed (§4).
                for seat in priority_order(state, state["active"]):
                    state["queue"].append(_pass_step(state, seat, None))
                    _ev(events, "all", "forced_pass", f"{_p(seat)} got no card and passes.", seat=seat)
                state["active"] = []
                return True
            _end_auction(state, events)
            _start_development(state, events)
            return _runs_on(state)
        state["round"] += 1
        _ev(events, "all", "auction_round", f"Auction round {state['round']}.", round=state["round"])
        return False
    if phase == "development":
        _auto_pass_empty_hands(state, events)
        if state["round"] >= MAX_ROUNDS or not state["active"]:
            _end_turn(state, events)
            return _runs_on(state)
        state["round"] += 1
        _ev(events, "all", "development_round", f"Development round {state['round']}.", round=state["round"])
        return False
    return False


def _runs_on(state: dict) -> bool:
    """After a phase change: keep going while nobody has anything to decide."""
    return bool(state["queue"]) or (state["phase"] != "over" and not pending(state))


def _start_turn(state: dict, events: list) -> None:
    state["turn"] += 1
    state["phase"] = "auction"
    state["round"] = 0
    if not state["large_deck"]:
        state["last_turn"] = True  # its 4 characters were revealed during the previous turn
    for v in state["virtual"]:
        v["out"] = False
    active = []
    for seat, player in enumerate(state["players"]):
        player["used_infinite"] = []
        if player["skip_next_auction"]:
            player["skip_next_auction"] = False
            _ev(events, "all", "sits_out", f"{_p(seat)} sits out this auction (Royal Decree).", seat=seat)
        else:
            active.append(seat)
    state["active"] = active
    text = f"Turn {state['turn']}" + (" (the last turn)" if state["last_turn"] else "") + ": auction phase."
    _ev(events, "all", "turn", text, turn=state["turn"], last_turn=state["last_turn"])
    if active:
        state["round"] = 1
        _ev(events, "all", "auction_round", "Auction round 1.", round=1)


def _start_development(state: dict, events: list) -> None:
    state["phase"] = "development"
    state["round"] = 1
    state["active"] = list(range(len(state["players"])))
    _ev(events, "all", "development", f"Turn {state['turn']}: development phase, round 1.", turn=state["turn"])
    _auto_pass_empty_hands(state, events)
    if not state["active"]:
        state["round"] = MAX_ROUNDS


def _auto_pass_empty_hands(state: dict, events: list) -> None:
    for seat in list(state["active"]):
        if not state["players"][seat]["hand"]:
            state["active"].remove(seat)
            _ev(events, "all", "auto_pass", f"{_p(seat)} has no card in hand and passes.", seat=seat)


def _end_turn(state: dict, events: list) -> None:
    if state["last_turn"]:
        _start_painting(state, events)
    else:
        _start_turn(state, events)


# ------------------------------------------------------------------------------------------------- setup


def _resolve_setup(state: dict, choices: dict[int, dict], events: list) -> None:
    rng = _rng(state)
    rest = state["large_deck"]
    for seat, choice in choices.items():
        player = state["players"][seat]
        rest.extend(c for c in player["hand"] if c not in (choice["start"], choice["keep"]))
        player["hand"] = [choice["keep"]]
        player["pyramid"]["cards"]["1:0"] = _entry(choice["start"], "1:0")
        _ev(events, "all", "start_card", f"{_p(seat)} starts with {C.label(choice['start'])}.", seat=seat, card=choice["start"])
    # Ruling: starting rewards resolve once the decks exist, so a card reward can be drawn.
    rng.shuffle(rest)
    state["large_deck"] = rest[:48]
    state["small_deck"] = rest[48:]
    laws = list(C.LAW_NUMBERS)
    rng.shuffle(laws)
    for player in state["players"]:
        player["hand"].extend(laws.pop() for _ in range(3))
    state["law_deck"] = laws
    _reveal(state, events)
    for seat in priority_order(state, choices):
        choice = choices[seat]
        state["queue"].append(
            {"op": "reward", "seat": seat, "card": choice["start"], "slot": "1:0", "items": list(C.rewards(choice["start"], 1)), "choice": choice["reward"]}
        )


def _entry(number: int, slot: str) -> dict:
    return {"card": number, "slot": slot, "tokens": [], "tucked": [], "gems": _zero(), "paint": {}}


def _reveal(state: dict, events: list) -> None:
    for colour in COLORS:
        if state["large_deck"]:
            state["auction"][colour]["base"] = state["large_deck"].pop()
    shown = {c: state["auction"][c]["base"] for c in COLORS}
    _ev(events, "all", "reveal", "New characters at the auction: " + ", ".join(
        f"{c}: {C.label(n)}" for c, n in shown.items() if n is not None) + ".", cards=shown)
    if not state["large_deck"] and not state["last_turn"]:
        # The turn after the last reveal is the last one (§3); _start_turn sets the flag.
        _ev(events, "all", "last_turn_next", "The large deck is empty: the next turn is the last.")


# ----------------------------------------------------------------------------------------------- auction


def _virtual_draw(state: dict) -> str | None:
    pool = [c for c in COLORS for _ in range(state["box"][c])]
    if not pool:
        return None
    return _rng(state).choice(pool)


def _resolve_auction_round(state: dict, choices: dict[int, dict], events: list) -> None:
    public = {}
    for seat, ch in choices.items():
        if ch["type"] == "bid":
            public[seat] = {"type": "bid", "color": ch["color"], "card": ch["card"]}
        elif ch["type"] == "attack":
            public[seat] = {"type": "attack", "card": ch["card"]}
        else:
            public[seat] = {"type": "pass"}
    text = "; ".join(
        f"{_p(s)} " + (
            f"bids {c['color']} for {C.label(c['card'])}" if c["type"] == "bid"
            else f"attacks for {C.label(c['card'])}" if c["type"] == "attack" else "passes"
        )
        for s, c in sorted(public.items())
    )
    virtual_bids: list[str | None] = []
    solo = state["options"]["players"] == 1
    if solo:
        if any(c["type"] == "bid" for c in choices.values()):
            virtual_bids.append(_virtual_draw(state))
    else:
        for v in state["virtual"]:
            if not v["out"]:
                virtual_bids.append(_virtual_draw(state))
    if virtual_bids:
        text += "; virtual opponents bid " + ", ".join(c or "nothing" for c in virtual_bids)
    # Seat keys as strings: events are kept in the state's log, which must stay plain JSON.
    _ev(events, "all", "auction_reveal", f"Round {state['round']} bids: {text}.",
        choices={str(k): v for k, v in public.items()}, virtual=virtual_bids)
    state["queue"].append({"op": "auction_resolve", "choices": {str(k): v for k, v in choices.items()}, "virtual": virtual_bids, "stage": 0})


def _step_auction_resolve(state: dict, step: dict, events: list) -> bool:
    """Attacks, then bids per colour, then passers take gems (§4)."""
    choices = {int(k): v for k, v in step["choices"].items()}
    attackers = priority_order(state, [s for s, c in choices.items() if c["type"] == "attack"])
    steps: list[dict] = []
    for seat in attackers:
        steps.append({"op": "attack", "seat": seat, "card": choices[seat]["card"], "archive": choices[seat].get("archive")})
    steps.append({"op": "bids", "choices": step["choices"], "virtual": step["virtual"]})
    _push(state, *steps)
    return True


def _step_attack(state: dict, step: dict, events: list) -> bool:
    seat = step["seat"]
    player = state["players"][seat]
    card = step.get("answer", {}).get("card", step["card"])
    if card not in auction_offer(state):
        offer = auction_offer(state)
        if not offer:
            _ev(events, "all", "attack_empty", f"{_p(seat)} attacked but nothing is left; the token is kept.", seat=seat)
            state["active"].remove(seat)
            _push(state, _pass_step(state, seat, None))
            return True
        return _ask(state, seat, "attack_pick", "The character you attacked for is gone: choose another.", options=offer)
    player["attacks"] -= 1
    _remove_from_auction(state, card)
    state["active"].remove(seat)
    _ev(events, "all", "attack_take", f"{_p(seat)} attacks and takes {C.label(card)}.", seat=seat, card=card)
    _push(state, {"op": "take_card", "seat": seat, "card": card, "archive": step.get("archive"), "source": "auction"})
    return True


def _step_bids(state: dict, step: dict, events: list) -> bool:
    choices = {int(k): v for k, v in step["choices"].items()}
    solo = state["options"]["players"] == 1
    virtual = step["virtual"]
    takes: list[dict] = []
    winners: set[int] = set()
    for colour in COLORS:
        bidders = [s for s, c in choices.items() if c["type"] == "bid" and c["color"] == colour]
        vbids = [v for v in virtual if v == colour]
        for s in bidders:
            state["players"][s]["gems"][colour] -= 1
            state["reserve"][colour] += 1  # every bid gem goes to the reserve
        there = cards_at(state, colour)
        if not bidders and not vbids:
            continue
        if not there:
            if bidders:
                _ev(events, "all", "bid_fails", f"No character is left at {colour}: the bids there fail.", color=colour)
            continue
        if solo:
            continue  # settled below
        won = _settle_colour(state, colour, bidders, choices, len(vbids), events)
        for seat, card in won:
            winners.add(seat)
            takes.append({"op": "take_card", "seat": seat, "card": card, "archive": choices[seat].get("archive"), "source": "auction"})
    if solo:
        takes.extend(_settle_solo(state, choices, virtual, winners, events))
    passers = priority_order(state, [s for s, c in choices.items() if c["type"] == "pass"])
    for seat in winners:
        if seat in state["active"]:
            state["active"].remove(seat)
    for seat in passers:
        state["active"].remove(seat)
    steps = takes + [_pass_step(state, s, choices[s].get("gems")) for s in passers]
    # Virtual opponents that took a card leave the auction for this turn.
    _push(state, *steps)
    return True


def _settle_colour(state: dict, colour: str, bidders: list[int], choices: dict, vcount: int, events: list) -> list[tuple[int, int]]:
    """The per-colour table of §4 with virtual opponents (§11). Returns (seat, card) wins."""
    there = cards_at(state, colour)
    spot = state["auction"][colour]
    k = len(bidders) + vcount
    wins: list[tuple[int, int]] = []

    def lose(reason: str) -> list:
        _ev(events, "all", "bid_fails", f"{colour.capitalize()}: {reason}; nobody gets a card.", color=colour)
        return []

    if k == 1:
        if bidders:
            seat = bidders[0]
            card = choices[seat]["card"] if choices[seat]["card"] in there else there[0]
            _remove_from_auction(state, card)
            _ev(events, "all", "bid_wins", f"{_p(seat)} wins {C.label(card)} with a {colour} bid.", seat=seat, card=card)
            return [(seat, card)]
        # A lone virtual opponent takes the card at the base (or the only one): it is discarded.
        card = spot["base"] if spot["base"] is not None else spot["tip"]
        _remove_from_auction(state, card)
        state["discard"].append(card)
        _mark_virtual_out(state, colour)
        _ev(events, "all", "virtual_takes", f"A virtual opponent takes {C.label(card)} ({colour}); it is discarded.", card=card)
        return []
    if k == 2 and len(there) == 2:
        if vcount == 2:
            for card in there:
                _remove_from_auction(state, card)
                state["discard"].append(card)
            _mark_virtual_out(state, colour, 2)
            _ev(events, "all", "virtual_takes", f"Two virtual opponents bid {colour}: both characters there are discarded.", color=colour)
            return []
        wants = {}
        for seat in bidders:
            wants[seat] = choices[seat]["card"]
        if vcount == 1:
            wants[-1] = spot["base"]  # Ruling: a virtual opponent wants the card at the base.
        if len(set(wants.values())) == 1:
            return lose("both bidders want the same character")
        for seat, card in wants.items():
            _remove_from_auction(state, card)
            if seat == -1:
                state["discard"].append(card)
                _mark_virtual_out(state, colour)
                _ev(events, "all", "virtual_takes", f"A virtual opponent takes {C.label(card)}; it is discarded.", card=card)
            else:
                wins.append((seat, card))
                _ev(events, "all", "bid_wins", f"{_p(seat)} wins {C.label(card)} with a {colour} bid.", seat=seat, card=card)
        return wins
    return lose(f"{k} bids for {len(there)} card{'s' if len(there) > 1 else ''}")


def _mark_virtual_out(state: dict, colour: str, count: int = 1) -> None:
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
        _ev(events, "all", "solo_clash", f"The virtual opponent also bid {colour}: a new round starts.", color=colour)
        return []
    card = choice["card"] if choice["card"] in there else there[0]
    _remove_from_auction(state, card)
    winners.add(0)
    _ev(events, "all", "bid_wins", f"{_p(0)} wins {C.label(card)} with a {colour} bid.", seat=0, card=card)
    steps = [{"op": "take_card", "seat": 0, "card": card, "archive": choice.get("archive"), "source": "auction"}]
    vthere = cards_at(state, vcolour) if vcolour else []
    if vthere:
        spot = state["auction"][vcolour]
        gone = spot["base"] if spot["base"] is not None else spot["tip"]
        _remove_from_auction(state, gone)
        state["discard"].append(gone)
        _ev(events, "all", "virtual_takes", f"The virtual opponent takes {C.label(gone)}; it is discarded.", card=gone)
    elif auction_offer(state):
        steps.append({"op": "solo_discard", "seat": 0})
    return steps


def _step_solo_discard(state: dict, step: dict, events: list) -> bool:
    offer = auction_offer(state)
    if not offer:
        return True
    answer = step.get("answer")
    if answer is None:
        return _ask(state, 0, "solo_discard", "The virtual opponent bid a colour with no card: discard one auction card.", options=offer)
    _remove_from_auction(state, answer["card"])
    state["discard"].append(answer["card"])
    _ev(events, "all", "solo_discard", f"{_p(0)} discards {C.label(answer['card'])} from the auction.", card=answer["card"])
    return True


def _pass_step(state: dict, seat: int, gems: dict | None) -> dict:
    count = PASS_GEMS + science_count(state["players"][seat])
    return {"op": "gain_gems", "seat": seat, "count": count, "choice": gems, "why": "passing"}


def _end_auction(state: dict, events: list) -> None:
    gone = []
    for colour in COLORS:
        spot = state["auction"][colour]
        if spot["tip"] is not None:
            gone.append(spot["tip"])
            state["discard"].append(spot["tip"])
        spot["tip"], spot["base"] = spot["base"], None
    if gone:
        _ev(events, "all", "tips_discarded", "Discarded from the auction tips: " + ", ".join(C.label(c) for c in gone) + ".", cards=gone)
    if state["large_deck"]:
        _reveal(state, events)


# ---------------------------------------------------------------------------------------- gems and cards


def _step_gain_gems(state: dict, step: dict, events: list) -> bool:
    """Take gems of the player's choice from the reserve, as many as it allows."""
    seat = step["seat"]
    reserve = state["reserve"]
    count = min(step["count"], _gem_total(reserve))
    if count <= 0:
        _ev(events, "all", "gems_none", f"{_p(seat)} gets no gems ({step['why']}): the reserve is empty.", seat=seat)
        return True
    choice = step.get("answer", {}).get("gems") or step.get("choice")
    if count == _gem_total(reserve):
        choice = dict(reserve)  # the reserve holds no more than is due: take all of it
    if choice is None or _gem_total(choice) != count or any(choice[c] > reserve[c] for c in COLORS):
        text = f"Choose {count} gems from the reserve ({step['why']})."
        return _ask(state, seat, "gems", text, count=count, reserve=dict(reserve), why=step["why"])
    gems = state["players"][seat]["gems"]
    for c in COLORS:
        reserve[c] -= choice[c]
        gems[c] += choice[c]
    _ev(events, "all", "gems_taken", f"{_p(seat)} takes {count} gems from the reserve ({step['why']}).", seat=seat, count=count)
    _ev(events, seat, "gems_taken_private", f"You take {_fmt_gems(choice)}.", gems=choice)
    return True


def _step_take_card(state: dict, step: dict, events: list) -> bool:
    """A card goes into the hand, or under Archive (law 78) if the player wants."""
    seat = step["seat"]
    player = state["players"][seat]
    archive = _find_entry(player, 78)
    card = step["card"]
    if archive is not None:
        want = step.get("answer", {}).get("archive", step.get("archive"))
        if want is None:
            return _ask(state, seat, "archive", f"Tuck {C.label(card)} under your Archive (4 PP at the end) instead of taking it into your hand?", card=card)
        if want:
            archive["tucked"].append(card)
            _ev(events, "all", "archived", f"{_p(seat)} tucks a card under Archive.", seat=seat)
            return True
    player["hand"].append(card)
    if step.get("source") == "draw":
        _ev(events, seat, "drew", f"You draw {C.label(card)}.", card=card)
    return True


def _draw(state: dict, seat: int, wants: list, count: int, events: list) -> list[dict]:
    """Draw cards from the law deck or the small deck (the other deck when the chosen one is empty)."""
    steps = []
    counts = {"law": 0, "small": 0}
    for i in range(count):
        want = wants[i] if i < len(wants) else "small"
        deck = "law_deck" if want == "law" else "small_deck"
        other = "small_deck" if deck == "law_deck" else "law_deck"
        if not state[deck]:
            deck = other
        if not state[deck]:
            break
        card = state[deck].pop()
        counts["law" if deck == "law_deck" else "small"] += 1
        steps.append({"op": "take_card", "seat": seat, "card": card, "archive": None, "source": "draw"})
    drawn = ", ".join(f"{n} from the {'law deck' if k == 'law' else 'small deck'}" for k, n in counts.items() if n)
    if drawn:
        _ev(events, "all", "cards_drawn", f"{_p(seat)} draws {drawn}.", seat=seat, counts=counts)
    return steps


def _place_infinite(state: dict, seat: int, entry: dict, colour: str, events: list) -> None:
    """An infinite gem comes from the reserve; failing that from the player's screen; else none (§7)."""
    player = state["players"][seat]
    if state["reserve"][colour] > 0:
        state["reserve"][colour] -= 1
    elif player["gems"][colour] > 0:
        player["gems"][colour] -= 1
    else:
        _ev(events, "all", "no_infinite", f"No {colour} gem is left for {_p(seat)}'s infinite gem.", seat=seat)
        return
    entry["tokens"].append({"type": "infinite_gem", "color": colour})


def _step_reward(state: dict, step: dict, events: list) -> bool:
    """Grant reward items onto a card (tokens), behind the screen (gems, attacks) or into the hand (cards)."""
    seat = step["seat"]
    player = state["players"][seat]
    entry = player["pyramid"]["cards"].get(step["slot"])
    choice = step.get("choice") or {}
    followups: list[dict] = []
    gem_count = 0
    draw_count = 0
    for item in step["items"]:
        kind = item["type"]
        if kind == "gems":
            gem_count += item["amount"]
        elif kind == "cards":
            draw_count += item["amount"]
        elif kind == "attack":
            if item.get("note"):
                entry["tokens"].append({"type": "attack"})  # laws 71/77: the token lies on the law card
            else:
                player["attacks"] += item["amount"]
        elif kind == "infinite_gem":
            colour = item["color"] if item["color"] != "any" else choice.get("color", "red")
            _place_infinite(state, seat, entry, colour, events)
        elif kind == "power_points":
            entry["tokens"].append({"type": "power_points", "value": item["amount"]})
        elif kind in ("science", "magic", "defense"):
            entry["tokens"].extend({"type": kind} for _ in range(item["amount"]))
        elif kind == "magic_bonus":
            entry["tokens"].append({"type": "magic_bonus", "value": item["value"]})
        elif kind == "circle_bonus":
            entry["tokens"].append({"type": "circle_bonus", "color": item["color"], "value": item["value"]})
    if draw_count:
        followups.extend(_draw(state, seat, list(choice.get("draw") or []), draw_count, events))
    if gem_count:
        followups.append({"op": "gain_gems", "seat": seat, "count": gem_count, "choice": choice.get("gems"), "why": f"reward of {C.label(step['card'])}"})
    _push(state, *followups)
    return True


def _reward_items(number: int, level: int, choice: dict) -> list[dict]:
    if level == 5:
        if choice.get("level5") == "pp":
            return [{"type": "power_points", "amount": LEVEL5_PP}]
        return [item for lv in (1, 2, 3) for item in C.rewards(number, lv)]
    return list(C.rewards(number, level))


# ------------------------------------------------------------------------------------------- development


def _resolve_development_round(state: dict, choices: dict[int, dict], events: list) -> None:
    parts = []
    for seat, ch in sorted(choices.items()):
        if ch["type"] == "play":
            parts.append(f"{_p(seat)} plays {C.label(ch['card'])}" + _where(state, seat, ch))
        elif ch["type"] == "discard":
            parts.append(f"{_p(seat)} discards {C.label(ch['card'])}")
        else:
            parts.append(f"{_p(seat)} passes")
    public = {str(s): {k: v for k, v in c.items() if k in ("type", "card", "slot", "target")} for s, c in choices.items()}
    _ev(events, "all", "development_reveal", f"Development round {state['round']}: " + "; ".join(parts) + ".", choices=public)
    for seat, ch in choices.items():
        if ch["type"] == "pass":
            state["active"].remove(seat)
    order = sorted((ch["card"], seat) for seat, ch in choices.items() if ch["type"] != "pass")
    for _, seat in order:
        state["queue"].append({"op": "develop", "seat": seat, "plan": choices[seat]})


def _where(state: dict, seat: int, plan: dict) -> str:
    """Where a played card goes, as players say it (slots are internal coordinates)."""
    if plan.get("slot"):
        return f" on level {playable_level(plan['slot'])}"
    target = state["players"][seat]["pyramid"]["cards"].get(plan.get("target") or "")
    if target is not None:
        verb = "under" if plan["card"] == 66 else "in place of"
        return f" {verb} {C.label(target['card'])}"
    return ""


def _plan_still_possible(state: dict, seat: int, plan: dict) -> bool:
    try:
        _validate_development(state, seat, plan)
    except IllegalAction:
        return False
    return True


def _step_develop(state: dict, step: dict, events: list) -> bool:
    seat = step["seat"]
    plan = step.get("answer", {}).get("plan", step["plan"])
    if "answer" not in step and not _plan_still_possible(state, seat, plan):
        return _ask(state, seat, "replan", "Your plan can no longer be carried out: choose again.")
    player = state["players"][seat]
    if plan["type"] == "pass":
        if seat in state["active"]:
            state["active"].remove(seat)
        _ev(events, "all", "passes", f"{_p(seat)} passes.", seat=seat)
        return True
    number = plan["card"]
    player["hand"].remove(number)
    if plan["type"] == "discard":
        state["discard"].append(number)
        _ev(events, "all", "discards", f"{_p(seat)} discards {C.label(number)} for 2 gems.", seat=seat, card=number)
        _push(state, {"op": "gain_gems", "seat": seat, "count": DISCARD_GEMS, "choice": plan.get("gems"), "why": "discarding a card"})
        return True
    if C.is_law(number):
        _play_law(state, seat, plan, events)
        return True
    slot = plan["slot"]
    level = playable_level(slot)
    for c in COLORS:
        player["gems"][c] -= plan["pay"][c]
        state["reserve"][c] += plan["pay"][c]
    player["used_infinite"].extend(plan["infinite"])
    entry = _entry(number, slot)
    player["pyramid"]["cards"][slot] = entry
    cost = C.cost(number, level)
    _ev(events, "all", "plays", f"{_p(seat)} plays {C.label(number)} on level {level} for {_fmt_gems(cost)}.", seat=seat, card=number, slot=slot, level=level)
    _circle_gem(state, seat, slot, events)
    choice = plan.get("reward") or {}
    _push(state, {"op": "reward", "seat": seat, "card": number, "slot": slot, "items": _reward_items(number, level, choice), "choice": choice})
    return True


def _circle_gem(state: dict, seat: int, slot: str, events: list) -> None:
    colour = P.single_colour(state["players"][seat]["pyramid"], slot)
    if colour is None:
        return
    if state["reserve"][colour] > 0:
        state["reserve"][colour] -= 1
        state["players"][seat]["gems"][colour] += 1
        _ev(events, "all", "circle_gem", f"{_p(seat)} completes a single-colour {colour} circle and takes a {colour} gem.", seat=seat, color=colour)
    else:
        _ev(events, "all", "circle_gem", f"{_p(seat)} completes a single-colour {colour} circle; no {colour} gem is left.", seat=seat, color=colour)


def _play_law(state: dict, seat: int, plan: dict, events: list) -> None:
    _laws.play(state, seat, plan, events)


# ----------------------------------------------------------------------------------------------- the end


def _start_painting(state: dict, events: list) -> None:
    state["phase"] = "painting"
    state["active"] = []
    for _seat, player in enumerate(state["players"]):
        if player["hand"]:
            state["discard"].extend(player["hand"])
            player["hand"] = []
    _ev(events, "all", "game_end", "The last turn is over. Screens are lifted; hands are discarded. Paint circle sections with leftover gems, or skip.")
    for _seat, player in enumerate(state["players"]):
        if _gem_total(player["gems"]) == 0 or not P.paintable_sections(player["pyramid"]):
            player["painted"] = []
    if all(p["painted"] is not None for p in state["players"]):
        _finish(state, events)


def _after_paint(state: dict, seat: int, paint: list, spent: dict, events: list) -> None:
    player = state["players"][seat]
    for c in COLORS:
        player["gems"][c] -= spent[c]  # the gems now lie on the painted sections
    player["painted"] = [dict(p) for p in paint]
    n = len(paint)
    _ev(events, "all", "painted", f"{_p(seat)} paints {n} section{'s' if n != 1 else ''}.", seat=seat, paint=player["painted"])


def _finish(state: dict, events: list) -> None:
    from .scoring import final_scores as score_all

    state["phase"] = "over"
    state["active"] = []
    state["scores"] = score_all(state)
    winners = [s["seat"] for s in state["scores"] if s["winner"]]
    text = "Final scores: " + "; ".join(f"{_p(s['seat'])} {s['total']}" for s in state["scores"]) + ". "
    text += ("Winner: " if len(winners) == 1 else "Shared victory: ") + ", ".join(_p(s) for s in winners) + "."
    _ev(events, "all", "final_scores", text, scores=state["scores"], winners=winners)


def final_scores(state: dict) -> list[dict] | None:
    return state["scores"]


STEPS = {
    "reward": _step_reward,
    "gain_gems": _step_gain_gems,
    "take_card": _step_take_card,
    "auction_resolve": _step_auction_resolve,
    "attack": _step_attack,
    "bids": _step_bids,
    "solo_discard": _step_solo_discard,
    "develop": _step_develop,
}

from . import laws as _laws  # noqa: E402  (laws use the helpers above)

STEPS["chancery"] = _laws.step_chancery
STEPS["royal_favor"] = _laws.step_royal_favor
