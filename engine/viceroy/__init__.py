"""The Viceroy rules engine: pure, replayable, no I/O. See docs/architecture.md for the API contract."""

from .definition import GAME
from .errors import IllegalAction
from .game import apply_action, final_scores, is_over, new_game, pending, prompt_key
from .moves import default_action
from .records import new_record, replay
from .views import view

__all__ = [
    "GAME",
    "IllegalAction",
    "apply_action",
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
