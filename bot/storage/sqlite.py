"""SQLite driver: one connection on one database thread, WAL, one writer.

Round trips to the database thread are what a transaction costs here (each one is a hand-over between the
event loop and the thread), so writes whose result nobody reads are queued and sent with the next read or
with the COMMIT; a multi-statement query (a plan) runs whole on the thread.  A submission makes two calls:
BEGIN IMMEDIATE with the idempotency check and the game load (see Tx._locked_game), then the writes with
COMMIT.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from bot.storage.base import Plan, Request, Storage, Tx, _single
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION

T = TypeVar("T")


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


class SqliteTx(Tx):
    _prefetch_load = True  # a submission's key check and game load in one call on the database thread

    def __init__(self, storage: SqliteStorage, write: bool) -> None:
        super().__init__(write)
        self._storage = storage
        self._queued: list[Plan] = []
        self._begun = False

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
        return await self._call(plan)

    async def _write(self, sql: str, args: Any = ()) -> None:
        self._prefetched = None
        if self.write:
            self._queued.append(_single("write", sql, args))
        else:
            await self._run(_single("write", sql, args))

    async def _write_many(self, sql: str, rows: list) -> None:
        self._prefetched = None
        if not rows:
            return
        if self.write:
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


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")


class SqliteStorage(Storage):
    """Owns the SQLite connection. Open with ``await Storage.open(path)``, close with ``await storage.close()``."""

    driver = "sqlite"

    def __init__(self, path: Path, executor: ThreadPoolExecutor, conn: sqlite3.Connection, *,
                 synchronous: str) -> None:
        self.path = path
        self.target = str(path)
        self._executor = executor
        self._conn = conn
        self.synchronous = synchronous
        # Transactions share the one connection, so they (and reads) take turns.
        self.lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: str | Path, *, synchronous: str = "NORMAL",
                      busy_timeout_ms: int = 5000) -> SqliteStorage:
        p = Path(path)
        if str(p) != ":memory:":
            p.parent.mkdir(parents=True, exist_ok=True)
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"bad synchronous mode {synchronous!r}")
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="viceroy-sqlite")
        loop = asyncio.get_running_loop()

        def open_db() -> sqlite3.Connection:
            # isolation_level=None: we issue BEGIN IMMEDIATE / COMMIT ourselves.
            conn = sqlite3.connect(str(p), isolation_level=None, check_same_thread=False)
            try:
                conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
                conn.execute("PRAGMA journal_mode=WAL")
                # NORMAL in WAL mode survives process crashes (SIGKILL); FULL also survives power loss.
                conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
                conn.execute("PRAGMA foreign_keys=ON")
                _migrate(conn)
            except BaseException:
                conn.close()
                raise
            return conn

        try:
            conn = await loop.run_in_executor(executor, open_db)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(p, executor, conn, synchronous=synchronous)

    def _submit(self, fn: Callable[[sqlite3.Connection], T]) -> asyncio.Future[T]:
        return asyncio.get_running_loop().run_in_executor(self._executor, fn, self._conn)

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
        tx._committed()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Tx]:
        # Reads share the writer connection, so they wait for any open transaction to finish; with the
        # lock held nothing else writes, so the reads need no transaction of their own.
        async with self.lock:
            tx = SqliteTx(self, write=False)
            yield tx
        tx._committed()

    async def close(self) -> None:
        async with self.lock:
            def finish(conn: sqlite3.Connection) -> None:
                try:
                    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                finally:
                    conn.close()

            try:
                await self._submit(finish)
            finally:
                self._executor.shutdown(wait=True)


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
            for sql in statements:
                conn.execute(sql)
            conn.execute("INSERT INTO schema_version VALUES (?, ?)", (number, time.time()))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
