"""The Splendor Duel rules engine on the game contract: pure, replayable, no I/O.

`GAME` is the only name generic code needs. The rules live in game.py (actions), moves.py (prompts,
legal actions, outcome), views.py (per-seat views), ai.py (the baseline AI seat).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.api import Game, GameType, OptionSpec

from .ai import choose_action, play_game
from .errors import IllegalAction
from .game import apply, new_game
from .moves import default_action, describe, determinize, legal_actions, outcome, pending
from .views import view

OPTIONS = (
    OptionSpec(
        name="first_player",
        label="First player",
        kind="choice",
        default="random",
        choices=(("random", "Random"), ("seat1", "Seat 1"), ("seat2", "Seat 2")),
        help="Who starts; the other player begins with a privilege.",
    ),
)

GAME_TYPE = GameType(
    name="splendor_duel",
    display_name="Splendor Duel",
    min_seats=2,
    max_seats=2,
    dynamics="sequential",
    hidden_information=True,
    options=OPTIONS,
    description="Two jewellers take tokens from a shared board, reserve and buy cards: first to 20 prestige "
                "points, 10 crowns or 10 points in one colour wins.",
)


def normalize_options(options: Mapping[str, Any], seats: int) -> dict:
    if seats != 2:
        raise IllegalAction("bad_seats", "Splendor Duel is played by exactly 2 players.")
    return {"first_player": options.get("first_player", "random")}


def _new_game(options: Mapping[str, Any], seed: int, seats: int) -> dict:
    return new_game(options, seed, seats)


GAME = Game(
    type=GAME_TYPE,
    new_game=_new_game,
    pending=pending,
    apply=apply,
    view=view,
    default_action=default_action,
    outcome=outcome,
    normalize_options=normalize_options,
    choose_action=choose_action,
    legal_actions=legal_actions,
    determinize=determinize,
    describe=describe,
)

__all__ = ["GAME", "GAME_TYPE", "IllegalAction", "apply", "choose_action", "new_game", "play_game", "view"]
