"""State builders and accounting helpers for the engine tests.

Tests start from a real game (``new_game`` + setup) and then edit the plain state dict to build the
situation a rule needs. The builders move cards rather than conjure them, so a built state still holds
each of the 88 cards exactly once.
"""

from __future__ import annotations

from collections import Counter

from engine.viceroy import apply_action, default_action, new_game
from engine.viceroy import cards as C
from engine.viceroy.state import new_entry

COLORS = C.COLORS


def gems(red: int = 0, green: int = 0, blue: int = 0, yellow: int = 0) -> dict[str, int]:
    return {"red": red, "green": green, "blue": blue, "yellow": yellow}


def settle(state: dict) -> list[dict]:
    """Answer every pending decision with the default answer; returns the events."""
    events: list[dict] = []
    while state["decision"] is not None:
        seat = state["decision"]["seat"]
        events += apply_action(state, seat, default_action(state, seat))
    return events


def started(players: int = 2, seed: int = 1, deal: int = 4, virtual: int = 0) -> dict:
    """A game after setup: turn 1, auction round 1."""
    state = new_game({"players": players, "deal": deal, "virtual_opponents": virtual}, seed)
    for seat in range(players):
        apply_action(state, seat, default_action(state, seat))
    settle(state)
    assert state["phase"] == "auction" and state["turn"] == 1
    return state


def submit(state: dict, actions: dict[int, dict]) -> list[dict]:
    """Submit sealed actions (in seat order); returns all events."""
    events: list[dict] = []
    for seat, action in sorted(actions.items()):
        events += apply_action(state, seat, action)
    return events


def spot(state: dict, colour: str) -> dict:
    """The auction card showing ``colour`` (``{"colors", "base", "tip"}``)."""
    return next(s for s in state["auction"] if colour in s["colors"])


def take_out(state: dict, number: int) -> None:
    """Remove a card from wherever it is (decks, auction, hands, pyramids, tucked, discard)."""
    for deck in ("large_deck", "small_deck", "law_deck", "discard"):
        if number in state[deck]:
            state[deck].remove(number)
            return
    for card in state["auction"]:
        for where in ("base", "tip"):
            if card[where] == number:
                card[where] = None
                return
    for player in state["players"]:
        if number in player["hand"]:
            player["hand"].remove(number)
            return
        for slot, entry in list(player["pyramid"]["cards"].items()):
            if entry["card"] == number:
                state["discard"].extend(entry["tucked"])
                del player["pyramid"]["cards"][slot]
                return
            if number in entry["tucked"]:
                entry["tucked"].remove(number)
                return
    raise AssertionError(f"card {number} is nowhere")


def set_hand(state: dict, seat: int, numbers: list[int]) -> None:
    """Give a seat exactly these cards in hand (its old hand goes to the discard)."""
    player = state["players"][seat]
    state["discard"].extend(player["hand"])
    player["hand"] = []
    for n in numbers:
        take_out(state, n)
    player["hand"] = list(numbers)


def set_pyramid(state: dict, seat: int, layout: dict[str, int], tokens: dict[str, list[dict]] | None = None) -> dict:
    """Replace a seat's pyramid with ``{slot: card}`` (old cards go to the discard)."""
    player = state["players"][seat]
    for entry in player["pyramid"]["cards"].values():
        state["discard"].append(entry["card"])
        state["discard"].extend(entry["tucked"])
    player["pyramid"]["cards"] = {}
    for n in layout.values():
        take_out(state, n)
    cards = {}
    for slot, n in layout.items():
        entry = new_entry(n, slot)
        entry["tokens"] = [dict(t) for t in (tokens or {}).get(slot, [])]
        cards[slot] = entry
    player["pyramid"]["cards"] = cards
    return cards


def set_auction(state: dict, layout: dict[str, tuple[int | None, int | None]]) -> None:
    """Set the auction display: ``{colour: (base, tip)}``; unnamed colours are emptied."""
    for card in state["auction"]:
        for where in ("base", "tip"):
            if card[where] is not None:
                state["discard"].append(card[where])
                card[where] = None
    for colour, (base, tip) in layout.items():
        for where, n in (("base", base), ("tip", tip)):
            if n is not None:
                take_out(state, n)
                spot(state, colour)[where] = n


def to_development(state: dict) -> None:
    """Jump to development round 1 of the current turn with every seat in the phase."""
    state["phase"] = "development"
    state["round"] = 1
    state["active"] = list(range(len(state["players"])))
    state["choices"] = {}
    state["queue"] = []
    state["decision"] = None


def level1_row(numbers: list[int]) -> dict[str, int]:
    return {f"1:{2 * i}": n for i, n in enumerate(numbers)}


def full_four_levels(numbers: list[int]) -> dict[str, int]:
    """14 cards on levels 1-4 (5+4+3+2), leaving the level-5 place "5:4" open."""
    layout = {}
    it = iter(numbers)
    for level in range(1, 5):
        for j in range(6 - level):
            layout[f"{level}:{level - 1 + 2 * j}"] = next(it)
    return layout


def token_types(entry: dict) -> list[str]:
    return sorted(t["type"] for t in entry["tokens"])


# ------------------------------------------------------------------------------------------ accounting


def gem_totals(state: dict) -> dict[str, int]:
    """Every gem of each colour: reserve, box, screens, infinite gems, Treasury gems and painted sections."""
    total = dict(state["reserve"])
    for c in COLORS:
        total[c] += state["box"][c]
    for player in state["players"]:
        for c in COLORS:
            total[c] += player["gems"][c]
        for entry in player["pyramid"]["cards"].values():
            for c in COLORS:
                total[c] += entry["gems"][c]
            for t in entry["tokens"]:
                if t["type"] == "infinite_gem":
                    total[t["color"]] += 1
        for item in player["painted"] or []:
            total[item["color"]] += 1
    return total


def card_places(state: dict) -> Counter:
    """How many times each card appears anywhere (a card in transit in the queue counts too)."""
    seen: Counter = Counter()
    for deck in ("large_deck", "small_deck", "law_deck", "discard"):
        seen.update(state[deck])
    for card in state["auction"]:
        for where in ("base", "tip"):
            if card[where] is not None:
                seen[card[where]] += 1
    for player in state["players"]:
        seen.update(player["hand"])
        for entry in player["pyramid"]["cards"].values():
            seen[entry["card"]] += 1
            seen.update(entry["tucked"])
    for step in state["queue"]:
        if step["op"] == "take_card":
            seen[step["card"]] += 1
    return seen


def all_counts_non_negative(state: dict) -> bool:
    pools = [state["reserve"], state["box"]] + [p["gems"] for p in state["players"]]
    pools += [e["gems"] for p in state["players"] for e in p["pyramid"]["cards"].values()]
    return all(n >= 0 for pool in pools for n in pool.values()) and all(p["attacks"] >= 0 for p in state["players"])


def events_of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]
