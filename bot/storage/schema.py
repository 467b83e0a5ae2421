"""Schema, row types and the snapshot codec shared by every storage driver.

Migrations are written once, in SQLite's dialect; the PostgreSQL driver translates the few type names
(see bot.storage.postgres.translate_ddl).  Index + 1 is the schema version on both drivers.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lz4.frame

from bot.games import compact_json

try:  # several times faster than the json module at the states, logs and events every submission encodes
    import orjson
except ImportError:  # pragma: no cover - the json module writes and reads the same JSON
    orjson = None

DEFAULT_DB_PATH = Path("var/viceroy.db")

# A migration statement that only the PostgreSQL driver runs, and one that only the SQLite driver runs.
POSTGRES_ONLY = "-- postgres only\n"
SQLITE_ONLY = "-- sqlite only\n"

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
        # of a finished game frees whole pages (NULLing a column in `actions` would fragment it).  Folded into
        # `actions` by a later migration (fewer pages written per submission).
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
    [
        # Tx.timers asks for one game's unfired timers in due order; with only (fired, due_at) and
        # (game_id, seat, fired) SQLite walked every unfired timer of every game in due order.
        "DROP INDEX timers_game",
        "CREATE INDEX timers_game ON timers(game_id, fired, due_at)",
        # The state's public log ("log") is kept once, in game_events: log_pos is the entry's position in
        # state["log"]; the stored snapshot holds the log's length instead of the entries (Tx.save_snapshot).
        "ALTER TABLE game_events ADD COLUMN log_pos INTEGER",
        "CREATE INDEX game_events_log ON game_events(game_id, log_pos) WHERE log_pos IS NOT NULL",
        # A packed log (Tx.pack_game) is binary: its own column, so `event` stays text on every driver.
        "ALTER TABLE game_events ADD COLUMN packed_data BLOB",
    ],
    [
        # The outbox: what a commit must tell Discord (its public lines, private lines, the end of the game),
        # written in the action's transaction and marked delivered once Discord has it. `sent` records the
        # message ids of the parts already shown, so a redelivery skips them. Start-up drains what is left.
        """CREATE TABLE outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER NOT NULL REFERENCES games(id),
            version INTEGER NOT NULL,
            payload TEXT NOT NULL,
            sent TEXT,
            created_at REAL NOT NULL,
            delivered_at REAL
        )""",
        "CREATE INDEX outbox_undelivered ON outbox(game_id, id) WHERE delivered_at IS NULL",
    ],
    [
        # An AI seat's level (engine.search.LEVELS: easy, normal, hard); NULL for people, and for AI seats
        # made before levels existed (they play as "easy", the baseline they always used).
        "ALTER TABLE seats ADD COLUMN ai_level TEXT",
    ],
    [
        # A new prompt re-arms its deadline and reminders in place (new due_at, kind, prompt_key); with
        # due_at in this index every re-arm also moved each row's entry in it. Tx.timers still finds one
        # game's unfired timers through it (and sorts those few rows itself).
        "DROP INDEX timers_game",
        "CREATE INDEX timers_game ON timers(game_id, fired)",
    ],
    [
        # The scheduler wakes for a timer at wake_at, never later than due_at. A re-armed timer (a new
        # prompt's deadline or reminder, later than the one it replaces) keeps its wake time, so a re-arm
        # moves no entry in the scheduler's index: with due_at there every re-arm moved each timer's entry,
        # and at 10,000 games each moved entry was a page of its own written at COMMIT (6.9 of a
        # submission's 22.4). A scheduler woken before a timer is due moves its wake_at up to due_at then
        # (Tx.push_wakes): once per re-armed timer at most, and only when its old time comes.
        "ALTER TABLE timers ADD COLUMN wake_at REAL",
        "UPDATE timers SET wake_at=due_at",
        "DROP INDEX timers_due",
        "CREATE INDEX timers_wake ON timers(fired, wake_at)",
    ],
    [
        # What a submission returned (for idempotent retries) goes in its action's row, written with it: a
        # table of its own was two more b-trees (its rows and its key) written at every COMMIT.  A finished
        # game's results are set to NULL (Tx.pack_game); SQLite merges the pages that leaves two-thirds empty.
        "ALTER TABLE actions ADD COLUMN result BLOB",
        "UPDATE actions SET result=(SELECT r.result FROM action_results r WHERE r.game_id=actions.game_id"
        " AND r.seq=actions.seq) WHERE EXISTS (SELECT 1 FROM action_results r WHERE r.game_id=actions.game_id"
        " AND r.seq=actions.seq)",
        "DROP TABLE action_results",
    ],
    [
        # A submission's load asks whether the game's log is packed (a finished game's one packed row): without
        # an index of its own that walked every event row of the game (on PostgreSQL, over a quarter of the
        # load's executor time in a long game).  Only packed rows are in it, so writing an event never touches it.
        "CREATE INDEX game_events_packed ON game_events(game_id) WHERE packed=1",
        # PostgreSQL checks a foreign key with a query and a row lock on the game for every row written: for a
        # submission's events, outbox entry, action, snapshot and timers that was a fifth of its commit's time.
        # The rows of these tables are written only in a transaction that has loaded, and locked, their game,
        # and no game is ever deleted, so the check can never fail.  (SQLite's check is one probe of the
        # games index; it stays.)
        *(f"{POSTGRES_ONLY}ALTER TABLE {t} DROP CONSTRAINT IF EXISTS {t}_game_id_fkey"
          for t in ("actions", "snapshots", "timers", "game_events", "outbox")),
    ],
    [
        # The public log is read through the primary key (game_id, seq): log positions are given in seq order
        # (a new entry's row is the game's newest; an undo clears the positions past the shorter log, and the
        # next entries come after every row), so ordering by seq is ordering by log_pos, and the readers
        # check the positions they get (no gap, no repeat).  The index of its own was one more b-tree written
        # at every COMMIT on SQLite and three more index entries per submission on PostgreSQL.
        "DROP INDEX game_events_log",
    ],
    [
        # SQLite: actions and outbox without AUTOINCREMENT.  It kept the largest id ever given in
        # sqlite_sequence, a page of its own written at every COMMIT that inserts an action or an outbox entry
        # (one of a submission's 13).  Rows of these tables are never deleted, so a new row's id (one more
        # than the largest) is still never one given before.  SQLite cannot drop AUTOINCREMENT in place: the
        # tables are made again, with the same columns, ids and indexes.  (PostgreSQL's identity columns keep
        # no such page.)
        SQLITE_ONLY + """CREATE TABLE actions_new (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            seat INTEGER,
            action TEXT NOT NULL,
            idempotency_key TEXT UNIQUE,
            kind TEXT NOT NULL CHECK (kind IN ('action','undo','timeout','admin')),
            created_at REAL NOT NULL,
            result BLOB,
            UNIQUE (game_id, seq)
        )""",
        SQLITE_ONLY + "INSERT INTO actions_new (id, game_id, seq, seat, action, idempotency_key, kind, created_at,"
        " result) SELECT id, game_id, seq, seat, action, idempotency_key, kind, created_at, result FROM actions",
        SQLITE_ONLY + "DROP TABLE actions",
        SQLITE_ONLY + "ALTER TABLE actions_new RENAME TO actions",
        SQLITE_ONLY + """CREATE TABLE outbox_new (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            version INTEGER NOT NULL,
            payload TEXT NOT NULL,
            sent TEXT,
            created_at REAL NOT NULL,
            delivered_at REAL
        )""",
        SQLITE_ONLY + "INSERT INTO outbox_new (id, game_id, version, payload, sent, created_at, delivered_at)"
        " SELECT id, game_id, version, payload, sent, created_at, delivered_at FROM outbox",
        SQLITE_ONLY + "DROP TABLE outbox",
        SQLITE_ONLY + "ALTER TABLE outbox_new RENAME TO outbox",
        SQLITE_ONLY + "CREATE INDEX outbox_undelivered ON outbox(game_id, id) WHERE delivered_at IS NULL",
    ],
    [
        # A finished game's delivered announcements, packed into one compressed row once none is left to
        # deliver (Tx.outbox_progress): they are its record of what was posted, read again only to redeliver
        # an announcement, and as rows they were half of what a finished game kept.  The game's newest entry
        # stays a row, so the outbox's largest id is never deleted and SQLite never gives an id twice.
        """CREATE TABLE outbox_packed (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            entries BLOB NOT NULL
        )""",
    ],
    [
        # PostgreSQL: a submission reads its game without locking it and takes the lock with its writes, in
        # the same round trip as the COMMIT (PgTx: two round trips instead of three).  Every transaction
        # that locks a game otherwise counts its write in `writes`.  viceroy_guard takes the game's row lock
        # without waiting for it and refuses the commit (the submission runs again) when another transaction
        # holds the lock (lock_not_available) or the count moved since the game was read
        # (serialization_failure).  Not waiting keeps the commit's round trip short: a connection lost
        # during it leaves the outcome unknown.  SQLite has one writer and needs neither.
        POSTGRES_ONLY + "ALTER TABLE games ADD COLUMN writes BIGINT NOT NULL DEFAULT 0",
        POSTGRES_ONLY + """CREATE FUNCTION viceroy_guard(game BIGINT, seen BIGINT) RETURNS void
        LANGUAGE plpgsql AS $$
        DECLARE
            now_writes BIGINT;
        BEGIN
            SELECT writes INTO now_writes FROM games WHERE id = game FOR UPDATE NOWAIT;
            IF now_writes IS DISTINCT FROM seen THEN
                RAISE EXCEPTION 'game % was written since it was read', game USING ERRCODE = 'serialization_failure';
            END IF;
            UPDATE games SET writes = writes + 1 WHERE id = game;
        END
        $$""",
    ],
]

SCHEMA_VERSION = len(MIGRATIONS)


def sqlite_statements(statements: list[str]) -> list[str]:
    """A migration's statements as the SQLite driver runs them (without the PostgreSQL-only ones)."""
    return [sql for sql in statements if not sql.startswith(POSTGRES_ONLY)]


def postgres_statements(statements: list[str]) -> list[str]:
    """A migration's statements as the PostgreSQL driver runs them (without the SQLite-only ones), in SQLite's
    dialect still (see bot.storage.postgres.translate_ddl)."""
    return [sql for sql in statements if not sql.startswith(SQLITE_ONLY)]


class CorruptSnapshot(Exception):
    """A stored snapshot cannot be trusted (undecodable, checksum or version mismatch)."""


def json_bytes(value: Any) -> bytes:
    """Compact JSON in UTF-8, dict order kept (what compact_json writes, faster)."""
    if orjson is not None:
        try:  # string keys only (states, events, actions): the fast path, the same bytes
            return orjson.dumps(value)
        except TypeError:
            pass
        try:  # integer keys written as strings, as the json module does (about twice the time)
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:  # what orjson does not take (an integer past 64 bits, ...): the json module does
            pass
    return compact_json(value).encode()


def json_text(value: Any) -> str:
    return json_bytes(value).decode() if orjson is not None else compact_json(value)


def from_json(raw: bytes | str) -> Any:
    return orjson.loads(raw) if orjson is not None else json.loads(raw)


# A snapshot is an LZ4 frame of its JSON with the frame's content checksum (xxHash32 of the JSON, its last
# 4 bytes), which lz4.frame.decompress checks against what it inflates.  LZ4 at its fast level: 6 us to
# write and 4 us to read a mid-game Viceroy state (4.9 kB of JSON -> 1.4 kB), against 27 and 11 us for zlib
# at level 1 (1.0 kB), which was a fifth of a submission's time on the database thread.  Rows written
# before keep their zlib stream and read as they were.
#
# The checksum column holds a prefix and the 8 hex digits of that stream checksum: "x" and the LZ4 frame's
# xxHash32, or (rows written before) "z" and the zlib stream's adler32.  It ties the check to the row (a blob
# from elsewhere, or a damaged stream, does not match) without a second hash of the state on every save and
# load.  The oldest rows keep a sha256 prefix of the JSON (32 hex digits).
_LZ4_PREFIX = "x"
_ADLER_PREFIX = "z"


def encode_state(state: dict) -> tuple[bytes, str]:
    blob = lz4.frame.compress(json_bytes(state), content_checksum=True)
    return blob, _LZ4_PREFIX + blob[-4:].hex()


def _inflate(blob: bytes, checksum: str) -> bytes:
    """The JSON of a stored snapshot, its stream checked against the row's checksum."""
    stream = checksum[:1] if checksum[:1] in (_LZ4_PREFIX, _ADLER_PREFIX) else None
    if stream is not None and (len(checksum) != 9 or (isinstance(blob, bytes | bytearray | memoryview)
                                                      and bytes(blob[-4:]).hex() != checksum[1:])):
        raise CorruptSnapshot("snapshot checksum mismatch")
    try:
        if stream == _LZ4_PREFIX:
            return lz4.frame.decompress(blob)  # checks the frame's xxHash32 against what it inflates
        raw = zlib.decompress(blob)  # checks the stream's adler32 against what it inflates
    except (RuntimeError, zlib.error, TypeError, ValueError) as exc:
        raise CorruptSnapshot(f"snapshot does not decompress: {exc}") from exc
    if stream is None and hashlib.sha256(raw).hexdigest()[:32] != checksum:
        raise CorruptSnapshot("snapshot checksum mismatch")
    return raw


def decode_state(blob: bytes, checksum: str) -> dict:
    """The stored state as written; a log kept in game_events is still its length here (see Tx.snapshot)."""
    raw = _inflate(blob, checksum)
    try:
        state = from_json(raw)
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
    ai_level: str | None = None


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
    wake_at: float | None = None  # when the scheduler looks at it (<= due_at; see the timers_wake migration)


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


@dataclass
class OutboxRow:
    id: int
    game_id: int
    version: int
    payload: dict
    sent: dict  # part key -> Discord message id (0: the part could not be shown and is given up)
    created_at: float
    delivered_at: float | None = None  # read by Tx.outbox_record (undelivered rows have none)


_GAME_COLS = "id, guild_id, channel_id, kind, options, seed, status, host_user_id, version, time_limit, created_at, updated_at"


def _game(row: Sequence[Any]) -> GameRow:
    return GameRow(row[0], row[1], row[2], row[3], from_json(row[4]), row[5], row[6], row[7], row[8], row[9],
                   row[10], row[11])


