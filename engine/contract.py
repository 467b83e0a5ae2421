"""Conformance checks every registered game must pass (the idea of PettingZoo's api_test).

`check_game(game)` plays random games for every seat count and option set and checks, after every action:
* the state is plain JSON and survives a JSON round trip;
* `pending` returns `Prompt`s; a game that is not over has someone to act; `outcome` is None until the end;
* `default_action` (and `choose_action`, `legal_actions` where given) are legal for every waiting seat;
* junk and mutated actions, and actions by seats with nothing to decide, are refused with `IllegalAction`
  carrying a player-readable message, and change nothing;
* the views are JSON; where the game can `determinize`, a seat's view (and the public view) is identical
  for every state consistent with what that seat knows: a view that shows another seat's secret would differ;
and per game: the record replays to the identical state, and the outcome has one result per seat.

Pure: no I/O. `tests/contract/` runs it over `engine.registry.all_games()`.
"""

from __future__ import annotations

import copy
import itertools
import json
import marshal
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .api import Game, IllegalAction, Outcome, Prompt

try:
    import orjson
except ImportError:  # the checks stay exact without it, only slower
    orjson = None


class ContractViolation(AssertionError):
    pass


def _fail(game: Game, message: str) -> None:
    raise ContractViolation(f"{game.name}: {message}")


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


_SCALARS = (bool, int, float, str)
_SCALAR_TYPES = frozenset({bool, int, float, str, type(None)})


# orjson hands these to a `default` (there is none here, so it refuses them) instead of writing them as JSON.
_STRICT = (orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
           if orjson is not None else 0)


def _round_trips(value: Any) -> bool:
    """A quick sufficient test: True means `value` is plain JSON and a JSON round trip gives it back equal. orjson
    writes tuples, enums and UUIDs too, but they do not read back equal; it writes non-finite floats as null, which
    does not read back equal either. False decides nothing (the exact checks say)."""
    if orjson is None:
        return False
    try:
        return orjson.loads(orjson.dumps(value, option=_STRICT)) == value
    except (TypeError, ValueError):  # not orjson's (big integers, other key types, ...)
        return False


def survives_json_round_trip(value: Any) -> bool:
    """json.loads(json.dumps(value)) == value (False where json.dumps refuses the value), decided by orjson's round
    trip where that says yes (see `_round_trips`), by the json module otherwise."""
    if _round_trips(value):
        return True
    try:
        return json.loads(json.dumps(value)) == value
    except (TypeError, ValueError):
        return False


class RoundTrips:
    """survives_json_round_trip(state) for the successive states of one game, without reading again the part of
    its growing log (`state[key]`, a list) that is as it was when last found to survive.

    Each call writes the log with marshal (a fresh slice of it, so every event is marked alike): marshal writes
    every type, value, key order and shared reference and decodes unambiguously, so when the bytes of the events
    found to survive last time come out the same, those events are the same values of the same types as then,
    and survive again. The rest of the state and the events after them are checked as survives_json_round_trip
    checks them; anything else (no such list, bytes that differ, what orjson does not decide) is decided by
    survives_json_round_trip on the whole state."""

    _HEADER = 5  # marshal's list header: the type byte and the 4-byte length

    def __init__(self, key: str = "log") -> None:
        self.key = key
        self._count = 0  # events found to survive, written as `_bytes` (without the list header)
        self._bytes = b""

    def __call__(self, state: Any) -> bool:
        log = state.get(self.key) if type(state) is dict else None
        if orjson is None or type(log) is not list:
            return self._whole(state)
        try:
            written = marshal.dumps(log[:])
        except ValueError:  # not marshal's: not plain JSON either, the whole check says so
            return self._whole(state)
        count = len(log)
        head = self._HEADER
        known = self._count if (count >= self._count and written[head:head + len(self._bytes)] == self._bytes) else 0
        rest = {k: v for k, v in state.items() if k != self.key}
        if not (_round_trips(rest) and _round_trips(log[known:])):
            return self._whole(state)
        self._count, self._bytes = count, written[head:]
        return True

    def _whole(self, state: Any) -> bool:
        self._count, self._bytes = 0, b""
        return survives_json_round_trip(state)


def is_plain_json(value: Any) -> bool:
    """None, bool, int, float, str, and lists and str-keyed dicts of them (walked without recursion: states are
    checked after every action)."""
    if _round_trips(value):
        return True
    stack = [value]
    pop, push = stack.pop, stack.extend
    while stack:
        v = pop()
        t = type(v)
        if t in _SCALAR_TYPES:
            continue
        if isinstance(v, list):
            push(v)
        elif isinstance(v, dict):
            for k in v:
                if not isinstance(k, str):
                    return False
            push(v.values())
        elif not isinstance(v, _SCALARS):
            return False
    return True


def option_sets(game: Game) -> Iterator[tuple[int, dict]]:
    """(seats, options) for every seat count, crossed with every value of each option taken one at a time
    (and every combination of "flags" options such as modules), so the suite grows linearly, not as a product."""
    t = game.type
    variants: list[dict] = [{}]
    for spec in t.options:
        if spec.kind == "choice":
            values = [v for v, _ in spec.choices]
        elif spec.kind == "bool":
            values = [False, True]
        elif spec.kind == "int":
            low = spec.min if spec.min is not None else spec.default
            high = spec.max if spec.max is not None else spec.default
            # small ranges completely (virtual opponents 0-3), large ones at both ends
            values = list(range(low, high + 1)) if high - low <= 4 else sorted({low, spec.default, high})
        else:  # flags: every subset
            names = [v for v, _ in spec.choices]
            values = [list(c) for n in range(len(names) + 1) for c in itertools.combinations(names, n)]
        for value in values:
            if value != spec.default:
                variants.append({spec.name: value})
    seen: set[str] = set()
    for seats in range(t.min_seats, t.max_seats + 1):
        for options in variants:
            try:
                normalized = game.options_for(options, seats)
            except IllegalAction:
                continue  # e.g. more virtual opponents than free seats
            key = canonical([seats, normalized])
            if key not in seen:
                seen.add(key)
                yield seats, normalized


def junk_actions(legal: dict, rng: random.Random) -> list[Any]:
    """Malformed or mutated actions: most must be refused (a mutation may by chance still be legal)."""
    out: list[Any] = [None, 7, "pass", [], {}, {"type": None}, {"type": "no-such-action"},
                      {"type": legal.get("type"), "__junk__": {"x": [1, 2]}} if isinstance(legal, dict) else {}]
    if isinstance(legal, dict):
        for key in legal:
            for value in (None, -1, 10**9, "zzz", [None], {"a": -3}, 2.5):
                mutated = dict(legal)
                mutated[key] = value
                out.append(mutated)
            dropped = dict(legal)
            dropped.pop(key)
            out.append(dropped)
    rng.shuffle(out)
    return out[:12]


@dataclass
class Report:
    games: int = 0
    actions: int = 0
    refused: int = 0
    configs: list[tuple[int, dict]] = field(default_factory=list)


def _check_prompts(game: Game, state: dict, prompts: Any) -> dict[int, Prompt]:
    if not isinstance(prompts, dict):
        _fail(game, "pending() must return a dict of seat -> Prompt")
    for seat, prompt in prompts.items():
        if not isinstance(seat, int) or not isinstance(prompt, Prompt):
            _fail(game, f"pending() gave {seat!r}: {prompt!r}, not int -> Prompt")
        if not isinstance(prompt.key, str) or not prompt.key or not isinstance(prompt.kind, str):
            _fail(game, f"prompt of seat {seat} needs a non-empty str key and kind")
        if not is_plain_json(dict(prompt.choices)):
            _fail(game, f"choices of seat {seat}'s {prompt.kind} prompt are not plain JSON")
    return prompts


def same_json(a: Any, b: Any) -> bool:
    """canonical(a) == canonical(b), quickly in the usual case: equal values (==) whose JSON texts (orjson's, fast)
    are equal too have the same canonical text; `==` alone would take 1 for 1.0 or True, orjson alone would take
    every non-finite float for null. Anything else is decided by comparing the canonical texts."""
    if orjson is not None and a == b:
        try:
            if orjson.dumps(a, option=orjson.OPT_SORT_KEYS) == orjson.dumps(b, option=orjson.OPT_SORT_KEYS):
                return True
        except TypeError:  # what orjson does not take (an integer past 64 bits, ...): the exact comparison says
            pass
    return canonical(a) == canonical(b)


class _Snapshot:
    """One state, copied as often as the checks of a step need: each copy is a fresh, exact deep copy (marshal
    keeps types, values and shared references of plain data) at a fraction of copy.deepcopy's cost.

    A copy a check handed back (`give_back`) is kept for the next check when its marshal bytes are those of a
    fresh copy: marshal writes every type, value, key order and shared reference (and marks objects referenced
    from elsewhere), so equal bytes mean the copy is indistinguishable from a fresh one, and also that the check
    left it unchanged. Anything else is dropped and the next check gets a fresh copy."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self._spare: Any = None
        try:
            self._blob: bytes | None = marshal.dumps(state)
        except ValueError:
            self._blob = None
        self._fresh: bytes | None = None  # the bytes of a fresh copy (they can differ from `_blob` in marks only)

    def copy(self) -> Any:
        if self._spare is not None:
            spare, self._spare = self._spare, None
            return spare
        if self._blob is None:
            return copy.deepcopy(self.state)
        fresh = marshal.loads(self._blob)
        if self._fresh is None:
            self._fresh = marshal.dumps(fresh)
        return fresh

    def give_back(self, trial: Any) -> bool:
        """True (and `trial` kept for the next `copy`) if `trial` is exactly a fresh copy. The caller must hold no
        other reference to `trial` or anything in it."""
        if self._fresh is None:
            return False
        try:
            same = marshal.dumps(trial) == self._fresh
        except ValueError:  # something marshal does not write was put in: not a fresh copy
            return False
        if same:
            self._spare = trial
        return same


def exact_copy(value: Any) -> Any:
    """A deep copy (types, values, key order and shared references kept): marshal's, several times quicker than
    copy.deepcopy on plain data; copy.deepcopy for what marshal does not write."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:
        return copy.deepcopy(value)


def _expect_refused(game: Game, state: dict | _Snapshot, seat: int, action: Any, why: str) -> bool:
    """True if refused properly; False if it was (by chance) legal. Never mutates `state`."""
    snapshot = state if isinstance(state, _Snapshot) else _Snapshot(state)
    trial = snapshot.copy()
    try:
        game.apply(trial, seat, action)
    except IllegalAction as exc:
        message = exc.message
    except Exception as exc:  # noqa: BLE001 - any other exception is the violation being checked
        _fail(game, f"{why}: {action!r} raised {type(exc).__name__}: {exc} instead of IllegalAction")
    else:
        return False
    # (the exception and its traceback, which may hold parts of `trial`, are gone here)
    if not isinstance(message, str) or len(message.strip()) < 8:
        _fail(game, f"{why}: refusal without a readable message ({message!r})")
    if not snapshot.give_back(trial) and not same_json(trial, snapshot.state):
        _fail(game, f"{why}: the refused action {action!r} changed the state")
    return True


def _check_legal(game: Game, state: dict | _Snapshot, seat: int, action: Any, who: str) -> None:
    trial = state.copy() if isinstance(state, _Snapshot) else copy.deepcopy(state)
    try:
        game.apply(trial, seat, action)
    except IllegalAction as exc:
        _fail(game, f"{who} for seat {seat} is illegal: {action!r}: {exc.message}")


class _Known:
    """A value compared with many others (`same_json`): its sorted orjson text is written once."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self._text: bytes | None = None
        self._texted = False

    def same(self, other: Any) -> bool:
        """same_json(other, self.value)."""
        if orjson is not None and other == self.value:
            if not self._texted:
                self._texted = True
                try:
                    self._text = orjson.dumps(self.value, option=orjson.OPT_SORT_KEYS)
                except TypeError:
                    self._text = None
            if self._text is not None:
                try:
                    if orjson.dumps(other, option=orjson.OPT_SORT_KEYS) == self._text:
                        return True
                except TypeError:
                    pass
        return canonical(other) == canonical(self.value)


def _check_views(game: Game, state: dict, n: int, rng: random.Random, snapshot: _Snapshot | None = None) -> None:
    public = game.view(state, None)
    if not is_plain_json(public):
        _fail(game, "the public view is not plain JSON")
    views = []
    for seat in range(n):
        view = game.view(state, seat)
        if not is_plain_json(view):
            _fail(game, f"seat {seat}'s view is not plain JSON")
        views.append(view)
    if game.determinize is None:
        return
    known_public = _Known(public)
    for seat in range(n):
        mine = _Known(views[seat])
        fresh = snapshot.copy() if snapshot is not None else copy.deepcopy(state)
        sample = game.determinize(fresh, seat, random.Random(rng.random()))
        if not mine.same(game.view(sample, seat)):
            _fail(game, f"seat {seat}'s view changes with secrets it may not know (a leak, or determinize "
                        "changed something the seat can see)")
        if not known_public.same(game.view(sample, None)):
            _fail(game, "the public view changes with hidden information (a leak)")
        del sample  # (the sample and its views may share parts of `fresh`)
        if snapshot is not None:
            snapshot.give_back(fresh)


def play_and_check(game: Game, seats: int, options: dict, seed: int, *, deep_every: int = 1,
                   max_actions: int = 5000, report: Report | None = None) -> dict:
    """One random game with every per-action check; returns the final state."""
    rng = random.Random(f"{game.name}:{seats}:{seed}")
    state = game.new_game(options, seed, seats)
    actions: list[tuple[int, dict]] = []
    round_trips = RoundTrips()
    for step in range(max_actions):
        if not round_trips(state):  # else decided exactly:
            if not is_plain_json(state):
                _fail(game, "the state is not plain JSON")
            if json.loads(json.dumps(state)) != state:
                _fail(game, "the state does not survive a JSON round trip")
        prompts = _check_prompts(game, state, game.pending(state))
        result = game.outcome(state)
        if not prompts:
            if not isinstance(result, Outcome):
                _fail(game, "no seat has anything to decide but the game has no outcome")
            break
        if result is not None:
            _fail(game, "outcome() must be None while seats still have decisions")
        waiting = sorted(s for s, p in prompts.items() if p.waiting)
        if not waiting:
            _fail(game, "every pending prompt is answered but the game does not move on")
        deep = step % deep_every == 0
        seat = rng.choice(waiting)
        default = game.default_action(state, seat)
        # The state does not change until this step's own action: every check below copies it from one snapshot.
        snapshot = _Snapshot(state) if deep else None
        if deep:
            _check_views(game, state, seats, rng, snapshot)
            for other in range(seats):
                if other not in prompts:
                    _expect_refused(game, snapshot, other, default, f"seat {other} has nothing to decide")
            _check_legal(game, snapshot, seat, default, "default_action")
            for junk in junk_actions(default, rng):
                if _expect_refused(game, snapshot, seat, junk, "junk action") and report:
                    report.refused += 1
        legal = game.legal_actions(state, seat) if game.legal_actions is not None else None
        if legal is not None and deep:
            if not legal:
                _fail(game, f"legal_actions is empty for waiting seat {seat}")
            for action in rng.sample(legal, min(3, len(legal))):
                _check_legal(game, snapshot, seat, action, "legal_actions")
        if legal and rng.random() < 0.5:
            action = rng.choice(legal)
        elif game.choose_action is not None and rng.random() < 0.8:
            action = game.choose_action(state, seat, random.Random(rng.random()))
            if deep:
                _check_legal(game, snapshot, seat, action, "choose_action")
        else:
            action = default
        before_key = prompts[seat].key
        events = game.apply(state, seat, action)
        actions.append((seat, copy.deepcopy(action)))
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            _fail(game, "apply() must return a list of event dicts")
        if not is_plain_json(events):
            _fail(game, "events are not plain JSON")
        if game.type.dynamics == "sealed":
            after = game.pending(state).get(seat)
            if after is not None and not after.waiting and after.key != before_key:
                _fail(game, "amending a sealed choice must keep the prompt key")
        if report:
            report.actions += 1
    else:
        _fail(game, f"no end after {max_actions} actions (seats {seats}, options {options}, seed {seed})")
    result = game.outcome(state)
    assert result is not None
    if sorted(r.seat for r in result.results) != list(range(seats)):
        _fail(game, f"the outcome must have one result per seat, got {[r.seat for r in result.results]}")
    if not result.winners:
        _fail(game, "a finished game needs at least one winner")
    try:
        replayed = game.rebuild(options, seed, seats, actions)
    except IllegalAction as exc:
        _fail(game, f"the record does not replay: an action was refused on replay ({exc.message})")
    if canonical(replayed) != canonical(state):
        _fail(game, "the record does not replay to the identical state")
    if report:
        report.games += 1
    return state


def check_game(game: Game, *, games_per_config: int = 2, seed: int = 0, deep_every: int = 1) -> Report:
    report = Report()
    for seats, options in option_sets(game):
        report.configs.append((seats, options))
        for i in range(games_per_config):
            play_and_check(game, seats, options, seed + i, deep_every=deep_every, report=report)
    return report
