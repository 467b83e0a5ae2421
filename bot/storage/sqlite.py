"""SQLite driver: one connection on one database thread, WAL, one writer.

Round trips to the database thread are what a transaction costs here (each one is a hand-over between the
event loop and the thread).  ``Storage.run(body)`` runs a whole write transaction as one call on the thread:
the body's awaits on the Tx complete there at once (see _complete), so a submission is BEGIN IMMEDIATE, its
reads, the engine's work, its writes and COMMIT in one hand-over, as the bare driver's one transaction is.
In ``transaction()`` blocks (other writers), writes whose result nobody reads are queued and sent with the
next read or with the COMMIT; a multi-statement query (a plan) runs whole on the thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from bot.storage.base import Plan, Request, Storage, Tx, _single
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION, CorruptSnapshot, from_json, sqlite_statements

T = TypeVar("T")
log = logging.getLogger(__name__)

# Write transactions between two background checkpoints: a submission adds some 15 pages to the WAL, so
# some 4,000 pages (8 MB) at most.  A checkpoint writes every page changed since the last one back into the
# database file and flushes it; the longer the interval, the more often a page (an index's inner pages, the
# end of the action, event and outbox tables) was changed several times in between and is written once.  At
# 10,000 active games, pinned to one core, a checkpoint every 64 commits (SQLite's own 1,000 pages) made a
# submission 1.9x slower than at 100 games, since the checkpoint thread had the same core; every 300, 0.93x.
CHECKPOINT_EVERY = 256
# The connection's page cache (SQLite's default is 2 MiB): with thousands of active games the indexes a
# submission walks no longer fit in 2 MiB, and every miss is a read from the OS (p50 1.4x at 10,000 games
# against 100; 1.06x with this).
CACHE_KIB = 32 * 1024
# The page size of a new database (SQLite's default is 4096).  A COMMIT writes every page it changed to the
# WAL, and a submission changes one or two pages in each of some 10 b-trees (its action, events, outbox
# entry, snapshot, timers, the game and their indexes): with 2 KiB pages the same pages are half the bytes,
# and a COMMIT of 16 pages took 49 us against 77 us with 4 KiB pages (1 page: 6.5 against 7.5 us).  Rows up
# to about 2 kB stay in their page (a mid-game Viceroy snapshot is about 1 kB compressed, a stored result
# about 0.7 kB); a longer one continues on overflow pages.
PAGE_SIZE = 2048


def _do(conn: sqlite3.Connection, req: Request) -> Any:
    op, sql, args = req
    if op == "one":
        return conn.execute(sql, args).fetchone()
    if op == "all":
        return conn.execute(sql, args).fetchall()
    if op == "write":
        return conn.execute(sql, args).rowcount
    if op == "many":
        conn.executemany(sql, args)
        return None
    if op == "insert":
        return conn.execute(sql, args).lastrowid
    raise ValueError(f"unknown request {op!r}")


def _drive(conn: sqlite3.Connection, plan: Plan) -> Any:
    try:
        req = next(plan)
        while True:
            req = plan.send(_do(conn, req))
    except StopIteration as stop:
        return stop.value


def _complete(coro: Any) -> Any:
    """Run a coroutine that never waits (a transaction body on the database thread) to its end."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    coro.close()
    raise RuntimeError("a transaction body run on the database thread waited for the event loop;"
                       " it may only await the storage")


class SqliteTx(Tx):
    _prefetch_load = True  # a submission's key check and game load in one call on the database thread

    def __init__(self, storage: SqliteStorage, write: bool, conn: sqlite3.Connection | None = None) -> None:
        super().__init__(write)
        self._storage = storage
        self._queued: list[Plan] = []
        self._begun = False
        # Set while the transaction runs on the database thread (Storage.run): statements run at once.
        self._conn = conn

    def _call(self, plan: Plan | None, *, commit: bool = False) -> Any:
        queued, self._queued = self._queued, []
        begin = self.write and not self._begun
        self._begun = self._begun or self.write

        def work(conn: sqlite3.Connection) -> Any:
            if begin:
                conn.execute("BEGIN IMMEDIATE")
            for q in queued:
                _drive(conn, q)
            result = _drive(conn, plan) if plan is not None else None
            if commit:
                conn.execute("COMMIT")
            return result

        return self._storage._submit(work)

    async def _run(self, plan: Plan) -> Any:
        if self._conn is not None:
            return _drive(self._conn, plan)
        return await self._call(plan)

    async def _write(self, sql: str, args: Any = ()) -> None:
        self._prefetched = None
        if self._conn is not None:
            self._conn.execute(sql, args)
        elif self.write:
            self._queued.append(_single("write", sql, args))
        else:
            await self._run(_single("write", sql, args))

    async def _write_many(self, sql: str, rows: list) -> None:
        self._prefetched = None
        if not rows:
            return
        if self._conn is not None:
            self._conn.executemany(sql, rows)
        elif self.write:
            self._queued.append(_single("many", sql, rows))
        else:
            await self._run(_single("many", sql, rows))

    async def _commit(self) -> None:
        await self._before_commit()
        if self._begun or self._queued:
            await self._call(None, commit=True)

    async def _rollback(self) -> None:
        self._queued.clear()
        if self._begun:
            await self._storage._submit(_rollback)


    def _log_loader(self, game_id: int) -> Callable[[int], list] | None:
        # Inside Storage.run the statements run here, on the database thread, so the engine's first read of
        # the log can load it at once, in the same transaction; a submission whose engine only appends to
        # the log never reads or decodes the stored entries.
        if self._conn is None or not self.write or not self.lazy_log:
            return None

        def load(below: int) -> list:
            if self._conn is None:
                raise RuntimeError(f"the public log of game {game_id} was read after its transaction ended")
            return _drive(self._conn, self._log_plan(game_id, entries=True, below=below))[1]

        return load

    def _log_plan(self, game_id: int, *, entries: bool, below: int | None = None) -> Plan:
        """As Storage._log_plan; ``below``: only the entries at positions under it (a deferred log's stored
        part, as loaded with the game: rows this transaction has written since are the log's new entries)."""
        if not entries:
            return (yield from super()._log_plan(game_id, entries=False))
        # The whole log as one row, concatenated by SQLite, and parsed in one go: one Python object per entry
        # instead of a row tuple, a string and a parse each.  The positions come concatenated in the same
        # order (seq order, which is position order), so one comparison proves the entries are in order with
        # no gaps and no duplicates.
        under, args = ("", (game_id,)) if below is None else (" AND log_pos<?", (game_id, below))
        row = yield ("one", "SELECT group_concat(log_pos), group_concat(event) FROM (SELECT log_pos, event"
                     f" FROM game_events WHERE game_id=? AND log_pos IS NOT NULL{under} ORDER BY seq)", args)
        if row[0] is not None:
            log = from_json("[" + row[1] + "]")
            if row[0] != _positions(len(log)):
                raise CorruptSnapshot("the public log has gaps")
            return len(log), log
        return (yield from self._packed_log_plan(game_id, entries=True, below=below))


@functools.lru_cache(maxsize=256)
def _positions(n: int) -> str:
    """What group_concat(log_pos) reads for a log of n entries stored in order."""
    return ",".join(map(str, range(n)))


def _settle(fut: asyncio.Future, result: Any, exc: BaseException | None) -> None:
    if fut.cancelled():  # the caller stopped waiting; the call itself ran to its end
        return
    if exc is not None:
        fut.set_exception(exc)
    else:
        fut.set_result(result)


class DatabaseThread:
    """The one thread that makes every call on a connection, in the order they were submitted (the writer's
    connection; the background checkpoint's has one of its own).

    A call is handed over through a queue and its result comes back as an asyncio future set by
    ``call_soon_threadsafe``: about half the round trip of ``run_in_executor`` on a one-thread pool (24
    against 45 us with nothing to do, pinned to one core), which chains a concurrent future to the asyncio
    one and keeps a work item for each call.  A caller that stops waiting does not stop its call (a
    transaction on the thread still ends in its COMMIT or ROLLBACK), as with the pool."""

    def __init__(self, name: str) -> None:
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        self._closed = False
        # A daemon thread: a storage never closed does not keep the process from exiting, which, for the
        # database, is a crash at that point (WAL: the last COMMIT is kept, an open transaction is not).
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        if self._closed:
            raise RuntimeError("the storage is closed")
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._calls.put((loop, fut, fn, args))
        return fut

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            loop, fut, fn, args = call
            try:
                result, exc = fn(*args), None
            except StopIteration as e:  # an asyncio future cannot hold one
                result, exc = None, RuntimeError(f"a database call raised StopIteration: {e!r}")
            except BaseException as e:  # handed to the caller, as run_in_executor does
                result, exc = None, e
            try:
                loop.call_soon_threadsafe(_settle, fut, result, exc)
            except RuntimeError:  # the caller's event loop is closed: nobody is waiting
                pass
            del call, fut, result, exc  # not held while the thread waits for the next call

    def shutdown(self) -> None:
        """Let the calls already submitted finish, then stop the thread."""
        if not self._closed:
            self._closed = True
            self._calls.put(None)
        if threading.current_thread() is not self._thread:
            self._thread.join()


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")


class SqliteStorage(Storage):
    """Owns the SQLite connection. Open with ``await Storage.open(path)``, close with ``await storage.close()``."""

    driver = "sqlite"

    def __init__(self, path: Path, db_thread: DatabaseThread, conn: sqlite3.Connection, *,
                 synchronous: str) -> None:
        self.path = path
        self.target = str(path)
        self._db_thread = db_thread
        self._conn = conn
        self.synchronous = synchronous
        # Transactions share the one connection, so they (and reads) take turns.
        self.lock = asyncio.Lock()
        # Checkpoints (copying the WAL back into the database file) run on a thread and connection of their
        # own, beside the writer, instead of inside whichever COMMIT crosses SQLite's threshold.
        self._checkpoints = DatabaseThread("viceroy-sqlite-checkpoint")
        self._checkpoint_conn: sqlite3.Connection | None = None
        self._checkpoint_running: asyncio.Future | None = None
        self._writes_since_checkpoint = 0
        self.checkpoints = 0  # done so far (tests and benchmarks read it)

    @classmethod
    async def connect(cls, path: str | Path, *, synchronous: str = "NORMAL",
                      busy_timeout_ms: int = 5000) -> SqliteStorage:
        p = Path(path)
        if str(p) != ":memory:":
            p.parent.mkdir(parents=True, exist_ok=True)
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"bad synchronous mode {synchronous!r}")
        db_thread = DatabaseThread("viceroy-sqlite")

        def open_db() -> sqlite3.Connection:
            # isolation_level=None: we issue BEGIN IMMEDIATE / COMMIT ourselves.
            conn = sqlite3.connect(str(p), isolation_level=None, check_same_thread=False)
            try:
                conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
                # Only a new, empty database takes it (an existing one keeps the size it was made with).
                conn.execute(f"PRAGMA page_size={PAGE_SIZE}")
                conn.execute("PRAGMA journal_mode=WAL")
                # NORMAL in WAL mode survives process crashes (SIGKILL); FULL also survives power loss.
                conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
                # Checkpoints are this storage's checkpoint thread's work (SqliteStorage._after_write).
                conn.execute("PRAGMA wal_autocheckpoint=0")
                conn.execute("PRAGMA foreign_keys=ON")
                conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
                _migrate(conn)
            except BaseException:
                conn.close()
                raise
            return conn

        try:
            conn = await db_thread.submit(open_db)
        except BaseException:
            db_thread.shutdown()
            raise
        return cls(p, db_thread, conn, synchronous=synchronous)

    def _submit(self, fn: Callable[[sqlite3.Connection], T]) -> asyncio.Future[T]:
        return self._db_thread.submit(fn, self._conn)

    def _after_write(self) -> None:
        """Count a committed write transaction; every CHECKPOINT_EVERY of them, checkpoint the WAL beside the
        writer (PASSIVE: it never blocks a writer or a reader, and what it cannot copy yet waits for the next)."""
        self._writes_since_checkpoint += 1
        if self._writes_since_checkpoint < CHECKPOINT_EVERY or self._checkpoint_running is not None:
            return
        self._writes_since_checkpoint = 0
        running = self._checkpoints.submit(self._checkpoint)
        self._checkpoint_running = running
        running.add_done_callback(self._checkpoint_done)

    def _checkpoint(self) -> None:
        if self._checkpoint_conn is None:
            self._checkpoint_conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self._checkpoint_conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def _checkpoint_done(self, done: asyncio.Future) -> None:
        self._checkpoint_running = None
        if done.cancelled():
            return
        if done.exception() is not None:
            log.warning("background checkpoint failed: %s", done.exception())
        else:
            self.checkpoints += 1

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self.lock:
            tx = SqliteTx(self, write=True)
            try:
                yield tx
                await tx._commit()
            except BaseException:
                await tx._rollback()
                raise
        self._after_write()
        tx._committed()

    async def run(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async with self.lock:
            tx = SqliteTx(self, write=True, conn=self._conn)

            def work(conn: sqlite3.Connection) -> T:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    result = _complete(body(tx))
                    _complete(tx._before_commit())
                    conn.execute("COMMIT")
                except BaseException:
                    _rollback(conn)
                    raise
                finally:
                    tx._conn = None  # the Tx is dead outside its transaction
                return result

            result = await self._submit(work)
        self._after_write()
        tx._committed()
        return result

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Tx]:
        # Reads share the writer connection, so they wait for any open transaction to finish; with the
        # lock held nothing else writes, so the reads need no transaction of their own.
        async with self.lock:
            tx = SqliteTx(self, write=False)
            yield tx
        tx._committed()

    async def close(self) -> None:
        if self._checkpoint_running is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint_running

        def close_checkpointer() -> None:
            if self._checkpoint_conn is not None:
                self._checkpoint_conn.close()
                self._checkpoint_conn = None

        try:
            await self._checkpoints.submit(close_checkpointer)
        finally:
            self._checkpoints.shutdown()
        async with self.lock:
            def finish(conn: sqlite3.Connection) -> None:
                try:
                    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                finally:
                    conn.close()

            try:
                await self._submit(finish)
            finally:
                self._db_thread.shutdown()


def _migrate(conn: sqlite3.Connection) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at REAL NOT NULL)")
        current = int(conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])
        if current > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {current} is newer than this code ({SCHEMA_VERSION})")
        for number, statements in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            for sql in sqlite_statements(statements):
                conn.execute(sql)
            conn.execute("INSERT INTO schema_version VALUES (?, ?)", (number, time.time()))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
