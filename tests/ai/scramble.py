"""Re-draw the secrets of every seat but one, independently of the code under test.

The result differs from the original in everything the seat cannot see (other hands, other screens, deck
orders, the others' sealed choices, the seed of later draws) and is checked to look the same to that seat.
"""

from __future__ import annotations

import random

from engine.viceroy import cards as C
from engine.viceroy import views
from engine.viceroy.ai import choose_action
from engine.viceroy.determinize import clone


def _mentioned(state: dict) -> set[int]:
    """Every card named by a public event: a card in a hand that was ever shown stays where it is."""
    out: set[int] = set()
    for event in state["log"]:
        for key in ("card", "cards"):
            value = event.get(key)
            if isinstance(value, int):
                out.add(value)
            elif isinstance(value, list):
                out.update(v for v in value if isinstance(v, int))
            elif isinstance(value, dict):
                out.update(v for v in value.values() if isinstance(v, int))
    for step in state["queue"]:
        if step["op"] == "develop" and step["plan"].get("card"):
            out.add(step["plan"]["card"])
    return out


def scramble(state: dict, seat: int, rng: random.Random) -> dict:
    out = clone(state)
    others = [s for s in range(len(out["players"])) if s != seat]
    shown = _mentioned(out)
    # Swap never-shown cards of other hands with deck cards of the same kind.
    for s in others:
        hand = out["players"][s]["hand"]
        for i, card in enumerate(hand):
            if card in shown or rng.random() < 0.3:
                continue
            decks = ("law_deck",) if C.is_law(card) else ("large_deck", "small_deck")
            deck = rng.choice([d for d in decks if out[d]] or [None])
            if deck is None:
                continue
            j = rng.randrange(len(out[deck]))
            hand[i], out[deck][j] = out[deck][j], hand[i]
        rng.shuffle(hand)
    for deck in ("large_deck", "small_deck", "law_deck"):
        rng.shuffle(out[deck])
    # Trade gems between other screens: counts per screen and colour totals stay, colours move.
    for _ in range(12):
        if len(others) < 2:
            break
        a, b = rng.sample(others, 2)
        ga, gb = out["players"][a]["gems"], out["players"][b]["gems"]
        ca = [c for c in C.COLORS if ga[c] > 0]
        cb = [c for c in C.COLORS if gb[c] > 0]
        if ca and cb:
            x, y = rng.choice(ca), rng.choice(cb)
            ga[x] -= 1
            gb[x] += 1
            gb[y] -= 1
            ga[y] += 1
    out["seed"] = rng.getrandbits(40)
    # Other sealed choices already in: another legal choice.
    for key in list(out["choices"]):
        s = int(key)
        if s != seat:
            action = choose_action(out, s, rng)
            probe = dict(out)
            probe.update({"choices": {}, "active": [s, -1], "log": []})
            from engine.viceroy.game import apply_action

            apply_action(probe, s, action)
            out["choices"][key] = probe["choices"][key]
    assert views.view(out, seat) == views.view(state, seat)
    return out
