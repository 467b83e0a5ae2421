"""The storage interface: every query the service makes, written once for both drivers.

A driver (bot.storage.sqlite, bot.storage.postgres) supplies a few primitives: run a read now, queue or run a
write, insert and return the new id.  Queries that need several statements are *plans*: generators that yield
requests ``(op, sql, args)`` and receive each result, so the SQLite driver can run a whole plan (and every
write queued before it) in one call on its database thread, and the PostgreSQL driver simply awaits each step.
SQL is written with ``?`` placeholders; the PostgreSQL driver rewrites them.
"""

from __future__ import annotations

import functools
import json
import time
import zlib
from collections.abc import Awaitable, Callable, Generator, Iterable, Iterator, MutableSequence, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from bot.games import compact_json
from bot.storage.schema import (
    _GAME_COLS,
    ActionRow,
    CorruptSnapshot,
    GameRow,
    OutboxRow,
    PromptMessageRow,
    SeatRow,
    TimerRow,
    _game,
    decode_state,
    encode_state,
    from_json,
    json_text,
)

T = TypeVar("T")
Request = tuple[str, str, Sequence[Any]]  # ("one" | "all" | "write" | "many" | "insert", sql, args)
Plan = Generator[Request, Any, Any]

# The key of the public log inside an engine state (a list of the public events, appended to by the engine).
LOG_KEY = "log"

_TIMER_COLS = "id, game_id, seat, kind, due_at, fired, prompt_key, wake_at"
# An action row without its stored result (what a finished game keeps, Tx._pack_plan).
_ACTION_COLS = "id, game_id, seq, seat, action, idempotency_key, kind, created_at"
_ACTION_COUNT = _ACTION_COLS.count(",") + 1

def _unpack(blob: Any, what: str) -> Any:
    """A packed row's zlib JSON (a finished game's public log or outbox); CorruptSnapshot if it does not decode."""
    try:
        return from_json(zlib.decompress(bytes(blob)))
    except (zlib.error, ValueError, TypeError) as exc:
        raise CorruptSnapshot(f"{what} does not decode: {exc}") from exc


# The last log position of a game: its newest positioned row (positions follow seq; see the migration that
# dropped game_events_log), found by walking the primary key back from the game's last event.
LAST_LOG_POS = ("SELECT log_pos FROM game_events WHERE game_id={game} AND log_pos IS NOT NULL"
                " ORDER BY seq DESC LIMIT 1")

# Tx._load_plan: the game, its last action and last public event (seq), its snapshot and last log position.
_LOAD_GAME = (
    f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLS.split(','))},"
    " (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id=g.id),"
    " (SELECT COALESCE(MAX(seq), 0) FROM game_events WHERE game_id=g.id),"
    " s.version, s.seq, s.state, s.checksum,"
    f" ({LAST_LOG_POS.format(game='g.id')})"
    " FROM games g LEFT JOIN snapshots s ON s.game_id=g.id WHERE g.id=?")


def _timer(r: Sequence[Any]) -> TimerRow:
    return TimerRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7])


# One game's unfired timers, through timers_game (game_id, fired).  Sorted here (_due_order), not by an
# ORDER BY due_at: that makes SQLite walk timers_due (fired, due_at), every unfired timer of every game, to
# skip sorting a handful of rows.
_GAME_TIMERS = f"SELECT {_TIMER_COLS} FROM timers WHERE game_id=? AND fired=0"


def _due_order(rows: Iterable[Sequence[Any]]) -> list[TimerRow]:
    """Timer rows in due order (ties by id)."""
    return [_timer(r) for r in sorted(rows, key=lambda r: (r[4], r[0]))]


def _single(op: str, sql: str, args: Sequence[Any] = ()) -> Plan:
    return (yield (op, sql, args))


def _json_list(texts: Iterable[str]) -> list:
    # One parse of the joined rows is several times faster than one json.loads per row.
    return from_json("[" + ",".join(texts) + "]")


class LogNeeded(BaseException):  # noqa: N818  (not an error: a request to run the transaction again)
    """Raised by a deferred public log whose stored entries cannot be read in the middle of the engine's work
    (PostgreSQL: the engine runs between round trips, and a read is one more), when the engine reads past
    what was fetched with the game: the transaction rolls back and runs again with the whole log read with the
    game.  A BaseException, so that no ``except Exception`` on the way (an AI seat's fallback to its default
    action, say) takes it for a failure of its own."""


class PublicLog(MutableSequence):
    """A game's public log (state["log"]) as a submission hands it to the engine: the stored entries are not
    read until something reads the log.  Appending (append, extend, +=) only collects the new entries, which
    the commit stores as new game_events rows; any other use (iteration, indexing, slicing, comparison, a
    copy) first loads the stored entries, in the same transaction.  Not a list on purpose: a JSON encoder or
    marshal refuses it loudly instead of writing a list that lacks the stored entries; pickle and copy get
    a plain list of every entry.  With ``tail`` (the last stored entries, fetched with the game) reads within
    the tail and the new entries (``log[-12:]``, ``log[-1]``) need no load either."""

    __slots__ = ("_count", "_new", "_items", "_load", "_tail")

    def __init__(self, count: int, load: Callable[[], list], tail: list | None = None) -> None:
        self._count = count  # stored entries (checked against the stored positions when the game was loaded)
        self._new: list = []
        self._items: list | None = None  # every entry, once loaded
        self._load: Callable[[], list] | None = load
        self._tail: list = tail or []  # the stored entries from position count - len(tail) on

    @property
    def loaded(self) -> bool:
        return self._items is not None

    def entries(self) -> list:
        """Every entry, loading the stored ones if not done yet."""
        if self._items is None:
            assert self._load is not None
            stored = list(self._load())
            if len(stored) != self._count:
                raise CorruptSnapshot(f"the public log has {len(stored)} stored entries, {self._count} expected")
            stored.extend(self._new)
            self._items, self._new, self._load, self._tail = stored, [], None, []
        return self._items

    def since(self, position: int) -> list:
        """The entries from `position` on; no load when they were all appended in this transaction (or are in
        the tail)."""
        if self._items is None and position >= self._count - len(self._tail):
            return self._unloaded(range(position, len(self)))
        return self.entries()[position:]

    def _unloaded(self, positions: range) -> list:
        """The entries at `positions`, all at or after the tail's first, without a load."""
        first = self._count - len(self._tail)
        return [self._tail[i - first] if i < self._count else self._new[i - self._count] for i in positions]

    def append(self, value: Any) -> None:
        (self._new if self._items is None else self._items).append(value)

    def extend(self, values: Iterable[Any]) -> None:
        (self._new if self._items is None else self._items).extend(values)

    def __iadd__(self, values: Iterable[Any]) -> PublicLog:
        self.extend(values)
        return self

    def __len__(self) -> int:
        return self._count + len(self._new) if self._items is None else len(self._items)

    def __getitem__(self, index):  # type: ignore[override]
        if self._items is None and self._tail:
            first = self._count - len(self._tail)
            if isinstance(index, slice):
                positions = range(*index.indices(len(self)))
                if not positions or min(positions) >= first:
                    return self._unloaded(positions)
            elif isinstance(index, int):
                at = index + len(self) if index < 0 else index
                if first <= at < len(self):
                    return self._unloaded(range(at, at + 1))[0]
        return self.entries()[index]

    def __setitem__(self, index, value) -> None:  # type: ignore[override]
        self.entries()[index] = value

    def __delitem__(self, index) -> None:  # type: ignore[override]
        del self.entries()[index]

    def insert(self, index: int, value: Any) -> None:
        self.entries().insert(index, value)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.entries())

    def __reversed__(self) -> Iterator[Any]:
        return reversed(self.entries())

    def __contains__(self, value: object) -> bool:
        return value in self.entries()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PublicLog):
            other = other.entries()
        return self.entries() == other

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        return list, (self.entries(),)

    def __repr__(self) -> str:
        return f"PublicLog({self.entries()!r})"


def _plain_state(state: dict) -> dict:
    """The state with a PublicLog as a plain list (loaded), for encoding it whole."""
    log = state.get(LOG_KEY)
    return {**state, LOG_KEY: log.entries()} if isinstance(log, PublicLog) else state


@dataclass
class GameBundle:
    """Everything a submission reads about one game, fetched in one go (Tx.load_game)."""

    game: GameRow
    seats: list[SeatRow]
    last_seq: int
    snapshot: tuple[int, int, dict] | None  # (version, seq, state with its log), None when there is none
    error: CorruptSnapshot | None = None  # the snapshot exists but cannot be trusted


@dataclass
class _PendingLog:
    """New entries of a saved state's log, waiting to be matched with the public events of the commit."""

    base: int  # log position of entries[0]
    entries: list
    state: dict
    version: int
    seq: int
    now: float


class Tx:
    """The queries, valid inside Storage.transaction() / Storage.reading() only."""

    # Row lock on the game in write transactions (PostgreSQL); SQLite's BEGIN IMMEDIATE already serialises.
    _lock_clause = ""

    # Tx._log_loader: False reads the public log with the game even where the driver could defer it (the
    # service's second attempt at an action whose deferred read found the log damaged).
    lazy_log = True

    def __init__(self, write: bool) -> None:
        self.write = write
        self._log_len: dict[int, int] = {}  # game -> entries of state["log"] with a log_pos row
        self._log_pending: dict[int, _PendingLog] = {}
        # Unfired timers read with the game (load_game), so the timer sync of the same transaction needs no
        # round trip; dropped at the first timer write.  Lives as long as the transaction, no longer.
        self._timers: dict[int, list[TimerRow]] = {}
        self._drafts: dict[int, dict[int, tuple[str, dict]]] = {}  # the same for the game's drafts
        # The last game_events seq of games loaded in this transaction, kept up to date by append_events, so
        # new events are numbered without a MAX() per row; dropped by anything else writing game_events.
        self._event_seq: dict[int, int] = {}
        self._after_commit: list = []
        self._timers_added = False  # a new timer: other processes' schedulers are told at commit (PostgreSQL)
        # A submission locks its game, checks its idempotency key, then loads the game.  A driver whose round
        # trips are dear (SQLite: a hand-over to the database thread) loads the locked game together with the
        # key check; the bundle serves the load_game that follows, unless anything was written in between.
        self._locked_game: int | None = None
        self._prefetched: tuple[int, GameBundle | None] | None = None

    def after_commit(self, callback) -> None:
        """Call `callback()` once this transaction has committed (not at all if it rolls back): a wake-up
        sent earlier could be acted on by another connection before the change is visible to it."""
        self._after_commit.append(callback)

    def _committed(self) -> None:
        callbacks, self._after_commit = self._after_commit, []
        for callback in callbacks:
            callback()

    # ------------------------------------------------------------ driver primitives
    async def _run(self, plan: Plan) -> Any:
        raise NotImplementedError

    def _log_loader(self, game_id: int) -> Callable[[int], list] | None:
        """A synchronous load of the game's stored public log (its entries at positions under the argument)
        within this transaction, if the driver can run one right now (see PublicLog); None: the log is read
        with the game."""
        return None


    _prefetch_load = False  # see _locked_game
    _rearm_as_one = False  # see _rearm_in_place

    async def _write(self, sql: str, args: Sequence[Any] = ()) -> None:
        """A write whose result nobody needs: a driver may queue it until the next read or the commit."""
        self._prefetched = None
        await self._run(_single("write", sql, args))

    async def _write_many(self, sql: str, rows: list[Sequence[Any]]) -> None:
        self._prefetched = None
        if rows:
            await self._run(_single("many", sql, rows))

    async def _insert(self, sql: str, args: Sequence[Any]) -> int:
        self._prefetched = None
        return int(await self._run(_single("insert", sql, args)))

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return await self._run(_single("one", sql, args))

    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return list(await self._run(_single("all", sql, args)))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement now (``?`` placeholders) and return the number of rows it changed."""
        self._prefetched = None
        self._timers.clear()
        self._drafts.clear()
        self._event_seq.clear()
        return int(await self._run(_single("write", sql, args)))

    async def _before_commit(self) -> None:
        """Called by the driver just before COMMIT: a saved state whose new log entries were not all
        published as events keeps its log inside the snapshot instead (always correct, only bigger)."""
        for game_id, p in self._log_pending.items():
            if p.entries:
                blob, checksum = encode_state(_plain_state(p.state))
                await self._queue_snapshot(game_id, p.version, p.seq, blob, checksum, p.now)
        self._log_pending.clear()

    # ------------------------------------------------------------ games
    async def insert_game(self, *, guild_id: int | None, channel_id: int, kind: str, options: dict,
                          host_user_id: int | None, time_limit: int | None, now: float) -> int:
        return await self._insert(
            "INSERT INTO games (guild_id, channel_id, kind, options, status, host_user_id, version, time_limit,"
            " created_at, updated_at) VALUES (?,?,?,?,'lobby',?,0,?,?,?)",
            (guild_id, channel_id, kind, compact_json(options), host_user_id, time_limit, now, now),
        )

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id=?{self._lock_clause}", (game_id,))
        return _game(row) if row else None

    async def lock_game(self, game_id: int) -> None:
        """Serialise writers of one game (a row lock on PostgreSQL; SQLite has one writer anyway)."""
        self._locked_game = game_id

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id=? AND status IN ('lobby','active')", (channel_id,))
        return _game(row) if row else None

    async def games(self, *, status: Iterable[str] | None = None, guild_id: int | None = None) -> list[GameRow]:
        sql = f"SELECT {_GAME_COLS} FROM games WHERE 1=1"
        args: list[Any] = []
        if status is not None:
            st = list(status)
            sql += f" AND status IN ({','.join('?' * len(st))})"
            args += st
        if guild_id is not None:
            sql += " AND guild_id=?"
            args.append(guild_id)
        return [_game(r) for r in await self._all(sql + " ORDER BY id", args)]

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        if "options" in fields:
            fields["options"] = compact_json(fields["options"])
        fields["updated_at"] = now
        cols = ", ".join(f"{k}=?" for k in fields)
        await self._write(f"UPDATE games SET {cols} WHERE id=?", (*fields.values(), game_id))

    def _load_plan(self, game_id: int) -> Plan:
        # The game with its last action, last public event and snapshot in one statement; then its seats,
        # unfired timers, drafts and public log.
        row = yield ("one", _LOAD_GAME + self._lock_clause.replace(" FOR UPDATE", " FOR UPDATE OF g"), (game_id,))
        if row is None:
            return None
        game = _game(row)
        seats = [SeatRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6]) for r in (yield (
            "all", "SELECT game_id, seat, user_id, display_name, is_ai, dm_status, ai_level FROM seats WHERE game_id=?"
            " ORDER BY seat", (game_id,)))]
        bundle = GameBundle(game, seats, int(row[12]), None)
        self._event_seq[game_id] = int(row[13])
        if game.status == "lobby":
            return bundle
        self._timers[game_id] = _due_order((yield ("all", _GAME_TIMERS, (game_id,))))
        self._drafts[game_id] = {r[0]: (r[1], from_json(r[2])) for r in (yield (
            "all", "SELECT seat, prompt_key, data FROM drafts WHERE game_id=?", (game_id,)))}
        if row[14] is not None:
            try:
                state = decode_state(bytes(row[16]), row[17])
                wants = isinstance(state.get(LOG_KEY), int)
                loader = self._log_loader(game_id) if wants else None
                if loader is not None:
                    # The log is read only if the engine reads it (PublicLog, which then checks every
                    # position); here the last position must match the snapshot's count.
                    if row[18] is not None:
                        count = int(row[18]) + 1
                    else:
                        count = (yield from self._packed_log_plan(game_id, entries=False))[0]
                    # Only the entries stored by then: rows this transaction writes later are the
                    # log's new entries, which the PublicLog holds itself.
                    entries: list | PublicLog | None = PublicLog(count, functools.partial(loader, count))
                else:
                    count, entries = yield from self._log_plan(game_id, entries=wants)
                bundle.snapshot = self._with_log(game_id, row[14], row[15], state, count, entries)
            except CorruptSnapshot as exc:
                bundle.error = exc
        return bundle

    async def load_game(self, game_id: int) -> GameBundle | None:
        """The game, its seats, its last action and its snapshot (checked, with its log), in one go."""
        prefetched, self._prefetched = self._prefetched, None
        if prefetched is not None and prefetched[0] == game_id:
            return prefetched[1]
        return await self._run(self._load_plan(game_id))

    # ------------------------------------------------------------ seats
    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT game_id, seat, user_id, display_name, is_ai, dm_status, ai_level FROM seats WHERE game_id=? ORDER BY seat",
            (game_id,))
        return [SeatRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6]) for r in rows]

    async def replace_seats(self, game_id: int, seats: list[SeatRow]) -> None:
        await self._write("DELETE FROM seats WHERE game_id=?", (game_id,))
        await self._write_many(
            "INSERT INTO seats (game_id, seat, user_id, display_name, is_ai, dm_status, ai_level)"
            " VALUES (?,?,?,?,?,?,?)",
            [(game_id, s.seat, s.user_id, s.display_name, int(s.is_ai), s.dm_status, s.ai_level) for s in seats])

    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        if "is_ai" in fields:
            fields["is_ai"] = int(fields["is_ai"])
        cols = ", ".join(f"{k}=?" for k in fields)
        await self._write(f"UPDATE seats SET {cols} WHERE game_id=? AND seat=?", (*fields.values(), game_id, seat))

    async def set_dm_status(self, user_id: int, status: str) -> None:
        await self._write(
            "UPDATE seats SET dm_status=? WHERE user_id=? AND game_id IN"
            " (SELECT id FROM games WHERE status IN ('lobby','active'))", (status, user_id))

    async def games_of_user(self, user_id: int, status: Iterable[str]) -> list[GameRow]:
        st = list(status)
        rows = await self._all(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLS.split(','))} FROM games g"
            f" JOIN seats s ON s.game_id=g.id WHERE s.user_id=? AND g.status IN ({','.join('?' * len(st))})"
            " ORDER BY g.id", (user_id, *st))
        return [_game(r) for r in rows]

    # ------------------------------------------------------------ actions
    def _key_plan(self, key: str, then_load: int | None) -> Plan:
        row = yield ("one", "SELECT game_id, seq, seat, action, idempotency_key, kind, created_at, result"
                     " FROM actions WHERE idempotency_key=?", (key,))
        if row is None and then_load is not None:
            self._prefetched = (then_load, (yield from self._load_plan(then_load)))
        return row

    async def action_by_key(self, key: str) -> ActionRow | None:
        then_load = self._locked_game if self._prefetch_load and self.write else None
        self._locked_game = None
        row = await self._run(self._key_plan(key, then_load))
        return ActionRow(row[0], row[1], row[2], from_json(row[3]), row[4], row[5], row[6],
                         None if row[7] is None else bytes(row[7])) if row else None

    async def last_seq(self, game_id: int) -> int:
        row = await self._one("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id=?", (game_id,))
        return int(row[0])

    async def append_action(self, game_id: int, seq: int, seat: int | None, action: dict, *, kind: str,
                            key: str | None, now: float, result: bytes | None = None) -> None:
        """Log an action; `result` (what the submission returned, for a retry with the same key) may come
        with it, in the same row, or later through set_action_result."""
        await self._write(
            "INSERT INTO actions (game_id, seq, seat, action, idempotency_key, kind, created_at, result)"
            " VALUES (?,?,?,?,?,?,?,?)", (game_id, seq, seat, json_text(action), key, kind, now, result))

    async def set_action_result(self, game_id: int, seq: int, result: bytes | None) -> None:
        await self._write("UPDATE actions SET result=? WHERE game_id=? AND seq=?", (result, game_id, seq))

    async def actions(self, game_id: int, after_seq: int = 0) -> list[ActionRow]:
        rows = await self._all(
            "SELECT game_id, seq, seat, action, idempotency_key, kind, created_at FROM actions"
            " WHERE game_id=? AND seq>? ORDER BY seq", (game_id, after_seq))
        return [ActionRow(r[0], r[1], r[2], from_json(r[3]), r[4], r[5], r[6]) for r in rows]

    # ------------------------------------------------------------ snapshots
    def _queue_snapshot(self, game_id: int, version: int, seq: int, blob: bytes, checksum: str, now: float):
        return self._write(
            "INSERT INTO snapshots (game_id, version, seq, state, checksum, created_at) VALUES (?,?,?,?,?,?)"
            " ON CONFLICT(game_id) DO UPDATE SET version=excluded.version, seq=excluded.seq,"
            " state=excluded.state, checksum=excluded.checksum, created_at=excluded.created_at",
            (game_id, version, seq, blob, checksum, now))

    async def save_snapshot(self, game_id: int, version: int, seq: int, state: dict, now: float) -> None:
        """Store the state.  Its public log is not encoded again: the blob holds the log's length, and the
        entries are the game_events rows with a log_pos (matched in append_events, in the same commit)."""
        log = state.get(LOG_KEY)
        self._log_pending.pop(game_id, None)
        if not isinstance(log, list | PublicLog):
            blob, checksum = encode_state(state)
            await self._queue_snapshot(game_id, version, seq, blob, checksum, now)
            return
        known = self._log_len.get(game_id)
        if known is None:
            known = (await self._run(self._log_plan(game_id, entries=False)))[0]
        n = len(log)
        if n < known:  # an undo replayed a shorter game: later entries are no longer in the state
            await self._write("UPDATE game_events SET log_pos=NULL WHERE game_id=? AND log_pos>=?", (game_id, n))
            known = n
        self._log_len[game_id] = known
        if n > known:
            tail = log.since(known) if isinstance(log, PublicLog) else log[known:]
            self._log_pending[game_id] = _PendingLog(known, tail, state, version, seq, now)
        blob, checksum = encode_state({**state, LOG_KEY: n})
        await self._queue_snapshot(game_id, version, seq, blob, checksum, now)

    async def snapshot_raw(self, game_id: int) -> tuple[int, int, bytes, str] | None:
        row = await self._one("SELECT version, seq, state, checksum FROM snapshots WHERE game_id=?", (game_id,))
        return (row[0], row[1], bytes(row[2]), row[3]) if row else None

    def _snapshot_plan(self, game_id: int) -> Plan:
        row = yield ("one", "SELECT version, seq, state, checksum FROM snapshots WHERE game_id=?", (game_id,))
        if row is None:
            return None
        state = decode_state(bytes(row[2]), row[3])
        marker = state.get(LOG_KEY)
        count, entries = yield from self._log_plan(game_id, entries=isinstance(marker, int))
        return self._with_log(game_id, row[0], row[1], state, count, entries)

    def _with_log(self, game_id: int, version: int, seq: int, state: dict, count: int,
                  entries: list | PublicLog | None) -> tuple[int, int, dict]:
        """The decoded state with its public log put back (the snapshot holds the log's length)."""
        self._log_len[game_id] = count
        marker = state.get(LOG_KEY)
        if isinstance(marker, int) and not isinstance(marker, bool):
            if count != marker:
                raise CorruptSnapshot(f"the public log has {count} stored entries, the snapshot expects {marker}")
            state[LOG_KEY] = entries
        return version, seq, state

    async def snapshot(self, game_id: int) -> tuple[int, int, dict] | None:
        """(version, seq, state) of the stored snapshot, log included; raises CorruptSnapshot."""
        return await self._run(self._snapshot_plan(game_id))

    def _log_plan(self, game_id: int, *, entries: bool) -> Plan:
        """(number of log entries stored with a position, the entries in order or None)."""
        if entries:
            rows = yield ("all", "SELECT log_pos, event FROM game_events WHERE game_id=? AND log_pos IS NOT NULL"
                          " ORDER BY seq", (game_id,))
            if rows:
                if any(r[0] != i for i, r in enumerate(rows)):
                    raise CorruptSnapshot("the public log has gaps")
                return len(rows), _json_list(r[1] for r in rows)
        else:
            row = yield ("one", LAST_LOG_POS.format(game="?"), (game_id,))
            if row is not None and row[0] is not None:
                return int(row[0]) + 1, None
        return (yield from self._packed_log_plan(game_id, entries=entries))

    def _packed_log_plan(self, game_id: int, *, entries: bool, below: int | None = None) -> Plan:
        """(entries, the entries or None) of the packed log; ``below``: only those at positions under it (a
        deferred log read after the game's own final commit packed it: the newest entries are the log's new
        ones, which the PublicLog holds itself)."""
        packed = yield from self._packed_plan(game_id)
        if packed is None:
            return 0, [] if entries else None
        positioned = [e for e in packed if len(e) > 3 and (below is None or e[3] < below)]
        if any(e[3] != i for i, e in enumerate(positioned)):
            raise CorruptSnapshot("the packed public log has gaps")
        return len(positioned), [e[2] for e in positioned] if entries else None

    # ------------------------------------------------------------ timers
    async def timers(self, game_id: int, *, unfired_only: bool = True) -> list[TimerRow]:
        if unfired_only and game_id in self._timers:
            return list(self._timers[game_id])
        sql = _GAME_TIMERS if unfired_only else f"SELECT {_TIMER_COLS} FROM timers WHERE game_id=?"
        return _due_order(await self._all(sql, (game_id,)))

    async def add_timer(self, game_id: int, seat: int, kind: str, due_at: float, prompt_key: str,
                        now: float) -> None:
        self._timers.pop(game_id, None)
        self._timers_added = True
        await self._write(
            "INSERT INTO timers (game_id, seat, kind, due_at, fired, prompt_key, created_at, wake_at)"
            " VALUES (?,?,?,?,0,?,?,?)", (game_id, seat, kind, due_at, prompt_key, now, due_at))

    async def replace_timers(self, game_id: int, seat: int, old: Sequence[TimerRow],
                             schedule: Sequence[tuple[str, float]], prompt_key: str, now: float) -> None:
        """The seat's unfired timers `old` (as read in this transaction) become `schedule` ((kind, due_at)
        for `prompt_key`); see rearm_timers."""
        await self.rearm_timers(game_id, [(seat, old, schedule, prompt_key)], now)

    async def rearm_timers(self, game_id: int,
                           seats: Sequence[tuple[int, Sequence[TimerRow], Sequence[tuple[str, float]], str]],
                           now: float) -> None:
        """For each (seat, old, schedule, prompt_key): the seat's unfired timers `old` (as read in this
        transaction) become `schedule` ((kind, due_at) for `prompt_key`).  Existing rows are re-armed in
        place, which writes fewer pages than deleting them and adding new ones; every seat's rows go in one
        statement of each kind.  The earliest old row takes the earliest new time, and so on: a new prompt's
        times are later than the old ones, so each row keeps its wake time (wake_at, the scheduler's index)
        and only its due time changes.  Other processes' schedulers are told (as for new timers) only when a
        row is added or its wake time moves earlier: they sleep until the earliest wake time, which a row
        re-armed to a later due time leaves as it was (on PostgreSQL the NOTIFY at COMMIT takes a lock that
        every notifying commit of the cluster waits for)."""
        self._timers.pop(game_id, None)
        updates: list[tuple] = []  # wake_at stays: the scheduler's index is not touched
        wakes: list[tuple] = []  # due earlier than the row's wake time: wake_at moves too
        deletes: list[tuple] = []
        inserts: list[tuple] = []
        for seat, old, schedule, prompt_key in seats:
            reuse = sorted((t for t in old if not t.fired), key=lambda t: (t.due_at, t.id))
            times = sorted(schedule, key=lambda s: s[1])
            for t, (kind, due_at) in zip(reuse, times, strict=False):
                if t.wake_at is not None and t.wake_at <= due_at:
                    updates.append((kind, due_at, prompt_key, now, t.id))
                else:
                    wakes.append((kind, due_at, prompt_key, now, due_at, t.id))
            deletes += [(t.id,) for t in reuse[len(times):]]
            inserts += [(game_id, seat, kind, due_at, prompt_key, now, due_at) for kind, due_at in times[len(reuse):]]
        if wakes or inserts:
            self._timers_added = True
        await self._rearm_in_place(updates)
        await self._write_many("UPDATE timers SET kind=?, due_at=?, prompt_key=?, created_at=?, wake_at=?"
                               " WHERE id=? AND fired=0", wakes)
        await self._write_many("DELETE FROM timers WHERE id=?", deletes)
        await self._write_many(
            "INSERT INTO timers (game_id, seat, kind, due_at, fired, prompt_key, created_at, wake_at)"
            " VALUES (?,?,?,?,0,?,?,?)", inserts)

    async def _rearm_in_place(self, updates: list[tuple]) -> None:
        """(kind, due_at, prompt_key, now, id) of each re-armed row.  Where statements are dear (PostgreSQL:
        each statement of a script runs on its own, with its own snapshot and executor) as one statement: a new prompt
        re-arms every waiting seat's deadline and reminders, six rows for two seats.  `fired + 0` keeps the
        planner off the scheduler's index (fired, wake_at): the rows are found by id.  SQLite runs the one
        prepared statement per row (fewer instructions than the CASEs)."""
        if not self._rearm_as_one or len(updates) < 2 or len({u[3] for u in updates}) != 1:
            await self._write_many("UPDATE timers SET kind=?, due_at=?, prompt_key=?, created_at=?"
                                   " WHERE id=? AND fired=0", updates)
            return
        # The CASTs type the values for a prepared statement (a bare THEN ? would be text).
        when = {t: " ".join(f"WHEN ? THEN CAST(? AS {t})" for _ in updates) for t in ("TEXT", "DOUBLE PRECISION")}
        args: list[Any] = []
        for col in range(3):
            for u in updates:
                args += (u[4], u[col])
        await self._write(
            f"UPDATE timers SET kind=CASE id {when['TEXT']} END, due_at=CASE id {when['DOUBLE PRECISION']} END,"
            f" prompt_key=CASE id {when['TEXT']} END, created_at=CAST(? AS DOUBLE PRECISION)"
            f" WHERE id IN ({','.join('?' * len(updates))}) AND fired + 0 = 0",
            (*args, updates[0][3], *(u[4] for u in updates)))

    async def cancel_timers(self, game_id: int, seat: int | None = None) -> None:
        self._timers.pop(game_id, None)
        if seat is None:
            await self._write("DELETE FROM timers WHERE game_id=? AND fired=0", (game_id,))
        else:
            await self._write("DELETE FROM timers WHERE game_id=? AND seat=? AND fired=0", (game_id, seat))

    async def mark_fired(self, timer_id: int) -> None:
        self._timers.clear()
        await self._write("UPDATE timers SET fired=1 WHERE id=?", (timer_id,))

    async def timer(self, timer_id: int) -> TimerRow | None:
        r = await self._one(f"SELECT {_TIMER_COLS} FROM timers WHERE id=?", (timer_id,))
        return _timer(r) if r else None

    async def claim_timer(self, timer_id: int, now: float) -> TimerRow | None:
        """Take a due, unfired timer for this transaction, or None when it is gone, not due, already fired
        or being fired by another transaction.  The caller marks it fired in the same transaction."""
        r = await self._one(f"SELECT {_TIMER_COLS} FROM timers WHERE id=? AND fired=0 AND due_at<=?",
                            (timer_id, now))
        return _timer(r) if r else None

    async def due_timers(self, now: float, limit: int = 100) -> list[TimerRow]:
        # Found through timers_wake (wake_at <= due_at), and only those really due.
        rows = await self._all(
            f"SELECT {_TIMER_COLS} FROM timers WHERE fired=0 AND wake_at<=? AND due_at<=? ORDER BY due_at, id LIMIT ?",
            (now, now, limit))
        return [_timer(r) for r in rows]

    async def next_due(self) -> float | None:
        """When a scheduler should look at the timers next: the earliest wake time, which may be before the
        timer is due (a re-armed timer; see push_wakes)."""
        row = await self._one("SELECT MIN(wake_at) FROM timers WHERE fired=0")
        return row[0] if row and row[0] is not None else None

    # Rows another transaction holds are left for the next pass (PostgreSQL): a submission re-arming them
    # holds its game's lock, and waiting for it while holding other timers could deadlock.
    _skip_locked_clause = ""

    async def push_wakes(self, now: float) -> None:
        """Unfired timers whose wake time has come but which are not due yet (re-armed since) wake at their
        due time instead."""
        self._timers.clear()
        await self._write(
            "UPDATE timers SET wake_at=due_at WHERE id IN (SELECT id FROM timers WHERE fired=0 AND wake_at<=?"
            f" AND due_at>?{self._skip_locked_clause})", (now, now))

    async def skip_reminders_before(self, when: float) -> int:
        return await self.execute("UPDATE timers SET fired=1 WHERE fired=0 AND kind='reminder' AND wake_at<?"
                                  " AND due_at<?", (when, when))

    # ------------------------------------------------------------ public log
    async def append_events(self, game_id: int, version: int, events: list[dict], now: float) -> None:
        if not events:
            return
        pending = self._log_pending.get(game_id)
        rows = []
        for e in events:
            pos = None
            if pending is not None and pending.entries and (e is pending.entries[0] or e == pending.entries[0]):
                pos = pending.base
                pending.base += 1
                pending.entries = pending.entries[1:]
                self._log_len[game_id] = pending.base
            rows.append((game_id, version, json_text(e), now, pos, game_id))
        last = self._event_seq.get(game_id)
        if last is not None:  # numbered from the seq read with the game
            self._event_seq[game_id] = last + len(rows)
            await self._write_many(
                "INSERT INTO game_events (game_id, seq, version, event, created_at, log_pos) VALUES (?,?,?,?,?,?)",
                [(r[0], last + i, r[1], r[2], r[3], r[4]) for i, r in enumerate(rows, start=1)])
            return
        # seq = next number of the game, computed by the database (no read needed before the write)
        await self._write_many(
            "INSERT INTO game_events (game_id, seq, version, event, created_at, log_pos)"
            " SELECT CAST(? AS BIGINT), COALESCE(MAX(seq), 0) + 1, CAST(? AS BIGINT), CAST(? AS TEXT),"
            " CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT) FROM game_events WHERE game_id=?", rows)

    def _packed_plan(self, game_id: int) -> Plan:
        """The packed public log of a finished game ([seq, version, event(, log_pos)] entries), or None."""
        row = yield ("one", "SELECT packed_data, event FROM game_events WHERE game_id=? AND packed=1", (game_id,))
        if row is None:
            return None
        # Games packed before packed_data existed kept the compressed list in the event column.
        return _unpack(row[0] if row[0] is not None else row[1], "the packed public log")

    def _events_plan(self, game_id: int, after_seq: int, limit: int | None) -> Plan:
        packed = yield from self._packed_plan(game_id)
        if packed is not None:
            entries = [(e[0], e[1], e[2]) for e in packed if e[0] > after_seq]
            return entries[-limit:] if limit is not None else entries
        if limit is None:
            rows = yield ("all", "SELECT seq, version, event FROM game_events WHERE game_id=? AND seq>? ORDER BY seq",
                          (game_id, after_seq))
        else:  # the last `limit` entries, oldest first
            rows = yield ("all", "SELECT seq, version, event FROM (SELECT seq, version, event FROM game_events"
                          " WHERE game_id=? AND seq>? ORDER BY seq DESC LIMIT ?) AS last ORDER BY seq",
                          (game_id, after_seq, limit))
        events = _json_list(r[2] for r in rows)
        return [(r[0], r[1], e) for r, e in zip(rows, events, strict=True)]

    async def events(self, game_id: int, *, after_seq: int = 0, limit: int | None = None) -> list[tuple[int, int, dict]]:
        return await self._run(self._events_plan(game_id, after_seq, limit))

    async def public_events_of(self, game_id: int, version: int) -> list[dict]:
        """The public events the commit of `version` published, in order (a stored result's `public`)."""
        return (await self._run(self._public_plan(game_id, [version]))).get(version, [])

    def _pack_plan(self, game_id: int) -> Plan:
        rows = yield ("all", "SELECT seq, version, event, log_pos FROM game_events WHERE game_id=? AND packed=0"
                      " ORDER BY seq", (game_id,))
        if rows:
            events = _json_list(r[2] for r in rows)
            entries = [[r[0], r[1], e] if r[3] is None else [r[0], r[1], e, r[3]] for r, e in zip(rows, events, strict=True)]
            blob = zlib.compress(compact_json(entries).encode(), 9)
            yield ("write", "DELETE FROM game_events WHERE game_id=?", (game_id,))
            yield ("write", "INSERT INTO game_events (game_id, seq, version, event, created_at, packed, packed_data)"
                   " VALUES (?,?,?,'',?,1,?)", (game_id, rows[-1][0], rows[-1][1], time.time(), blob))
        # Its stored results go (they only serve retries of a live interaction).  The rows are deleted and
        # written again, with the same ids, rather than their results set to NULL: SQLite never merges pages
        # that an UPDATE leaves mostly empty (it rebalances a page only when a row is deleted from it), so
        # NULLing kept every action's page as large as with its result, 1.1 kB per action against 0.2 kB.
        kept = yield ("all", f"SELECT {_ACTION_COLS} FROM actions WHERE game_id=? ORDER BY id", (game_id,))
        if kept:
            yield ("write", "DELETE FROM actions WHERE game_id=?", (game_id,))
            yield ("many", f"INSERT INTO actions ({_ACTION_COLS}) VALUES ({','.join('?' * _ACTION_COUNT)})",
                   [tuple(r) for r in kept])
        yield ("write", "DELETE FROM drafts WHERE game_id=?", (game_id,))
        yield ("write", "DELETE FROM timers WHERE game_id=?", (game_id,))
        # The outbox stays until its last entry is delivered (then it is packed, see outbox_progress): an end
        # announcement delivered again after Discord's nonce window looks for its lines past the ids its
        # game's earlier announcements recorded; without them an older identical line ("Ann draws a
        # number.") would pass for the new one, and the new one would never be shown.

    async def pack_game(self, game_id: int) -> None:
        """Shrink a finished game: one compressed public-log row, no stored submission results (they
        only serve retries of a live interaction), no drafts and no timers (its announcements' records stay)."""
        self._timers.pop(game_id, None)
        self._drafts.pop(game_id, None)
        self._event_seq.pop(game_id, None)
        await self._run(self._pack_plan(game_id))

    # ------------------------------------------------------------ drafts
    async def get_draft(self, game_id: int, seat: int) -> tuple[str, dict] | None:
        cached = self._drafts.get(game_id)
        if cached is not None:
            found = cached.get(seat)
            return (found[0], json.loads(compact_json(found[1]))) if found else None  # a copy: callers edit drafts
        row = await self._one("SELECT prompt_key, data FROM drafts WHERE game_id=? AND seat=?", (game_id, seat))
        return (row[0], json.loads(row[1])) if row else None

    async def put_draft(self, game_id: int, seat: int, prompt_key: str, data: dict | None, *,
                        now: float | None = None) -> None:
        """Store the seat's draft for `prompt_key` (replacing any earlier one); None deletes it."""
        self._drafts.pop(game_id, None)
        if data is None:
            await self._write("DELETE FROM drafts WHERE game_id=? AND seat=?", (game_id, seat))
            return
        await self._write(
            "INSERT INTO drafts (game_id, seat, prompt_key, data, updated_at) VALUES (?,?,?,?,?)"
            " ON CONFLICT(game_id, seat) DO UPDATE SET prompt_key=excluded.prompt_key, data=excluded.data,"
            " updated_at=excluded.updated_at", (game_id, seat, prompt_key, compact_json(data),
                                                time.time() if now is None else now))

    # ------------------------------------------------------------ preferences
    async def get_pref(self, user_id: int, key: str) -> str | None:
        row = await self._one("SELECT value FROM user_prefs WHERE user_id=? AND key=?", (user_id, key))
        return row[0] if row else None

    async def set_pref(self, user_id: int, key: str, value: str | None) -> None:
        if value is None:
            await self._write("DELETE FROM user_prefs WHERE user_id=? AND key=?", (user_id, key))
        else:
            await self._write(
                "INSERT INTO user_prefs (user_id, key, value) VALUES (?,?,?)"
                " ON CONFLICT(user_id, key) DO UPDATE SET value=excluded.value", (user_id, key, value))

    async def prefs(self, user_id: int) -> dict[str, str]:
        return {r[0]: r[1] for r in await self._all("SELECT key, value FROM user_prefs WHERE user_id=?", (user_id,))}

    # ------------------------------------------------------------ prompt messages
    async def add_prompt_message(self, game_id: int, seat: int | None, message_id: int, channel_id: int,
                                 purpose: str, prompt_key: str | None, version: int | None, now: float) -> int:
        return await self._insert(
            "INSERT INTO prompt_messages (game_id, seat, message_id, channel_id, purpose, prompt_key, version,"
            " active, created_at) VALUES (?,?,?,?,?,?,?,1,?)",
            (game_id, seat, message_id, channel_id, purpose, prompt_key, version, now))

    async def prompt_messages(self, game_id: int, *, seat: int | None = None, active_only: bool = True,
                              any_seat: bool = True) -> list[PromptMessageRow]:
        sql = ("SELECT id, game_id, seat, message_id, channel_id, purpose, prompt_key, version, active"
               " FROM prompt_messages WHERE game_id=?")
        args: list[Any] = [game_id]
        if active_only:
            sql += " AND active=1"
        if not any_seat:
            sql += " AND seat IS ?"
            args.append(seat)
        rows = await self._all(sql + " ORDER BY id", args)
        return [PromptMessageRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], bool(r[8])) for r in rows]

    async def deactivate_prompt_messages(self, ids: Iterable[int]) -> None:
        await self._write_many("UPDATE prompt_messages SET active=0 WHERE id=?", [(i,) for i in ids])

    # ------------------------------------------------------------ outbox
    async def add_outbox(self, game_id: int, version: int, payload: dict, now: float) -> None:
        """What this commit must tell Discord: written with the action, so a crash cannot lose it.  Its
        "public" events are the commit's own game_events rows (append_events, the same commit): they are
        not stored a second time, and outbox() puts them back."""
        stored = {k: v for k, v in payload.items() if k != "public"}
        await self._write("INSERT INTO outbox (game_id, version, payload, created_at) VALUES (?,?,?,?)",
                          (game_id, version, json_text(stored), now))

    async def outbox(self, game_id: int) -> list[OutboxRow]:
        """The game's undelivered announcements, oldest first (each with its commit's public events)."""
        return await self._run(self._outbox_plan(game_id))

    def _outbox_plan(self, game_id: int) -> Plan:
        rows = yield ("all", "SELECT id, game_id, version, payload, sent, created_at FROM outbox"
                      " WHERE game_id=? AND delivered_at IS NULL ORDER BY id", (game_id,))
        out = [OutboxRow(r[0], r[1], r[2], from_json(r[3]), from_json(r[4]) if r[4] else {}, r[5]) for r in rows]
        return (yield from self._with_public_plan(game_id, out))

    def _with_public_plan(self, game_id: int, out: list[OutboxRow]) -> Plan:
        """The entries with their commits' public events put back (entries written before hold their own)."""
        lean = [o for o in out if "public" not in o.payload]
        if lean:
            public = yield from self._public_plan(game_id, sorted({o.version for o in lean}))
            for o in lean:
                o.payload["public"] = public.get(o.version, [])
        return out

    def _public_plan(self, game_id: int, versions: list[int]) -> Plan:
        """version -> the public events its commit published, in order (from the packed log once the game
        is finished: its last commit packs it)."""
        rows = yield ("all", "SELECT version, event FROM game_events WHERE game_id=? AND packed=0 AND version IN"
                      f" ({','.join('?' * len(versions))}) ORDER BY seq", (game_id, *versions))
        found: dict[int, list[dict]] = {}
        if rows:
            for r, e in zip(rows, _json_list(r[1] for r in rows), strict=True):
                found.setdefault(r[0], []).append(e)
            return found
        packed = yield from self._packed_plan(game_id)
        wanted = set(versions)
        for e in packed or ():
            if e[1] in wanted:
                found.setdefault(e[1], []).append(e[2])
        return found

    async def outbox_games(self, before: float | None = None) -> list[tuple[int, int | None]]:
        """(game, its server) of the games with undelivered announcements (committed before `before`)."""
        older = "" if before is None else " AND o.created_at < ?"
        rows = await self._all("SELECT DISTINCT o.game_id, g.guild_id FROM outbox o JOIN games g ON g.id = o.game_id"
                               f" WHERE o.delivered_at IS NULL{older} ORDER BY o.game_id",
                               () if before is None else (before,))
        return [(r[0], r[1]) for r in rows]

    async def outbox_recorded(self, game_id: int, before_id: int, limit: int = 50) -> list[dict]:
        """The parts recorded (part key -> message id) by the game's announcements before `before_id`,
        newest first (past the rows, from the packed entries of a finished game)."""
        rows = await self._all("SELECT sent FROM outbox WHERE game_id=? AND id<? AND sent IS NOT NULL"
                               " ORDER BY id DESC LIMIT ?", (game_id, before_id, limit))
        out = [json.loads(r[0]) for r in rows if r[0]]
        if len(rows) < limit:
            # Packed entries are older than every row of the game (only rows before its newest are packed).
            packed = await self._run(self._packed_outbox_plan(game_id))
            older = [e[3] for e in reversed(packed) if e[0] < before_id and e[3] is not None]
            out += [sent for sent in older[:limit - len(rows)] if sent]
        return out

    async def outbox_record(self, game_id: int) -> list[OutboxRow]:
        """Every announcement of the game, delivered or not, oldest first, each with its commit's public
        events and what it recorded as shown: the record of what the game posted."""
        return await self._run(self._record_plan(game_id))

    def _record_plan(self, game_id: int) -> Plan:
        packed = yield from self._packed_outbox_plan(game_id)
        rows = yield ("all", "SELECT id, version, payload, sent, created_at, delivered_at FROM outbox"
                      " WHERE game_id=? ORDER BY id", (game_id,))
        out = [OutboxRow(e[0], game_id, e[1], e[2], e[3] or {}, e[4], e[5]) for e in packed]
        out += [OutboxRow(r[0], game_id, r[1], from_json(r[2]), from_json(r[3]) if r[3] else {}, r[4], r[5])
                for r in rows]
        return (yield from self._with_public_plan(game_id, out))

    def _packed_outbox_plan(self, game_id: int) -> Plan:
        """The packed entries of a finished game's outbox ([id, version, payload, sent, created_at,
        delivered_at], oldest first), or an empty list."""
        row = yield ("one", "SELECT entries FROM outbox_packed WHERE game_id=?", (game_id,))
        return [] if row is None else _unpack(row[0], f"the packed outbox of game {game_id}")

    async def outbox_progress(self, outbox_id: int, sent: dict, delivered_at: float | None) -> None:
        """Record the parts shown so far (and, with `delivered_at`, that the announcement is complete).  The
        last delivery of a finished game packs its outbox."""
        await self._write("UPDATE outbox SET sent=?, delivered_at=? WHERE id=?",
                          (compact_json(sent), delivered_at, outbox_id))
        if delivered_at is None:
            return
        over = await self._one("SELECT o.game_id FROM outbox o JOIN games g ON g.id=o.game_id WHERE o.id=?"
                               " AND g.status IN ('finished','abandoned')", (outbox_id,))
        if over is not None:
            await self.pack_outbox(over[0])

    async def pack_outbox(self, game_id: int) -> int:
        """Pack a game's delivered outbox entries but its newest into its one packed row, if it is over and
        none is left to deliver (outbox_progress does it at the last delivery; ``python -m bot.check --pack``
        for games that ended before packing existed).  Returns the number of entries packed."""
        await self.lock_game(game_id)  # another process delivering the game's last entry packs after this
        return await self._run(self._pack_outbox_plan(game_id))

    def _pack_outbox_plan(self, game_id: int) -> Plan:
        """A game over with nothing left to deliver: its delivered entries but the newest go into its one
        packed row (zlib JSON, as the packed log).  The newest stays a row: the outbox's largest id is then
        never deleted, so SQLite (which gives the next row the largest id plus one) never gives an id
        twice, and a late progress record of a packed entry can never land on another game's entry."""
        over = yield ("one", "SELECT 1 FROM games WHERE id=? AND status IN ('finished','abandoned')", (game_id,))
        left = yield ("one", "SELECT 1 FROM outbox WHERE game_id=? AND delivered_at IS NULL LIMIT 1", (game_id,))
        if over is None or left is not None:
            return 0
        rows = yield ("all", "SELECT id, version, payload, sent, created_at, delivered_at FROM outbox"
                      " WHERE game_id=? ORDER BY id", (game_id,))
        if len(rows) < 2:
            return 0
        entries = yield from self._packed_outbox_plan(game_id)
        had = bool(entries)
        entries += [[r[0], r[1], from_json(r[2]), from_json(r[3]) if r[3] else None, r[4], r[5]] for r in rows[:-1]]
        blob = zlib.compress(json_text(entries).encode(), 9)
        yield ("write", "DELETE FROM outbox WHERE game_id=? AND id<?", (game_id, rows[-1][0]))
        if had:
            yield ("write", "UPDATE outbox_packed SET entries=? WHERE game_id=?", (blob, game_id))
        else:
            yield ("write", "INSERT INTO outbox_packed (game_id, entries) VALUES (?,?)", (game_id, blob))
        return len(rows) - 1


class Storage:
    """A database holding every game.  ``await Storage.open(target)`` picks the driver: a PostgreSQL URL
    (``postgresql://...``) or a SQLite file path (the default, ``var/viceroy.db``)."""

    driver = ""
    target = ""

    @classmethod
    async def open(cls, target: str | Path | None = None, **options: Any) -> Storage:
        from bot.storage.schema import DEFAULT_DB_PATH

        target = DEFAULT_DB_PATH if target is None else target
        if is_postgres_url(str(target)):
            from bot.storage.postgres import PostgresStorage

            return await PostgresStorage.connect(str(target), **options)
        from bot.storage.sqlite import SqliteStorage

        return await SqliteStorage.connect(target, **options)

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """One atomic write: committed when the block ends, rolled back on any exception."""
        raise NotImplementedError

    async def run(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """``await body(tx)`` in one write transaction, as ``transaction()`` does, and its result.  The body
        may await only the Tx: a driver may run it whole next to its database (SQLite: one call on the
        database thread instead of one per read)."""
        async with self.transaction() as tx:
            return await body(tx)

    def reading(self) -> AbstractAsyncContextManager[Tx]:
        """Reads that never see another transaction's uncommitted writes."""
        raise NotImplementedError

    async def listen_timers(self, callback) -> None:
        """Call `callback()` whenever another process commits a new timer, so a scheduler can wake for it.
        SQLite has one process, which wakes its own scheduler; PostgreSQL uses LISTEN/NOTIFY."""

    async def schema_version(self) -> int:
        async with self.reading() as tx:
            row = await tx._one("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            return int(row[0])

    async def close(self) -> None:
        raise NotImplementedError


def is_postgres_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))

