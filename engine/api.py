"""The game contract: what every game engine provides, and nothing else (pure: no I/O, no clock, no discord).

A game is a `GameDef`: a `GameType` (metadata the generic code branches on) plus pure functions over a
plain-JSON state. Generic code (service, lobby, delivery, AI, conformance tests) only ever uses this module.

Conventions every game follows:
* The state is plain JSON (dicts with str keys, lists, str, int, float, bool, None); every random draw comes
  from the seed kept in the state, so a record (options, seed, seats, actions) replays to the identical state.
* `apply` validates the whole action before touching the state and raises `IllegalAction` (a subclass) with
  a sentence a player understands; only then does it mutate. Events are dicts with `"to"`: `"all"` (public),
  a seat number (private to that seat) or a list of seats.
* `view(state, seat)` is built from scratch for that seat (or the public when seat is None): whatever it does
  not copy in cannot leak.
* `pending(state)` names every seat that must decide now, with a `Prompt` saying what it may choose.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

SEALED = "sealed"  # every waiting seat chooses secretly, choices revealed together (Viceroy)
SEQUENTIAL = "sequential"  # one seat acts at a time and others see it at once (Splendor Duel, Pyramido)
Dynamics = Literal["sealed", "sequential"]


class IllegalAction(Exception):
    """An action the rules refuse. `code` is short and stable (for tests), `message` is for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class OptionSpec:
    """One game option: drives the lobby's controls, `normalize_options` validation and the lobby text.

    kind: "int" (min..max), "choice" (one of `choices`), "flags" (any subset of `choices`, e.g. modules),
    "bool". `choices` are (value, label) pairs.
    """

    name: str
    label: str
    kind: Literal["int", "choice", "flags", "bool"]
    default: Any
    choices: tuple[tuple[Any, str], ...] = ()
    min: int | None = None
    max: int | None = None
    help: str = ""

    def validate(self, value: Any) -> Any:
        """The value normalised, or IllegalAction naming the option."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if value in (0, 1, "0", "1", "true", "false", "on", "off"):
                return value in (1, "1", "true", "on")
            raise IllegalAction("bad_option", f"{self.label}: choose on or off.")
        if self.kind == "int":
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise IllegalAction("bad_option", f"{self.label} must be a whole number.") from None
            if isinstance(value, bool) or (self.min is not None and number < self.min) or (
                    self.max is not None and number > self.max):
                raise IllegalAction("bad_option", f"{self.label} must be between {self.min} and {self.max}.")
            return number
        allowed = [v for v, _ in self.choices]
        if self.kind == "choice":
            if value not in allowed:
                names = ", ".join(str(label) for _, label in self.choices)
                raise IllegalAction("bad_option", f"{self.label} must be one of: {names}.")
            return value
        if not isinstance(value, (list, tuple)) or any(v not in allowed for v in value):
            names = ", ".join(str(label) for _, label in self.choices)
            raise IllegalAction("bad_option", f"{self.label}: choose among {names}.")
        # Canonical order (the order of `choices`) so equal sets store and replay the same.
        return [v for v in allowed if v in value]


@dataclass(frozen=True)
class GameType:
    """What generic code may know about a game (OpenSpiel's GameType, for our needs)."""

    name: str  # stable id: command group, storage kind, data folder ("viceroy", "splendor_duel", "pyramido")
    display_name: str
    min_seats: int
    max_seats: int
    dynamics: Dynamics
    hidden_information: bool  # True: seats hold secrets, so each gets a private screen message
    options: tuple[OptionSpec, ...] = ()
    description: str = ""

    def option(self, name: str) -> OptionSpec | None:
        return next((o for o in self.options if o.name == name), None)


@dataclass(frozen=True)
class Prompt:
    """What one seat must decide now.

    key: names this decision; amending a sealed choice keeps the same key (so a re-submission from the same
    message is not stale), any new decision gets a new one.
    waiting: False once a sealed choice is in (it may still be amended until the reveal).
    choices: structured, plain JSON: what the seat may choose (the presenter offers exactly these).
    """

    kind: str
    key: str
    waiting: bool = True
    choices: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"kind": self.kind, "key": self.key, "waiting": self.waiting, "choices": dict(self.choices)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Prompt:
        return cls(kind=data["kind"], key=data["key"], waiting=bool(data.get("waiting", True)),
                   choices=dict(data.get("choices") or {}))


@dataclass(frozen=True)
class SeatResult:
    """One seat's final result. `breakdown` is labelled score rows in display order (label, points)."""

    seat: int
    total: int
    winner: bool
    breakdown: tuple[tuple[str, int], ...] = ()
    rank: int = 0  # 1 = first; equal ranks are ties after tie-breaks
    note: str = ""  # e.g. "lost: could not fill the floor", "won by 20 points"

    def to_json(self) -> dict:
        return {"seat": self.seat, "total": self.total, "winner": self.winner, "rank": self.rank,
                "breakdown": [[label, value] for label, value in self.breakdown], "note": self.note}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatResult:
        return cls(seat=int(data["seat"]), total=int(data["total"]), winner=bool(data["winner"]),
                   breakdown=tuple((str(a), int(b)) for a, b in data.get("breakdown", ())),
                   rank=int(data.get("rank", 0)), note=str(data.get("note", "")))


@dataclass(frozen=True)
class Outcome:
    """The end of a game: one result per seat, in seat order, and why it ended."""

    results: tuple[SeatResult, ...]
    reason: str = ""

    @property
    def winners(self) -> list[int]:
        return [r.seat for r in self.results if r.winner]

    def to_json(self) -> dict:
        return {"results": [r.to_json() for r in self.results], "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(results=tuple(SeatResult.from_json(r) for r in data["results"]),
                   reason=str(data.get("reason", "")))


def rank_results(keys: list[tuple]) -> list[int]:
    """Ranks (1 = best) per seat from sort keys (higher is better, tie-breaks later in the tuple);
    equal keys share a rank."""
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    ranks = [0] * len(keys)
    for position, i in enumerate(order):
        if position and keys[order[position - 1]] == keys[i]:
            ranks[i] = ranks[order[position - 1]]
        else:
            ranks[i] = position + 1
    return ranks


@runtime_checkable
class GameDef(Protocol):
    """The functions a game provides. Optional ones may be None on `Game`."""

    type: GameType

    def normalize_options(self, options: Mapping[str, Any], seats: int) -> dict: ...  # raises IllegalAction

    def new_game(self, options: Mapping[str, Any], seed: int, seats: int) -> State: ...

    def pending(self, state: State) -> dict[int, Prompt]: ...

    def apply(self, state: State, seat: int, action: Action) -> list[Event]: ...

    def view(self, state: State, seat: int | None) -> dict: ...

    def default_action(self, state: State, seat: int) -> Action: ...

    def outcome(self, state: State) -> Outcome | None: ...


@dataclass(frozen=True)
class Game:
    """A GameDef made of plain functions: what each engine package exports as `GAME`.

    Optional parts:
    * choose_action(state, seat, rng) -> action: the baseline AI seat (must only use what `view` shows).
    * legal_actions(state, seat) -> list of every legal action, for games small enough to enumerate.
    * determinize(state, seat, rng) -> a full state consistent with everything `seat` may know, with the
      hidden rest re-drawn (for search AIs and the secrecy tests).
    * describe(action) -> a short text of an action (records, logs).
    """

    type: GameType
    new_game: Callable[[Mapping[str, Any], int, int], State]
    pending: Callable[[State], dict[int, Prompt]]
    apply: Callable[[State, int, Action], list[Event]]
    view: Callable[[State, int | None], dict]
    default_action: Callable[[State, int], Action]
    outcome: Callable[[State], Outcome | None]
    normalize_options: Callable[[Mapping[str, Any], int], dict] | None = None
    choose_action: Callable[[State, int, random.Random], Action] | None = None
    legal_actions: Callable[[State, int], list[Action]] | None = None
    determinize: Callable[[State, int, random.Random], State] | None = None
    describe: Callable[[Action], str] | None = None

    @property
    def name(self) -> str:
        return self.type.name

    def options_for(self, options: Mapping[str, Any], seats: int) -> dict:
        """Validated options (type defaults filled in), then the game's own normalisation."""
        if not self.type.min_seats <= seats <= self.type.max_seats:
            if self.type.min_seats == self.type.max_seats:
                raise IllegalAction("bad_seats", f"{self.type.display_name} is played by exactly "
                                    f"{self.type.min_seats} players.")
            raise IllegalAction("bad_seats", f"{self.type.display_name} is played by {self.type.min_seats}"
                                f"–{self.type.max_seats} players.")
        out: dict[str, Any] = {}
        for spec in self.type.options:
            out[spec.name] = spec.validate(options[spec.name]) if spec.name in options else spec.default
        extra = {k: v for k, v in options.items() if k not in out}
        out.update(extra)
        if self.normalize_options is not None:
            return self.normalize_options(out, seats)
        return out

    def is_over(self, state: State) -> bool:
        return self.outcome(state) is not None

    def rebuild(self, options: Mapping[str, Any], seed: int, seats: int,
                actions: list[tuple[int, Action]]) -> State:
        """State after applying (seat, action) pairs to a fresh game: the record is the source of truth."""
        state = self.new_game(options, seed, seats)
        for seat, action in actions:
            self.apply(state, seat, action)
        return state

    def replay(self, record: Mapping[str, Any]) -> State:
        """A record {"options", "seed", "seats", "actions": [[seat, action], ...]} replayed."""
        return self.rebuild(record["options"], int(record["seed"]), int(record["seats"]),
                            [(int(s), a) for s, a in record["actions"]])


def waiting_seats(prompts: Mapping[int, Prompt]) -> list[int]:
    return sorted(s for s, p in prompts.items() if p.waiting)
