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
from bot.storage.schema import postgres_statements
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
                    for sql in postgres_statements(statements):
                        await conn.execute(translate_ddl(sql))
                    await conn.execute("INSERT INTO schema_version VALUES ($1, 0)", number)
        finally:
            await conn.close()
        return cls("postgres", url)

    async def add_game_7(self) -> None:
        """An active toy game, id 7, at version 4."""
        await self.execute("INSERT INTO games (id, guild_id, channel_id, kind, options, seed, status, host_user_id,"
                           " version, time_limit, created_at, updated_at) VALUES (7, 1, 1, 'toy', '{}', 3,"
                           " 'active', 100, 4, NULL, 1.0, 1.0)")

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
    await old.add_game_7()
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


async def test_actions_and_outbox_lose_autoincrement_and_keep_their_rows_and_ids(driver, tmp_path):
    before = _migration_of("CREATE TABLE actions_new") - 1
    old = await OldDatabase.create(driver, tmp_path, before)
    await old.add_game_7()
    # SQLite: ids with a gap below them, as after years of use (PostgreSQL's identity gives its own)
    ids = driver.param == "sqlite"
    for seq, aid in ((1, 40), (2, 41)):
        await old.execute(f"INSERT INTO actions ({'id, ' * ids}game_id, seq, seat, action, idempotency_key, kind,"
                          f" created_at, result) VALUES ({'?, ' * ids}7, ?, 0, '{{\"type\":\"x\"}}', ?, 'action',"
                          " 2.0, NULL)", *((aid,) * ids), seq, f"k{seq}")
    await old.execute(f"INSERT INTO outbox ({'id, ' * ids}game_id, version, payload, sent, created_at) VALUES"
                      f" ({'90, ' * ids}7, 4, '{{\"p\":1,\"public\":[]}}', NULL, 3.0)")
    storage = await Storage.open(old.target)
    try:
        assert await storage.schema_version() == len(MIGRATIONS)
        async with storage.transaction() as tx:
            assert [a.idempotency_key for a in await tx.actions(7)] == ["k1", "k2"]
            before = await tx.outbox(7)
            assert [o.payload for o in before] == [{"p": 1, "public": []}] and (not ids or before[0].id == 90)
            await tx.append_action(7, 3, 0, {"type": "y"}, kind="action", key="k3", now=4.0)
            await tx.add_outbox(7, 5, {"p": 2}, 4.0)
        async with storage.reading() as tx:
            rows = await tx._all("SELECT id, idempotency_key FROM actions ORDER BY id")
            assert [r[1] for r in rows] == ["k1", "k2", "k3"]  # a new id is never one given before
            if ids:
                assert [r[0] for r in rows][:2] == [40, 41]
            outbox = await tx.outbox(7)
            assert [o.payload for o in outbox] == [{"p": 1, "public": []}, {"p": 2, "public": []}] and (not ids or outbox[0].id == 90)
            if driver.param == "sqlite":  # no AUTOINCREMENT left on them, so no sqlite_sequence row to write
                sql = dict(await tx._all("SELECT name, sql FROM sqlite_master WHERE name IN ('actions','outbox')"))
                assert set(sql) == {"actions", "outbox"} and not any("AUTOINCREMENT" in s for s in sql.values())
                seq = await tx._all("SELECT name FROM sqlite_sequence WHERE name IN ('actions','outbox')")
                assert seq == []
                indexes = {r[0] for r in await tx._all("SELECT name FROM sqlite_master WHERE type='index'"
                                                       " AND tbl_name IN ('actions','outbox')")}
                assert "outbox_undelivered" in indexes and len(indexes) == 3  # + key and (game, seq)
    finally:
        await storage.close()
