"""GameService: lobbies, seats, submissions, deadlines, undo -- every change in one SQLite transaction.

No discord import.  Callers pass plain ids and get dataclasses back; every refusal is a ServiceError
subclass whose `.message` can be shown to the player as is.  See docs/service.md for the API contract.
"""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from bot import ai as ai_seats
from bot.clock import Clock, SystemClock
from bot.games import GameKind, UnknownKind, get_kind
from bot.storage import CorruptSnapshot, GameRow, OutboxRow, SeatRow, Storage, Tx
from bot.storage.base import LogNeeded
from bot.storage.schema import from_json, json_bytes
from engine.api import IllegalAction, Prompt

log = logging.getLogger(__name__)

DEFAULT_TIME_LIMIT = 24 * 3600
UNSET: Any = object()  # "use the default" marker for time_limit (None means: no time limit)
MOVE_KINDS = ("action", "timeout", "admin")
AI_KEY_PREFIX = "ai:"
MAX_AI_STEPS = 10_000  # guards against an engine that keeps an AI seat pending forever


# ---------------------------------------------------------------- errors

MIN_TIME_LIMIT = 60  # seconds per decision at least: time to notice a DM and read the prompt
T = TypeVar("T")

TIME_LIMIT_TEXT = "The time limit must be at least 1 minute per decision (or none)."


class ServiceError(Exception):
    """Base of every refusal. `.code` is stable for programs, `.message` is for players."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownGame(ServiceError):
    code = "unknown_game"


class UnknownGameKind(ServiceError):
    code = "unknown_kind"


class ChannelBusy(ServiceError):
    code = "channel_busy"


class LobbyFull(ServiceError):
    code = "lobby_full"


class AlreadyJoined(ServiceError):
    code = "already_joined"


class NotInGame(ServiceError):
    code = "not_your_seat"


class NotAllowed(ServiceError):
    code = "not_allowed"


class NotInLobby(ServiceError):
    code = "not_in_lobby"


class GameNotStarted(ServiceError):
    code = "not_started"


class GameFinished(ServiceError):
    code = "game_finished"


class NotEnoughPlayers(ServiceError):
    code = "not_enough_players"


class BadOptions(ServiceError):
    code = "bad_options"


class StalePrompt(ServiceError):
    code = "stale_prompt"


class StaleVersion(ServiceError):
    code = "stale_version"


class IllegalMove(ServiceError):
    """The engine refused the action; `.engine_code` is the engine's IllegalAction.code."""

    code = "illegal"

    def __init__(self, message: str, engine_code: str = "illegal") -> None:
        super().__init__(message)
        self.engine_code = engine_code


class NothingToUndo(ServiceError):
    code = "nothing_to_undo"


class KeyReused(ServiceError):
    code = "key_reused"


# ---------------------------------------------------------------- results

@dataclass
class SeatInfo:
    seat: int
    user_id: int | None
    display_name: str
    is_ai: bool
    dm_status: str
    ai_level: str | None = None  # an AI seat's level (bot/ai.py); None for people


@dataclass
class GameInfo:
    id: int
    guild_id: int | None
    channel_id: int
    kind: str
    options: dict
    status: str
    host_user_id: int | None
    version: int
    time_limit: int | None
    seats: list[SeatInfo]
    created_at: float
    updated_at: float


@dataclass
class PendingSeat:
    seat: int
    user_id: int | None
    is_ai: bool
    prompt: Prompt  # the engine's prompt, with what the seat may choose
    prompt_key: str
    waiting: bool  # False: already chose, may still amend until the reveal
    deadline: float | None

    def to_json(self) -> dict:
        # Choices are left out: a stored result only serves retries, which re-read the game for prompts.
        return {"seat": self.seat, "user_id": self.user_id, "is_ai": self.is_ai, "prompt_key": self.prompt_key,
                "waiting": self.waiting, "deadline": self.deadline,
                "prompt": {"kind": self.prompt.kind, "key": self.prompt.key, "waiting": self.prompt.waiting}}

    @classmethod
    def from_json(cls, d: dict) -> PendingSeat:
        return cls(d["seat"], d["user_id"], d["is_ai"], Prompt.from_json(d["prompt"]), d["prompt_key"], d["waiting"],
                   d["deadline"])


@dataclass
class Applied:
    seq: int
    seat: int | None
    action: dict
    kind: str  # action | timeout | admin | ai


@dataclass
class ActionResult:
    game_id: int
    version: int
    status: str
    applied: list[Applied] = field(default_factory=list)
    public: list[dict] = field(default_factory=list)
    private: dict[int, list[dict]] = field(default_factory=dict)
    pending: dict[int, PendingSeat] = field(default_factory=dict)
    finished: bool = False
    scores: list[dict] | None = None
    seats: list[SeatInfo] = field(default_factory=list)
    timed_out: list[int] = field(default_factory=list)
    duplicate: bool = False
    kind: str = ""
    channel_id: int = 0
    outcome: dict | None = None  # engine.api.Outcome as JSON once the game is over
    # Built inside the transaction for the announcer (never stored: a stored result serves retries only).
    public_view: dict | None = None
    views: dict[int, dict] = field(default_factory=dict)  # per human seat
    drafts: dict[int, dict] = field(default_factory=dict)  # per pending human seat

    _TRANSIENT = ("public_view", "views", "drafts", "pending")

    def to_blob(self) -> bytes:
        """What a retry with the same key needs that is not stored elsewhere.  The public events are the
        game_events rows of this version and the seats are the seats table: read back on a retry
        (GameService._seen), not stored twice (they were over half of a stored result's bytes)."""
        # Field by field, not dataclasses.asdict: that deep-copies every event and view first (half of a
        # SQLite submission's time went there).  Int keys are written as strings, as asdict's were.
        d = {name: getattr(self, name) for name in _STORED_FIELDS}
        d["private"] = {str(k): v for k, v in self.private.items()}  # as JSON writes them, without a retry
        d["applied"] = [vars(a) for a in self.applied]
        d["pending"] = {str(k): p.to_json() for k, p in self.pending.items()}
        # Plain JSON (orjson): a result is a few hundred bytes, and compressing it cost more than it saved.
        return json_bytes(d)

    @classmethod
    def from_blob(cls, blob: bytes) -> tuple[ActionResult, bool]:
        """The stored result, and whether its public events and seats are still to be read back (results
        stored before they were left out hold them)."""
        d = from_json(blob if blob[:1] == b"{" else zlib.decompress(blob))  # older results are compressed
        lean = "public" not in d
        d["applied"] = [Applied(**a) for a in d["applied"]]
        d["private"] = {int(k): v for k, v in d["private"].items()}
        d["pending"] = {int(k): PendingSeat.from_json(v) for k, v in d["pending"].items()}
        d["seats"] = [SeatInfo(**s) for s in d.get("seats", ())]
        return cls(**d), lean


_STORED_FIELDS = tuple(f.name for f in fields(ActionResult)
                       if f.name not in ActionResult._TRANSIENT and f.name not in ("public", "seats"))


@dataclass
class Reminder:
    game_id: int
    channel_id: int
    seat: int
    user_id: int | None
    deadline: float | None
    prompt_key: str
    kind: str = ""
    prompt_kind: str = ""  # which decision it waits for (the engine's Prompt.kind)
    guild_id: int | None = None


@dataclass
class SeatContext:
    """Everything a click needs, from one read: the seat's view, prompt and draft, and the game's names."""

    game_id: int
    kind: str
    seat: int
    view: dict
    prompt: Prompt | None
    prompt_key: str | None
    deadline: float | None
    draft: dict | None  # the stored draft for the current prompt (None: none, or one for an older prompt)
    names: dict[int, str]
    version: int
    active: bool
    guild_id: int | None = None  # where the game is hosted (a click must come from there or a DM)
    channel_id: int = 0


@dataclass
class LogEntry:
    seq: int
    version: int
    event: dict


# ---------------------------------------------------------------- helpers

def reminder_offsets(limit: int) -> list[float]:
    """Seconds after the prompt when reminders go out: at half time and one hour before the deadline."""
    out: list[float] = []
    for offset in (limit / 2, limit - 3600):
        if 0 < offset < limit and all(abs(offset - o) >= 60 for o in out):
            out.append(offset)
    return sorted(out)


def _json_copy(value: Any) -> Any:
    return from_json(json_bytes(value))


def _seat_info(s: SeatRow) -> SeatInfo:
    return SeatInfo(s.seat, s.user_id, s.display_name, s.is_ai, s.dm_status,
                    ai_seats.seat_level(s.ai_level) if s.is_ai else None)


def _ai_levels(seats: list[SeatRow]) -> dict[int, str]:
    return {s.seat: ai_seats.seat_level(s.ai_level) for s in seats if s.is_ai}


def ai_seat_name(number: int, level: str) -> str:
    """The name Add AI gives a seat: its number among the AI seats and its level."""
    return f"AI {number} ({level})"


_AI_NAME = re.compile(r"^(AI \d+) \((\w+)\)$")


@dataclass
class AIWork:
    """What a worker needs to compute a game's next AI moves (a private copy of the state)."""

    game_id: int
    kind: GameKind
    state: dict
    levels: dict[int, str]
    seed: int | None
    version: int


def _split(events: list[dict]) -> tuple[list[dict], dict[int, list[dict]]]:
    public: list[dict] = []
    private: dict[int, list[dict]] = {}
    for e in events:
        to = e.get("to", "all")
        if to == "all":
            public.append(e)
        else:
            private.setdefault(int(to), []).append(e)
    return public, private


def _notice(loaded: _Loaded, public: list[dict], private: dict[int, list[dict]], pending: dict[int, PendingSeat],
            finished: bool) -> dict:
    """An outbox entry: everything the announcer needs to tell this commit, even long after it."""
    humans = {s.seat: s.user_id for s in loaded.seats if s.user_id is not None and not s.is_ai}
    return {"kind": loaded.game.kind, "channel": loaded.game.channel_id, "public": public,
            "private": {str(seat): events for seat, events in private.items() if seat in humans},
            "names": {str(s.seat): s.display_name for s in loaded.seats},
            "users": {str(seat): user for seat, user in humans.items()},
            "again": [seat for seat, p in sorted(pending.items()) if p.waiting and not p.is_ai],
            "finished": finished}


@dataclass
class _Loaded:
    game: GameRow
    seats: list[SeatRow]
    kind: GameKind
    state: dict | None
    last_seq: int
    repaired: bool = False
    prompts: dict[int, Prompt] | None = None  # cache of pending(state) for (state, last_seq)
    prompts_of: Any = None
    prompts_at: int = -1


class GameService:
    """The only place where actions are validated (by the engine), stored and turned into notices."""

    def __init__(self, storage: Storage, *, clock: Clock | None = None,
                 default_time_limit: int | None = DEFAULT_TIME_LIMIT,
                 seed_source: Callable[[], int] | None = None,
                 on_timers_changed: Callable[[], None] | None = None, ai_inline: bool = True) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        self.default_time_limit = default_time_limit
        self._seed_source = seed_source or (lambda: secrets.randbelow(2**31))
        # The scheduler hooks this so it can wake up when a nearer deadline appears.
        self.on_timers_changed = on_timers_changed
        self.state_reads = 0  # game states loaded (decoded or rebuilt): benchmarks count them per click
        # True: AI seats move inside the commit that makes them due (tools, tests). The bot sets False and
        # runs them in a worker (bot/ai_runner.py) through ai_work / commit_ai, off its event loop.
        self.ai_inline = ai_inline

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Tx]:
        """A write transaction; the scheduler is woken only once it is committed (with PostgreSQL another
        connection would otherwise read the timers before they exist, and sleep past them)."""
        async with self.storage.transaction() as tx:
            tx.timers_changed = False
            yield tx
        if tx.timers_changed and self.on_timers_changed is not None:
            self.on_timers_changed()

    async def _run_transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """``body(tx)`` as one write transaction through Storage.run (on SQLite one call on the database
        thread, reads and writes included), so the body awaits only the Tx; the scheduler is woken after."""
        used: list[Tx] = []
        lazy_log = True

        async def run(tx: Tx) -> T:
            tx.timers_changed = False
            tx.lazy_log = lazy_log
            used.append(tx)
            return await body(tx)

        try:
            result = await self.storage.run(run)
        except (LogNeeded, CorruptSnapshot) as exc:
            # LogNeeded: the engine read more of the public log than the driver fetched with the game
            # (PostgreSQL fetches its tail).  CorruptSnapshot: the log, read only when the engine first asked
            # for it, is damaged.  Either way that transaction rolled back whole, so the action runs again
            # with the log read (and checked) with the game; a damaged snapshot is then rebuilt from the
            # action log as usual.
            if isinstance(exc, CorruptSnapshot):
                log.warning("public log rejected during an action (%s); trying again with the log read first", exc)
            used.clear()
            lazy_log = False
            result = await self.storage.run(run)
        if used and used[-1].timers_changed and self.on_timers_changed is not None:
            self.on_timers_changed()
        return result

    # ------------------------------------------------------------ loading

    def _kind(self, name: str) -> GameKind:
        try:
            return get_kind(name)
        except UnknownKind:
            raise UnknownGameKind(f"Unknown game kind: {name}.") from None
        except ImportError as exc:
            raise UnknownGameKind(f"The {name} engine is not available ({exc}).") from None

    async def _game(self, tx: Tx, game_id: int) -> GameRow:
        game = await tx.game(game_id)
        if game is None:
            raise UnknownGame(f"There is no game #{game_id}.")
        return game

    async def _effective(self, tx: Tx, game_id: int) -> list[tuple[int, int, dict, str | None]]:
        """(seq, seat, action, key) of the moves still in force: undo entries cancel earlier moves."""
        moves: dict[int, tuple[int, int, dict, str | None]] = {}
        for row in await tx.actions(game_id):
            if row.kind == "undo":
                for seq in row.action.get("undo", []):
                    moves.pop(seq, None)
            elif row.kind in MOVE_KINDS:
                moves[row.seq] = (row.seq, row.seat, row.action, row.idempotency_key)
        return [moves[s] for s in sorted(moves)]

    async def rebuild_state(self, tx: Tx, game: GameRow, seats: int | None = None) -> dict:
        """The state as the action log says it is (the log is the source of truth)."""
        kind = self._kind(game.kind)
        if seats is None:
            seats = len(await tx.seats(game.id))
        moves = [(seat, action) for _, seat, action, _ in await self._effective(tx, game.id)]
        return kind.rebuild(game.options, game.seed, seats, moves)

    async def _load(self, tx: Tx, game_id: int) -> _Loaded:
        bundle = await tx.load_game(game_id)  # one round trip: game, seats, last action, checked snapshot
        if bundle is None:
            raise UnknownGame(f"There is no game #{game_id}.")
        game, seats = bundle.game, bundle.seats
        kind = self._kind(game.kind)
        if game.status == "lobby" or game.seed is None:
            return _Loaded(game, seats, kind, None, 0)
        self.state_reads += 1
        last_seq = bundle.last_seq
        state: dict | None = None
        if bundle.error is not None:
            log.warning("game %s: snapshot rejected (%s); rebuilding from the action log", game_id, bundle.error)
        elif bundle.snapshot is not None:
            version, seq, state = bundle.snapshot
            try:
                if version > game.version or seq > last_seq:
                    raise CorruptSnapshot(f"snapshot v{version}/seq{seq} is ahead of the game")
                later = await tx.actions(game_id, after_seq=seq) if seq < last_seq else []
                if any(r.kind == "undo" for r in later):
                    state = None  # an undo after the snapshot: only a full replay is correct
                else:
                    for r in later:
                        kind.apply(state, r.seat, r.action)
            except (CorruptSnapshot, kind.illegal) as exc:
                log.warning("game %s: snapshot rejected (%s); rebuilding from the action log", game_id, exc)
                state = None
        repaired = state is None
        if state is None:
            state = await self.rebuild_state(tx, game, len(seats))
        return _Loaded(game, seats, kind, state, last_seq, repaired)

    async def _repair_if_needed(self, loaded: _Loaded) -> None:
        if not loaded.repaired or loaded.state is None:
            return
        async with self._transaction() as tx:
            game = await tx.game(loaded.game.id)
            if game is None or game.version != loaded.game.version:
                return  # someone wrote in between; their write stored a good snapshot
            await tx.save_snapshot(game.id, game.version, loaded.last_seq, loaded.state, self.clock.now())

    # ------------------------------------------------------------ info

    async def _info(self, tx: Tx, game: GameRow) -> GameInfo:
        seats = await tx.seats(game.id)
        return GameInfo(game.id, game.guild_id, game.channel_id, game.kind, game.options, game.status,
                        game.host_user_id, game.version, game.time_limit, [_seat_info(s) for s in seats],
                        game.created_at, game.updated_at)

    async def game(self, game_id: int) -> GameInfo:
        async with self.storage.reading() as tx:
            return await self._info(tx, await self._game(tx, game_id))

    async def game_in_channel(self, channel_id: int) -> GameInfo | None:
        """The lobby-or-active game of a channel, if any."""
        async with self.storage.reading() as tx:
            game = await tx.open_game_in_channel(channel_id)
            return await self._info(tx, game) if game else None

    async def games_for_user(self, user_id: int, statuses: tuple[str, ...] = ("lobby", "active")) -> list[GameInfo]:
        async with self.storage.reading() as tx:
            return [await self._info(tx, g) for g in await tx.games_of_user(user_id, statuses)]

    async def list_games(self, statuses: tuple[str, ...] = ("lobby", "active"),
                         guild_id: int | None = None) -> list[GameInfo]:
        async with self.storage.reading() as tx:
            return [await self._info(tx, g) for g in await tx.games(status=statuses, guild_id=guild_id)]

    # ------------------------------------------------------------ lobby

    async def create_lobby(self, guild_id: int | None, channel_id: int, host_user_id: int, host_name: str, *,
                           kind: str = "viceroy", options: dict | None = None,
                           time_limit: int | None = UNSET) -> GameInfo:
        self._kind(kind)
        limit = self.default_time_limit if time_limit is UNSET else time_limit
        if limit is not None and limit < MIN_TIME_LIMIT:
            raise BadOptions(TIME_LIMIT_TEXT)
        now = self.clock.now()
        async with self._transaction() as tx:
            existing = await tx.open_game_in_channel(channel_id)
            if existing is not None:
                what = "lobby" if existing.status == "lobby" else "game"
                raise ChannelBusy(f"This channel already has an open {what} (#{existing.id}). "
                                  "Finish or abandon it first, or use another channel.")
            game_id = await tx.insert_game(guild_id=guild_id, channel_id=channel_id, kind=kind,
                                           options=options or {}, host_user_id=host_user_id,
                                           time_limit=limit, now=now)
            await tx.replace_seats(game_id, [SeatRow(game_id, 0, host_user_id, host_name, False, "unknown")])
            return await self._info(tx, await self._game(tx, game_id))

    def _capacity(self, game: GameRow) -> int:
        """Seats a lobby can take: the count the host chose (never more than the game allows)."""
        kind = self._kind(game.kind)
        wanted = game.options.get("seats")
        if isinstance(wanted, int) and not isinstance(wanted, bool) and kind.min_seats <= wanted <= kind.max_seats:
            return wanted
        return kind.max_seats

    async def _lobby(self, tx: Tx, game_id: int) -> GameRow:
        game = await self._game(tx, game_id)
        if game.status != "lobby":
            raise NotInLobby(f"Game #{game_id} is not in its lobby any more.")
        return game

    async def join(self, game_id: int, user_id: int, display_name: str) -> GameInfo:
        async with self._transaction() as tx:
            game = await self._lobby(tx, game_id)
            seats = await tx.seats(game_id)
            if any(s.user_id == user_id for s in seats):
                raise AlreadyJoined("You have already joined this game.")
            capacity = self._capacity(game)
            if len(seats) >= capacity:
                raise LobbyFull(f"The lobby is full ({capacity} seats).")
            seats.append(SeatRow(game_id, len(seats), user_id, display_name, False, "unknown"))
            await tx.replace_seats(game_id, seats)
            await tx.update_game(game_id, self.clock.now(), version=game.version + 1)
            return await self._info(tx, await self._game(tx, game_id))

    async def add_ai(self, game_id: int, by_user_id: int, display_name: str | None = None, *,
                     level: str | None = None, admin: bool = False) -> GameInfo:
        """An AI seat of `level` (default: the level of the lobby's latest AI seat, else normal)."""
        async with self._transaction() as tx:
            game = await self._lobby(tx, game_id)
            self._require_host(game, by_user_id, admin)
            seats = await tx.seats(game_id)
            capacity = self._capacity(game)
            if len(seats) >= capacity:
                raise LobbyFull(f"The lobby is full ({capacity} seats).")
            if level is None:
                level = next((ai_seats.seat_level(s.ai_level) for s in reversed(seats) if s.is_ai),
                             ai_seats.DEFAULT_LEVEL)
            level = self._level(level)
            name = display_name or ai_seat_name(sum(s.is_ai for s in seats) + 1, level)
            seats.append(SeatRow(game_id, len(seats), None, name, True, "unknown", level))
            await tx.replace_seats(game_id, seats)
            await tx.update_game(game_id, self.clock.now(), version=game.version + 1)
            return await self._info(tx, await self._game(tx, game_id))

    @staticmethod
    def _level(level: str | None) -> str:
        try:
            return ai_seats.check_level(level)
        except ValueError as exc:
            raise BadOptions(str(exc)) from None

    async def set_ai_level(self, game_id: int, level: str, by_user_id: int, *, admin: bool = False) -> GameInfo:
        """Lobby only, host only: every AI seat plays at `level` (names Add AI gave follow the level)."""
        level = self._level(level)
        async with self._transaction() as tx:
            game = await self._lobby(tx, game_id)
            self._require_host(game, by_user_id, admin)
            seats = await tx.seats(game_id)
            if not any(s.is_ai for s in seats):
                raise BadOptions("There is no AI seat yet: press Add AI first.")
            for s in seats:
                if s.is_ai:
                    s.ai_level = level
                    match = _AI_NAME.match(s.display_name)
                    if match and match[2] in ai_seats.level_names():
                        s.display_name = f"{match[1]} ({level})"
            await tx.replace_seats(game_id, seats)
            await tx.update_game(game_id, self.clock.now(), version=game.version + 1)
            return await self._info(tx, await self._game(tx, game_id))

    async def set_lobby_options(self, game_id: int, changes: dict[str, Any], by_user_id: int, *,
                                admin: bool = False) -> GameInfo:
        """Lobby only, host only: change game options (by their OptionSpec names). Each value is validated by
        its spec, and the options together by the game's own checks for the seats the lobby was opened for,
        so a combination the game refuses is refused now, with the game's reason, and nothing changes."""
        async with self._transaction() as tx:
            game = await self._lobby(tx, game_id)
            self._require_host(game, by_user_id, admin)
            kind = self._kind(game.kind)
            options = dict(game.options)
            for name, value in changes.items():
                spec = kind.type.option(name)
                if spec is None:
                    raise BadOptions(f"{kind.display_name} has no option called {name!r}.")
                try:
                    options[name] = spec.validate(value)
                except IllegalAction as exc:
                    raise BadOptions(exc.message) from None
            try:
                kind.normalize_options({k: v for k, v in options.items() if k != "seats"}, self._capacity(game))
            except IllegalAction as exc:
                raise BadOptions(exc.message) from None
            except (ValueError, TypeError, KeyError) as exc:
                raise BadOptions(f"Bad options: {exc}") from None
            await tx.update_game(game_id, self.clock.now(), options=options, version=game.version + 1)
            return await self._info(tx, await self._game(tx, game_id))

    async def remove_seat(self, game_id: int, seat: int, by_user_id: int, *, admin: bool = False) -> GameInfo:
        """Lobby only: the host removes a seat (typically an AI)."""
        async with self._transaction() as tx:
            game = await self._lobby(tx, game_id)
            self._require_host(game, by_user_id, admin)
            seats = await tx.seats(game_id)
            if not any(s.seat == seat for s in seats):
                raise NotInGame(f"There is no seat {seat + 1}.")
            return await self._drop_lobby_seat(tx, game, seats, seat)

    async def _drop_lobby_seat(self, tx: Tx, game: GameRow, seats: list[SeatRow], seat: int) -> GameInfo:
        now = self.clock.now()
        kept = [s for s in seats if s.seat != seat]
        for i, s in enumerate(kept):  # seats stay 0..n-1
            s.seat = i
        await tx.replace_seats(game.id, kept)
        fields: dict[str, Any] = {"version": game.version + 1}
        humans = [s for s in kept if not s.is_ai]
        if not humans:
            fields["status"] = "abandoned"
        elif game.host_user_id not in {s.user_id for s in humans}:
            fields["host_user_id"] = humans[0].user_id
        await tx.update_game(game.id, now, **fields)
        return await self._info(tx, await self._game(tx, game.id))

    async def leave(self, game_id: int, user_id: int) -> GameInfo | ActionResult:
        """In a lobby the seat is removed (empty lobby -> abandoned, host passes on).  In a running game the
        seat is handed to an AI, and the result of that (AI moves etc.) is returned."""
        async with self._transaction() as tx:
            game = await self._game(tx, game_id)
            seats = await tx.seats(game_id)
            mine = [s for s in seats if s.user_id == user_id]
            if not mine:
                raise NotInGame("You are not in this game.")
            if game.status == "lobby":
                return await self._drop_lobby_seat(tx, game, seats, mine[0].seat)
        return await self.replace_seat(game_id, mine[0].seat, None,
                                       f"AI (was {mine[0].display_name}, {ai_seats.DEFAULT_LEVEL})",
                                       by_user_id=user_id, admin=True)

    def _require_host(self, game: GameRow, user_id: int | None, admin: bool) -> None:
        if not admin and user_id != game.host_user_id:
            raise NotAllowed("Only the host (or a server admin) can do that.")

    async def set_time_limit(self, game_id: int, seconds: int | None, by_user_id: int, *,
                             admin: bool = False) -> GameInfo:
        """Per-decision time limit; None = no limit.  Takes effect at once: running deadlines are dropped and
        every seat that owes a choice gets a fresh deadline (from now) under the new limit."""
        if seconds is not None and seconds < MIN_TIME_LIMIT:
            raise BadOptions(TIME_LIMIT_TEXT)
        now = self.clock.now()
        async with self._transaction() as tx:
            game = await self._game(tx, game_id)
            self._require_host(game, by_user_id, admin)
            if game.status in ("finished", "abandoned"):
                raise GameFinished(f"Game #{game_id} is over.")
            await tx.update_game(game_id, now, time_limit=seconds)
            if game.status == "active":
                await tx.cancel_timers(game_id)
                await self._sync_timers(tx, await self._load(tx, game_id), now)
            return await self._info(tx, await self._game(tx, game_id))

    # ------------------------------------------------------------ start / abandon

    async def start(self, game_id: int, by_user_id: int, options: dict | None = None, *, admin: bool = False,
                    seed: int | None = None) -> ActionResult:
        now = self.clock.now()
        async with self._transaction() as tx:
            game = await self._lobby(tx, game_id)
            self._require_host(game, by_user_id, admin)
            kind = self._kind(game.kind)
            seats = await tx.seats(game_id)
            if len(seats) < kind.min_seats:
                raise NotEnoughPlayers(f"{kind.display_name or kind.name} needs at least {kind.min_seats} seats.")
            if len(seats) > self._capacity(game):  # a lobby filled before its limit was enforced
                raise LobbyFull(f"The lobby has {len(seats)} seats but was opened for {self._capacity(game)}: "
                                "someone must leave first.")
            merged = {**game.options, **(options or {})}
            try:
                opts = kind.normalize_options(merged, len(seats))
            except IllegalAction as exc:
                raise BadOptions(exc.message) from None
            except (ValueError, TypeError, KeyError) as exc:
                raise BadOptions(f"Bad options: {exc}") from None
            seed = self._seed_source() if seed is None else seed
            try:
                state = kind.new_game(opts, seed, len(seats))
            except kind.illegal as exc:
                raise BadOptions(getattr(exc, "message", str(exc))) from None
            await tx.update_game(game_id, now, status="active", options=opts, seed=seed)
            game = await self._game(tx, game_id)
            loaded = _Loaded(game, seats, kind, state, 0)
            started = {"type": "game_started", "to": "all", "seats": len(seats), "options": opts}
            return await self._commit(tx, loaded, [], [started], now)

    async def abandon(self, game_id: int, by_user_id: int, *, admin: bool = False) -> GameInfo:
        async with self._transaction() as tx:
            game = await self._game(tx, game_id)
            self._require_host(game, by_user_id, admin)
            if game.status in ("finished", "abandoned"):
                raise GameFinished(f"Game #{game_id} is already over.")
            now = self.clock.now()
            await tx.cancel_timers(game_id)
            await tx.update_game(game_id, now, status="abandoned", version=game.version + 1)
            await tx.append_events(game_id, game.version + 1, [{"type": "abandoned", "to": "all"}], now)
            return await self._info(tx, await self._game(tx, game_id))

    # ------------------------------------------------------------ submissions

    async def submit(self, game_id: int, user_id: int, action: dict, *, idempotency_key: str,
                     prompt_key: str | None = None, expected_version: int | None = None,
                     draft: dict | None = None) -> ActionResult:
        """Apply `action` for the seat of `user_id`.  A retry with the same idempotency_key returns the stored
        result (with duplicate=True) and applies nothing.  `draft` (the plan the action was built from) is
        kept in the same transaction, so a sealed choice can be amended from it."""
        if not idempotency_key:
            raise ValueError("idempotency_key is required")
        now = self.clock.now()

        async def body(tx: Tx) -> ActionResult:
            await tx.lock_game(game_id)  # several processes: one writer per game, then the retry check
            seen = await self._seen(tx, game_id, idempotency_key)
            if seen is not None:
                return seen
            loaded = await self._load_active(tx, game_id)
            seat = next((s.seat for s in loaded.seats if s.user_id == user_id and not s.is_ai), None)
            if seat is None:
                raise NotInGame("You do not have a seat in this game.")
            self._check_fresh(loaded, seat, prompt_key, expected_version)
            if draft is not None and not loaded.kind.is_over(loaded.state):
                await self._put_draft(tx, game_id, seat, draft, prompt_key or "", now)
            return await self._apply_and_commit(tx, loaded, seat, action, "action", idempotency_key, now)

        return await self._run_transaction(body)

    async def submit_for_seat(self, game_id: int, seat: int, action: dict, *, idempotency_key: str,
                              prompt_key: str | None = None, expected_version: int | None = None) -> ActionResult:
        """Admin override: act for a seat regardless of who holds it (logged as kind 'admin')."""
        now = self.clock.now()

        async def body(tx: Tx) -> ActionResult:
            await tx.lock_game(game_id)
            seen = await self._seen(tx, game_id, idempotency_key)
            if seen is not None:
                return seen
            loaded = await self._load_active(tx, game_id)
            if not any(s.seat == seat for s in loaded.seats):
                raise NotInGame(f"There is no seat {seat + 1}.")
            self._check_fresh(loaded, seat, prompt_key, expected_version)
            return await self._apply_and_commit(tx, loaded, seat, action, "admin", idempotency_key, now)

        return await self._run_transaction(body)

    async def _seen(self, tx: Tx, game_id: int, key: str) -> ActionResult | None:
        row = await tx.action_by_key(key)
        if row is None:
            return None
        if row.game_id != game_id:
            raise KeyReused("That button belongs to another game.")
        if row.result is None:
            # Finished games drop stored results (Tx.pack_game); answer with the game as it is now.
            game = await self._game(tx, game_id)
            return ActionResult(game.id, game.version, game.status, finished=game.status == "finished",
                                seats=[_seat_info(s) for s in await tx.seats(game_id)], duplicate=True)
        result, lean = ActionResult.from_blob(row.result)
        if lean:
            result.public = await tx.public_events_of(game_id, result.version)
            result.seats = [_seat_info(s) for s in await tx.seats(game_id)]
        result.duplicate = True
        return result

    async def _load_active(self, tx: Tx, game_id: int) -> _Loaded:
        loaded = await self._load(tx, game_id)
        status = loaded.game.status
        if status == "lobby":
            raise GameNotStarted(f"Game #{game_id} has not started yet.")
        if status in ("finished", "abandoned"):
            raise GameFinished(f"Game #{game_id} is over ({status}).")
        return loaded

    def _check_fresh(self, loaded: _Loaded, seat: int, prompt_key: str | None,
                     expected_version: int | None) -> None:
        if expected_version is not None and expected_version != loaded.game.version:
            raise StaleVersion("The game has moved on since this was shown; here is the current state.")
        if prompt_key is not None:
            prompts = self._prompts(loaded)
            if seat not in prompts:
                raise StalePrompt("That prompt is no longer current: you have nothing to decide right now.")
            if prompts[seat].key != prompt_key:
                raise StalePrompt("That prompt is from an earlier phase; use the latest one.")

    async def _apply_and_commit(self, tx: Tx, loaded: _Loaded, seat: int, action: dict, kind_: str,
                                key: str, now: float) -> ActionResult:
        kind = loaded.kind
        # Store exactly what the engine saw: a private copy, so neither the engine nor the caller can change
        # the logged action afterwards (the log must replay to the same state).
        action = _json_copy(action)
        try:
            events = kind.apply(loaded.state, seat, _json_copy(action))
        except kind.illegal as exc:
            # The engine validates before mutating, so nothing changed; nothing is stored.
            raise IllegalMove(getattr(exc, "message", str(exc)), getattr(exc, "code", "illegal")) from None
        seq = loaded.last_seq + 1
        loaded.last_seq = seq
        applied = [Applied(seq, seat, action, kind_)]
        extra: list[dict] = []
        if kind_ == "timeout":
            extra.append({"type": "timeout", "to": "all", "seat": seat})
            # The seat alone learns what was chosen for it (the choice may be secret until a reveal).
            extra.append({"type": "timeout_chosen", "to": seat, "action": action})
        result = await self._commit(tx, loaded, applied, extra + list(events), now)
        if kind_ == "timeout":
            result.timed_out = [seat]
        # Logged once its result is known, in the same row (one row written; the AI moves it triggered were
        # logged by the commit, after it in seq, in the same transaction).  A finished game keeps no results
        # (see Tx.pack_game).
        await tx.append_action(loaded.game.id, seq, seat, action, kind=kind_, key=key, now=now,
                               result=None if result.finished else result.to_blob())
        return result

    async def _run_ai(self, tx: Tx, loaded: _Loaded, now: float) -> tuple[list[Applied], list[dict]]:
        """Inline AI seats (ai_inline): their moves, in this transaction. Otherwise none: a worker makes them."""
        if not self.ai_inline:
            return [], []
        kind, state = loaded.kind, loaded.state
        levels = _ai_levels(loaded.seats)
        applied: list[Applied] = []
        events: list[dict] = []
        for _ in range(MAX_AI_STEPS):
            if not levels or kind.is_over(state):
                break
            prompts = kind.pending(state)
            todo = [s for s in sorted(prompts) if s in levels and prompts[s].waiting]
            if not todo:
                break
            seat = todo[0]
            seq = loaded.last_seq + 1
            action = ai_seats.decide(kind, levels[seat], state, seat,
                                     ai_seats.decision_seed(loaded.game.seed, seat, prompts[seat].key))
            if action is None:
                break
            try:
                new_events = kind.apply(state, seat, _json_copy(action))
            except kind.illegal:
                log.exception("game %s: AI fallback action refused", loaded.game.id)
                break
            await tx.append_action(loaded.game.id, seq, seat, action, kind="action",
                                   key=f"{AI_KEY_PREFIX}{loaded.game.id}:{seq}", now=now)
            loaded.last_seq = seq
            applied.append(Applied(seq, seat, action, "ai"))
            events += new_events
        return applied, events

    # ------------------------------------------------------------ AI seats in a worker

    async def ai_work(self, game_id: int) -> AIWork | None:
        """The game's state and AI levels when an AI seat must decide now (None otherwise): one read, no
        transaction held while the worker thinks."""
        async with self.storage.reading() as tx:
            game = await tx.game(game_id)
            if game is None or game.status != "active":
                return None
            loaded = await self._load(tx, game_id)
        await self._repair_if_needed(loaded)
        levels = _ai_levels(loaded.seats)
        if loaded.state is None or not levels:
            return None
        prompts = self._prompts(loaded)
        if not any(s in levels and p.waiting for s, p in prompts.items()):
            return None
        return AIWork(game_id, loaded.kind, loaded.state, levels, loaded.game.seed, loaded.game.version)

    async def commit_ai(self, game_id: int, moves: list[ai_seats.AIMove]) -> ActionResult | None:
        """Store AI moves a worker computed, in order, in one transaction. A move is kept only while its seat
        is still an AI seat that owes the decision it was computed for (same prompt key): whatever the game
        did meanwhile, an older move is dropped (and computed again), never applied to a decision it was not
        made for. None when nothing was applied."""
        now = self.clock.now()
        async with self._transaction() as tx:
            await tx.lock_game(game_id)
            game = await tx.game(game_id)
            if game is None or game.status != "active":
                return None
            loaded = await self._load(tx, game_id)
            kind, state = loaded.kind, loaded.state
            levels = _ai_levels(loaded.seats)
            applied: list[Applied] = []
            events: list[dict] = []
            for move in moves:
                if kind.is_over(state):
                    break
                prompt = kind.pending(state).get(move.seat)
                if move.seat not in levels or prompt is None or prompt.key != move.prompt_key or not prompt.waiting:
                    break
                action = _json_copy(move.action)
                try:
                    events += kind.apply(state, move.seat, _json_copy(action))
                except kind.illegal:
                    log.exception("game %s: AI move refused", game_id)
                    break
                seq = loaded.last_seq + 1
                await tx.append_action(game_id, seq, move.seat, action, kind="action",
                                       key=f"{AI_KEY_PREFIX}{game_id}:{seq}", now=now)
                loaded.last_seq = seq
                applied.append(Applied(seq, move.seat, action, "ai"))
            if not applied:
                return None
            return await self._commit(tx, loaded, applied, events, now)

    async def _commit(self, tx: Tx, loaded: _Loaded, applied: list[Applied], events: list[dict],
                      now: float) -> ActionResult:
        """Run AI seats, store the snapshot, the public log and the timers; bump the version."""
        ai_applied, ai_events = await self._run_ai(tx, loaded, now)
        applied += ai_applied
        events = events + ai_events
        kind, state, game = loaded.kind, loaded.state, loaded.game
        finished = kind.is_over(state)
        version = game.version + 1  # every commit moves the version on
        status = "finished" if finished else "active"
        scores = kind.final_scores(state) if finished else None
        public, private = _split(events)
        if finished:
            public.append({"type": "final_scores", "to": "all", "scores": scores})
        if status != game.status:
            await tx.update_game(game.id, now, version=version, status=status)
        else:  # the status's indexes stay untouched: fewer pages written per commit
            await tx.update_game(game.id, now, version=version)
        await tx.save_snapshot(game.id, version, loaded.last_seq, state, now)
        await tx.append_events(game.id, version, public, now)
        game.version, game.status = version, status
        if finished:
            await tx.pack_game(game.id)
        pending = await self._sync_timers(tx, loaded, now)
        # What must be said about this commit goes into the outbox in the same transaction (delivered by the
        # announcer, drained again at start-up after a crash).
        await tx.add_outbox(game.id, version, _notice(loaded, public, private, pending, finished), now)
        result = ActionResult(game.id, version, status, applied, public, private, pending, finished, scores,
                              [_seat_info(s) for s in loaded.seats])
        await self._fill_for_announcer(tx, loaded, result)
        return result

    # ------------------------------------------------------------ timers

    def _prompts(self, loaded: _Loaded) -> dict[int, Prompt]:
        """The seats that must decide now (computed once per loaded state: every caller shares it)."""
        if loaded.state is None:
            return {}
        if loaded.prompts is None or loaded.prompts_of is not loaded.state or loaded.prompts_at != loaded.last_seq:
            loaded.prompts = loaded.kind.pending(loaded.state)
            loaded.prompts_of, loaded.prompts_at = loaded.state, loaded.last_seq
        return loaded.prompts

    async def _sync_timers(self, tx: Tx, loaded: _Loaded, now: float) -> dict[int, PendingSeat]:
        """Keep one deadline (+ reminders) per human seat that still owes a choice for its current prompt."""
        game = loaded.game
        prompts = self._prompts(loaded) if game.status == "active" else {}
        existing: dict[int, list] = {}
        for t in await tx.timers(game.id):
            existing.setdefault(t.seat, []).append(t)
        by_seat = {s.seat: s for s in loaded.seats}
        changed = False
        rearm: list[tuple[int, list, list[tuple[str, float]], str]] = []
        schedule: list[tuple[str, float]] | None = None  # a new prompt's deadline and reminders, from now
        out: dict[int, PendingSeat] = {}
        for seat in sorted(set(prompts) | set(existing)):
            info = by_seat.get(seat)
            human = info is not None and not info.is_ai
            timers = existing.get(seat, [])
            if seat not in prompts or not human or not prompts[seat].waiting or game.time_limit is None:
                if timers:
                    await tx.cancel_timers(game.id, seat)
                    changed = True
                timers = []
            else:
                key = prompts[seat].key
                if any(t.prompt_key != key for t in timers) or not any(t.kind == "deadline" for t in timers):
                    # A new prompt: the old deadline no longer applies, a new one starts now.
                    if schedule is None:
                        schedule = [("deadline", now + game.time_limit)] + [
                            ("reminder", now + offset) for offset in reminder_offsets(game.time_limit)]
                    rearm.append((seat, timers, schedule, key))
                    timers = [_Deadline(schedule[0][1])]
            if seat in prompts:
                prompt = prompts[seat]
                deadline = next((t.due_at for t in timers if t.kind == "deadline"), None)
                out[seat] = PendingSeat(seat, info.user_id if info else None, bool(info and info.is_ai), prompt,
                                        prompt.key, prompt.waiting, deadline)
        if rearm:  # every seat with a new prompt in one statement of each kind
            await tx.rearm_timers(game.id, rearm, now)
            changed = True
        if changed:
            tx.timers_changed = True  # the scheduler is told after the commit (see _transaction)
        return out

    async def next_timer_due(self) -> float | None:
        """When the scheduler should look again. A re-armed timer still wakes at its old time (a re-arm does
        not move it in the scheduler's index); once that time has come, it wakes at its due time instead."""
        async with self.storage.reading() as tx:
            nxt = await tx.next_due()
        now = self.clock.now()
        if nxt is not None and nxt <= now:
            async with self._transaction() as tx:
                await tx.push_wakes(now)
                nxt = await tx.next_due()
        return nxt

    async def skip_missed_reminders(self, before: float | None = None) -> int:
        """Mark reminders that are already past as sent without sending them (used at start-up)."""
        when = self.clock.now() if before is None else before
        async with self._transaction() as tx:
            return await tx.skip_reminders_before(when)

    async def due_timer_ids(self, now: float | None = None, limit: int = 100) -> list[tuple[int, str, float]]:
        async with self.storage.reading() as tx:
            return [(t.id, t.kind, t.due_at) for t in await tx.due_timers(self.clock.now() if now is None else now,
                                                                           limit)]

    async def fire_timer(self, timer_id: int, *, send_reminder: bool = True) -> ActionResult | Reminder | None:
        """Fire one due timer, at most once.  A deadline applies the engine's default action for the seat
        (logged as kind 'timeout'); a reminder returns a Reminder.  Obsolete timers return None."""
        now = self.clock.now()
        async with self._transaction() as tx:
            timer = await tx.timer(timer_id)
            if timer is None or timer.fired or timer.due_at > now:
                return None
            # Game first, then the timer (the order submissions take them in); another process already
            # firing this timer holds it, and we skip it.
            await tx.lock_game(timer.game_id)
            timer = await tx.claim_timer(timer_id, now)
            if timer is None:
                return None
            await tx.mark_fired(timer_id)
            game = await tx.game(timer.game_id)
            if game is None or game.status != "active":
                return None
            loaded = await self._load(tx, game.id)
            prompts = self._prompts(loaded)
            current = prompts.get(timer.seat)
            if current is None or current.key != timer.prompt_key or not current.waiting:
                return None  # the seat already acted or the phase moved on
            if timer.kind == "reminder":
                if not send_reminder:
                    return None
                deadline = next((t.due_at for t in await tx.timers(game.id)
                                 if t.seat == timer.seat and t.kind == "deadline"), None)
                user = next((s.user_id for s in loaded.seats if s.seat == timer.seat), None)
                return Reminder(game.id, game.channel_id, timer.seat, user, deadline, timer.prompt_key, game.kind,
                                current.kind, game.guild_id)
            action = loaded.kind.default_action(loaded.state, timer.seat)
            try:
                result = await self._apply_and_commit(tx, loaded, timer.seat, action, "timeout",
                                                      f"timeout:{timer.id}", now)
            except IllegalMove:
                log.exception("game %s: default action refused for seat %s", game.id, timer.seat)
                return None
            return result

    # ------------------------------------------------------------ seats during a game

    async def replace_seat(self, game_id: int, seat: int, new_user_id: int | None, display_name: str, *,
                           by_user_id: int | None = None, admin: bool = False,
                           level: str | None = None) -> ActionResult:
        """Give a seat to another user, or to an AI of `level` (default normal) when new_user_id is None."""
        level = self._level(level) if new_user_id is None else None
        now = self.clock.now()
        async with self._transaction() as tx:
            game = await self._game(tx, game_id)
            self._require_host(game, by_user_id, admin)
            loaded = await self._load_active(tx, game_id)
            target = next((s for s in loaded.seats if s.seat == seat), None)
            if target is None:
                raise NotInGame(f"There is no seat {seat + 1}.")
            if new_user_id is not None and any(s.user_id == new_user_id for s in loaded.seats):
                raise AlreadyJoined("That user already has a seat in this game.")
            await tx.update_seat(game_id, seat, user_id=new_user_id, display_name=display_name,
                                 is_ai=new_user_id is None, dm_status="unknown", ai_level=level)
            target.user_id, target.display_name, target.is_ai = new_user_id, display_name, new_user_id is None
            target.ai_level = level
            target.dm_status = "unknown"
            event = {"type": "seat_replaced", "to": "all", "seat": seat, "name": display_name,
                     "is_ai": new_user_id is None}
            return await self._commit(tx, loaded, [], [event], now)

    async def set_dm_status(self, user_id: int, status: str) -> None:
        """Record whether the bot can DM this user (applies to their open games)."""
        if status not in ("unknown", "open", "closed"):
            raise ValueError(status)
        async with self._transaction() as tx:
            await tx.set_dm_status(user_id, status)

    # ------------------------------------------------------------ undo

    async def undo(self, game_id: int, by_user_id: int | None, *, admin: bool = False) -> ActionResult:
        """Roll back the last public step (the last completed step that contains a player's move) together
        with anything submitted after it.  The log keeps everything; an 'undo' entry cancels the moves."""
        now = self.clock.now()
        async with self._transaction() as tx:
            game = await self._game(tx, game_id)
            self._require_host(game, by_user_id, admin)
            loaded = await self._load_active(tx, game_id)
            kind = loaded.kind
            moves = await self._effective(tx, game_id)
            state = kind.new_game(game.options, game.seed, len(loaded.seats))
            steps: list[list[tuple[int, int, dict, str | None]]] = [[]]
            for seq, seat, action, key in moves:
                before = {s: p.key for s, p in kind.pending(state).items()}
                kind.apply(state, seat, action)
                after = {s: p.key for s, p in kind.pending(state).items()}
                steps[-1].append((seq, seat, action, key))
                without_me = {s: k for s, k in before.items() if s != seat}
                if kind.is_over(state) or after not in (before, without_me):
                    steps.append([])
            complete = steps[:-1]
            target = next((i for i in range(len(complete) - 1, -1, -1)
                           if any(not (m[3] or "").startswith(AI_KEY_PREFIX) for m in complete[i])), None)
            if target is None:
                raise NothingToUndo("There is no completed step to undo.")
            removed = [m[0] for step in steps[target:] for m in step]
            kept = [(seat, action) for seq, seat, action, _ in moves if seq not in set(removed)]
            seq = loaded.last_seq + 1
            await tx.append_action(game_id, seq, None, {"undo": removed}, kind="undo",
                                   key=None, now=now)
            loaded.last_seq = seq
            loaded.state = kind.rebuild(game.options, game.seed, len(loaded.seats), kept)
            # Whose moves were taken back (seats only: a sealed choice made since must stay secret).
            undone_seats = sorted({m[1] for step in steps[target:] for m in step if m[1] is not None})
            event = {"type": "undo", "to": "all", "moves": len(removed), "seats": undone_seats}
            # Each seat is told privately which of its own moves went back.
            mine = [{"type": "undone", "to": seat, "actions": [m[2] for step in steps[target:] for m in step
                                                              if m[1] == seat]} for seat in undone_seats]
            result = await self._commit(tx, loaded, [], [event, *mine], now)
            return result

    # ------------------------------------------------------------ reading

    async def _read_state(self, game_id: int) -> _Loaded:
        async with self.storage.reading() as tx:
            loaded = await self._load(tx, game_id)
        await self._repair_if_needed(loaded)
        return loaded

    async def view(self, game_id: int, user_id: int | None = None) -> dict:
        """The view of `user_id`'s seat, or the public view when user_id is None (or has no seat)."""
        loaded = await self._read_state(game_id)
        if loaded.state is None:
            raise GameNotStarted(f"Game #{game_id} has not started yet.")
        seat = next((s.seat for s in loaded.seats if user_id is not None and s.user_id == user_id), None)
        return loaded.kind.view(loaded.state, seat)

    async def view_seat(self, game_id: int, seat: int | None) -> dict:
        loaded = await self._read_state(game_id)
        if loaded.state is None:
            raise GameNotStarted(f"Game #{game_id} has not started yet.")
        return loaded.kind.view(loaded.state, seat)

    async def full_state(self, game_id: int) -> dict | None:
        """The complete engine state (every secret). For audits, tests and AI tooling; never show it."""
        return (await self._read_state(game_id)).state

    async def seat_of(self, game_id: int, user_id: int) -> int | None:
        async with self.storage.reading() as tx:
            await self._game(tx, game_id)
            return next((s.seat for s in await tx.seats(game_id) if s.user_id == user_id), None)

    def _pending_seats(self, loaded: _Loaded, timers: list) -> dict[int, PendingSeat]:
        """Who must act now, with deadlines from `timers`: the one place PendingSeats are assembled."""
        if loaded.state is None or loaded.game.status != "active":
            return {}
        by_seat = {s.seat: s for s in loaded.seats}
        out: dict[int, PendingSeat] = {}
        for seat, prompt in self._prompts(loaded).items():
            row = by_seat.get(seat)
            deadline = next((t.due_at for t in timers
                             if t.seat == seat and t.kind == "deadline" and t.prompt_key == prompt.key), None)
            out[seat] = PendingSeat(seat, row.user_id if row else None, bool(row and row.is_ai), prompt, prompt.key,
                                    prompt.waiting, deadline)
        return out

    async def pending(self, game_id: int) -> dict[int, PendingSeat]:
        """Who must act now, with the prompt, its key and the deadline (None when there is no limit)."""
        async with self.storage.reading() as tx:
            loaded = await self._load(tx, game_id)
            timers = await tx.timers(game_id) if loaded.state is not None else []
        await self._repair_if_needed(loaded)
        return self._pending_seats(loaded, timers)

    async def seat_context(self, game_id: int, seat: int | None) -> tuple[GameInfo, dict, dict[int, PendingSeat]]:
        """Game info, the seat's view (public when seat is None) and who must act: one read, one decode."""
        async with self.storage.reading() as tx:
            loaded = await self._load(tx, game_id)
            info = await self._info(tx, loaded.game)
            timers = await tx.timers(game_id)
        await self._repair_if_needed(loaded)
        if loaded.state is None:
            raise GameNotStarted(f"Game #{game_id} has not started yet.")
        return info, loaded.kind.view(loaded.state, seat), self._pending_seats(loaded, timers)

    async def click_context(self, game_id: int, user_id: int, seat: int | None,
                            prompt_key: str | None) -> SeatContext:
        """Everything a click on a seat's prompt needs, in one read: the seat's view, its current prompt and
        draft. `seat` None: the seat of `user_id` (the "My screen" button); `prompt_key` None: no staleness
        check. Raises NotInGame (not the user's seat), GameNotStarted, GameFinished (over or abandoned) and
        StalePrompt (the control belongs to an earlier decision)."""
        async with self.storage.reading() as tx:
            game = await self._game(tx, game_id)
            seats = await tx.seats(game_id)
            mine = next((s for s in seats if s.user_id == user_id and not s.is_ai), None)
            if mine is None or (seat is not None and mine.seat != seat):
                raise NotInGame("These controls belong to another player's seat.")
            if game.status in ("finished", "abandoned"):
                if prompt_key is not None:
                    raise GameFinished("This game is over." if game.status == "finished" else "This game was abandoned.")
            loaded = await self._load(tx, game_id)
            if loaded.state is None:
                raise GameNotStarted(f"Game #{game_id} has not started yet.")
            prompt = self._prompts(loaded).get(mine.seat) if game.status == "active" else None
            if prompt_key is not None and (prompt is None or prompt.key != prompt_key):
                raise StalePrompt("This prompt is from an earlier step of the game and has closed.")
            timers = await tx.timers(game_id) if prompt is not None else []
            stored = await tx.get_draft(game_id, mine.seat) if prompt is not None else None
        await self._repair_if_needed(loaded)
        deadline = next((t.due_at for t in timers if t.seat == mine.seat and t.kind == "deadline"
                         and prompt is not None and t.prompt_key == prompt.key), None)
        draft = stored[1] if stored is not None and prompt is not None and stored[0] == prompt.key else None
        return SeatContext(game_id, game.kind, mine.seat, loaded.kind.view(loaded.state, mine.seat), prompt,
                           prompt.key if prompt else None, deadline, draft, {s.seat: s.display_name for s in seats},
                           game.version, game.status == "active", game.guild_id, game.channel_id)

    async def save_draft(self, game_id: int, seat: int, draft: dict | None) -> None:
        """Keep a seat's unfinished plan for its current prompt (draft["key"]); None drops it."""
        async with self._transaction() as tx:
            if draft is None:
                await tx.put_draft(game_id, seat, "", None, now=self.clock.now())
            else:
                await self._put_draft(tx, game_id, seat, draft, "", self.clock.now())

    async def note_in_draft(self, game_id: int, seat: int, prompt_key: str, notes: dict) -> dict:
        """Add the bot's notes for a prompt (keys starting "_", e.g. its recap line) to the seat's draft,
        keeping whatever the player has chosen meanwhile; returns the draft as stored."""
        async with self._transaction() as tx:
            stored = await tx.get_draft(game_id, seat)
            draft = stored[1] if stored is not None and stored[0] == prompt_key else {"key": prompt_key}
            draft.update(notes)
            await tx.put_draft(game_id, seat, prompt_key, draft, now=self.clock.now())
            return draft

    @staticmethod
    async def _put_draft(tx: Tx, game_id: int, seat: int, draft: dict, prompt_key: str, now: float) -> None:
        """Store a player's draft; the bot's notes already stored for the same prompt (keys starting "_") are
        kept when the player's copy was read before they were added."""
        key = draft.get("key", prompt_key)
        stored = await tx.get_draft(game_id, seat)
        if stored is not None and stored[0] == key:
            notes = {k: v for k, v in stored[1].items() if k.startswith("_") and k not in draft}
            if notes:
                draft = {**draft, **notes}
        await tx.put_draft(game_id, seat, key, draft, now=now)

    async def table_state(self, game_id: int) -> ActionResult:
        """The game as the announcer needs it (views, prompts, drafts), with no new events: for
        catching up after a restart and for `/… status`. One read."""
        async with self.storage.reading() as tx:
            loaded = await self._load(tx, game_id)
            if loaded.state is None:
                raise GameNotStarted(f"Game #{game_id} has not started yet.")
            pending = self._pending_seats(loaded, await tx.timers(game_id))
            result = ActionResult(game_id, loaded.game.version, loaded.game.status, pending=pending,
                                  finished=loaded.game.status == "finished",
                                  seats=[_seat_info(s) for s in loaded.seats])
            await self._fill_for_announcer(tx, loaded, result)
        await self._repair_if_needed(loaded)
        return result

    async def _fill_for_announcer(self, tx: Tx, loaded: _Loaded, result: ActionResult) -> None:
        """The views and drafts an announcement needs, from the state in memory."""
        kind, state, game = loaded.kind, loaded.state, loaded.game
        result.kind, result.channel_id = game.kind, game.channel_id
        result.public_view = kind.view(state, None)
        for s in loaded.seats:
            if s.user_id is not None and not s.is_ai:
                result.views[s.seat] = kind.view(state, s.seat)
        for seat, p in result.pending.items():
            if seat in result.views:
                stored = await tx.get_draft(game.id, seat)
                if stored is not None and stored[0] == p.prompt_key:
                    result.drafts[seat] = stored[1]
        if result.finished:
            outcome = kind.outcome(state)
            result.outcome = outcome.to_json() if outcome is not None else None

    async def final_scores(self, game_id: int) -> list[dict] | None:
        loaded = await self._read_state(game_id)
        if loaded.state is None:
            return None
        return loaded.kind.final_scores(loaded.state)

    async def public_log(self, game_id: int, *, limit: int | None = None, after_seq: int = 0) -> list[LogEntry]:
        async with self.storage.reading() as tx:
            await self._game(tx, game_id)
            return [LogEntry(s, v, e) for s, v, e in await tx.events(game_id, after_seq=after_seq, limit=limit)]

    # ------------------------------------------------------------ finished games

    async def finished_games(self, kind: str, guild_id: int | None, channel_id: int | None = None) -> list[GameInfo]:
        """The finished games of a kind on a server (in one channel when given), newest first."""
        games = await self.list_games(statuses=("finished",), guild_id=guild_id)
        return sorted((g for g in games if g.kind == kind and (channel_id is None or g.channel_id == channel_id)),
                      key=lambda g: -g.id)

    async def game_record(self, game_id: int) -> dict:
        """The replayable record of a started game (bot/export.py): options, seed, seats, actions, names."""
        from bot.export import ExportError
        from bot.export import game_record as record

        async with self.storage.reading() as tx:
            try:
                return await record(tx, game_id)
            except ExportError as exc:
                raise GameNotStarted(str(exc)) from None

    async def rematch(self, game_id: int, by_user_id: int) -> GameInfo:
        """A new lobby in the finished game's channel with the same seats (people and AIs) and options; the
        player who asked is its host. Anyone may leave it before the start."""
        old = await self.game(game_id)
        if old.status != "finished":
            raise NotAllowed("A rematch can be asked for once the game is over.")
        mine = next((s for s in old.seats if s.user_id == by_user_id and not s.is_ai), None)
        if mine is None:
            raise NotInGame("Only a player of this game can ask for a rematch.")
        options = {**old.options, "seats": len(old.seats)}
        info = await self.create_lobby(old.guild_id, old.channel_id, by_user_id, mine.display_name, kind=old.kind,
                                       options=options, time_limit=old.time_limit)
        for s in sorted(old.seats, key=lambda s: s.seat):
            if s.is_ai:
                info = await self.add_ai(info.id, by_user_id, s.display_name)
            elif s.user_id is not None and s.user_id != by_user_id:
                info = await self.join(info.id, s.user_id, s.display_name)
        return info

    # ------------------------------------------------------------ preferences and prompt messages

    async def get_pref(self, user_id: int, key: str) -> str | None:
        async with self.storage.reading() as tx:
            return await tx.get_pref(user_id, key)

    async def set_pref(self, user_id: int, key: str, value: str | None) -> None:
        async with self._transaction() as tx:
            await tx.set_pref(user_id, key, value)

    async def prefs(self, user_id: int) -> dict[str, str]:
        async with self.storage.reading() as tx:
            return await tx.prefs(user_id)

    async def record_prompt_message(self, game_id: int, seat: int | None, message_id: int, channel_id: int,
                                    purpose: str, *, prompt_key: str | None = None,
                                    version: int | None = None) -> int:
        async with self._transaction() as tx:
            return await tx.add_prompt_message(game_id, seat, message_id, channel_id, purpose, prompt_key,
                                               version, self.clock.now())

    async def prompt_messages(self, game_id: int, *, active_only: bool = True) -> list:
        async with self.storage.reading() as tx:
            return await tx.prompt_messages(game_id, active_only=active_only)

    async def stale_prompt_messages(self, game_id: int) -> list:
        """Active prompt messages whose prompt is no longer current (to edit/disable on Discord)."""
        pend = await self.pending(game_id)
        current = {(s, p.prompt_key) for s, p in pend.items()}
        out = []
        for m in await self.prompt_messages(game_id):
            if m.prompt_key is None:
                continue
            if (m.seat, m.prompt_key) not in current:
                out.append(m)
        return out

    async def outbox(self, game_id: int) -> list[OutboxRow]:
        """The game's announcements not yet delivered, oldest first."""
        async with self.storage.reading() as tx:
            return await tx.outbox(game_id)

    async def outbox_games(self, before: float | None = None) -> list[tuple[int, int | None]]:
        """(game, its server) of the games whose announcements are not all delivered (of those committed
        before `before`, when given)."""
        async with self.storage.reading() as tx:
            return await tx.outbox_games(before)

    async def outbox_recorded(self, game_id: int, before_id: int) -> list[dict]:
        """What the game's earlier announcements recorded as shown (part key -> message id), newest first."""
        async with self.storage.reading() as tx:
            return await tx.outbox_recorded(game_id, before_id)

    async def outbox_record(self, game_id: int) -> list[OutboxRow]:
        """Every announcement of the game, delivered or not, oldest first (packed or not): what it posted."""
        async with self.storage.reading() as tx:
            return await tx.outbox_record(game_id)

    async def outbox_progress(self, outbox_id: int, sent: dict, *, delivered: bool) -> None:
        async with self._transaction() as tx:
            await tx.outbox_progress(outbox_id, sent, self.clock.now() if delivered else None)

    async def retire_prompt_messages(self, ids: list[int]) -> None:
        async with self._transaction() as tx:
            await tx.deactivate_prompt_messages(ids)


@dataclass
class _Deadline:
    due_at: float
    kind: str = "deadline"
