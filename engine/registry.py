"""Every game the project hosts, by name. Generic code (service, bot, conformance suite, tournaments) finds
games here and nowhere else; a game is listed only once it passes the conformance suite (engine/contract.py).
"""

from __future__ import annotations

import importlib

from .api import Game

# Engine packages, each exporting GAME (an engine.api.Game). Order is the order games are offered in.
GAMES: tuple[str, ...] = ("viceroy", "splendor_duel", "pyramido")

_LOADED: dict[str, Game] = {}


class UnknownGame(ValueError):
    """No game is registered under that name."""


def load_game(name: str) -> Game:
    """The Game registered as `name` (imports its engine on first use)."""
    if name not in _LOADED:
        if name not in GAMES:
            raise UnknownGame(f"no game named {name!r}; the games are: {', '.join(GAMES)}")
        game = importlib.import_module(f"engine.{name}").GAME
        if game.type.name != name:
            raise RuntimeError(f"engine.{name}.GAME is named {game.type.name!r}")
        _LOADED[name] = game
    return _LOADED[name]


def all_games() -> list[Game]:
    return [load_game(name) for name in GAMES]
