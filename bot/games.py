"""Registry of game kinds.

The service is generic: everything it knows about a game's rules goes through a GameKind adapter.  An
engine module only has to expose the functions from docs/architecture.md; `from_engine` wraps it.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

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


def from_engine(name: str, engine: ModuleType, **extra: Any) -> GameKind:
    """Build a GameKind from a module with the architecture.md engine API."""
    return GameKind(
        name=name,
        new_game=engine.new_game,
        apply=engine.apply_action,
        pending=engine.pending,
        view=engine.view,
        default_action=engine.default_action,
        is_over=engine.is_over,
        final_scores=engine.final_scores,
        replay=engine.replay,
        illegal=engine.IllegalAction,
        **extra,
    )


def _viceroy_options(options: dict, seats: int) -> dict:
    out = {"players": seats, "deal": 4, "virtual_opponents": 0}
    out.update({k: v for k, v in options.items() if k in ("deal", "virtual_opponents")})
    out["players"] = seats
    return out


def _load_viceroy() -> None:
    engine = importlib.import_module("engine.viceroy")
    choose = None
    try:
        ai = importlib.import_module("engine.viceroy.ai")
        choose = getattr(ai, "choose_action", None)
    except ImportError:
        pass
    extra: dict[str, Any] = {}
    engine_key = getattr(engine, "prompt_key", None)
    if engine_key is not None:
        # The engine names its decisions itself (stable across amendments of a sealed choice).
        def _key(state: State, seat: int, prompt: dict) -> str:
            return engine_key(state, seat) or default_prompt_key(state, seat, prompt)

        extra["prompt_key"] = _key
    register(
        from_engine(
            "viceroy",
            engine,
            choose_action=choose,
            **extra,
            normalize_options=_viceroy_options,
            min_seats=1,
            max_seats=4,
            display_name="Viceroy",
        )
    )


# Kinds registered on first use, so importing bot.games never imports an engine.
_LAZY: dict[str, Callable[[], None]] = {"viceroy": _load_viceroy}
