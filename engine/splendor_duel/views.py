"""Per-seat views, built from scratch: whatever is not copied in here cannot leak.

Secret: the order of the decks (from everyone) and the identity of a card reserved blind from a deck top
(from the opponent and the public). A card reserved face up was seen by both players and stays visible.
"""

from __future__ import annotations

from .cards import CARDS, GEM_COLORS, LEVELS, TOKEN_KINDS
from .game import OVER, can_replenish, must_replenish


def _player(pl: dict, seat: int, viewer: int | None) -> dict:
    reserved = []
    for card_id, blind in pl["reserved"]:
        visible = not blind or viewer == seat
        reserved.append({"card": card_id if visible else None, "level": CARDS[card_id].level, "blind": bool(blind)})
    return {
        "seat": seat,
        "tokens": {k: int(pl["tokens"][k]) for k in TOKEN_KINDS},
        "token_count": sum(pl["tokens"].values()),
        "privileges": int(pl["privileges"]),
        "cards": [[str(c), color] for c, color in pl["cards"]],
        "reserved": reserved,
        "royals": [str(r) for r in pl["royals"]],
        "bonus": {c: int(pl["bonus"][c]) for c in GEM_COLORS},
        "color_points": {c: int(pl["color_points"][c]) for c in GEM_COLORS},
        "points": int(pl["points"]),
        "crowns": int(pl["crowns"]),
    }


def view(state: dict, seat: int | None) -> dict:
    """What ``seat`` (or the public, for None) may see."""
    over = state["stage"] == OVER
    return {
        "game": "splendor_duel",
        "viewer": seat,
        "board": list(state["board"]),
        "bag": {k: int(state["bag"][k]) for k in TOKEN_KINDS},
        "pyramid": {str(lv): list(state["pyramid"][str(lv)]) for lv in LEVELS},
        "decks": {str(lv): len(state["decks"][str(lv)]) for lv in LEVELS},
        "royals": list(state["royals"]),
        "supply": int(state["supply"]),
        "players": [_player(pl, i, seat) for i, pl in enumerate(state["players"])],
        "first": int(state["first"]),
        "active": int(state["active"]),
        "stage": state["stage"],
        "turn": int(state["turn"]),
        "extra": bool(state["extra"]),
        "can_replenish": (not over) and can_replenish(state),
        # Only the active seat's own view: the answer can depend on its blind reserves being affordable.
        "must_replenish": (not over) and seat == state["active"] and must_replenish(state, seat),
        "winner": state["winner"],
        "win_reason": state["win_reason"],
        "log": [dict(e) for e in state["log"][-12:]],
    }
