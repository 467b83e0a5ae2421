"""Views: what the channel (and every architect) sees, built from scratch.

Pyramido has no secret held by a player; the only unknown is the order of the piles under their top
dominoes, which nobody sees, so a view shows each pile's top and size only.
"""

from __future__ import annotations

import copy
import random

from . import game as G
from . import scoring as sc
from .tiles import CARD_FACES, DOMINOES, quadrants_of


def domino_view(domino: int) -> dict:
    """A domino as printed (before rotation): each block's colour and the quadrants showing a gem icon."""
    (ca, ma), (cb, mb) = DOMINOES[domino]
    return {"domino": domino, "a": {"colour": ca, "icons": quadrants_of(ma)},
            "b": {"colour": cb, "icons": quadrants_of(mb)}}


def _floor_view(player: dict, floor: int, show_gems: bool) -> dict:
    blocks = []
    for piece in player["floors"][floor - 1]:
        for cell, (colour, mask, gem), which in sc.piece_blocks(piece):
            card = piece.get("card")
            blocks.append({"at": [cell[0], cell[1]], "colour": colour, "icons": quadrants_of(mask),
                           "gem": gem if show_gems else None, "domino": piece["d"], "block": which,
                           "card": bool(card and card["block"] == which), "dir": piece["dir"]})
    for fill in player["fills"][floor - 1]:
        blocks.append({"at": list(fill["at"]), "colour": fill["side"], "icons": [fill["icon"]], "gem": None,
                       "domino": None, "block": None, "card": True, "dir": None})
    return {"floor": floor, "blocks": blocks, "dominoes": len(player["floors"][floor - 1]),
            "fills": len(player["fills"][floor - 1]), "complete": G.floor_complete(player, floor)}


def _player_view(state: dict, seat: int) -> dict:
    player = state["players"][seat]
    current = state["floor"]
    return {
        "seat": seat,
        "lost": player["lost"],
        "shape": list(player["shape"]) if player["shape"] else None,
        "floors": [_floor_view(player, f, show_gems=(f == current)) for f in range(1, current + 1)],
        "gems": list(player["gems"]),
        "cards": [{"card": i, "faces": list(CARD_FACES[i]), "used": dict(use) if use else None}
                  for i, use in enumerate(player["cards"])],
        "scores": list(player["scores"]),
        "total": sum(player["scores"]),
        "sheets": [{k: v for k, v in sheet.items()} for sheet in player["sheets"]],
        "gaps": 0 if state["over"] or player["lost"] else G.gaps_now(state, seat),
    }


def view(state: dict, seat: int | None = None) -> dict:
    out = {
        "game": "pyramido",
        "seat": seat,
        "seats": state["seats"],
        "options": dict(state["options"]),
        "floor": state["floor"],
        "starter": state["starter"],
        "turn": None if state["over"] else state["turn"],
        "step": state["step"],
        "over": state["over"],
        "reason": state["reason"],
        "quarry": [None if d is None else {"slot": k, **domino_view(d)} for k, d in enumerate(state["quarry"])],
        "piles": [{"pile": p, "count": len(pile), "top": domino_view(pile[-1]) if pile else None}
                  for p, pile in enumerate(state["piles"])],
        "players": [_player_view(state, s) for s in range(state["seats"])],
    }
    if seat is not None:
        prompt = G.pending(state).get(seat)
        out["prompt"] = prompt.to_json() if prompt is not None else None
    return out


def laid_blocks(domino: int, at: list[int] | tuple[int, int], direction: str, gem: str | None = None,
                card: dict | None = None) -> list[dict]:
    """The view's block entries of a domino as it would lie (for previews of a planned placement)."""
    piece = {"d": domino, "at": [at[0], at[1]], "dir": direction, "gem": gem,
             "card": None if card is None else {**card, "icon": card.get("icon", "tl"),
                                                "gem": bool(card.get("gem"))}}
    out = []
    for cell, (colour, mask, g), which in sc.piece_blocks(piece):
        out.append({"at": [cell[0], cell[1]], "colour": colour, "icons": quadrants_of(mask), "gem": g,
                    "domino": domino, "block": which, "card": bool(card and card["block"] == which),
                    "dir": direction})
    return out


def determinize(state: dict, seat: int, rng: random.Random) -> dict:
    """A state consistent with everything ``seat`` may know: the dominoes under the piles' tops (which nobody
    has seen) are re-dealt at random among the piles, each pile keeping its size and its top."""
    out = copy.deepcopy(state)
    piles = out["piles"]
    hidden = [d for pile in piles for d in pile[:-1]]
    rng.shuffle(hidden)
    at = 0
    for pile in piles:
        n = len(pile) - 1
        if n > 0:
            pile[:-1] = hidden[at:at + n]
            at += n
    return out
