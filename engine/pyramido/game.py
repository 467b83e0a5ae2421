"""The Pyramido state machine: setup, the turn (place, score, single block card, refill), floors, the end.

State is plain JSON. Shape (see docs in data/pyramido/rules.md for the rules themselves):

    {"game": "pyramido", "seed", "seats", "options", "floor": 1..4, "starter", "turn", "step",
     "quarry": [domino id | None] * 3, "piles": [[ids, bottom .. top]] * 4,
     "players": [{"floors": [[piece]] * 4, "fills": [[fill]] * 4, "cards": [use | None] * 3,
                  "gems": [unused colours], "scores": [floor totals], "sheets": [floor sheets],
                  "shape": [W, H] | None, "lost": bool}],
     "over": bool, "reason": str, "need": "turn" | "fill" (worked out when the turn passes)}

    piece = {"d": id, "at": [x, y], "dir": "E"|"S"|"W"|"N", "gem": "a"|"b"|None,
             "card": None | {"card": 0..2, "side": colour, "block": "a"|"b", "icon": quadrant, "gem": bool}}
    fill  = {"card": 0..2, "side": colour, "at": [x, y], "icon": quadrant}

Quarry slot k (0..2) stands in front of piles k and k+1. The only random draw is the shuffle at setup (and
a random starting architect), both from the seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.api import IllegalAction as BaseIllegalAction
from engine.api import Outcome, Prompt, SeatResult, rank_results

from . import geometry as geo
from . import scoring as sc
from .tiles import CARD_FACES, COLOURS, DOMINO_COUNT, DOMINOES, QUADRANT_LABEL, QUADRANTS, icon_count

QUARRY_SLOTS = 3
PILES = 4
CARDS_PER_PLAYER = 3


class IllegalAction(BaseIllegalAction):
    """An action the Pyramido rules refuse; the state is unchanged."""


def _p(seat: int) -> str:
    """Placeholder for a seat's display name in event texts (the bot substitutes names)."""
    return "{p" + str(seat) + "}"


def _ev(events: list, kind: str, text: str, **data: Any) -> None:
    event = {"type": kind, "to": "all", "text": text}
    event.update(data)
    events.append(event)


# ---------------------------------------------------------------------------------------------------------
# Setup


def normalize_options(options: Mapping[str, Any], seats: int) -> dict:
    out = dict(options)
    if out.get("starter", "random") not in ("random", "first"):
        raise IllegalAction("bad_option", "Starting architect must be random or the first seat.")
    out.setdefault("starter", "random")
    return out


def _new_player() -> dict:
    return {
        "floors": [[] for _ in range(geo.FLOORS)],
        "fills": [[] for _ in range(geo.FLOORS)],
        "cards": [None] * CARDS_PER_PLAYER,
        "gems": list(COLOURS),
        "scores": [],
        "sheets": [],
        "shape": None,
        "lost": False,
    }


def new_game(options: Mapping[str, Any], seed: int, seats: int) -> dict:
    """A shuffled set: 3 dominoes in the quarry, the other 87 in 4 face-up piles of 22, 22, 22, 21."""
    if not 2 <= seats <= 4:
        raise IllegalAction("bad_seats", "Pyramido is played by 2–4 architects.")
    options = normalize_options(options, seats)
    rng = random.Random(seed)
    ids = list(range(DOMINO_COUNT))
    rng.shuffle(ids)
    quarry = ids[:QUARRY_SLOTS]
    rest = ids[QUARRY_SLOTS:]
    piles: list[list[int]] = []
    start = 0
    for i in range(PILES):
        size = len(rest) // PILES + (1 if i < len(rest) % PILES else 0)
        piles.append(rest[start:start + size])
        start += size
    starter = rng.randrange(seats) if options["starter"] == "random" else 0
    state = {
        "game": "pyramido",
        "seed": seed,
        "seats": seats,
        "options": options,
        "floor": 1,
        "starter": starter,
        "turn": starter,
        "step": 0,
        "quarry": quarry,
        "piles": piles,
        "players": [_new_player() for _ in range(seats)],
        "over": False,
        "reason": "",
        "need": "turn",  # what the seat to play must do: "turn", or "fill" when no domino fits its floor
    }
    return state


# ---------------------------------------------------------------------------------------------------------
# Reading a player's pyramid


def shape_of(player: dict) -> tuple[int, int] | None:
    s = player["shape"]
    return (s[0], s[1]) if s else None


def current_pairs(state: dict, seat: int) -> list[tuple[geo.Cell, geo.Cell]]:
    player = state["players"][seat]
    floor = state["floor"]
    return geo.legal_pairs(floor, sc.occupied(player, floor), shape_of(player))


def floor_complete(player: dict, floor: int) -> bool:
    return 2 * len(player["floors"][floor - 1]) + len(player["fills"][floor - 1]) == geo.floor_cells(floor)


def gaps_now(state: dict, seat: int) -> int:
    """Fewest single block cards the seat's current floor will need (0: it can still be completed)."""
    player = state["players"][seat]
    floor = state["floor"]
    return geo.floor_gaps(floor, sc.occupied(player, floor), shape_of(player))


def gaps_after(state: dict, seat: int, pair: tuple[geo.Cell, geo.Cell]) -> int:
    player = state["players"][seat]
    floor = state["floor"]
    cells = sc.occupied(player, floor)
    cells.add(pair[0])
    cells.add(pair[1])
    return geo.floor_gaps(floor, cells, shape_of(player))


def unused_cards(player: dict) -> list[int]:
    return [i for i, use in enumerate(player["cards"]) if use is None]


def must_fill(state: dict, seat: int) -> bool:
    """The seat's floor is unfinished and no domino fits: it must fill the gaps with single block cards."""
    player = state["players"][seat]
    floor = state["floor"]
    occ = sc.occupied(player, floor)
    return len(occ) < geo.floor_cells(floor) and not geo.has_legal_pair(floor, occ, shape_of(player))


def gap_cells(state: dict, seat: int) -> list[geo.Cell]:
    player = state["players"][seat]
    floor = state["floor"]
    return geo.empty_cells(floor, sc.occupied(player, floor), shape_of(player))


def gem_blocks(state: dict, seat: int, domino: int) -> list[str]:
    """Blocks ('a', 'b') of a domino on which the seat has an unused gem of the block's colour."""
    gems = state["players"][seat]["gems"]
    (ca, _), (cb, _) = DOMINOES[domino]
    return [w for w, c in (("a", ca), ("b", cb)) if c in gems]


def refill_piles(state: dict, slot: int) -> list[int]:
    """Piles that may refill quarry slot ``slot``: the two directly behind it that still hold dominoes."""
    return [p for p in (slot, slot + 1) if state["piles"][p]]


# ---------------------------------------------------------------------------------------------------------
# Prompts


def prompt_key(state: dict) -> str:
    return f"f{state['floor']}s{state['step']}"


def placement_choices(state: dict, seat: int) -> list[dict]:
    """Every position and direction for a domino now, each saying how many gaps the floor would be left with
    (0: the floor can still be completed; more: that many single block cards will be needed)."""
    out = []
    for pair in current_pairs(state, seat):
        gaps = gaps_after(state, seat, pair)
        for at, direction in geo.placements_of(pair):
            out.append({"at": [at[0], at[1]], "dir": direction,
                        "cells": [list(at), list(geo.other_cell(at, direction))], "gaps": gaps})
    return out


class _TurnChoices(Mapping):
    """The choices of a turn prompt, worked out on first read (annotating every position with the gaps it
    leaves costs a few hundred microseconds, which AI-only games never need)."""

    def __init__(self, state: dict, seat: int) -> None:
        self._state = state
        self._seat = seat
        self._data: dict | None = None

    def _load(self) -> dict:
        if self._data is None:
            self._data = turn_choices(self._state, self._seat)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._load()[key]

    def __iter__(self):
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


def turn_choices(state: dict, seat: int) -> dict:
    player = state["players"][seat]
    placements = placement_choices(state, seat)
    cards = unused_cards(player)
    return {
        "floor": state["floor"],
        "shape": player["shape"],
        "dominoes": [{"domino": d, "slot": k, "gem_blocks": gem_blocks(state, seat, d),
                      "refill": refill_piles(state, k)}
                     for k, d in enumerate(state["quarry"]) if d is not None],
        "placements": placements,
        "completable": any(p["gaps"] == 0 for p in placements),
        "gaps_now": gaps_now(state, seat),
        "gems": list(player["gems"]),
        "cards": [{"card": i, "faces": list(CARD_FACES[i])} for i in cards],
        "quadrants": list(QUADRANTS),
    }


def pending(state: dict) -> dict[int, Prompt]:
    if state["over"]:
        return {}
    seat = state["turn"]
    if state["need"] == "fill":
        player = state["players"][seat]
        choices = {
            "floor": state["floor"],
            "gaps": [list(c) for c in gap_cells(state, seat)],
            "cards": [{"card": i, "faces": list(CARD_FACES[i])} for i in unused_cards(player)],
            "quadrants": list(QUADRANTS),
        }
        return {seat: Prompt(kind="fill_gaps", key=prompt_key(state), choices=choices)}
    return {seat: Prompt(kind="turn", key=prompt_key(state), choices=_TurnChoices(state, seat))}


# ---------------------------------------------------------------------------------------------------------
# Validation helpers


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction("bad_action", f"{what} must be a whole number.")
    return value


def _cell(value: Any, what: str) -> geo.Cell:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise IllegalAction("bad_action", f"{what} must be a cell [x, y].")
    return _int(value[0], what), _int(value[1], what)


def _check_card(player: dict, spec: Any, used: set[int]) -> tuple[int, str, str]:
    if not isinstance(spec, dict):
        raise IllegalAction("bad_card", "A single block card must say which card, which side and where its "
                            "gem icon goes.")
    card = spec.get("card")
    # 1.0 == 1 would pass a plain membership test and then fail as a list index.
    if not isinstance(card, int) or isinstance(card, bool) or card not in (0, 1, 2):
        raise IllegalAction("bad_card", "There is no such single block card (cards are 0, 1 and 2).")
    if player["cards"][card] is not None or card in used:
        raise IllegalAction("card_used", "You have already played that single block card.")
    side = spec.get("side")
    if side not in CARD_FACES[card]:
        a, b = CARD_FACES[card]
        raise IllegalAction("bad_side", f"That single block card is {a} on one side and {b} on the other.")
    icon = spec.get("icon", "tl")
    if icon not in QUADRANTS:
        raise IllegalAction("bad_icon", "The card's gem icon goes in a quadrant: tl, tr, bl or br.")
    return card, side, icon


# ---------------------------------------------------------------------------------------------------------
# Apply


def apply(state: dict, seat: int, action: Mapping[str, Any]) -> list[dict]:
    """Validate the whole action, then play it and run the game on to the next decision."""
    if state["over"]:
        raise IllegalAction("game_over", "The game is over.")
    if not isinstance(seat, int) or not 0 <= seat < state["seats"]:
        raise IllegalAction("bad_seat", "There is no such seat.")
    if seat != state["turn"]:
        raise IllegalAction("not_your_turn", "It is not your turn.")
    if not isinstance(action, Mapping):
        raise IllegalAction("bad_action", "An action must be an object.")
    kind = action.get("type")
    events: list[dict] = []
    if state["need"] == "fill":
        if kind != "fill":
            raise IllegalAction("must_fill", "No domino fits your floor: fill its gaps with single block cards.")
        plan = _validate_fill(state, seat, action)
        _do_fill(state, seat, plan, events)
    else:
        if kind != "place":
            raise IllegalAction("bad_action", "Choose a domino from the quarry and place it.")
        plan = _validate_place(state, seat, action)
        _do_place(state, seat, plan, events)
    state["step"] += 1
    _advance(state, seat, events)
    return events


def _validate_place(state: dict, seat: int, action: Mapping[str, Any]) -> dict:
    player = state["players"][seat]
    domino = _int(action.get("domino"), "The domino")
    if domino not in state["quarry"]:
        raise IllegalAction("not_in_quarry", f"Domino #{domino} is not in the quarry.")
    slot = state["quarry"].index(domino)
    at = _cell(action.get("at"), "The position")
    direction = action.get("dir")
    if direction not in geo.DIRS:
        raise IllegalAction("bad_direction", "The second block lies east, south, west or north of the first "
                            "(E, S, W or N).")
    other = geo.other_cell(at, direction)
    pair = (at, other) if at < other else (other, at)
    floor = state["floor"]
    occ = sc.occupied(player, floor)
    if not geo.is_legal_pair(floor, occ, shape_of(player), pair):
        if at in occ or other in occ:
            raise IllegalAction("occupied", "That space is already built on.")
        if floor == 1 and not occ:
            raise IllegalAction("bad_position", "Your first domino starts your pyramid at (0, 0).")
        if floor == 1:
            raise IllegalAction("bad_position", "On the 1st floor a domino must share a full block side with "
                                "your floor and keep it within 5×4 (or 4×5) blocks.")
        raise IllegalAction("bad_position", f"That position is outside your floor {floor}.")
    gem = action.get("gem")
    allowed = gem_blocks(state, seat, domino)
    if gem is None and allowed:
        colours = " or ".join(DOMINOES[domino][0 if w == "a" else 1][0] for w in allowed)
        raise IllegalAction("gem_required", f"You must score the domino: place your {colours} gem on it.")
    if gem is not None and gem not in allowed:
        if gem not in ("a", "b"):
            raise IllegalAction("bad_gem", "The gem goes on block a or block b of the domino.")
        colour = DOMINOES[domino][0 if gem == "a" else 1][0]
        raise IllegalAction("no_gem", f"Your {colour} gem is already on your pyramid.")
    card = action.get("card")
    card_plan = None
    if card is not None:
        card_id, side, icon = _check_card(player, card, set())
        block = card.get("block") if isinstance(card, dict) else None
        if block not in ("a", "b"):
            raise IllegalAction("bad_card", "The single block card goes on block a or block b of the domino.")
        if block == gem:
            raise IllegalAction("card_on_gem", "A single block card goes on a block without a gem.")
        gems_left = [c for c in player["gems"] if gem is None or c != DOMINOES[domino][0 if gem == "a" else 1][0]]
        card_plan = {"card": card_id, "side": side, "block": block, "icon": icon, "gem": side in gems_left}
    piles = refill_piles(state, slot)
    refill = action.get("refill")
    if piles:
        if not isinstance(refill, int) or isinstance(refill, bool) or refill not in piles:
            names = " or ".join(f"pile {p + 1}" for p in piles)
            raise IllegalAction("bad_refill", f"Refill the quarry from {names}.")
    elif refill is not None:
        raise IllegalAction("bad_refill", "Both piles behind that quarry space are empty.")
    return {"domino": domino, "slot": slot, "at": at, "dir": direction, "gem": gem, "card": card_plan,
            "refill": refill}


def _validate_fill(state: dict, seat: int, action: Mapping[str, Any]) -> list[dict]:
    player = state["players"][seat]
    gaps = gap_cells(state, seat)
    specs = action.get("cards")
    if not isinstance(specs, list) or len(specs) != len(gaps):
        if len(gaps) == 1:
            raise IllegalAction("bad_fill", "Fill the gap with one single block card.")
        raise IllegalAction("bad_fill", f"Fill each of the {len(gaps)} gaps with one single block card.")
    used: set[int] = set()
    todo = set(gaps)
    plan = []
    for spec in specs:
        card, side, icon = _check_card(player, spec, used)
        at = _cell(spec.get("at"), "The gap")
        if at not in todo:
            raise IllegalAction("bad_fill", "Single block cards fill the gaps of your floor, one card each.")
        todo.discard(at)
        used.add(card)
        plan.append({"card": card, "side": side, "at": [at[0], at[1]], "icon": icon})
    return plan


def _do_place(state: dict, seat: int, plan: dict, events: list) -> None:
    player = state["players"][seat]
    floor = state["floor"]
    domino = plan["domino"]
    (ca, _), (cb, _) = DOMINOES[domino]
    piece = {"d": domino, "at": [plan["at"][0], plan["at"][1]], "dir": plan["dir"], "gem": plan["gem"],
             "card": plan["card"]}
    player["floors"][floor - 1].append(piece)
    parts = [f"{_p(seat)} places domino #{domino} ({ca}/{cb}) on floor {floor}"]
    if plan["gem"] is not None:
        colour = ca if plan["gem"] == "a" else cb
        player["gems"].remove(colour)
        parts.append(f"scores it with the {colour} gem")
    if plan["card"] is not None:
        card = plan["card"]
        player["cards"][card["card"]] = {"floor": floor, "use": "cover"}
        article = "an" if card["side"][:1] in "aeiou" else "a"  # an aqua card
        text = f"covers a block with {article} {card['side']} single block card"
        if card["gem"]:
            player["gems"].remove(card["side"])
            text += " and scores it"
        parts.append(text)
    state["quarry"][plan["slot"]] = None
    _ev(events, "place", ", ".join(parts) + ".", seat=seat, domino=domino, floor=floor)
    _refill(state, plan["slot"], plan["refill"], events)


def _refill(state: dict, slot: int, pile: int | None, events: list) -> None:
    if pile is None:
        return
    piles = state["piles"]
    state["quarry"][slot] = piles[pile].pop()
    if not piles[pile]:
        # There must always be 4 piles: the bottom half of the biggest other pile becomes this one.
        donor = max((p for p in range(PILES) if p != pile), key=lambda p: (len(piles[p]), -p))
        half = len(piles[donor]) // 2
        if half:
            piles[pile] = piles[donor][:half]
            piles[donor] = piles[donor][half:]
            _ev(events, "split", f"Pile {pile + 1} ran out: the bottom {half} dominoes of pile {donor + 1} "
                f"become the new pile {pile + 1}.", pile=pile, donor=donor, moved=half)


def _do_fill(state: dict, seat: int, plan: list[dict], events: list) -> None:
    player = state["players"][seat]
    floor = state["floor"]
    for fill in plan:
        player["fills"][floor - 1].append(fill)
        player["cards"][fill["card"]] = {"floor": floor, "use": "fill"}
    _ev(events, "fill", f"No domino fits: {_p(seat)} fills {len(plan)} gaps of floor {floor} with single block "
        "cards (no gem on them).", seat=seat, floor=floor, count=len(plan))


# ---------------------------------------------------------------------------------------------------------
# Running the game on


def _active(state: dict) -> list[int]:
    return [s for s in range(state["seats"]) if not state["players"][s]["lost"]]


def _advance(state: dict, last: int, events: list) -> None:
    """Next seat to act: clockwise from ``last``, skipping lost architects and finished floors; score a floor
    when every floor is finished; an architect who must fill more gaps than they hold cards for loses."""
    while True:
        active = _active(state)
        if len(active) < 2 and state["seats"] > 1:
            _finish(state, events, "last architect standing")
            return
        floor = state["floor"]
        todo = [s for s in active if not floor_complete(state["players"][s], floor)]
        if not todo:
            _score_floor(state, events)
            if state["over"]:
                return
            last = None
            seat = state["starter"]
        else:
            n = state["seats"]
            start = state["starter"] if last is None else (last + 1) % n
            seat = next((start + i) % n for i in range(n) if (start + i) % n in todo)
        state["turn"] = seat
        state["need"] = "turn"
        if must_fill(state, seat):
            state["need"] = "fill"
            need = len(gap_cells(state, seat))
            have = len(unused_cards(state["players"][seat]))
            if need > have:
                state["players"][seat]["lost"] = True
                _ev(events, "lost", f"No domino fits {_p(seat)}'s floor {floor} and {need} gaps need more single "
                    f"block cards than the {have} left: {_p(seat)} loses the game.", seat=seat, floor=floor)
                last = seat
                continue
        return


def _score_floor(state: dict, events: list) -> None:
    floor = state["floor"]
    active = _active(state)
    results = {}
    for s in active:
        player = state["players"][s]
        if floor == 1:
            _settle_first_floor(player)
        sheet = sc.score_floor(player, floor)
        player["sheets"].append(sheet)
        player["scores"].append(sheet["total"])
        player["gems"] = list(COLOURS)  # gems go back to their owners after every floor's scoring
        results[s] = sheet["total"]
        _ev(events, "floor_score", f"{_p(s)} scores {sheet['total']} on floor {floor} "
            f"({sheet['area_points']} in {len(sheet['areas'])} area{'' if len(sheet['areas']) == 1 else 's'} + "
            f"{sheet['mino_points']} Mino's bonus).",
            seat=s, floor=floor, points=sheet["total"])
    if floor == geo.FLOORS:
        _finish(state, events, "four floors built")
        return
    starter = next_starter(state["starter"], results, state["seats"])
    state["floor"] = floor + 1
    state["starter"] = starter
    _ev(events, "next_floor", f"Floor {floor + 1} begins: {_p(starter)} starts (fewest points on floor {floor}).",
        floor=floor + 1, seat=starter)


def next_starter(starter: int, results: Mapping[int, int], seats: int) -> int:
    """Who starts the next floor: the fewest points in this floor's scoring; among tied architects, the next
    one in this floor's turn order, counting from the architect after this floor's starter."""
    low = min(results.values())
    order = [(starter + 1 + i) % seats for i in range(seats)]
    return next(s for s in order if results.get(s) == low)


def _settle_first_floor(player: dict) -> None:
    """Shift a finished 1st floor so its corner is (0, 0), and fix its size for the floors above."""
    cells = sc.occupied(player, 1)
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    w = max(x for x, _ in cells) - min_x + 1
    h = max(y for _, y in cells) - min_y + 1
    for piece in player["floors"][0]:
        piece["at"] = [piece["at"][0] - min_x, piece["at"][1] - min_y]
    for fill in player["fills"][0]:
        fill["at"] = [fill["at"][0] - min_x, fill["at"][1] - min_y]
    player["shape"] = [w, h]


def _finish(state: dict, events: list, reason: str) -> None:
    state["over"] = True
    state["reason"] = reason
    _ev(events, "game_over", "The game is over.", reason=reason)


# ---------------------------------------------------------------------------------------------------------
# Outcome


def _tiebreak_key(player: dict) -> tuple:
    return (not player["lost"], sum(player["scores"]), len(unused_cards(player)), max(player["scores"], default=0))


def outcome(state: dict) -> Outcome | None:
    if not state["over"]:
        return None
    players = state["players"]
    keys = [_tiebreak_key(p) for p in players]
    ranks = rank_results(keys)
    results = []
    for s, player in enumerate(players):
        rows: list[tuple[str, int]] = []
        for sheet in player["sheets"]:
            rows.append((f"Floor {sheet['floor']}: areas", sheet["area_points"]))
            rows.append((f"Floor {sheet['floor']}: Mino's bonus", sheet["mino_points"]))
        rows.append(("Unused single block cards (1st tie-break)", len(unused_cards(player))))
        rows.append(("Best single floor (2nd tie-break)", max(player["scores"], default=0)))
        note = ""
        if player["lost"]:
            note = "lost: could not fill the gaps of a floor"
        elif ranks[s] == 1:
            rivals = [keys[o] for o in range(len(players)) if o != s and keys[o][:2] == keys[s][:2]]
            if rivals:
                # The last tie-break any rival needed names the win: a rival level on cards too means the
                # best single floor decided.
                note = ("shared victory" if any(r == keys[s] for r in rivals)
                        else "won on the best single floor" if any(r[2] == keys[s][2] for r in rivals)
                        else "won on unused single block cards")
        results.append(SeatResult(seat=s, total=sum(player["scores"]), winner=ranks[s] == 1 and not player["lost"],
                                  breakdown=tuple(rows), rank=ranks[s], note=note))
    return Outcome(results=tuple(results), reason=state["reason"])


# ---------------------------------------------------------------------------------------------------------
# Describe


def describe(action: Mapping[str, Any]) -> str:
    kind = action.get("type")
    if kind == "fill":
        cards = action.get("cards") or []
        return f"fill {len(cards)} gaps with single block cards"
    if kind != "place":
        return "unknown action"
    d = action.get("domino")
    text = f"domino #{d}"
    if d in range(DOMINO_COUNT):
        (ca, _), (cb, _) = DOMINOES[d]
        text += f" ({ca}/{cb})"
    at = action.get("at") or ["?", "?"]
    text += f" at ({at[0]}, {at[1]}) with its second block {geo.DIR_NAME.get(action.get('dir'), '?')}"
    gem = action.get("gem")
    if gem in ("a", "b") and d in range(DOMINO_COUNT):
        text += f", {DOMINOES[d][0 if gem == 'a' else 1][0]} gem"
    card = action.get("card")
    if isinstance(card, dict):
        text += (f", {card.get('side')} single block card on block {card.get('block')} "
                 f"(icon {QUADRANT_LABEL.get(card.get('icon', 'tl'), '?')})")
    if action.get("refill") is not None:
        text += f", refill from pile {action['refill'] + 1}"
    return text


def icons_of(domino: int) -> int:
    (_, ma), (_, mb) = DOMINOES[domino]
    return icon_count(ma) + icon_count(mb)
