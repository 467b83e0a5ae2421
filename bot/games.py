"""The games the service can host: engine.api.Game objects from the engine registry (engine/registry.py),
plus any a test registers. Only generic code here: a game's rules, options and loader live in its engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.api import Game, GameType, IllegalAction, Outcome, Prompt

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


@dataclass(frozen=True)
class GameKind:
    """The service's handle on one game: the engine's Game and its GameType."""

    game: Game

    @property
    def type(self) -> GameType:
        return self.game.type

    @property
    def name(self) -> str:
        return self.game.type.name

    @property
    def display_name(self) -> str:
        return self.game.type.display_name

    @property
    def min_seats(self) -> int:
        return self.game.type.min_seats

    @property
    def max_seats(self) -> int:
        return self.game.type.max_seats

    illegal = IllegalAction

    def normalize_options(self, options: dict, seats: int) -> dict:
        return self.game.options_for(options, seats)

    def new_game(self, options: dict, seed: int, seats: int) -> State:
        return self.game.new_game(options, seed, seats)

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        return self.game.apply(state, seat, action)

    def pending(self, state: State) -> dict[int, Prompt]:
        return {} if self.is_over(state) else self.game.pending(state)

    def view(self, state: State, seat: int | None) -> dict:
        return self.game.view(state, seat)

    def default_action(self, state: State, seat: int) -> Action:
        return self.game.default_action(state, seat)

    @property
    def choose_action(self) -> Any:
        return self.game.choose_action

    def outcome(self, state: State) -> Outcome | None:
        return self.game.outcome(state)

    def is_over(self, state: State) -> bool:
        return self.game.outcome(state) is not None

    def final_scores(self, state: State) -> list[dict] | None:
        """Per seat {"seat", "total", "winner", "rank", "breakdown": {label: points}} (for records and tests)."""
        outcome = self.outcome(state)
        if outcome is None:
            return None
        return [{"seat": r.seat, "total": r.total, "winner": r.winner, "rank": r.rank,
                 "breakdown": dict(r.breakdown)} for r in outcome.results]

    def rebuild(self, options: dict, seed: int, seats: int, actions: list[tuple[int, Action]]) -> State:
        """State after applying `actions` (seat, action) from a fresh game; the log is the source of truth."""
        return self.game.rebuild(options, seed, seats, actions)

    def replay(self, record: dict) -> State:
        return self.game.replay(record)


_EXTRA: dict[str, GameKind] = {}
_LOADED: dict[str, GameKind] = {}


def register(game: Game) -> GameKind:
    """Host a game that is not in the engine registry (tests register their own)."""
    kind = GameKind(game)
    _EXTRA[game.type.name] = kind
    return kind


def get_kind(name: str) -> GameKind:
    if name in _EXTRA:
        return _EXTRA[name]
    if name not in _LOADED:
        from engine import registry

        try:
            _LOADED[name] = GameKind(registry.load_game(name))
        except registry.UnknownGame:
            raise UnknownKind(name) from None
    return _LOADED[name]


def kinds() -> list[str]:
    from engine import registry

    return list(registry.GAMES) + [n for n in _EXTRA if n not in registry.GAMES]


def game_types() -> list[GameType]:
    out = []
    for name in kinds():
        try:
            out.append(get_kind(name).type)
        except ImportError:  # an engine that is not importable is simply not offered
            continue
    return out


def game_type(name: str) -> GameType:
    return get_kind(name).type
