"""The rule tables and the module mechanism.

Every rule the engine applies is an entry in one of the tables of a :class:`Ruleset`: phases (with their
``next``), resolution steps, decisions (validate + default answer), rewards, payment sources, laws, scorers,
view contributors and setup hooks. The base game fills them (``base.py``); a *module* is a plain object with a
``name``, an ``order`` and ``install(rules)``, which adds or replaces entries and keeps its own state in
``state["ext"][name]``. A game names its modules in ``options["modules"]``; the state keeps them, so a record
replays with the same rules. Modules are installed after the base game in a fixed order (``order``, then
name), whatever order the options list them in.

This file imports nothing else of the engine's rules, so every rules file can use it without a cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from .errors import IllegalAction

# What a phase's ``advance`` returns when the phase is over and the flow moves to its ``next`` phase.
DONE = "done"

Step = Callable[[dict, dict, list], bool]


@dataclass(frozen=True)
class Phase:
    """One phase of the game.

    A *sealed* phase collects one choice per active seat (``validate`` turns an action into the choice), then
    ``resolve`` reveals them all and queues their steps. A phase with ``act`` instead applies each seat's
    action at once (painting). When the queue is empty, ``advance`` either starts a new round (returns False:
    wait for the players), queues more work (True), or ends the phase (``DONE``): the flow then starts
    ``next`` (a phase name, or a function of the state giving one).
    """

    name: str
    start: Callable[[dict, list], None]
    next: str | Callable[[dict], str] | None = None
    validate: Callable[[dict, int, dict], dict] | None = None
    resolve: Callable[[dict, dict[int, dict], list], None] | None = None
    advance: Callable[[dict, list], bool | str] | None = None
    act: Callable[[dict, int, dict, list], None] | None = None
    pending: Callable[[dict], dict[int, dict]] | None = None
    prompt_key: Callable[[dict, int, dict], str] | None = None
    inactive: str = "You have nothing to decide now."
    default: Callable[[dict, int], dict] | None = None


@dataclass(frozen=True)
class Decision:
    """A question a resolution step asks one seat: how to check an answer and what a silent seat answers."""

    validate: Callable[[dict, int, dict, dict], dict]
    default: Callable[[dict, int, dict], dict]


@dataclass(frozen=True)
class Law:
    """A law card: checks on its plan, its effect when played, its extra steps and its end-game points.

    ``validate(state, seat, action, out, fresh)`` adds the law's fields to the checked plan ``out``; ``fresh``
    is False when a submitted plan is checked again at resolution (things a step asks about again are not
    re-checked then). ``play(state, seat, plan, events)`` applies it. ``places`` is False for laws that do not
    take an open place (65 replaces a card, 66 goes under one). ``score(ctx, slot, entry)`` gives its points.
    """

    validate: Callable[..., dict] | None = None
    play: Callable[[dict, int, dict, list], None] | None = None
    steps: dict[str, Step] = field(default_factory=dict)
    places: bool = True
    score: Callable[..., int] | None = None
    verb: str = "in place of"  # how the reveal says where a law that takes no open place goes


@dataclass(frozen=True)
class PaymentSource:
    """Something other than gems from behind the screen that pays part of a cost (infinite gems, diamonds).

    ``key`` is the action field naming what is used; ``check(state, player, value)`` validates it and returns
    the gems it stands for, per colour, and the value to keep in the plan; ``auto(state, player, left)`` proposes a use for the cost still
    ``left`` (and lowers ``left``); ``spend(state, seat, value)`` uses it.
    """

    key: str
    check: Callable[[dict, dict, Any], tuple[dict[str, int], Any]]
    auto: Callable[[dict, dict, dict[str, int]], Any]
    spend: Callable[[dict, int, Any], None]
    empty: Any = None


@dataclass(frozen=True)
class PaintSource:
    """Something besides the gems behind the screen that paints a section at the end (diamonds).

    A painting item flagged ``{key: true}`` is painted with one of them, in the colour it names; ``noun`` names
    them in texts and in the painting prompt; ``held(state, seat)`` is how many the seat may paint with;
    ``spend(state, seat, items)`` takes them for those items (plain ``{"slot", "section", "color"}``).
    """

    key: str
    noun: str
    held: Callable[[dict, int], int]
    spend: Callable[[dict, int, list[dict]], None]


@dataclass(frozen=True)
class Scorer:
    """One scoring category: ``score(ctx)`` gives its points (and may add to ``ctx.details``)."""

    category: str
    score: Callable[[Any], int]
    label: str = ""  # how the score sheet names a module's category (the base categories have theirs)


@dataclass
class Ruleset:
    modules: tuple[str, ...] = ()
    phases: dict[str, Phase] = field(default_factory=dict)
    steps: dict[str, Step] = field(default_factory=dict)
    decisions: dict[str, Decision] = field(default_factory=dict)
    rewards: dict[str, Callable[..., None]] = field(default_factory=dict)
    payment_sources: list[PaymentSource] = field(default_factory=list)
    # What paints at the end besides the gems behind the screen (the base game has nothing else).
    paint_sources: list[PaintSource] = field(default_factory=list)
    laws: dict[int, Law] = field(default_factory=dict)
    scorers: list[Scorer] = field(default_factory=list)
    views: list[Callable[[dict, int | None, dict, dict], None]] = field(default_factory=list)
    setup: list[Callable[[dict, Any], None]] = field(default_factory=list)
    # Where a bid gem goes, once the bids are settled: fn(state, seat, colour, won) (every bid gem goes to the
    # reserve in the base game, won or not).
    bid_gem: Callable[[dict, int, str, bool], None] | None = None
    # What else happens each time new characters are revealed at the auction: fn(state, events).
    reveal_hooks: list[Callable[[dict, list], None]] = field(default_factory=list)
    # Tokens a seat holds outside its pyramid that count like the tokens in it (pass gems, scoring):
    # fn(state, seat) -> list of tokens.
    token_zones: list[Callable[[dict, int], list[dict]]] = field(default_factory=list)
    # Where a gem a player takes comes from when the reserve has none of its colour (a single-colour circle's
    # gem): fn(state, seat, colour) -> True if it gave the seat one.
    gem_fallbacks: list[Callable[[dict, int, str], bool]] = field(default_factory=list)
    # Gems in public zones outside the reserve, screens and pyramids (the determinization's gem accounting):
    # fn(state) -> {colour: count}.
    public_gems: list[Callable[[dict], dict[str, int]]] = field(default_factory=list)
    # A module's own secrets re-drawn in a determinized copy: fn(state, out, seat, rng), reading only what
    # ``seat`` may know of ``state`` and writing the re-drawn values into ``out``.
    determinize: list[Callable[..., None]] = field(default_factory=list)
    # The cards in the game: characters (the deals, the large and small decks) and laws (the law deck).
    characters: tuple[int, ...] = ()
    law_cards: tuple[int, ...] = ()
    large_deck: int = 48  # characters in the large deck (12 turns of 4 revealed)
    # Checks of the options a module makes (e.g. seat counts): fn(options) raises IllegalAction.
    option_checks: list[Callable[[dict], None]] = field(default_factory=list)
    # The baseline AI's choosers for a module's phases and decisions: name -> fn(state, seat, rng) -> action.
    ai: dict[str, Callable[..., dict]] = field(default_factory=dict)
    # What a prompt of a kind offers, for presenters (the game type's pending choices): kind -> fn(state, seat,
    # prompt) -> dict; a module fills it for its own kinds and for base kinds it changes.
    prompt_choices: dict[str, Callable[..., dict]] = field(default_factory=dict)
    # Card piles a module adds that a card reward may draw from: name -> fn(state) -> the pile (a list, top
    # last). The base game's piles ("law", "small") are not in it.
    piles: dict[str, Callable[[dict], list]] = field(default_factory=dict)
    # A module's own candidate actions for the search AI (engine/viceroy/ai_candidates.py), added to the base
    # ones: phase or decision kind -> fn(state, seat, rng) -> list of legal actions, most promising first.
    search_candidates: dict[str, Callable[..., list[dict]]] = field(default_factory=dict)

    def copy(self, modules: tuple[str, ...]) -> Ruleset:
        return Ruleset(
            modules=modules,
            phases=dict(self.phases),
            steps=dict(self.steps),
            decisions=dict(self.decisions),
            rewards=dict(self.rewards),
            payment_sources=list(self.payment_sources),
            paint_sources=list(self.paint_sources),
            laws=dict(self.laws),
            scorers=list(self.scorers),
            views=list(self.views),
            setup=list(self.setup),
            bid_gem=self.bid_gem,
            reveal_hooks=list(self.reveal_hooks),
            token_zones=list(self.token_zones),
            gem_fallbacks=list(self.gem_fallbacks),
            public_gems=list(self.public_gems),
            determinize=list(self.determinize),
            characters=self.characters,
            law_cards=self.law_cards,
            large_deck=self.large_deck,
            option_checks=list(self.option_checks),
            ai=dict(self.ai),
            prompt_choices=dict(self.prompt_choices),
            piles=dict(self.piles),
            search_candidates=dict(self.search_candidates),
        )

    def add_law(self, number: int, law: Law) -> None:
        """Add a law, or replace the entry of the same number (a revised law)."""
        self.laws[number] = law
        for op, step in law.steps.items():
            self.steps[op] = step

    def law_points(self) -> dict[int, Callable[..., int]]:
        return {n: law.score for n, law in self.laws.items() if law.score is not None}


class Module(Protocol):
    name: str
    order: int

    def install(self, rules: Ruleset) -> None: ...


_BASE: Ruleset | None = None
_MODULES: dict[str, Module] = {}
_CACHE: dict[tuple[str, ...], Ruleset] = {}


def set_base(rules: Ruleset) -> None:
    global _BASE
    _BASE = rules
    _CACHE.clear()


def base() -> Ruleset:
    assert _BASE is not None, "engine.viceroy.base is not loaded"
    return _BASE


def register(module: Module) -> None:
    """Make a module available to games that name it."""
    _MODULES[module.name] = module
    _CACHE.clear()


def unregister(name: str) -> None:
    _MODULES.pop(name, None)
    _CACHE.clear()


def known_modules() -> list[str]:
    return ordered(list(_MODULES))


def check_options(options: dict) -> None:
    """Run the option checks of the modules ``options`` names (IllegalAction when they do not fit)."""
    names = options.get("modules")
    if names:
        for check in build(tuple(ordered(list(names)))).option_checks:
            check(options)


def ordered(names: list[str]) -> list[str]:
    """Module names in installation order; raises IllegalAction for a module this engine does not have."""
    for name in names:
        if name not in _MODULES:
            raise IllegalAction(f"'{name}' is not a module of this game.", "bad_options")
    return sorted(set(names), key=lambda n: (_MODULES[n].order, n))


def build(modules: tuple[str, ...]) -> Ruleset:
    rules = _CACHE.get(modules)
    if rules is None:
        rules = base().copy(modules)
        for name in modules:
            _MODULES[name].install(rules)
        _CACHE[modules] = rules
    return rules


def rules_for(state: dict) -> Ruleset:
    """The ruleset a game plays with (the base game plus the modules its options name)."""
    names = state["options"].get("modules")
    if state.get("version") == 1:
        upgrade(state)
    if not names:
        return _BASE  # type: ignore[return-value]
    rules = _CACHE.get(names if type(names) is tuple else tuple(names))
    return rules if rules is not None else build(tuple(names))


def upgrade(state: dict) -> None:
    """Bring a state stored by an earlier version to the current layout (in place, once).

    Version 1 kept the auction by colour (``{"red": {"base", "tip"}, ...}``) and had no module state.
    """
    if isinstance(state.get("auction"), dict):
        state["auction"] = [{"colors": [c], "base": s["base"], "tip": s["tip"]} for c, s in state["auction"].items()]
    state.setdefault("ext", {})
    state["version"] = 2


# Trusted readings (``trust``): for a sealed phase's check, ``reading(state, seat, action, rules)`` gives the
# choice the check would make of an action built from the engine's own legal options (the baseline AI's),
# made without the checks (``rules``: the game's ruleset, or None to look it up); None where the reading does not
# cover the action (the check then runs). For a phase's act (painting), the act without its checks. Keyed by
# the check or act itself: a module that wraps or replaces one gets the full check until it trusts its own.
TRUSTED: dict[Callable[..., Any], Callable[..., Any]] = {}


def trust(check: Callable[..., Any], reading: Callable[..., Any]) -> None:
    """Register ``reading`` as the trusted counterpart of the phase check (or act) ``check`` (equal results,
    property-tested)."""
    TRUSTED[check] = reading


def trusted_reading(check: Callable[..., Any] | None) -> Callable[..., Any] | None:
    return TRUSTED.get(check) if check is not None else None


def zone_tokens(state: dict, seat: int) -> list[dict]:
    """The tokens ``seat`` holds outside its pyramid that count like pyramid tokens (none in the base game)."""
    zones = rules_for(state).token_zones
    return [token for zone in zones for token in zone(state, seat)] if zones else []


def enter(state: dict, name: str, events: list) -> None:
    """Start a phase."""
    rules_for(state).phases[name].start(state, events)


def next_phase(state: dict, phase: Phase) -> str:
    nxt = phase.next
    if callable(nxt):
        return nxt(state)
    assert nxt is not None, f"phase {phase.name} has no next phase"
    return nxt


def then(phase: Phase, nxt: str | Callable[[dict], str]) -> Phase:
    """The same phase with another ``next`` (how a module inserts a phase after it)."""
    return replace(phase, next=nxt)
