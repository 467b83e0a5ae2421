"""Registry of game kinds.

The service is generic: everything it knows about a game's rules goes through a GameKind adapter, built
by `from_game` from the contract Game (engine/api.py) each engine package exports; the list of games is
engine/registry.py.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import api, registry
from engine.api import Game, GameType, Outcome

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


class UnknownKind(KeyError):
    pass


def canonical_json(value: Any) -> str:
    """Compact, key-sorted JSON: the form used for hashing and storage."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def compact_json(value: Any) -> str:
    """Compact JSON that keeps dict insertion order: engines may iterate dicts, so stored states and actions
    must come back in exactly the order they had (sorting keys would change how a game continues)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# Prompt fields that change when a seat amends a sealed choice; they must not change the prompt key,
# otherwise an amend would be refused as stale.
VOLATILE_PROMPT_KEYS = frozenset({"chosen", "submitted", "current", "choice", "has_chosen"})


def default_prompt_key(state: State, seat: int, prompt: dict) -> str:
    if isinstance(prompt.get("key"), str):
        return prompt["key"]
    stable = {k: v for k, v in prompt.items() if k not in VOLATILE_PROMPT_KEYS}
    return hashlib.sha1(canonical_json(stable).encode()).hexdigest()[:12]


def default_is_waiting(state: State, seat: int, prompt: dict) -> bool:
    """True when the seat still owes a choice (a seat that already chose may still amend)."""
    return not any(bool(prompt.get(k)) for k in ("chosen", "submitted", "has_chosen"))


@dataclass(frozen=True)
class GameKind:
    """Adapter between the service and one game's pure engine."""

    name: str
    new_game: Callable[[dict, int, int], State]
    apply: Callable[[State, int, Action], list[Event]]
    pending: Callable[[State], dict[int, dict]]
    view: Callable[[State, int | None], dict]
    default_action: Callable[[State, int], Action]
    is_over: Callable[[State], bool]
    final_scores: Callable[[State], list[dict] | None]
    replay: Callable[[dict], State]
    illegal: type[Exception]
    # Optional parts with generic defaults.
    choose_action: Callable[[State, int, random.Random], Action] | None = None
    normalize_options: Callable[[dict, int], dict] = field(default=lambda options, seats: dict(options))
    prompt_key: Callable[[State, int, dict], str] = default_prompt_key
    is_waiting: Callable[[State, int, dict], bool] = default_is_waiting
    min_seats: int = 1
    max_seats: int = 4
    display_name: str = ""
    game: Game | None = None  # the contract Game behind this kind (None for kinds built by hand in tests)

    @property
    def type(self) -> GameType | None:
        return self.game.type if self.game is not None else None

    def rebuild(self, options: dict, seed: int, seats: int, actions: list[tuple[int, Action]]) -> State:
        """State after applying `actions` (seat, action) from a fresh game; the log is the source of truth."""
        state = self.new_game(options, seed, seats)
        for seat, action in actions:
            self.apply(state, seat, action)
        return state


_REGISTRY: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    _REGISTRY[kind.name] = kind
    return kind


def get_kind(name: str) -> GameKind:
    if name not in _REGISTRY and name in _LAZY:
        _LAZY[name]()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownKind(name) from None


def kinds() -> list[str]:
    for name, loader in list(_LAZY.items()):
        if name not in _REGISTRY:
            try:
                loader()
            except Exception:  # an engine that is not importable yet is simply not offered
                pass
    return sorted(_REGISTRY)


def _legacy_scores(state: State, outcome: Outcome | None) -> list[dict] | None:
    if outcome is None:
        return None
    return [{"seat": r.seat, "total": r.total, "winner": r.winner, "rank": r.rank,
             "breakdown": dict(r.breakdown), "note": r.note} for r in outcome.results]


def from_game(game: Game, *, final_scores: Callable[[State], list[dict] | None] | None = None) -> GameKind:
    """The service's adapter for a contract Game (engine/api.py).

    Prompts reach the service as small dicts {"kind", "key", "waiting"}: the structured choices are only
    computed when a presenter or an AI reads them from `GameKind.game.pending`.
    """

    def pending(state: State) -> dict[int, dict]:
        return {seat: {"kind": p.kind, "key": p.key, "waiting": p.waiting} for seat, p in game.pending(state).items()}

    def normalize(options: dict, seats: int) -> dict:
        try:
            return game.options_for(options, seats)
        except api.IllegalAction as exc:
            raise ValueError(exc.message) from None

    return GameKind(
        name=game.type.name,
        new_game=game.new_game,
        apply=game.apply,
        pending=pending,
        view=game.view,
        default_action=game.default_action,
        is_over=game.is_over,
        final_scores=final_scores or (lambda state: _legacy_scores(state, game.outcome(state))),
        replay=game.replay,
        illegal=api.IllegalAction,
        choose_action=game.choose_action,
        normalize_options=normalize,
        prompt_key=lambda state, seat, prompt: prompt["key"],
        is_waiting=lambda state, seat, prompt: bool(prompt["waiting"]),
        min_seats=game.type.min_seats,
        max_seats=game.type.max_seats,
        display_name=game.type.display_name,
        game=game,
    )


def _load_registered(name: str) -> None:
    game = registry.load_game(name)
    # An engine package may still export its own score rows (same list-of-dicts shape, game-specific
    # breakdown keys) for presenters written against them.
    legacy = getattr(importlib.import_module(f"engine.{name}"), "final_scores", None)
    register(from_game(game, final_scores=legacy))


# Kinds registered on first use, so importing bot.games never imports an engine.
_LAZY: dict[str, Callable[[], None]] = {name: (lambda n=name: _load_registered(n)) for name in registry.GAMES}
