"""The Viceroy rules engine: pure, replayable, no I/O. See docs/engine.md for the rules tables and modules."""

from .clone import clone
from .definition import GAME
from .ending import final_scores
from .errors import IllegalAction
from .flow import apply_action
from .moves import default_action
from .prompts import is_over, pending, prompt_key
from .records import new_record, replay
from .setup import new_game
from .views import view

__all__ = [
    "GAME",
    "IllegalAction",
    "apply_action",
    "clone",
    "default_action",
    "final_scores",
    "is_over",
    "new_game",
    "new_record",
    "pending",
    "prompt_key",
    "replay",
    "view",
]
