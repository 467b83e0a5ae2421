"""Search AI seats for any game of the contract (engine/api.py): determinized information-set tree search.

At a decision of seat s the search never looks at the true hidden state. Each iteration:

1. samples a state consistent with what s may know: the game's ``determinize(state, s, rng)`` re-draws
   every secret of the others (hands, screens, deck orders, unrevealed sealed choices);
2. walks a tree of s's own decisions (an information-set tree: nodes are keyed by s's actions only, so the
   statistics of one node are shared by every sampled state, as in single-observer ISMCTS). At the root,
   actions are compared by sequential halving (a fixed budget spent where it separates the best actions);
   deeper own decisions use UCB1 with availability counts (an action may be possible in one sample only);
3. other seats act by the game's baseline policy (``choose_action``), the opponent model. **Sealed
   choices** (every waiting seat chooses secretly, revealed together: Viceroy) are handled by sampling the
   others' choices from the baseline policy in the sampled state *before* s's own choice is applied, so no
   simulated seat ever reacts to a choice it could not have seen;
4. plays out to the end by the baseline policy for every seat and scores the result for s: a share of the
   win plus a smaller part for the margin over the best other seat.

Budgets are iteration counts, so a decision is a pure function of (state as s sees it, seat, rng): games
replay. The time cap of a level (CPU seconds of the deciding thread) is only an upper bound for slow machines;
when it cuts a search short the result may differ from an uncut run.

Games plug in through optional parts of `Game` (``legal_actions``, ``determinize``, ``choose_action``) and,
for games whose actions cannot be enumerated, a module ``engine.<game>.ai_candidates`` with
``candidates(state, seat, rng)`` (and optionally ``waiting``, ``is_over``, ``fast_clone``,
``search_determinize`` for speed). See docs/ai.md.

Use: ``choose = ai_for(game, "hard"); action = choose(state, seat, rng)``.
"""

from __future__ import annotations

import importlib
import json
import math
import pickle
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.api import SEALED, Action, Game, IllegalAction, State, waiting_seats

Chooser = Callable[[State, int, random.Random], Action]


@dataclass(frozen=True)
class Level:
    """An AI level. iterations 0 = the baseline policy.

    time_cap: CPU seconds of the deciding thread (time.thread_time), an upper bound for slow machines only: on
    a loaded machine a search is not cut because other processes take the core, so it stays reproducible.
    """

    name: str
    iterations: int
    depth: int = 1  # own decisions in the tree below the root
    time_cap: float | None = None
    exploration: float = 0.7
    playout_steps: int | None = None  # actions per play-out before it is scored by `evaluate`; None = to the end
    max_candidates: int | None = None  # root actions compared; None = max(8, iterations // 4)
    label: str = ""


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 0, label="Easy: quick heuristics"),
    "normal": Level("normal", 32, depth=1, time_cap=1.0, label="Normal: a short search"),
    "hard": Level("hard", 240, depth=2, time_cap=3.5, label="Hard: a deeper search (about 1-2 s a move)"),
}


@dataclass
class Hooks:
    """What the search needs from a game, filled from the Game and its optional ai_candidates module."""

    candidates: Callable[[State, int, random.Random], list[Action]]
    determinize: Callable[[State, int, random.Random], State]
    policy: Chooser
    clone: Callable[[State], State]
    waiting: Callable[[State], list[int]]
    is_over: Callable[[State], bool]
    illegal: tuple[type[BaseException], ...] = (IllegalAction,)
    sealed: bool = False
    evaluate: Callable[[State, int], float] | None = None  # value in [0, 1] of an unfinished state


@dataclass
class SearchStats:
    """Filled in by a search when given: for benchmarks and tests."""

    iterations: int = 0
    candidates: int = 0
    seconds: float = 0.0
    cut_by_time: bool = False
    values: dict[str, tuple[int, float]] = field(default_factory=dict)


def _pickle_clone(state: State) -> State:
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


def action_key(action: Action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def hooks_for(game: Game) -> Hooks:
    """The search hooks of a game (cached per game object)."""
    cached = _HOOKS.get(id(game))
    if cached is not None and cached[0] is game:
        return cached[1]
    try:
        extra = importlib.import_module(f"engine.{game.name}.ai_candidates")
    except ModuleNotFoundError as exc:
        if not f"engine.{game.name}.ai_candidates".startswith(exc.name or "?"):
            raise  # the module exists but one of its imports is missing
        extra = None

    def get(name: str) -> Any:
        return getattr(extra, name, None) if extra is not None else None

    candidates = get("candidates")
    if candidates is None:
        if game.legal_actions is None:
            raise ValueError(f"{game.type.display_name} offers neither legal_actions nor ai_candidates")
        legal = game.legal_actions

        def candidates(state: State, seat: int, rng: random.Random) -> list[Action]:
            return list(legal(state, seat))

    determinize = get("search_determinize") or game.determinize
    if determinize is None:
        if game.type.hidden_information:
            raise ValueError(f"{game.type.display_name} has hidden information but no determinize")
        determinize = _copy_determinize
    policy = game.choose_action or _random_policy(candidates)
    illegal: tuple[type[BaseException], ...] = (IllegalAction,)
    extra_illegal = get("ILLEGAL")
    if extra_illegal:
        illegal = illegal + tuple(extra_illegal)
    hooks = Hooks(
        candidates=candidates,
        determinize=determinize,
        policy=policy,
        clone=get("fast_clone") or _pickle_clone,
        waiting=get("waiting") or (lambda state: waiting_seats(game.pending(state))),
        is_over=get("is_over") or game.is_over,
        illegal=illegal,
        sealed=game.type.dynamics == SEALED,
        evaluate=get("evaluate"),
    )
    _HOOKS[id(game)] = (game, hooks)
    return hooks


_HOOKS: dict[int, tuple[Game, Hooks]] = {}


def _copy_determinize(state: State, seat: int, rng: random.Random) -> State:
    return _pickle_clone(state)


def _random_policy(candidates: Callable[[State, int, random.Random], list[Action]]) -> Chooser:
    def choose(state: State, seat: int, rng: random.Random) -> Action:
        return rng.choice(candidates(state, seat, rng))

    return choose


# ---------------------------------------------------------------------------------------------- the search


class _Node:
    """Statistics of one own information set: per action key, visits, summed value and availability."""

    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.stats: dict[str, list[float]] = {}  # key -> [visits, value sum, availability]
        self.children: dict[str, _Node] = {}

    def child(self, key: str) -> _Node:
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = _Node()
        return node

    def select(self, keys: list[str], exploration: float) -> str:
        for key in keys:
            entry = self.stats.setdefault(key, [0, 0.0, 0])
            entry[2] += 1
        for key in keys:
            if self.stats[key][0] == 0:
                return key
        best, best_score = keys[0], -math.inf
        for key in keys:
            n, w, avail = self.stats[key]
            score = w / n + exploration * math.sqrt(math.log(max(avail, 1)) / n)
            if score > best_score:
                best, best_score = key, score
        return best

    def update(self, key: str, value: float) -> None:
        entry = self.stats.setdefault(key, [0, 0.0, 0])
        entry[0] += 1
        entry[1] += value


class Search:
    """One decision's search. Use `choose` (or `ai_for`)."""

    def __init__(self, game: Game, level: Level, hooks: Hooks | None = None, max_steps: int = 5000) -> None:
        self.game = game
        self.level = level
        self.hooks = hooks or hooks_for(game)
        self.max_steps = max_steps

    # -- actions

    def legal_candidates(self, state: State, seat: int, rng: random.Random) -> list[Action]:
        """Candidates and the baseline's own choice, duplicates removed, each accepted by `apply`."""
        hooks = self.hooks
        found = list(hooks.candidates(state, seat, rng))
        try:
            found.insert(0, hooks.policy(state, seat, random.Random(rng.getrandbits(32))))
        except hooks.illegal:
            pass
        out, seen = [], set()
        for action in found:
            key = action_key(action)
            if key in seen:
                continue
            seen.add(key)
            if self._accepted(state, seat, action):
                out.append(action)
        if not out:
            out.append(self.game.default_action(state, seat))
        return out

    def _accepted(self, state: State, seat: int, action: Action) -> bool:
        probe = self.hooks.clone(state)
        try:
            self.game.apply(probe, seat, action)
        except self.hooks.illegal:
            return False
        return True

    def _act(self, state: State, seat: int, action: Action) -> None:
        try:
            self.game.apply(state, seat, action)
        except self.hooks.illegal:
            # A policy slip inside a play-out: the seat does what a timed-out player would.
            self.game.apply(state, seat, self.game.default_action(state, seat))

    # -- one play-out

    def _value(self, state: State, seat: int) -> float:
        outcome = self.game.outcome(state)
        if outcome is None:
            return self.hooks.evaluate(state, seat) if self.hooks.evaluate is not None else 0.5
        results = {r.seat: r for r in outcome.results}
        me = results.get(seat)
        if me is None:
            return 0.0
        winners = [r for r in outcome.results if r.winner]
        share = 1.0 / len(winners) if me.winner and winners else 0.0
        others = [r.total for r in outcome.results if r.seat != seat]
        if not others:
            return 0.5 * share + 0.5 * (0.5 + 0.5 * math.tanh(me.total / 50.0))
        totals = [abs(r.total) for r in outcome.results]
        scale = max(3.0, 0.15 * sum(totals) / len(totals))
        margin = me.total - max(others)
        return 0.6 * share + 0.4 * (0.5 + 0.5 * math.tanh(margin / scale))

    def _simulate(self, state: State, seat: int, root: _Node, first_key: str, first_action: Action,
                  rng: random.Random) -> float:
        hooks = self.hooks
        node: _Node | None = root
        path: list[tuple[_Node, str]] = []
        forced: tuple[str, Action] | None = (first_key, first_action)
        depth = 0
        steps = self.max_steps if self.level.playout_steps is None else self.level.playout_steps
        for _ in range(steps):
            if hooks.is_over(state):
                break
            seats = hooks.waiting(state)
            if not seats:
                break
            if seat in seats:
                # Sealed: the others' choices are drawn before ours is known to anyone.
                others = [s for s in seats if s != seat] if hooks.sealed else []
                their = [(s, hooks.policy(state, s, rng)) for s in others]
                if forced is not None:
                    key, action = forced
                    forced = None
                    path.append((root, key))
                    node = root.child(key)
                    depth = 1
                elif node is not None and depth < self.level.depth:
                    options = self.legal_options(state, seat, rng)
                    keys = [action_key(a) for a in options]
                    # Progressive widening: the baseline's choice first, one more action per square of the
                    # visits, so a rarely visited node plays like the baseline instead of trying everything.
                    visits = sum(entry[0] for entry in node.stats.values())
                    width = 1 + math.isqrt(visits)
                    options, keys = options[:width], keys[:width]
                    key = node.select(keys, self.level.exploration)
                    action = options[keys.index(key)]
                    path.append((node, key))
                    node = node.child(key)
                    depth += 1
                else:
                    node = None
                    action = hooks.policy(state, seat, rng)
                for s, their_action in their:
                    self._act(state, s, their_action)
                self._act(state, seat, action)
                continue
            if hooks.sealed:
                chosen = [(s, hooks.policy(state, s, rng)) for s in seats]
                for s, action in chosen:
                    self._act(state, s, action)
            else:
                s = seats[0]
                self._act(state, s, hooks.policy(state, s, rng))
        value = self._value(state, seat)
        for owner, key in path[1:]:
            owner.update(key, value)
        return value

    def legal_options(self, state: State, seat: int, rng: random.Random) -> list[Action]:
        """Candidates inside the tree, the baseline's choice first (not re-checked by apply: a slip falls back
        to the default action)."""
        options = [self.hooks.policy(state, seat, rng)]
        first = action_key(options[0])
        options += [a for a in self.hooks.candidates(state, seat, rng) if action_key(a) != first]
        return options

    # -- the decision

    def choose(self, state: State, seat: int, rng: random.Random, stats: SearchStats | None = None) -> Action:
        started, cpu_started = time.perf_counter(), time.thread_time()
        level = self.level
        seed_rng = random.Random(rng.getrandbits(64))
        if level.iterations <= 0:
            return self.hooks.policy(state, seat, seed_rng)
        options = self.legal_candidates(state, seat, seed_rng)
        limit = level.max_candidates or max(8, level.iterations // 4)
        if len(options) > limit:
            options = _diverse_subset(options, limit, seed_rng)
        keys = [action_key(a) for a in options]
        if stats is not None:
            stats.candidates = len(options)
        if len(options) == 1:
            return options[0]
        root = _Node()
        totals = {k: [0, 0.0] for k in keys}
        alive = list(range(len(options)))
        rounds = max(1, math.ceil(math.log2(len(options))))
        deadline = cpu_started + level.time_cap if level.time_cap is not None else None
        done = 0
        cut = False
        for round_no in range(rounds):
            if len(alive) == 1:
                break
            per = max(1, (level.iterations // rounds) // len(alive))
            for _ in range(per):
                # Common random numbers: every action still in the race meets the same sampled state and
                # the same play-out dice, so their difference is not drowned by the luck of the draw.
                sample_seed, sim_seed = seed_rng.getrandbits(64), seed_rng.getrandbits(64)
                for i in alive:
                    if deadline is not None and done >= len(options) and time.thread_time() > deadline:
                        cut = True
                        break
                    sample = self.hooks.determinize(state, seat, random.Random(sample_seed))
                    value = self._simulate(sample, seat, root, keys[i], options[i], random.Random(sim_seed))
                    totals[keys[i]][0] += 1
                    totals[keys[i]][1] += value
                    done += 1
                if cut:
                    break
            if cut:
                break
            if round_no < rounds - 1:
                alive.sort(key=lambda i: (-_mean(totals[keys[i]]), i))
                kept = alive[: max(1, math.ceil(len(alive) / 2))]
                if 0 in alive and 0 not in kept:
                    kept[-1] = 0  # the baseline's own choice stays in the race: noise alone never drops it
                alive = sorted(kept)
        best = max(alive, key=lambda i: (_mean(totals[keys[i]]), totals[keys[i]][0], -i))
        if stats is not None:
            stats.iterations = done
            stats.seconds = time.perf_counter() - started
            stats.cut_by_time = cut
            stats.values = {k: (int(v[0]), _mean(v)) for k, v in totals.items()}
        return options[best]


def _diverse_subset(options: list[Action], limit: int, rng: random.Random) -> list[Action]:
    """``limit`` actions for a large action space: the baseline's choice (first), then the others taken in
    turn from each kind of action (its "type"), so a few rare kinds (buying) are not crowded out by a common
    one (taking tokens)."""
    groups: dict[Any, list[Action]] = {}
    for action in options[1:]:
        groups.setdefault(action.get("type"), []).append(action)
    for group in groups.values():
        rng.shuffle(group)
    out = [options[0]]
    while len(out) < limit and any(groups.values()):
        for group in groups.values():
            if group and len(out) < limit:
                out.append(group.pop())
    return out


def _mean(entry: list[float]) -> float:
    return entry[1] / entry[0] if entry[0] else -1.0


def ai_for(game: Game, level: str | Level, **overrides: Any) -> Chooser:
    """``choose_action(state, seat, rng) -> action`` for an AI seat of ``level`` ("easy", "normal", "hard").

    The function is pure given its arguments (iteration budgets; the level's time cap only bounds slow
    machines) and reads the hidden state only through the game's determinization. Run it off the event loop
    (a worker thread or process): a hard decision takes up to a couple of seconds of CPU.
    ``overrides`` replace fields of the level (e.g. ``iterations=20`` in tests).
    """
    spec = LEVELS[level] if isinstance(level, str) else level
    if overrides:
        spec = Level(**{**spec.__dict__, **overrides})
    if spec.iterations <= 0:
        if game.choose_action is None:
            raise ValueError(f"{game.type.display_name} has no baseline AI")
        return game.choose_action
    search = Search(game, spec)

    def choose_action(state: State, seat: int, rng: random.Random) -> Action:
        return search.choose(state, seat, rng)

    choose_action.level = spec  # type: ignore[attr-defined]
    choose_action.search = search  # type: ignore[attr-defined]
    return choose_action


_CHOOSERS: dict[tuple[str, str], Chooser] = {}


def decide(game_name: str, level: str, state: State, seat: int, seed: int | str) -> Action:
    """One AI decision from plain arguments, for a worker process (`ProcessPoolExecutor.submit(decide, ...)`):
    the game by name, the level by name and a seed (e.g. f"{game_seed}:{seat}:{action_count}")."""
    key = (game_name, level)
    choose = _CHOOSERS.get(key)
    if choose is None:
        choose = _CHOOSERS[key] = ai_for(load_game(game_name), level)
    return choose(state, seat, random.Random(seed))


def level_names() -> list[str]:
    return list(LEVELS)


def load_game(name: str) -> Game:
    """A game by name: the registry's (engine/registry.py), else (a game not registered yet) its package's GAME."""
    try:
        registry = importlib.import_module("engine.registry")
    except ModuleNotFoundError:
        registry = None
    if registry is not None and hasattr(registry, "load_game"):
        unknown = getattr(registry, "UnknownGame", KeyError)
        try:
            return registry.load_game(name)
        except unknown:
            pass  # not registered yet (still being built): its package's GAME, if any, for tests and tournaments
    try:
        module = importlib.import_module(f"engine.{name}")
    except ModuleNotFoundError:
        raise ValueError(f"no game called {name!r}") from None
    game = getattr(module, "GAME", None)
    if game is None:
        raise ValueError(f"engine.{name} has no GAME")
    return game
