"""Building Splendor Duel positions for rule tests, keeping every token and card accounted for."""

from __future__ import annotations

import copy

from engine.splendor_duel import board as B
from engine.splendor_duel.cards import CARDS, GEM_COLORS, LEVELS, TOKEN_KINDS, TOKEN_MIX
from engine.splendor_duel.game import new_game

MIX = dict(TOKEN_MIX)


def fresh(seed: int = 1, first: str = "seat1") -> dict:
    """A new game where seat 0 moves first (so seat 1 holds the starting privilege)."""
    return new_game({"first_player": first}, seed, 2)


def token_totals(state: dict) -> dict[str, int]:
    out = dict(state["bag"])
    for t in state["board"]:
        if t is not None:
            out[t] += 1
    for pl in state["players"]:
        for k, n in pl["tokens"].items():
            out[k] += n
    return out


def card_places(state: dict) -> dict[str, int]:
    seen: dict[str, int] = {}
    for lv in LEVELS:
        for c in state["decks"][str(lv)] + [c for c in state["pyramid"][str(lv)] if c is not None]:
            seen[c] = seen.get(c, 0) + 1
    for pl in state["players"]:
        for c, _x in pl["cards"] + pl["reserved"]:
            seen[c] = seen.get(c, 0) + 1
    return seen


def rebalance(state: dict) -> dict:
    """Put in the bag whatever the board and the players do not hold (the mix never changes)."""
    held = dict.fromkeys(TOKEN_KINDS, 0)
    for t in state["board"]:
        if t is not None:
            held[t] += 1
    for pl in state["players"]:
        for k, n in pl["tokens"].items():
            held[k] += n
    for k in TOKEN_KINDS:
        left = MIX[k] - held[k]
        assert left >= 0, f"too many {k} tokens in the position"
        state["bag"][k] = left
    return state


def set_board(state: dict, cells: dict[str, str] | None = None, keep: bool = False) -> dict:
    """Board holding exactly ``cells`` ({'C3': 'red'}) (or on top of the current board with keep)."""
    if not keep:
        state["board"] = [None] * 25
    for name, token in (cells or {}).items():
        state["board"][B.CELL_INDEX[name]] = token
    return rebalance(state)


def set_tokens(state: dict, seat: int, **counts: int) -> dict:
    state["players"][seat]["tokens"] = {k: counts.get(k, 0) for k in TOKEN_KINDS}
    return rebalance(state)


def _remove(state: dict, card_id: str) -> tuple[str, object] | None:
    """Take a card out of wherever it is; returns where (pyramid slots keep their place for a swap)."""
    for lv in LEVELS:
        deck = state["decks"][str(lv)]
        if card_id in deck:
            deck.remove(card_id)
            return ("deck", lv)
        row = state["pyramid"][str(lv)]
        if card_id in row:
            i = row.index(card_id)
            row[i] = None
            return ("pyramid", (lv, i))
    for pl in state["players"]:
        for entry in list(pl["reserved"]):
            if entry[0] == card_id:
                pl["reserved"].remove(entry)
                return ("reserved", None)
        for entry in list(pl["cards"]):
            if entry[0] == card_id:
                raise AssertionError("helpers do not take bought cards back")
    return None


def _refill_hole(state: dict, where: tuple[str, object] | None) -> None:
    if where and where[0] == "pyramid":
        lv, i = where[1]  # type: ignore[misc]
        deck = state["decks"][str(lv)]
        state["pyramid"][str(lv)][i] = deck.pop() if deck else None


def to_pyramid(state: dict, card_id: str, index: int = 0) -> dict:
    """Show ``card_id`` face up in its level's row at ``index``; the card there goes into the deck."""
    lv = CARDS[card_id].level
    row = state["pyramid"][str(lv)]
    if row[index] == card_id:
        return state
    where = _remove(state, card_id)
    if where and where[0] == "pyramid":
        # Swap within the row.
        _lv, j = where[1]  # type: ignore[misc]
        row[j], row[index] = row[index], card_id
        return state
    old = row[index]
    row[index] = card_id
    if old is not None:
        state["decks"][str(lv)].insert(0, old)
    return state


def to_deck_top(state: dict, card_id: str) -> dict:
    lv = CARDS[card_id].level
    _refill_hole(state, _remove(state, card_id))
    state["decks"][str(lv)].append(card_id)
    return state


def give_card(state: dict, seat: int, card_id: str, color: str | None = None) -> dict:
    """Put a card straight into a tableau (as if bought), updating bonuses, points and crowns."""
    card = CARDS[card_id]
    _refill_hole(state, _remove(state, card_id))
    pl = state["players"][seat]
    color = color if card.is_joker else card.color
    pl["cards"].append([card_id, color])
    if color is not None:
        pl["bonus"][color] += card.bonus
        pl["color_points"][color] += card.points
    pl["points"] += card.points
    pl["crowns"] += card.crowns
    return state


def give_reserved(state: dict, seat: int, card_id: str, blind: bool = False) -> dict:
    _refill_hole(state, _remove(state, card_id))
    state["players"][seat]["reserved"].append([card_id, blind])
    return state


def cards_of(color: str, level: int | None = None) -> list[str]:
    return [c.id for c in CARDS.values() if c.color == color and (level is None or c.level == level)]


def snapshot(state: dict) -> dict:
    return copy.deepcopy(state)


def cell(state: dict, name: str) -> str | None:
    return state["board"][B.CELL_INDEX[name]]


__all__ = ["GEM_COLORS", "MIX"]
