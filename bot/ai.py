"""AI seats for the service: each seat's level, and the decisions, as pure functions a worker can run.

No Discord, no storage: `think` takes a copy of a game's state and returns the AI seats' next moves, so it can
run in a worker thread (or process) while the bot goes on answering clicks. Decisions are seeded from the game
seed, the seat and the prompt key, so the same decision always gets the same rng: a move lost in a crash is
simply computed again, and a replay reads the recorded moves (the record is the source of truth).
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import GameKind
from engine.search import LEVELS, ai_for

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "normal"  # what Add AI gives unless the host picks another
LEGACY_LEVEL = "easy"  # AI seats stored before levels existed played the baseline, and still do
# A worker stops planning further moves once this many seconds went into one batch (a table of AI seats only
# would otherwise think through the whole game before anything is stored or shown).
BATCH_SECONDS = 2.0
MAX_BATCH_MOVES = 50


def level_names() -> list[str]:
    return list(LEVELS)


def level_label(level: str) -> str:
    spec = LEVELS.get(level)
    return spec.label if spec is not None and spec.label else level.capitalize()


def check_level(level: str | None) -> str:
    """The level, or ValueError for a name the engine does not know."""
    if level is None:
        return DEFAULT_LEVEL
    if level not in LEVELS:
        raise ValueError(f"Unknown AI level {level!r}: choose {', '.join(LEVELS)}.")
    return level


def seat_level(stored: str | None) -> str:
    return stored if stored in LEVELS else LEGACY_LEVEL


def decision_seed(game_seed: int | None, seat: int, prompt_key: str) -> str:
    """One seed per decision: independent of when the move is computed or how moves were batched."""
    return f"{game_seed}:{seat}:{prompt_key}"


@dataclass(frozen=True)
class AIMove:
    seat: int
    prompt_key: str
    action: dict
    level: str


def decide(kind: GameKind, level: str, state: dict, seat: int, seed: str) -> dict | None:
    """One AI decision: the level's chooser (engine.search.ai_for) on `state`, checked on a copy; the game's
    default action when the chooser fails or is missing (a broken AI must not stop a game)."""
    try:
        choose = ai_for(kind.game, level)
    except ValueError:
        choose = None  # no baseline for this game
    if choose is not None:
        try:
            # On a copy, and the answer copied: an AI may change what it is given, or hand back parts of it.
            action = _plain(choose(_plain(state), seat, random.Random(seed)))
            kind.apply(_plain(state), seat, _plain(action))  # on a copy: an AI bug must not take the game down
            return action
        except Exception:
            log.exception("the %s AI of %s failed; using the default action", level, kind.name)
    try:
        return _plain(kind.default_action(state, seat))
    except Exception:
        log.exception("default_action failed for %s seat %s", kind.name, seat)
        return None


def think(kind: GameKind, state: dict, levels: Mapping[int, str], game_seed: int | None, *,
          max_moves: int = MAX_BATCH_MOVES, budget: float = BATCH_SECONDS) -> list[AIMove]:
    """The AI seats' next moves from `state` (which it changes: pass a copy), in the order they are made:
    each waiting AI seat in seat order, again after each move, until no AI seat waits, the game ends, or the
    batch has used its time. At least one move when an AI seat waits."""
    moves: list[AIMove] = []
    started = time.monotonic()
    while len(moves) < max_moves and not kind.is_over(state):
        prompts = kind.pending(state)
        todo = [s for s in sorted(prompts) if s in levels and prompts[s].waiting]
        if not todo or (moves and time.monotonic() - started > budget):
            break
        seat = todo[0]
        key = prompts[seat].key
        action = decide(kind, levels[seat], state, seat, decision_seed(game_seed, seat, key))
        if action is None:
            break
        try:
            kind.apply(state, seat, _plain(action))
        except Exception:
            log.exception("%s: the AI move of seat %s was refused", kind.name, seat)
            break
        moves.append(AIMove(seat, key, action, levels[seat]))
    return moves


def _plain(value: Any) -> Any:
    """A private copy in the order the engine wrote it (engines may iterate dicts), made of plain lists: a
    state read inside a write transaction may hold its public log as a sequence that loads on first read
    (bot.storage.base.PublicLog), which JSON cannot encode as it is."""
    return json.loads(json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=_as_list))


def _as_list(value: Any) -> list:
    """JSON's fallback for what it cannot encode: a sequence other than a list (such a log) as a list of every
    entry; anything else is refused, as without the fallback."""
    if isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
