"""The Presenter protocol: everything a game shows on Discord, as plain specs (no discord import).

How to write a presenter for a new game (``bot/presenters/<game>/__init__.py`` exports ``PRESENTER``):

1. Subclass ``BasePresenter``; set ``name`` (the engine's ``GameType.name``), ``display_name`` and
   ``embed_color``. The defaults already give lobby lines from the game's ``OptionSpec``s, event lines from
   each event's ``text`` (``{p0}``-style seat names filled in), a generic table message that names whom the
   game waits for, a generic final score sheet from ``engine.api.Outcome``, and no private screen.
2. Write one ``PromptKind`` per prompt kind your engine's ``pending()`` returns and list them in ``kinds``
   (``"*"`` catches every other kind). A prompt kind gets a ``SeatCtx`` (one read of the game: the seat's
   view, its ``engine.api.Prompt`` with the structured ``choices``, names, deadline) and the seat's
   ``Draft`` (a JSON dict kept between clicks), and:
   * ``render`` returns the prompt message (make controls with ``ctx.button`` / ``ctx.select``: their ids
     carry the game, seat and prompt key, so a click on an old prompt is refused as stale by the service);
   * ``on_control`` records a click in the draft and returns ``None`` (the prompt is re-rendered), or
     returns the engine action to submit; raise ``PlanIncomplete`` for a choice that cannot be made;
   * ``form`` / ``on_form`` are the optional modal form: a control whose op starts with one of the
     presenter's ``form_ops`` prefixes opens ``form(ctx, draft, op)`` (build its id with ``ctx.form_id(op)``);
     the submitted values go to ``on_form``, which updates the draft and returns a short note.
   Offer exactly what ``ctx.prompt.choices`` allows: never re-derive the rules in the presenter.
3. Override what your game shows differently: ``table`` (the channel's status message, with its picture),
   ``table_key`` (a new key posts a new table message), ``screen``/``screen_key`` (only for games with
   ``GameType.hidden_information``), ``final``, ``board`` (``/<game> show``), ``results`` (a picture
   that goes with a batch of public events), ``describe`` (an action in words), ``rules_text``,
   ``card_entries``/``card_page`` (``/<game> card``), ``decision_names`` (reminders name the decision).
   Informed choices: build menu options with ``bot.ui.informed`` (what each costs and gives; one that cannot
   be taken is marked, last, with its reason). A prompt kind with ``lock_in = True`` (a sealed choice) has
   its actions drafted and sealed by a Lock in button (``bot.ui.lockin``).
4. Nothing to register: ``bot.presenters.presenter_for(name)`` imports ``bot.presenters.<name>.PRESENTER``
   for every game the engine registry lists (tests may ``register_presenter`` one of their own).

Nothing in cogs/ or bot/service.py changes for a new game; tests/bot/test_second_game.py is the example of a
whole second game played through the real bot with a 60-line presenter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.ui import ids, lobby
from bot.ui.drafts import Draft
from bot.ui.spec import (
    DEFAULT_EMBED_COLOR,
    MAX_OPTIONS,
    Button,
    FormSpec,
    Image,
    MessageSpec,
    Option,
    PlanIncomplete,
    Select,
    cut,
)
from bot.ui.texts import (
    RECAP_LIMIT,
    decision_text,
    ending_text,
    fill_names,
    recap_text,
    summary_text,
    timeout_private,
    timestamp,
    undone_text,
)
from engine.api import GameType, Outcome, Prompt

__all__ = ["BasePresenter", "PromptKind", "Presenter", "SeatCtx", "TableCtx", "Waiting", "PlanIncomplete"]


@dataclass
class SeatCtx:
    """What every prompt call gets: one read of the game for this seat."""

    game_id: int
    seat: int
    kind: str  # the game's name
    view: dict  # the seat's view (engine view(state, seat))
    prompt: Prompt | None  # the seat's current decision, with its structured choices
    names: dict[int, str] = field(default_factory=dict)
    deadline: float | None = None
    version: int = 0

    @property
    def key(self) -> str:
        return self.prompt.key if self.prompt is not None else ""

    @property
    def choices(self) -> Mapping[str, Any]:
        return self.prompt.choices if self.prompt is not None else {}

    @property
    def name(self) -> str:
        return self.names.get(self.seat, f"Seat {self.seat + 1}")

    def control_id(self, op: str) -> str:
        return ids.prompt_id(self.game_id, self.seat, self.key, op)

    def button(self, label: str, op: str, style: str = "secondary", disabled: bool = False) -> Button:
        return Button(cut(label, 80), self.control_id(op), style, disabled)

    def select(self, op: str, placeholder: str, options: list[Option], lo: int = 1, hi: int = 1) -> Select:
        # Discord refuses a menu whose option values repeat (the whole message would fail to show): the first
        # of each value stays (a place reached two ways is one choice).
        seen: set[str] = set()
        options = [o for o in options if not (o.value in seen or seen.add(o.value))][:MAX_OPTIONS]
        return Select(self.control_id(op), cut(placeholder, 150), options, lo, max(lo, min(hi, len(options))))

    def form_id(self, op: str) -> str:
        """The id of a form opened by the control `op` (the presenter lists its form ops in `form_ops`)."""
        return ids.form_id(self.game_id, self.seat, self.key, op)


@dataclass
class Waiting:
    seat: int
    name: str
    deadline: float | None
    waiting: bool  # False: chose already (sealed games), may still amend


@dataclass
class TableCtx:
    """What the channel's table message is built from: the public view and whom the game waits for."""

    game_id: int
    game_type: GameType
    view: dict  # the public view
    names: dict[int, str]
    pending: list[Waiting]
    status: str = "active"
    # The table message the game posts in its channel (read on phones, one after another), rather than the
    # table asked for on demand (`/<game> status`), which shows everything at full size.
    posted: bool = False

    @property
    def waiting(self) -> list[Waiting]:
        return [w for w in self.pending if w.waiting]


class PromptKind(Protocol):
    """One kind of decision (the engine's Prompt.kind): how it is shown and how clicks become an action."""

    def render(self, ctx: SeatCtx, draft: Draft) -> MessageSpec: ...

    def on_control(self, ctx: SeatCtx, draft: Draft, op: str, values: list[str]) -> dict | None: ...

    def form(self, ctx: SeatCtx, draft: Draft, purpose: str) -> FormSpec | None: ...

    def on_form(self, ctx: SeatCtx, draft: Draft, purpose: str, values: dict[str, str]) -> str: ...


class Presenter(Protocol):
    name: str
    display_name: str
    embed_color: int
    kinds: Mapping[str, PromptKind]
    board_command: str | None  # an extra name for `/<game> show` (Viceroy: "pyramid")
    rules_topics: list[str]
    form_ops: tuple[str, ...]

    def prompt_kind(self, prompt: Prompt) -> PromptKind: ...

    def lobby_lines(self, game_type: GameType, options: dict) -> list[str]: ...

    def check_new(self, seats: int, ai: int, options: dict) -> None: ...

    def describe(self, action: dict) -> str: ...

    def event_line(self, event: dict, names: dict[int, str]) -> str | None: ...

    def results(self, events: list[dict], public_view: dict, names: dict[int, str]) -> MessageSpec | None: ...

    def private_line(self, event: dict, names: dict[int, str]) -> str | None: ...

    def recap(self, public: list[dict], private: list[dict], seat: int, names: dict[int, str]) -> str | None: ...

    def waiting_line(self, name: str, waiting: bool, deadline: float | None) -> str: ...

    def decision_name(self, prompt_kind: str) -> str: ...

    def table(self, ctx: TableCtx, with_image: bool) -> MessageSpec: ...

    def table_key(self, public_view: dict) -> str: ...

    def screen(self, game_id: int, seat_view: dict, seat: int, names: dict[int, str]) -> MessageSpec | None: ...

    def screen_key(self, seat_view: dict, seat: int) -> str | None: ...

    def final(self, game_id: int, outcome: Outcome, public_view: dict, names: dict[int, str]) -> list[MessageSpec]: ...

    def board(self, public_view: dict, seat: int, name: str) -> MessageSpec | None: ...

    def summary_line(self, outcome: Outcome, names: dict[int, str]) -> str: ...

    def result_dm(self, game_id: int, outcome: Outcome, seat: int, names: dict[int, str]) -> str | None: ...

    def rules_text(self, topic: str) -> str: ...

    def card_entries(self) -> list[tuple[str, str]]: ...

    def card_page(self, value: str) -> MessageSpec | None: ...

    def card_matches(self, query: str, limit: int = 25) -> list[tuple[str, str]]: ...

    def find_card(self, query: str) -> str | None: ...

    def started_line(self, game_type: GameType) -> str: ...


class NoPromptKind:
    """The fallback for a prompt kind a presenter does not know: says so, offers nothing."""

    def render(self, ctx: SeatCtx, draft: Draft) -> MessageSpec:
        return MessageSpec(title="Your move", description=f"A decision this bot cannot show yet ({ctx.prompt and ctx.prompt.kind}).")

    def on_control(self, ctx: SeatCtx, draft: Draft, op: str, values: list[str]) -> dict | None:
        raise PlanIncomplete("This control is not available.")

    def form(self, ctx: SeatCtx, draft: Draft, purpose: str) -> FormSpec | None:
        return None

    def on_form(self, ctx: SeatCtx, draft: Draft, purpose: str, values: dict[str, str]) -> str:
        raise PlanIncomplete("This form is not available.")


class BasePromptKind(NoPromptKind):
    """Convenience base: no form unless overridden."""


def option_value_text(spec: Any, value: Any) -> str:
    if spec.kind == "choice":
        return next((str(label) for v, label in spec.choices if v == value), str(value))
    if spec.kind == "flags":
        labels = [str(label) for v, label in spec.choices if v in (value or [])]
        return ", ".join(labels) or "none"
    if spec.kind == "bool":
        return "on" if value else "off"
    return str(value)


class BasePresenter:
    """Defaults for every part of the Presenter protocol; a game overrides what it shows differently."""

    name = ""
    display_name = ""
    embed_color = DEFAULT_EMBED_COLOR
    kinds: Mapping[str, PromptKind] = {}
    board_command: str | None = None
    board_description = "Show a player's board"
    rules_topics: list[str] = ["overview", "bot"]
    # Slash-command option names for the game's OptionSpecs when they differ from the spec's name.
    slash_names: Mapping[str, str] = {}
    slash_help: Mapping[str, str] = {}
    lobby_footer = "Decisions come by direct message: allow DMs from server members."
    form_ops: tuple[str, ...] = ("form.",)  # ops that open a form instead of acting

    def prompt_kind(self, prompt: Prompt) -> PromptKind:
        return self.kinds.get(prompt.kind) or self.kinds.get("*") or NoPromptKind()

    # ---------------------------------------------------------------- lobby

    def lobby_lines(self, game_type: GameType, options: dict) -> list[str]:
        parts = [f"{spec.label}: {option_value_text(spec, options.get(spec.name, spec.default))}"
                 for spec in game_type.options]
        return [" · ".join(parts)] if parts else []

    def check_new(self, seats: int, ai: int, options: dict) -> None:
        """Refuse a `/<game> new` that cannot make a game (raise PlanIncomplete with the reason)."""

    def started_line(self, game_type: GameType) -> str:
        where = "in your DMs" if game_type.dynamics == "sealed" else "in the DMs of whoever plays first"
        return f"The game begins! Your first decision is {where}."

    # ---------------------------------------------------------------- events

    def describe(self, action: dict) -> str:
        return str(action.get("type", "a move"))

    def event_line(self, event: dict, names: dict[int, str]) -> str | None:
        text = event.get("text")
        return fill_names(text, names) if text else None

    def private_line(self, event: dict, names: dict[int, str]) -> str | None:
        """A private event's line in the seat's DMs."""
        if event.get("type") == "undone":  # the service's undo: which of the seat's own moves went back
            return undone_text([self.describe(a) for a in event.get("actions", [])])
        if event.get("type") == "timeout_chosen":  # the service's deadline: what it chose for the seat
            action = event.get("action") or {}
            if action.get("type") == "decide" and isinstance(action.get("plan"), dict):
                action = action["plan"]
            return timeout_private(self.display_name, self.describe(action))
        text = event.get("text")
        return fill_names(text, names) if text else None

    def results(self, events: list[dict], public_view: dict, names: dict[int, str]) -> MessageSpec | None:
        return None

    # Event types that never belong in a seat's recap (e.g. "has chosen" notices).
    recap_skip: tuple[str, ...] = ("chosen", "choice_recorded")

    def recap_line(self, event: dict, names: dict[int, str]) -> str | None:
        """A public event's line in a seat's recap: its channel line, unless the game words it for the recap
        (a line the channel leaves to a post of its own)."""
        return self.event_line(event, names)

    def recap(self, public: list[dict], private: list[dict], seat: int, names: dict[int, str]) -> str | None:
        """What the events that led to a seat's new prompt brought that seat (the prompt's first line): the
        public events naming the seat, then its private ones. None when nothing concerned it."""
        lines = [self.recap_line(e, names) for e in public
                 if e.get("seat") == seat and e.get("type") not in self.recap_skip]
        lines += [self.private_line(e, names) for e in private if e.get("type") not in self.recap_skip]
        kept = [line for line in lines if line]
        return cut(recap_text(kept), RECAP_LIMIT) if kept else None

    # What each prompt kind asks, in words ("your auction choice"): reminders and pings name the decision.
    decision_names: Mapping[str, str] = {}

    def decision_name(self, prompt_kind: str) -> str:
        return self.decision_names.get(prompt_kind) or decision_text(prompt_kind)

    def waiting_line(self, name: str, waiting: bool, deadline: float | None) -> str:
        return f"• {name}: {'chosen (can still change)' if not waiting else 'to decide'}, {timestamp(deadline)}"

    # ---------------------------------------------------------------- table and screens

    def table_title(self, ctx: TableCtx) -> str:
        return f"{self.display_name} game #{ctx.game_id}"

    def table_picture(self, ctx: TableCtx) -> Image | None:
        return None

    def table(self, ctx: TableCtx, with_image: bool) -> MessageSpec:
        over = ctx.status != "active"
        if over:
            desc = "The game is over."
        elif ctx.game_type.dynamics == "sequential" and ctx.waiting:
            w = ctx.waiting[0]
            desc = f"Turn: **{w.name}** ({timestamp(w.deadline)})"
        else:
            waiting = [f"{w.name} ({timestamp(w.deadline)})" for w in ctx.waiting]
            desc = "Waiting for: " + (", ".join(waiting) if waiting else "nobody")
        # What the options switched on (e.g. expansion modules): players see what they are playing with.
        flags = lobby.active_flags(ctx.game_type, ctx.view.get("options") or {})
        if flags:
            desc += "\n" + "\n".join(flags)
        footer = ("Your secret screen and choices come by DM, or with the My screen button."
                  if ctx.game_type.hidden_information else "Your choices come by DM, or with the My screen button.")
        # A finished game has no screen to open: no button (the final scores are posted below it).
        spec = MessageSpec(title=self.table_title(ctx), description=desc,
                           rows=[] if over else [[Button("My screen", ids.table_id(ctx.game_id, "screen"), "primary")]],
                           footer=None if over else footer)
        if with_image:
            spec.image = self.table_picture(ctx)
        return spec

    def table_key(self, public_view: dict) -> str:
        return str(public_view.get("phase", "table"))

    def screen(self, game_id: int, seat_view: dict, seat: int, names: dict[int, str]) -> MessageSpec | None:
        return None

    def screen_key(self, seat_view: dict, seat: int) -> str | None:
        return None

    def my_screen(self, game_id: int, seat_view: dict, seat: int, names: dict[int, str]) -> MessageSpec | None:
        """The private screen shown by the My screen button (default: the screen message)."""
        return self.screen(game_id, seat_view, seat, names)

    # ---------------------------------------------------------------- the end

    def score_line(self, result: Any, names: dict[int, str]) -> str:
        parts = ", ".join(f"{label} {value}" for label, value in result.breakdown)
        return (f"**{names.get(result.seat, result.seat)}**: {result.total}" + (" 🏆" if result.winner else "")
                + (f" ({parts})" if parts else "") + (f" — {result.note}" if result.note else ""))

    def final(self, game_id: int, outcome: Outcome, public_view: dict, names: dict[int, str]) -> list[MessageSpec]:
        lines = [self.score_line(r, names) for r in sorted(outcome.results, key=lambda r: (r.rank or 0, -r.total))]
        if outcome.reason and not self._noted(outcome):
            lines.append(ending_text(outcome.reason))
        return [MessageSpec(title=f"{self.display_name} game #{game_id}: final scores", description="\n".join(lines))]

    @staticmethod
    def _noted(outcome: Outcome) -> bool:
        """Whether a result's note already says why the game ended ("won with 10 prestige points in one
        colour"): the reason then goes unsaid, not said twice."""
        return any(outcome.reason in r.note for r in outcome.results if r.note)

    def summary_line(self, outcome: Outcome, names: dict[int, str]) -> str:
        """The score sheet's one-line summary: who won, and by how much."""
        ranked = sorted(outcome.results, key=lambda r: (-int(r.winner), r.rank or 0, -r.total))
        winners = [names.get(r.seat, f"Seat {r.seat + 1}") for r in ranked if r.winner]
        others = [r for r in ranked if not r.winner]
        return summary_text(winners, ranked[0].total if ranked else 0, others[0].total if others else None)

    def result_dm(self, game_id: int, outcome: Outcome, seat: int, names: dict[int, str]) -> str | None:
        """The private message each human player gets at the end: their place, total and score rows."""
        mine = next((r for r in outcome.results if r.seat == seat), None)
        if mine is None:
            return None
        # Engines that leave `rank` at 0: a place from the totals (winners first).
        rank = mine.rank or 1 + sum(1 for r in outcome.results
                                    if (r.winner, r.total) > (mine.winner, mine.total))
        place = "1st" if rank == 1 else "2nd" if rank == 2 else "3rd" if rank == 3 else f"{rank}th"
        tied = sum(1 for r in outcome.results if (r.rank or 0) == rank and mine.rank) > 1
        head = f"{self.display_name} game #{game_id} is over: you finished **{place}"
        head += " (tied)**" if tied else "**"
        head += f" of {len(outcome.results)} with a score of **{mine.total}**" + (" 🏆" if mine.winner else "") + "."
        lines = [head]
        lines += [f"• {label}: {value}" for label, value in mine.breakdown]
        if mine.note:
            lines.append(mine.note)
        winners = [names.get(s, f"Seat {s + 1}") for s in outcome.winners]
        if winners and not mine.winner:
            lines.append("Won by " + ", ".join(winners) + ".")
        if outcome.reason and not (mine.note and outcome.reason in mine.note):
            lines.append(ending_text(outcome.reason))
        return "\n".join(lines)

    def board(self, public_view: dict, seat: int, name: str) -> MessageSpec | None:
        return None

    # ---------------------------------------------------------------- looking cards up (/<game> card)

    def card_entries(self) -> list[tuple[str, str]]:
        """Every card (or piece) `/<game> card` can show, as (value, label); none: no `card` command."""
        return []

    def card_page(self, value: str) -> MessageSpec | None:
        """One card: its full face and a text line per row (or its printed text)."""
        return None

    def card_matches(self, query: str, limit: int = 25) -> list[tuple[str, str]]:
        """Cards whose value or label fits what was typed: the exact value first, then labels that start with
        it, then labels that contain it."""
        entries = self.card_entries()
        q = query.strip().lower().lstrip("#")
        if not q:
            return entries[:limit]
        ranked: dict[str, tuple[int, tuple[str, str]]] = {}
        for value, label in entries:
            text = label.lower().lstrip("#")
            rank = 0 if value.lower() == q else 1 if text.startswith(q) else 2 if q in text else None
            if rank is not None:
                ranked[value] = (rank, (value, label))
        return [e for _, e in sorted(ranked.values(), key=lambda r: r[0])][:limit]

    def find_card(self, query: str) -> str | None:
        """The one card meant by a number or name, or None when none or several fit."""
        matches = self.card_matches(query, 2)
        if matches and (matches[0][0].lower() == query.strip().lower().lstrip("#") or len(matches) == 1):
            return matches[0][0]
        return None

    # ---------------------------------------------------------------- rules

    def rules_text(self, topic: str) -> str:
        return f"No rules page for {self.display_name} yet."
