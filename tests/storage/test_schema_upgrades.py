"""A database made by an older version of the bot is migrated in place, on both drivers, and keeps what it
held: here the submission results stored before they moved into their action's row."""

from __future__ import annotations

import json
import sqlite3

import pytest

import tests.service.toygame  # noqa: F401  (registers "toy")
from bot.clock import ManualClock
from bot.service import ActionResult, Applied, GameService
from bot.storage import MIGRATIONS, Storage
from bot.storage.postgres import translate, translate_ddl
from tests.pg import run_sync
from tests.storage.old_schema import old_sqlite_database


def _migration_of(text: str) -> int:
    """The schema version whose migration contains `text`."""
    return next(i for i, m in enumerate(MIGRATIONS, start=1) if any(text in sql for sql in m))


class OldDatabase:
    """A database at schema `version` (the migrations up to it, as the bot then ran them), written to
    with plain SQL in the dialect of its driver."""

    def __init__(self, driver: str, target: str) -> None:
        self.driver, self.target = driver, target

    @classmethod
    async def create(cls, request, tmp_path, version: int) -> OldDatabase:
        if request.param == "sqlite":
            path = str(tmp_path / "old.db")
            old_sqlite_database(path, version)
            return cls("sqlite", path)
        import asyncpg

        cluster = request.getfixturevalue("pg_cluster")
        name = await cluster.create_database()
        request.addfinalizer(lambda: run_sync(cluster.drop_database(name)))
        url = cluster.database_url(name)
        conn = await asyncpg.connect(url)
        try:
            async with conn.transaction():
                await conn.execute(translate_ddl(
                    "CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at REAL NOT NULL)"))
                for number, statements in enumerate(MIGRATIONS[:version], start=1):
                    for sql in statements:
                        await conn.execute(translate_ddl(sql))
                    await conn.execute("INSERT INTO schema_version VALUES ($1, 0)", number)
        finally:
            await conn.close()
        return cls("postgres", url)

    async def execute(self, sql: str, *args) -> None:
        if self.driver == "sqlite":
            conn = sqlite3.connect(self.target)
            conn.execute(sql, args)
            conn.commit()
            conn.close()
            return
        import asyncpg

        conn = await asyncpg.connect(self.target)
        try:
            await conn.execute(translate(sql), *args)
        finally:
            await conn.close()


@pytest.fixture(params=["sqlite", "postgres"])
def driver(request):
    return request


async def test_results_stored_in_their_own_table_still_answer_retries(driver, tmp_path):
    before = _migration_of("ALTER TABLE actions ADD COLUMN result BLOB") - 1
    old = await OldDatabase.create(driver, tmp_path, before)
    await old.execute("INSERT INTO games (id, guild_id, channel_id, kind, options, seed, status, host_user_id,"
                      " version, time_limit, created_at, updated_at) VALUES (7, 1, 1, 'toy', '{}', 3, 'active',"
                      " 100, 4, NULL, 1.0, 1.0)")
    for seat in (0, 1):
        await old.execute("INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (7, ?, ?, ?)",
                          seat, 100 + seat, f"u{seat}")
    for seq, key in ((1, "k1"), (2, "k2")):
        await old.execute("INSERT INTO actions (game_id, seq, seat, action, idempotency_key, kind, created_at)"
                          " VALUES (7, ?, 0, '{\"type\":\"x\"}', ?, 'action', 2.0)", seq, key)
    stored = ActionResult(7, 3, "active", [Applied(1, 0, {"type": "x"}, "action")], public=[{"type": "p"}])
    # stored as results were then: with their public events and seats
    blob = json.dumps({**json.loads(stored.to_blob()), "public": stored.public, "seats": []}).encode()
    await old.execute("INSERT INTO action_results (game_id, seq, result) VALUES (7, 1, ?)", blob)

    storage = await Storage.open(old.target)
    try:
        assert await storage.schema_version() == len(MIGRATIONS)
        async with storage.reading() as tx:
            k1, k2 = await tx.action_by_key("k1"), await tx.action_by_key("k2")
            assert (k1.seq, k1.result) == (1, blob)
            assert (k2.seq, k2.result) == (2, None)  # it had none: it stays without one
            assert [a.seq for a in await tx.actions(7)] == [1, 2]
        service = GameService(storage, clock=ManualClock(1_800_000_000.0))
        again = await service.submit(7, 100, {"type": "x"}, idempotency_key="k1")
        assert again.duplicate and (again.version, again.public) == (3, [{"type": "p"}])
    finally:
        await storage.close()
