"""Splendor Duel rules: setup, the turn (one plan per action), abilities, royal cards and the end.

The state is plain JSON. Every action is checked and carried out on a scratch copy of the parts it may
change; only a fully legal action is written back, so an IllegalAction leaves the state as it was.

Actions (dicts with "type"):
* ``{"type": "privileges", "tokens": ["C3", ...]}`` spend privileges only (the turn goes on).
* ``{"type": "replenish", "privileges": [...]}`` refill the board (its own action: the new board is seen
  before the rest of the turn is chosen).
* ``{"type": "take", "tokens": ["B2", "C3"], "privileges": [...], "discard": {...}}``
* ``{"type": "reserve", "gold": "E1", "card": "L2-05" | "deck": 2, "privileges": [...], "discard": {...}}``
* ``{"type": "buy", "card": "L1-04", "payment": {...}, "joker": "red", "take": "A1", "steal": "pearl",
  "royal": "R-4", "royal_steal": "red", "privileges": [...], "discard": {...}}``
* ``{"type": "discard", "tokens": {"red": 1}}`` when a plan left out the discard it needed.
``privileges`` and ``discard`` are optional parts of a plan; ability answers are required exactly when
the ability can resolve.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from . import board as B
from .cards import (
    CARDS,
    CROWN_THRESHOLDS,
    DECKS,
    GEM_COLORS,
    GOLD,
    LEVELS,
    MAX_RESERVED,
    PEARL,
    PRIVILEGES,
    PYRAMID_SIZE,
    ROYALS,
    SPIRAL,
    TOKEN_KINDS,
    TOKEN_LIMIT,
    TOKEN_MIX,
    WIN_COLOR_POINTS,
    WIN_CROWNS,
    WIN_POINTS,
    label,
)
from .errors import IllegalAction
from .rules import auto_payment, can_afford, check_payment, has_colored_bonus, shortfall

NON_GOLD = frozenset(GEM_COLORS + (PEARL,))
START, REPLENISHED, DISCARD, OVER = "start", "replenished", "discard", "over"
PLAN_KEYS = {
    "privileges": {"type", "tokens"},
    "replenish": {"type", "privileges"},
    "take": {"type", "tokens", "privileges", "discard"},
    "reserve": {"type", "gold", "card", "deck", "privileges", "discard"},
    "buy": {"type", "card", "payment", "joker", "take", "steal", "royal", "royal_steal", "privileges", "discard"},
    "discard": {"type", "tokens"},
}


def p(seat: int) -> str:
    """Placeholder for a seat's display name in event texts (the bot substitutes names)."""
    return "{p" + str(seat) + "}"


def _ev(events: list, to: object, kind: str, text: str, **data: object) -> None:
    event = {"type": kind, "to": to, "text": text}
    event.update(data)
    events.append(event)


def _rng(state: dict) -> random.Random:
    """A generator for the next random draw; the counter in the state makes every draw replayable."""
    state["draws"] += 1
    return random.Random(state["seed"] * 1_000_003 + state["draws"])


def _new_player() -> dict:
    return {
        "tokens": dict.fromkeys(TOKEN_KINDS, 0),
        "privileges": 0,
        "cards": [],  # [card id, colour it counts as (None for gray points-only cards)]
        "reserved": [],  # [card id, True when reserved blind from a deck]
        "royals": [],
        "bonus": dict.fromkeys(GEM_COLORS, 0),
        "color_points": dict.fromkeys(GEM_COLORS, 0),
        "points": 0,
        "crowns": 0,
    }


def new_game(options: Mapping[str, Any], seed: int, seats: int = 2) -> dict:
    if seats != 2:
        raise IllegalAction("bad_seats", "Splendor Duel is played by exactly 2 players.")
    options = dict(options)
    state: dict[str, Any] = {
        "game": "splendor_duel",
        "options": options,
        "seed": int(seed),
        "draws": 0,
        "board": [None] * 25,
        "bag": dict(TOKEN_MIX),
        "decks": {},
        "pyramid": {},
        "royals": list(ROYALS),
        "supply": PRIVILEGES,
        "players": [_new_player(), _new_player()],
        "first": 0,
        "active": 0,
        "stage": START,
        "turn": 1,
        "step": 0,
        "extra": False,
        "winner": None,
        "win_reason": None,
        "log": [],
    }
    first = options.get("first_player", "random")
    state["first"] = {"seat1": 0, "seat2": 1}.get(first, _rng(state).randrange(2))
    state["active"] = state["first"]
    rng = _rng(state)
    for level in LEVELS:
        deck = list(DECKS[level])
        rng.shuffle(deck)
        # The top of a deck is the end of its list (drawing pops it).
        state["pyramid"][str(level)] = [deck.pop() for _ in range(PYRAMID_SIZE[level])]
        state["decks"][str(level)] = deck
    _fill_board(state, _rng(state))
    second = state["players"][1 - state["first"]]
    second["privileges"] = 1
    state["supply"] -= 1
    return state


def _fill_board(s: dict, rng: random.Random) -> int:
    """Place the bag's tokens, shuffled, on the empty spaces in spiral order; how many were placed."""
    tokens = [k for k in TOKEN_KINDS for _ in range(s["bag"][k])]
    rng.shuffle(tokens)
    board = s["board"]
    placed = 0
    for cell in SPIRAL:
        if not tokens:
            break
        if board[cell] is None:
            token = tokens.pop()
            board[cell] = token
            s["bag"][token] -= 1
            placed += 1
    return placed


# ---------------------------------------------------------------------------------------------- queries


def pending_seat(state: dict) -> int | None:
    return None if state["stage"] == OVER else state["active"]


def prompt_key(state: dict) -> str:
    return f"t{state['turn']}:{state['stage']}:{state['step']}"


def token_count(player: dict) -> int:
    return sum(player["tokens"].values())


def face_up(state: dict) -> list[str]:
    return [c for level in LEVELS for c in state["pyramid"][str(level)] if c is not None]


def buyable(state: dict, seat: int) -> list[str]:
    """Cards the seat could buy now (pyramid then own reserve), with the tokens held."""
    player = state["players"][seat]
    tokens, bonus = player["tokens"], player["bonus"]
    out = [c for c in face_up(state) if can_afford(CARDS[c], tokens, bonus)]
    out += [c for c, _blind in player["reserved"] if can_afford(CARDS[c], tokens, bonus)]
    return out


def can_reserve(state: dict, seat: int) -> bool:
    if len(state["players"][seat]["reserved"]) >= MAX_RESERVED or GOLD not in state["board"]:
        return False
    return bool(face_up(state)) or any(state["decks"][str(lv)] for lv in LEVELS)


def can_take(state: dict) -> bool:
    board = state["board"]
    return board.count(None) + board.count(GOLD) < len(board)


def mandatory_possible(state: dict, seat: int) -> bool:
    return can_take(state) or can_reserve(state, seat) or bool(buyable(state, seat))


def can_replenish(state: dict) -> bool:
    return state["stage"] == START and sum(state["bag"].values()) > 0


def must_replenish(state: dict, seat: int) -> bool:
    return state["stage"] == START and not mandatory_possible(state, seat)


def no_way_forward(state: dict, seat: int) -> bool:
    """True when the seat has no mandatory action, not even after replenishing the board."""
    if mandatory_possible(state, seat):
        return False
    bag = state["bag"]
    if any(bag[k] for k in NON_GOLD):
        return False  # replenishing lays a gem or pearl, which can always be taken
    if not bag[GOLD]:
        return True
    # Replenishing would lay only gold: reserving is the one action that could follow.
    if len(state["players"][seat]["reserved"]) >= MAX_RESERVED:
        return True
    return not (face_up(state) or any(state["decks"][str(lv)] for lv in LEVELS))


def excess_tokens(player: dict) -> int:
    return max(0, token_count(player) - TOKEN_LIMIT)


def crosses_threshold(before: int, after: int) -> int | None:
    """The crown threshold (3 or 6) passed when crowns go from ``before`` to ``after``, if any."""
    for t in CROWN_THRESHOLDS:
        if before < t <= after:
            return t
    return None


def victory(player: dict) -> str | None:
    """Which victory condition the player meets, if any."""
    if player["points"] >= WIN_POINTS:
        return "points"
    if player["crowns"] >= WIN_CROWNS:
        return "crowns"
    if max(player["color_points"].values()) >= WIN_COLOR_POINTS:
        return "color"
    return None


WIN_TEXT = {
    "points": f"{WIN_POINTS} prestige points",
    "crowns": f"{WIN_CROWNS} crowns",
    "color": f"{WIN_COLOR_POINTS} prestige points in one colour",
}


# ---------------------------------------------------------------------------------------------- scratch


def _scratch(state: dict) -> dict:
    """Copies of everything an action may change, to work on until the whole action is known legal."""
    return {
        "board": list(state["board"]),
        "bag": dict(state["bag"]),
        "decks": {k: list(v) for k, v in state["decks"].items()},
        "pyramid": {k: list(v) for k, v in state["pyramid"].items()},
        "royals": list(state["royals"]),
        "supply": state["supply"],
        "draws": state["draws"],
        "seed": state["seed"],
        "players": [
            {
                "tokens": dict(pl["tokens"]),
                "privileges": pl["privileges"],
                "cards": list(pl["cards"]),
                "reserved": list(pl["reserved"]),
                "royals": list(pl["royals"]),
                "bonus": dict(pl["bonus"]),
                "color_points": dict(pl["color_points"]),
                "points": pl["points"],
                "crowns": pl["crowns"],
            }
            for pl in state["players"]
        ],
    }


def _commit(state: dict, s: dict) -> None:
    for key in ("board", "bag", "decks", "pyramid", "royals", "supply", "draws", "players"):
        state[key] = s[key]
    if "extra" in s:
        state["extra"] = s["extra"]


def _cells(value: object, what: str) -> list[int]:
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise IllegalAction("bad_cells", f"Name the {what} as a list of board spaces like C3.")
    out = []
    for name in value:
        cell = B.cell_index(name)
        if cell is None:
            raise IllegalAction("bad_cell", f"{name!r} is not a board space (columns A-E, rows 1-5, e.g. C3).")
        out.append(cell)
    if len(set(out)) != len(out):
        raise IllegalAction("bad_cells", f"The {what} name the same space twice.")
    return out


def _token_kind(value: object, what: str, allow_gold: bool = True) -> str:
    kinds = TOKEN_KINDS if allow_gold else GEM_COLORS + (PEARL,)
    if value not in kinds:
        raise IllegalAction("bad_token", f"The {what} must be one of: {', '.join(kinds)}.")
    return value  # type: ignore[return-value]


def _counts(value: object, what: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise IllegalAction("bad_counts", f"The {what} must name tokens and how many.")
    out = {}
    for kind, n in value.items():
        _token_kind(kind, what)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise IllegalAction("bad_counts", f"The number of {kind} tokens to {what} must be a whole number.")
        if n:
            out[kind] = n
    return out


def _give_privilege(s: dict, seat: int, events: list, why: str) -> None:
    """The seat takes a privilege from the supply, else from the opponent; nothing when it holds all."""
    me, other = s["players"][seat], s["players"][1 - seat]
    if s["supply"] > 0:
        s["supply"] -= 1
        me["privileges"] += 1
        _ev(events, "all", "privilege", f"{p(seat)} takes a privilege ({why}).", seat=seat, source="supply")
    elif other["privileges"] > 0:
        other["privileges"] -= 1
        me["privileges"] += 1
        _ev(events, "all", "privilege", f"{p(seat)} takes a privilege from {p(1 - seat)} ({why}).",
            seat=seat, source="opponent")
    else:
        _ev(events, "all", "privilege", f"{p(seat)} already holds every privilege ({why}).", seat=seat,
            source="none")


def _spend_privileges(s: dict, seat: int, cells: list[int], events: list) -> None:
    me = s["players"][seat]
    if len(cells) > me["privileges"]:
        held = me["privileges"]
        raise IllegalAction("no_privilege", f"You hold {held} privilege{'s' if held != 1 else ''}, not {len(cells)}.")
    taken = []
    for cell in cells:
        token = s["board"][cell]
        if token is None:
            raise IllegalAction("empty_cell", f"{B.CELL_NAMES[cell]} is empty: a privilege takes a token there.")
        if token == GOLD:
            raise IllegalAction("privilege_gold", "A privilege cannot take gold.")
        s["board"][cell] = None
        me["tokens"][token] += 1
        taken.append(token)
    if cells:
        me["privileges"] -= len(cells)
        s["supply"] += len(cells)
        _ev(events, "all", "privileges",
            f"{p(seat)} uses {len(cells)} privilege{'s' if len(cells) != 1 else ''}: {', '.join(taken)} from {', '.join(B.names(cells))}.",
            seat=seat, cells=B.names(cells), tokens=taken)


def _discard(s: dict, seat: int, counts: dict[str, int] | None, events: list) -> bool:
    """Apply the token limit. False when a discard is needed but the plan does not name it."""
    me = s["players"][seat]
    excess = excess_tokens(me)
    if counts is None:
        if excess:
            return False
        return True
    total = sum(counts.values())
    if total != excess:
        if excess == 0:
            raise IllegalAction("no_discard", "You stay within 10 tokens: there is nothing to return.")
        raise IllegalAction("discard_count", f"You would hold {token_count(me)} tokens: return exactly {excess} "
                            f"to the bag (you named {total}).")
    for kind, n in counts.items():
        if me["tokens"][kind] < n:
            held = me["tokens"][kind]
            raise IllegalAction("discard_missing", f"You would hold only {held} {kind} token{'s' if held != 1 else ''} "
                                f"to return, not {n}.")
    for kind, n in counts.items():
        me["tokens"][kind] -= n
        s["bag"][kind] += n
    if total:
        _ev(events, "all", "discard", f"{p(seat)} returns {_fmt(counts)} to the bag (limit 10 tokens).",
            seat=seat, tokens=counts)
    return True


def _fmt(counts: Mapping[str, int]) -> str:
    parts = [f"{n} {k}" for k, n in counts.items() if n]
    return ", ".join(parts) if parts else "nothing"


def _draw_to_slot(s: dict, level: int, index: int) -> None:
    deck = s["decks"][str(level)]
    s["pyramid"][str(level)][index] = deck.pop() if deck else None


# ---------------------------------------------------------------------------------------------- actions


def apply(state: dict, seat: int, action: Mapping[str, Any]) -> list[dict]:
    """Carry out one action of ``seat``; IllegalAction (nothing changed) when the rules refuse it."""
    if state["stage"] == OVER:
        raise IllegalAction("game_over", "The game is over.")
    if seat != state["active"]:
        raise IllegalAction("not_your_turn", "It is not your turn.")
    if not isinstance(action, Mapping):
        raise IllegalAction("bad_action", "An action must be an object with a type.")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in PLAN_KEYS:
        raise IllegalAction("bad_action", f"Unknown action {kind!r}: take, reserve, buy, replenish, privileges "
                            "or discard.")
    extra = set(action) - PLAN_KEYS[kind]
    if extra:
        raise IllegalAction("bad_action", f"A {kind} action has no {', '.join(sorted(extra))}.")
    stage = state["stage"]
    if stage == DISCARD and kind != "discard":
        excess = excess_tokens(state["players"][seat])
        raise IllegalAction("discard_first", f"Return {excess} token{'s' if excess != 1 else ''} to the bag first (limit 10 tokens).")
    if stage != DISCARD and kind == "discard":
        raise IllegalAction("no_discard", "There is nothing to return now: tokens are returned at the end of "
                            "your turn, within your plan.")
    if stage == REPLENISHED and (kind in ("privileges", "replenish") or action.get("privileges")):
        raise IllegalAction("after_replenish", "After replenishing the board you can no longer use privileges "
                            "or replenish again: take tokens, reserve or buy.")
    if (stage == START and kind in ("take", "reserve", "buy") and not action.get("privileges")
            and must_replenish(state, seat)):
        raise IllegalAction("must_replenish", "No action is possible: replenish the board first.")
    events: list[dict] = []
    s = _scratch(state)
    handler = _HANDLERS[kind]
    finished = handler(state, s, seat, action, events)
    _commit(state, s)
    state["step"] += 1
    if kind == "replenish":
        state["stage"] = REPLENISHED
    elif kind == "privileges":
        pass
    elif finished is None:  # a plan that still needs its discard
        state["stage"] = DISCARD
        excess = excess_tokens(state["players"][seat])
        _ev(events, seat, "discard_needed", f"You hold {token_count(state['players'][seat])} tokens: choose "
            f"{excess} to return to the bag.", count=excess)
    else:
        _end_turn(state, seat, events)
    state["log"].extend(e for e in events if e["to"] == "all")
    return events


def _act_privileges(state: dict, s: dict, seat: int, action: Mapping, events: list) -> bool:
    cells = _cells(action.get("tokens"), "privilege tokens")
    if not cells:
        raise IllegalAction("no_cells", "Choose at least one token to take with a privilege.")
    _spend_privileges(s, seat, cells, events)
    # Spending privileges must leave the turn playable (a mandatory action, or replenishing first).
    probe = dict(state)
    probe.update(board=s["board"], players=s["players"])
    if no_way_forward(probe, seat):
        raise IllegalAction("dead_end", "After those privileges you could take no action at all: keep one.")
    return True


def _act_replenish(state: dict, s: dict, seat: int, action: Mapping, events: list) -> bool:
    _spend_privileges(s, seat, _cells(action.get("privileges"), "privilege tokens"), events)
    if sum(s["bag"].values()) == 0:
        raise IllegalAction("bag_empty", "The bag is empty: there is nothing to replenish the board with.")
    placed = _fill_board(s, _rng(s))
    _ev(events, "all", "replenish", f"{p(seat)} replenishes the board ({placed} token{'s' if placed != 1 else ''} from the bag).",
        seat=seat, placed=placed)
    _give_privilege(s, 1 - seat, events, "the board was replenished")
    return True


def _act_take(state: dict, s: dict, seat: int, action: Mapping, events: list) -> bool | None:
    _spend_privileges(s, seat, _cells(action.get("privileges"), "privilege tokens"), events)
    cells = _cells(action.get("tokens"), "tokens to take")
    if not 1 <= len(cells) <= 3:
        raise IllegalAction("take_count", "Take 1 to 3 tokens.")
    line = B.as_line(cells)
    if line is None:
        raise IllegalAction("not_a_line", f"{', '.join(B.names(cells))} are not adjacent in one straight line "
                            "(row, column or diagonal) without a gap.")
    taken = []
    for cell in line:
        token = s["board"][cell]
        if token is None:
            raise IllegalAction("empty_cell", f"{B.CELL_NAMES[cell]} is empty: the line cannot cross an empty "
                                "space.")
        if token == GOLD:
            raise IllegalAction("take_gold", f"{B.CELL_NAMES[cell]} holds gold: gold is only taken by reserving "
                                "a card, and the line cannot cross it.")
        taken.append(token)
    me = s["players"][seat]
    for cell, token in zip(line, taken, strict=True):
        s["board"][cell] = None
        me["tokens"][token] += 1
    _ev(events, "all", "take", f"{p(seat)} takes {', '.join(taken)} from {', '.join(B.names(line))}.",
        seat=seat, cells=B.names(line), tokens=taken)
    if (len(taken) == 3 and len(set(taken)) == 1) or taken.count(PEARL) == 2:
        why = "both pearls were taken" if taken.count(PEARL) == 2 else "three identical tokens were taken"
        _give_privilege(s, 1 - seat, events, why)
    return _discard_part(s, seat, action, events)


def _discard_part(s: dict, seat: int, action: Mapping, events: list) -> bool | None:
    raw = action.get("discard")
    counts = None if raw is None else _counts(raw, "return")
    if counts is not None and not counts and excess_tokens(s["players"][seat]) == 0:
        return True
    return True if _discard(s, seat, counts, events) else None


def _act_reserve(state: dict, s: dict, seat: int, action: Mapping, events: list) -> bool | None:
    _spend_privileges(s, seat, _cells(action.get("privileges"), "privilege tokens"), events)
    me = s["players"][seat]
    if len(me["reserved"]) >= MAX_RESERVED:
        raise IllegalAction("reserve_full", f"You already hold {MAX_RESERVED} reserved cards.")
    gold_cell = B.cell_index(action.get("gold"))
    if gold_cell is None:
        golds = [B.CELL_NAMES[i] for i, t in enumerate(s["board"]) if t == GOLD]
        if not golds:
            raise IllegalAction("no_gold", "There is no gold on the board: you cannot reserve now.")
        raise IllegalAction("bad_cell", f"Name the gold token to take ({', '.join(golds)}).")
    if s["board"][gold_cell] != GOLD:
        raise IllegalAction("not_gold", f"{B.CELL_NAMES[gold_cell]} holds no gold.")
    card_id, deck = action.get("card"), action.get("deck")
    if (card_id is None) == (deck is None):
        raise IllegalAction("reserve_what", "Reserve either a face-up card or the top card of a deck.")
    if card_id is not None:
        slot = _pyramid_slot(s, card_id) if isinstance(card_id, str) else None
        if slot is None:
            raise IllegalAction("not_face_up", f"{card_id} is not face up in the pyramid.")
        level, index = slot
        _draw_to_slot(s, level, index)
        me["reserved"].append([card_id, False])
        _ev(events, "all", "reserve", f"{p(seat)} takes gold and reserves {label(card_id)}.", seat=seat,
            card=card_id)
    else:
        if isinstance(deck, bool) or str(deck) not in ("1", "2", "3"):
            raise IllegalAction("bad_deck", "Choose deck 1, 2 or 3.")
        level = int(deck)
        pile = s["decks"][str(level)]
        if not pile:
            raise IllegalAction("deck_empty", f"The level-{level} deck is empty.")
        card_id = pile.pop()
        me["reserved"].append([card_id, True])
        _ev(events, "all", "reserve", f"{p(seat)} takes gold and reserves the top card of the level-{level} "
            "deck.", seat=seat, deck=level)
        _ev(events, seat, "reserve_secret", f"You reserved {label(card_id)} from the level-{level} deck.",
            seat=seat, card=card_id)
    s["board"][gold_cell] = None
    me["tokens"][GOLD] += 1
    return _discard_part(s, seat, action, events)


def _pyramid_slot(s: dict, card_id: object) -> tuple[int, int] | None:
    for level in LEVELS:
        row = s["pyramid"][str(level)]
        for i, c in enumerate(row):
            if c is not None and c == card_id:
                return level, i
    return None


def _act_buy(state: dict, s: dict, seat: int, action: Mapping, events: list) -> bool | None:
    _spend_privileges(s, seat, _cells(action.get("privileges"), "privilege tokens"), events)
    me = s["players"][seat]
    card_id = action.get("card")
    if not isinstance(card_id, str) or card_id not in CARDS:
        raise IllegalAction("bad_card", f"{card_id!r} is not a jewel card.")
    card = CARDS[card_id]
    slot = _pyramid_slot(s, card_id)
    reserved_at = next((i for i, (c, _b) in enumerate(me["reserved"]) if c == card_id), None)
    if slot is None and reserved_at is None:
        raise IllegalAction("not_available", f"{card_id} is neither face up in the pyramid nor in your reserve.")
    # The joker's colour and its requirement.
    joker = action.get("joker")
    if card.is_joker:
        if not has_colored_bonus(me["bonus"]):
            raise IllegalAction("joker_needs_bonus", f"{card_id} is a joker: you need a card with a coloured "
                                "bonus to place it on before you can buy it.")
        if joker not in GEM_COLORS:
            raise IllegalAction("joker_color", f"Choose the colour column for {card_id} (a colour you have a "
                                "bonus in).")
        if me["bonus"][joker] <= 0:
            raise IllegalAction("joker_color", f"You have no {joker} bonus to place {card_id} on.")
    elif joker is not None:
        raise IllegalAction("not_joker", f"{card_id} is not a joker: it has no colour to choose.")
    # Payment: the given one checked exactly, or matching tokens first and gold for the rest.
    if action.get("payment") is None:
        pay = auto_payment(card, me["tokens"], me["bonus"])
        if pay is None:
            raise IllegalAction("cannot_afford", f"You cannot pay for {card_id}: " + _missing_text(card, me))
    else:
        pay = _counts(action.get("payment"), "pay")
        problem = check_payment(card, me["tokens"], me["bonus"], pay)
        if problem:
            raise IllegalAction("bad_payment", problem)
    for kind, n in pay.items():
        me["tokens"][kind] -= n
        s["bag"][kind] += n
    # The card leaves its place; a pyramid slot is refilled before the ability resolves.
    if slot is not None:
        _draw_to_slot(s, *slot)
    else:
        me["reserved"].pop(reserved_at)
    color = joker if card.is_joker else card.color
    me["cards"].append([card_id, color])
    if color is not None:
        me["bonus"][color] += card.bonus
        me["color_points"][color] += card.points
    me["points"] += card.points
    crowns_before = me["crowns"]
    me["crowns"] += card.crowns
    paid = _fmt(pay) if pay else "nothing"
    where = "" if slot is not None else " from their reserve"
    _ev(events, "all", "buy", f"{p(seat)} buys {label(card_id)}{where}, paying {paid}"
        + (f", placed as {joker}" if joker else "") + ".", seat=seat, card=card_id, payment=pay, joker=joker)
    extra = False
    answers_used: set[str] = set()
    for ability in card.abilities:
        extra |= _ability(s, seat, ability, card.color, action, "take", "steal", answers_used, events)
    # Royal cards at 3 and 6 crowns.
    royal_id = action.get("royal")
    threshold = crosses_threshold(crowns_before, me["crowns"])
    if threshold is not None and s["royals"]:
        if royal_id not in s["royals"]:
            names = ", ".join(label(r) for r in s["royals"])
            raise IllegalAction("royal_choice", f"Your crowns reach {threshold}: choose a royal card ({names}).")
        s["royals"].remove(royal_id)
        royal = ROYALS[royal_id]
        me["royals"].append(royal_id)
        me["points"] += royal.points
        answers_used.add("royal")
        _ev(events, "all", "royal", f"{p(seat)} reaches {threshold} crowns and takes {label(royal_id)}.",
            seat=seat, royal=royal_id)
        for ability in royal.abilities:
            extra |= _ability(s, seat, ability, None, action, None, "royal_steal", answers_used, events)
    for key in ("take", "steal", "royal", "royal_steal"):
        if action.get(key) is not None and key not in answers_used:
            raise IllegalAction("unused_answer", _unused_text(key, card_id))
    s["extra"] = extra
    return _discard_part(s, seat, action, events)


def _missing_text(card: Any, me: dict) -> str:
    short = shortfall(card, me["tokens"], me["bonus"]) - me["tokens"][GOLD]
    return f"{short} token{'s' if short != 1 else ''} short even with your gold."


def _unused_text(key: str, card_id: str) -> str:
    return {
        "take": f"{card_id} gives no token to take now: leave out the token to take.",
        "steal": f"{card_id} steals nothing now: leave out the token to steal.",
        "royal": "Your crowns do not reach a new royal card with this purchase: leave out the royal card.",
        "royal_steal": "No royal card lets you steal now: leave out the royal steal.",
    }[key]


def _ability(s: dict, seat: int, ability: str, color: str | None, action: Mapping, take_key: str | None,
             steal_key: str, used: set[str], events: list) -> bool:
    """Resolve one ability of a card gained by ``seat``; True when it grants an extra turn."""
    me, other = s["players"][seat], s["players"][1 - seat]
    if ability == "extra_turn":
        _ev(events, "all", "ability", f"{p(seat)} will take an extra turn.", seat=seat, ability=ability)
        return True
    if ability == "take_privilege":
        _give_privilege(s, seat, events, "card ability")
        return False
    if ability == "take_token_of_card_color_from_board" and take_key:
        cells = [i for i, t in enumerate(s["board"]) if t == color]
        if not cells:
            _ev(events, "all", "ability", f"No {color} token on the board: {p(seat)} takes none.", seat=seat,
                ability=ability)
            return False
        cell = B.cell_index(action.get(take_key))
        if cell is None or s["board"][cell] != color:
            raise IllegalAction("take_ability", f"The card lets you take a {color} token: choose one of "
                                f"{', '.join(B.names(cells))}.")
        s["board"][cell] = None
        me["tokens"][color] += 1
        used.add(take_key)
        _ev(events, "all", "ability", f"{p(seat)} takes {color} from {B.CELL_NAMES[cell]} (card ability).",
            seat=seat, ability=ability, cell=B.CELL_NAMES[cell])
        return False
    if ability == "steal_token_from_opponent":
        kinds = [k for k in GEM_COLORS + (PEARL,) if other["tokens"][k] > 0]
        if not kinds:
            _ev(events, "all", "ability", f"{p(1 - seat)} has no gem or pearl to steal.", seat=seat,
                ability=ability)
            return False
        kind = action.get(steal_key)
        if kind == GOLD:
            raise IllegalAction("steal_gold", "Gold can never be stolen.")
        if kind not in kinds:
            raise IllegalAction("steal_choice", f"Choose a token to steal from your opponent: {', '.join(kinds)}.")
        other["tokens"][kind] -= 1
        me["tokens"][kind] += 1
        used.add(steal_key)
        _ev(events, "all", "ability", f"{p(seat)} steals {kind} from {p(1 - seat)}.", seat=seat,
            ability=ability, token=kind)
        return False
    return False  # joker_bonus_copy is resolved when the card is placed


def _act_discard(state: dict, s: dict, seat: int, action: Mapping, events: list) -> bool:
    counts = _counts(action.get("tokens"), "return")
    _discard(s, seat, counts, events)
    s["extra"] = state["extra"]
    return True


_HANDLERS = {
    "privileges": _act_privileges,
    "replenish": _act_replenish,
    "take": _act_take,
    "reserve": _act_reserve,
    "buy": _act_buy,
    "discard": _act_discard,
}


def _end_turn(state: dict, seat: int, events: list) -> None:
    """Victory check for the active player, then the next turn (an extra turn only if nobody won)."""
    me = state["players"][seat]
    won = victory(me)
    extra = bool(state["extra"])
    state["extra"] = False
    if won:
        state["winner"] = seat
        state["win_reason"] = won
        state["stage"] = OVER
        _ev(events, "all", "victory", f"{p(seat)} wins with {WIN_TEXT[won]}!", seat=seat, reason=won)
        return
    state["turn"] += 1
    state["stage"] = START
    if not extra:
        state["active"] = 1 - seat
    _ev(events, "all", "turn", f"{'Extra turn' if extra else 'Turn'} for {p(state['active'])}.",
        seat=state["active"], extra=extra)

