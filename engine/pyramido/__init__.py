"""Pyramido on the game contract: 2-4 architects build four-floor domino pyramids. Pure, replayable, no I/O."""

from engine.api import Game, GameType, OptionSpec

from .ai import choose_action
from .game import IllegalAction, apply, describe, new_game, normalize_options, outcome, pending, prompt_key
from .moves import default_action, legal_actions
from .views import determinize, view

TYPE = GameType(
    name="pyramido",
    display_name="Pyramido",
    min_seats=2,
    max_seats=4,
    dynamics="sequential",
    hidden_information=False,
    options=(
        OptionSpec("starter", "Starting architect", "choice", "random",
                   choices=(("random", "Random"), ("first", "First seat")),
                   help="Who places the first domino of the 1st floor."),
    ),
    description="Build a four-floor pyramid of dominoes, grouping gem icons of one colour into scored areas.",
)

GAME = Game(
    type=TYPE,
    new_game=new_game,
    pending=pending,
    apply=apply,
    view=view,
    default_action=default_action,
    outcome=outcome,
    normalize_options=normalize_options,
    choose_action=choose_action,
    legal_actions=legal_actions,
    describe=describe,
    determinize=determinize,
)

__all__ = ["GAME", "TYPE", "IllegalAction", "apply", "choose_action", "default_action", "describe", "determinize",
           "legal_actions", "new_game", "outcome", "pending", "prompt_key", "view"]
