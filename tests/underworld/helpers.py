"""Builders for the Underworld tests: a game with darkness + underworld in its development phase, criminals
moved into hands, pyramids with level-0 cards, and judgement tokens handed out by kind."""

from __future__ import annotations

from engine.viceroy import apply_action
from engine.viceroy.modules.carddata import DOMAIN
from engine.viceroy.modules.criminals import JUDGEMENT
from engine.viceroy.state import new_entry
from tests.darkness.helpers import started
from tests.engine.helpers import gems, set_hand, set_pyramid, settle, to_development

MODULES = ["darkness", "underworld"]
PASS = {"type": "pass"}


def ext(state: dict) -> dict:
    return state["ext"]["underworld"]


def take_criminal(state: dict, number: int) -> None:
    """Take a criminal out of the criminal deck, a hand or a pyramid."""
    x = ext(state)
    if number in x["deck"]:
        x["deck"].remove(number)
        return
    for player in state["players"]:
        if number in player["hand"]:
            player["hand"].remove(number)
            return
        for slot, entry in list(player["pyramid"]["cards"].items()):
            if entry["card"] == number:
                del player["pyramid"]["cards"][slot]
                return
    if number in state["discard"]:
        state["discard"].remove(number)
        return
    raise AssertionError(f"criminal {number} is nowhere")


def hand(state: dict, seat: int, cards: list[int]) -> None:
    """Exactly these cards in hand (criminals and base cards); the old criminals go back under the deck."""
    x = ext(state)
    player = state["players"][seat]
    old = [c for c in player["hand"] if c >= 130 and c <= 153]
    player["hand"] = [c for c in player["hand"] if c not in old]
    x["deck"][0:0] = old
    base = [c for c in cards if not 130 <= c <= 153]
    set_hand(state, seat, base)
    for c in cards:
        if 130 <= c <= 153:
            take_criminal(state, c)
            player["hand"].append(c)


def pyramid(state: dict, seat: int, layout: dict[str, int], tokens: dict | None = None) -> dict:
    """A pyramid of base cards, criminals (on level 0) and the domain card (at ``"1:0"`` unless placed)."""
    base = {s: n for s, n in layout.items() if not 130 <= n <= 153 and n != DOMAIN}
    cards = set_pyramid(state, seat, base, tokens)
    while DOMAIN in state["discard"]:
        state["discard"].remove(DOMAIN)
    for slot, n in layout.items():
        if 130 <= n <= 153:
            take_criminal(state, n)
        if 130 <= n <= 153 or n == DOMAIN:
            cards[slot] = new_entry(n, slot)
            cards[slot]["tokens"] = [dict(t) for t in (tokens or {}).get(slot, [])]
    if DOMAIN not in layout.values() and "1:0" not in cards:
        cards["1:0"] = new_entry(DOMAIN, "1:0")
    return cards


def kind_ids(kind: str, **match: object) -> list[int]:
    return [i for i, t in enumerate(JUDGEMENT) if t["kind"] == kind and all(t.get(k) == v for k, v in match.items())]


def give_tokens(state: dict, seat: int, ids: list[int]) -> None:
    """Move these judgement tokens from wherever they are onto the seat's domain card."""
    x = ext(state)
    for i in ids:
        for held in x["held"]:
            if i in held:
                held.remove(i)
        for pile in (x["reserve"], x.get("box", [])):  # the box: tokens left out with one or two players
            if i in pile:
                pile.remove(i)
        x["held"][seat].append(i)


def stack_reserve(state: dict, ids: list[int]) -> None:
    """Put these judgement tokens on top of the reserve (the first one is drawn first)."""
    x = ext(state)
    for i in ids:
        x["reserve"].remove(i)
    x["reserve"].extend(reversed(ids))


def dev_game(players: int = 2, seed: int = 5, layout: dict | None = None, cards: list[int] = (),
             seat_gems: dict | None = None, modules: list[str] = MODULES) -> dict:
    """Development round 1 with only seat 0 in the phase."""
    state = started(modules, players, seed=seed)
    to_development(state)
    if layout is not None:
        pyramid(state, 0, layout)
    hand(state, 0, list(cards))
    for seat in range(1, players):
        hand(state, seat, [])
    state["active"] = [0]
    state["reserve"] = gems(6, 6, 6, 6)
    state["players"][0]["gems"] = seat_gems or gems(2, 2, 2, 2)
    return state


def play(state: dict, card: int, slot: str, line: int, seat: int = 0, **extra: object) -> list[dict]:
    return apply_action(state, seat, {"type": "play", "card": card, "slot": slot, "line": line, **extra})


def decide(state: dict, seat: int = 0, **answer: object) -> list[dict]:
    assert state["decision"] is not None and state["decision"]["seat"] == seat, state["decision"]
    return apply_action(state, seat, {"type": "decide", **answer})


ROW = {"1:0": DOMAIN, "1:2": 1, "1:4": 5}  # domain, Boatswain (all red), Scout

__all__ = ["MODULES", "PASS", "ROW", "decide", "dev_game", "ext", "give_tokens", "gems", "hand", "kind_ids",
           "play", "pyramid", "settle", "stack_reserve", "take_criminal"]
