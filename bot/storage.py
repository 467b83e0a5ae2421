"""SQLite storage for games: schema migrations, one writer connection, one transaction per action.

All access goes through one aiosqlite connection guarded by an asyncio.Lock.  Writers use
`async with storage.transaction() as tx` (BEGIN IMMEDIATE ... COMMIT, rolled back on any exception);
readers use `async with storage.reading() as tx` so they never observe another writer's open transaction.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
import zlib
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.games import compact_json

DEFAULT_DB_PATH = Path("var/viceroy.db")

# Ordered migrations; index + 1 is the schema version.  Never edit a shipped migration, append a new one.
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            options TEXT NOT NULL DEFAULT '{}',
            seed INTEGER,
            status TEXT NOT NULL CHECK (status IN ('lobby','active','finished','abandoned')),
            host_user_id INTEGER,
            version INTEGER NOT NULL DEFAULT 0,
            time_limit INTEGER,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        # One lobby-or-active game per channel, enforced by the database as well as the service.
        """CREATE UNIQUE INDEX games_one_open_per_channel ON games(channel_id)
            WHERE status IN ('lobby','active')""",
        "CREATE INDEX games_status ON games(status)",
        """CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            user_id INTEGER,
            display_name TEXT NOT NULL,
            is_ai INTEGER NOT NULL DEFAULT 0,
            dm_status TEXT NOT NULL DEFAULT 'unknown' CHECK (dm_status IN ('unknown','open','closed')),
            PRIMARY KEY (game_id, seat)
        )""",
        "CREATE INDEX seats_user ON seats(user_id)",
        """CREATE TABLE actions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            seat INTEGER,
            action TEXT NOT NULL,
            idempotency_key TEXT UNIQUE,
            kind TEXT NOT NULL CHECK (kind IN ('action','undo','timeout','admin')),
            created_at REAL NOT NULL,
            UNIQUE (game_id, seq)
        )""",
        # What a submission returned, for idempotent retries.  A separate table so that dropping the results
        # of a finished game frees whole pages (NULLing a column in `actions` would fragment it).
        """CREATE TABLE action_results (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            result BLOB NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""",
        """CREATE TABLE snapshots (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            version INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            state BLOB NOT NULL,
            checksum TEXT NOT NULL,
            created_at REAL NOT NULL
        )""",
        """CREATE TABLE timers (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('deadline','reminder')),
            due_at REAL NOT NULL,
            fired INTEGER NOT NULL DEFAULT 0,
            prompt_key TEXT NOT NULL,
            created_at REAL NOT NULL
        )""",
        "CREATE INDEX timers_due ON timers(fired, due_at)",
        "CREATE INDEX timers_game ON timers(game_id, seat, fired)",
        """CREATE TABLE game_events (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            version INTEGER NOT NULL,
            event TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""",
        """CREATE TABLE user_prefs (
            user_id INTEGER NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (user_id, key)
        )""",
        """CREATE TABLE prompt_messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER,
            message_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            purpose TEXT NOT NULL,
            prompt_key TEXT,
            version INTEGER,
            active INTEGER NOT NULL DEFAULT 1,
            created_at REAL NOT NULL
        )""",
        "CREATE INDEX prompt_messages_game ON prompt_messages(game_id, active)",
    ],
    [
        # A finished game's public log is packed into one compressed row (event = zlib JSON list of
        # [seq, version, event]); see Tx.pack_game.
        "ALTER TABLE game_events ADD COLUMN packed INTEGER NOT NULL DEFAULT 0",
    ],
    [
        # A seat's half-built answer to its current prompt (a multi-step form), kept across restarts.
        # prompt_key says which prompt it belongs to, so a draft for an earlier prompt is recognisably stale.
        """CREATE TABLE drafts (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            prompt_key TEXT NOT NULL,
            data TEXT NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
    ],
]

SCHEMA_VERSION = len(MIGRATIONS)


class CorruptSnapshot(Exception):
    """A stored snapshot cannot be trusted (undecodable, checksum or version mismatch)."""


def encode_state(state: dict) -> tuple[bytes, str]:
    raw = compact_json(state).encode()
    return zlib.compress(raw, 6), hashlib.sha256(raw).hexdigest()[:32]


def decode_state(blob: bytes, checksum: str) -> dict:
    try:
        raw = zlib.decompress(blob)
    except (zlib.error, TypeError) as exc:
        raise CorruptSnapshot(f"snapshot does not decompress: {exc}") from exc
    if hashlib.sha256(raw).hexdigest()[:32] != checksum:
        raise CorruptSnapshot("snapshot checksum mismatch")
    try:
        state = json.loads(raw)
    except ValueError as exc:
        raise CorruptSnapshot(f"snapshot is not JSON: {exc}") from exc
    if not isinstance(state, dict):
        raise CorruptSnapshot("snapshot is not an object")
    return state


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    kind: str
    options: dict
    seed: int | None
    status: str
    host_user_id: int | None
    version: int
    time_limit: int | None
    created_at: float
    updated_at: float


@dataclass
class SeatRow:
    game_id: int
    seat: int
    user_id: int | None
    display_name: str
    is_ai: bool
    dm_status: str


@dataclass
class ActionRow:
    game_id: int
    seq: int
    seat: int | None
    action: dict
    idempotency_key: str | None
    kind: str
    created_at: float
    result: bytes | None = None


@dataclass
class TimerRow:
    id: int
    game_id: int
    seat: int
    kind: str
    due_at: float
    fired: bool
    prompt_key: str


@dataclass
class PromptMessageRow:
    id: int
    game_id: int
    seat: int | None
    message_id: int
    channel_id: int
    purpose: str
    prompt_key: str | None
    version: int | None
    active: bool


_GAME_COLS = "id, guild_id, channel_id, kind, options, seed, status, host_user_id, version, time_limit, created_at, updated_at"


def _game(row: Sequence[Any]) -> GameRow:
    return GameRow(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], row[7], row[8], row[9],
                   row[10], row[11])


class Tx:
    """Queries on the shared connection; only valid inside Storage.transaction()/reading()."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        async with self.conn.execute(sql, args) as cur:
            return await cur.fetchone()

    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        async with self.conn.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def _exec(self, sql: str, args: Sequence[Any] = ()) -> int:
        async with self.conn.execute(sql, args) as cur:
            return cur.lastrowid or 0

    # games
    async def insert_game(self, *, guild_id: int | None, channel_id: int, kind: str, options: dict,
                          host_user_id: int | None, time_limit: int | None, now: float) -> int:
        return await self._exec(
            "INSERT INTO games (guild_id, channel_id, kind, options, status, host_user_id, version, time_limit,"
            " created_at, updated_at) VALUES (?,?,?,?,'lobby',?,0,?,?,?)",
            (guild_id, channel_id, kind, compact_json(options), host_user_id, time_limit, now, now),
        )

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id=?", (game_id,))
        return _game(row) if row else None

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
        await self._exec(f"UPDATE games SET {cols} WHERE id=?", (*fields.values(), game_id))

    # seats
    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT game_id, seat, user_id, display_name, is_ai, dm_status FROM seats WHERE game_id=? ORDER BY seat",
            (game_id,))
        return [SeatRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5]) for r in rows]

    async def replace_seats(self, game_id: int, seats: list[SeatRow]) -> None:
        await self._exec("DELETE FROM seats WHERE game_id=?", (game_id,))
        await self.conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, is_ai, dm_status) VALUES (?,?,?,?,?,?)",
            [(game_id, s.seat, s.user_id, s.display_name, int(s.is_ai), s.dm_status) for s in seats])

    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        if "is_ai" in fields:
            fields["is_ai"] = int(fields["is_ai"])
        cols = ", ".join(f"{k}=?" for k in fields)
        await self._exec(f"UPDATE seats SET {cols} WHERE game_id=? AND seat=?", (*fields.values(), game_id, seat))

    async def set_dm_status(self, user_id: int, status: str) -> None:
        await self._exec(
            "UPDATE seats SET dm_status=? WHERE user_id=? AND game_id IN"
            " (SELECT id FROM games WHERE status IN ('lobby','active'))", (status, user_id))

    async def games_of_user(self, user_id: int, status: Iterable[str]) -> list[GameRow]:
        st = list(status)
        rows = await self._all(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLS.split(','))} FROM games g"
            f" JOIN seats s ON s.game_id=g.id WHERE s.user_id=? AND g.status IN ({','.join('?' * len(st))})"
            " ORDER BY g.id", (user_id, *st))
        return [_game(r) for r in rows]

    # actions
    async def action_by_key(self, key: str) -> ActionRow | None:
        row = await self._one(
            "SELECT a.game_id, a.seq, a.seat, a.action, a.idempotency_key, a.kind, a.created_at, r.result"
            " FROM actions a LEFT JOIN action_results r ON r.game_id=a.game_id AND r.seq=a.seq"
            " WHERE a.idempotency_key=?", (key,))
        return ActionRow(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5], row[6], row[7]) if row else None

    async def last_seq(self, game_id: int) -> int:
        row = await self._one("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id=?", (game_id,))
        return int(row[0])

    async def append_action(self, game_id: int, seq: int, seat: int | None, action: dict, *, kind: str,
                            key: str | None, now: float) -> None:
        await self._exec(
            "INSERT INTO actions (game_id, seq, seat, action, idempotency_key, kind, created_at)"
            " VALUES (?,?,?,?,?,?,?)", (game_id, seq, seat, compact_json(action), key, kind, now))

    async def set_action_result(self, game_id: int, seq: int, result: bytes) -> None:
        await self._exec(
            "INSERT INTO action_results (game_id, seq, result) VALUES (?,?,?)"
            " ON CONFLICT(game_id, seq) DO UPDATE SET result=excluded.result", (game_id, seq, result))

    async def actions(self, game_id: int, after_seq: int = 0) -> list[ActionRow]:
        rows = await self._all(
            "SELECT game_id, seq, seat, action, idempotency_key, kind, created_at FROM actions"
            " WHERE game_id=? AND seq>? ORDER BY seq", (game_id, after_seq))
        return [ActionRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6]) for r in rows]

    # snapshots
    async def save_snapshot(self, game_id: int, version: int, seq: int, state: dict, now: float) -> None:
        blob, checksum = encode_state(state)
        await self._exec(
            "INSERT INTO snapshots (game_id, version, seq, state, checksum, created_at) VALUES (?,?,?,?,?,?)"
            " ON CONFLICT(game_id) DO UPDATE SET version=excluded.version, seq=excluded.seq,"
            " state=excluded.state, checksum=excluded.checksum, created_at=excluded.created_at",
            (game_id, version, seq, blob, checksum, now))

    async def snapshot_raw(self, game_id: int) -> tuple[int, int, bytes, str] | None:
        row = await self._one("SELECT version, seq, state, checksum FROM snapshots WHERE game_id=?", (game_id,))
        return (row[0], row[1], row[2], row[3]) if row else None

    # timers
    async def timers(self, game_id: int, *, unfired_only: bool = True) -> list[TimerRow]:
        sql = "SELECT id, game_id, seat, kind, due_at, fired, prompt_key FROM timers WHERE game_id=?"
        if unfired_only:
            sql += " AND fired=0"
        rows = await self._all(sql + " ORDER BY due_at, id", (game_id,))
        return [TimerRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in rows]

    async def add_timer(self, game_id: int, seat: int, kind: str, due_at: float, prompt_key: str,
                        now: float) -> int:
        return await self._exec(
            "INSERT INTO timers (game_id, seat, kind, due_at, fired, prompt_key, created_at) VALUES (?,?,?,?,0,?,?)",
            (game_id, seat, kind, due_at, prompt_key, now))

    async def cancel_timers(self, game_id: int, seat: int | None = None) -> None:
        if seat is None:
            await self._exec("DELETE FROM timers WHERE game_id=? AND fired=0", (game_id,))
        else:
            await self._exec("DELETE FROM timers WHERE game_id=? AND seat=? AND fired=0", (game_id, seat))

    async def mark_fired(self, timer_id: int) -> None:
        await self._exec("UPDATE timers SET fired=1 WHERE id=?", (timer_id,))

    async def timer(self, timer_id: int) -> TimerRow | None:
        r = await self._one("SELECT id, game_id, seat, kind, due_at, fired, prompt_key FROM timers WHERE id=?",
                            (timer_id,))
        return TimerRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) if r else None

    async def due_timers(self, now: float, limit: int = 100) -> list[TimerRow]:
        rows = await self._all(
            "SELECT id, game_id, seat, kind, due_at, fired, prompt_key FROM timers WHERE fired=0 AND due_at<=?"
            " ORDER BY due_at, id LIMIT ?", (now, limit))
        return [TimerRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in rows]

    async def next_due(self) -> float | None:
        row = await self._one("SELECT MIN(due_at) FROM timers WHERE fired=0")
        return row[0] if row and row[0] is not None else None

    async def skip_reminders_before(self, when: float) -> int:
        async with self.conn.execute(
                "UPDATE timers SET fired=1 WHERE fired=0 AND kind='reminder' AND due_at<?", (when,)) as cur:
            return cur.rowcount

    # public log
    async def append_events(self, game_id: int, version: int, events: list[dict], now: float) -> None:
        if not events:
            return
        row = await self._one("SELECT COALESCE(MAX(seq), 0) FROM game_events WHERE game_id=?", (game_id,))
        start = int(row[0]) + 1
        await self.conn.executemany(
            "INSERT INTO game_events (game_id, seq, version, event, created_at) VALUES (?,?,?,?,?)",
            [(game_id, start + i, version, compact_json(e), now) for i, e in enumerate(events)])

    async def events(self, game_id: int, *, after_seq: int = 0, limit: int | None = None) -> list[tuple[int, int, dict]]:
        packed = await self._one("SELECT event FROM game_events WHERE game_id=? AND packed=1", (game_id,))
        if packed is not None:
            entries = [(s, v, e) for s, v, e in json.loads(zlib.decompress(packed[0])) if s > after_seq]
            return entries[-limit:] if limit is not None else entries
        if limit is None:
            rows = await self._all(
                "SELECT seq, version, event FROM game_events WHERE game_id=? AND seq>? ORDER BY seq",
                (game_id, after_seq))
        else:  # the last `limit` entries, oldest first
            rows = await self._all(
                "SELECT seq, version, event FROM (SELECT * FROM game_events WHERE game_id=? AND seq>?"
                " ORDER BY seq DESC LIMIT ?) ORDER BY seq", (game_id, after_seq, limit))
        return [(r[0], r[1], json.loads(r[2])) for r in rows]

    async def pack_game(self, game_id: int) -> None:
        """Shrink a finished game: one compressed public-log row, no stored submission results (they
        only serve retries of a live interaction) and no drafts."""
        rows = await self._all(
            "SELECT seq, version, event FROM game_events WHERE game_id=? AND packed=0 ORDER BY seq", (game_id,))
        if rows:
            blob = zlib.compress(compact_json([[r[0], r[1], json.loads(r[2])] for r in rows]).encode(), 9)
            await self._exec("DELETE FROM game_events WHERE game_id=?", (game_id,))
            await self._exec(
                "INSERT INTO game_events (game_id, seq, version, event, created_at, packed) VALUES (?,?,?,?,?,1)",
                (game_id, rows[-1][0], rows[-1][1], blob, time.time()))
        await self._exec("DELETE FROM action_results WHERE game_id=?", (game_id,))
        await self._exec("DELETE FROM drafts WHERE game_id=?", (game_id,))

    # drafts
    async def get_draft(self, game_id: int, seat: int) -> tuple[str, dict] | None:
        row = await self._one("SELECT prompt_key, data FROM drafts WHERE game_id=? AND seat=?", (game_id, seat))
        return (row[0], json.loads(row[1])) if row else None

    async def put_draft(self, game_id: int, seat: int, prompt_key: str, data: dict | None, *,
                        now: float | None = None) -> None:
        """Store the seat's draft for `prompt_key` (replacing any earlier one); None deletes it."""
        if data is None:
            await self._exec("DELETE FROM drafts WHERE game_id=? AND seat=?", (game_id, seat))
            return
        await self._exec(
            "INSERT INTO drafts (game_id, seat, prompt_key, data, updated_at) VALUES (?,?,?,?,?)"
            " ON CONFLICT(game_id, seat) DO UPDATE SET prompt_key=excluded.prompt_key, data=excluded.data,"
            " updated_at=excluded.updated_at", (game_id, seat, prompt_key, compact_json(data), time.time() if now is None else now))

    # preferences
    async def get_pref(self, user_id: int, key: str) -> str | None:
        row = await self._one("SELECT value FROM user_prefs WHERE user_id=? AND key=?", (user_id, key))
        return row[0] if row else None

    async def set_pref(self, user_id: int, key: str, value: str | None) -> None:
        if value is None:
            await self._exec("DELETE FROM user_prefs WHERE user_id=? AND key=?", (user_id, key))
        else:
            await self._exec(
                "INSERT INTO user_prefs (user_id, key, value) VALUES (?,?,?)"
                " ON CONFLICT(user_id, key) DO UPDATE SET value=excluded.value", (user_id, key, value))

    async def prefs(self, user_id: int) -> dict[str, str]:
        return {k: v for k, v in await self._all("SELECT key, value FROM user_prefs WHERE user_id=?", (user_id,))}

    # prompt messages
    async def add_prompt_message(self, game_id: int, seat: int | None, message_id: int, channel_id: int,
                                 purpose: str, prompt_key: str | None, version: int | None, now: float) -> int:
        return await self._exec(
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
        await self.conn.executemany("UPDATE prompt_messages SET active=0 WHERE id=?", [(i,) for i in ids])


class Storage:
    """Owns the SQLite connection. Open with `await Storage.open(path)`, close with `await storage.close()`."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, *, synchronous: str = "NORMAL") -> None:
        self._conn = conn
        self.path = path
        self.lock = asyncio.Lock()
        self.synchronous = synchronous

    @classmethod
    async def open(cls, path: str | Path = DEFAULT_DB_PATH, *, synchronous: str = "NORMAL",
                   busy_timeout_ms: int = 5000) -> Storage:
        p = Path(path)
        if str(p) != ":memory:":
            p.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN IMMEDIATE / COMMIT ourselves.
        conn = await aiosqlite.connect(str(p), isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            await conn.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode survives process crashes (SIGKILL); FULL also survives power loss.
            if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
                raise ValueError(f"bad synchronous mode {synchronous!r}")
            await conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
            await conn.execute("PRAGMA foreign_keys=ON")
            storage = cls(conn, p, synchronous=synchronous)
            await storage._migrate()
        except BaseException:
            await conn.close()
            raise
        return storage

    async def _migrate(self) -> None:
        async with self.lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                await self._conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at REAL NOT NULL)")
                async with self._conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cur:
                    current = int((await cur.fetchone())[0])
                if current > SCHEMA_VERSION:
                    raise RuntimeError(f"database schema {current} is newer than this code ({SCHEMA_VERSION})")
                for number, statements in enumerate(MIGRATIONS, start=1):
                    if number <= current:
                        continue
                    for sql in statements:
                        await self._conn.execute(sql)
                    await self._conn.execute("INSERT INTO schema_version VALUES (?, ?)", (number, time.time()))
                await self._conn.execute("COMMIT")
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        async with self.reading() as tx:
            row = await tx._one("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            return int(row[0])

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self.lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(self._conn)
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Tx]:
        # Reads share the writer connection, so they must wait for any open transaction to finish.
        async with self.lock:
            await self._conn.execute("BEGIN")
            try:
                yield Tx(self._conn)
            finally:
                await self._conn.execute("COMMIT")

    async def close(self) -> None:
        async with self.lock:
            try:
                await self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                await self._conn.close()
