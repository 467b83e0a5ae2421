"""PostgreSQL only: the server drops the bot's connections (a restart, a failover, an operator's
pg_terminate_backend).  The next action works on a new connection, an action cut off before its COMMIT runs
again on a new one (applied once), one cut off during its COMMIT is not run again, and timer notifications
come back on their own."""

from __future__ import annotations

import asyncio
import contextlib
import itertools

import asyncpg
import pytest

import tests.service.toygame  # noqa: F401  (registers "toy")
from bot.clock import ManualClock
from bot.service import GameService
from bot.storage import Storage
from bot.storage.postgres import PgTx
from tests.service.conftest import started_game

DAY = 24 * 3600.0


async def drop_connections(url: str, where: str = "TRUE") -> int:
    """Terminate every other session on the database (matching `where`); the number terminated."""
    admin = await asyncpg.connect(url)
    try:
        return await admin.fetchval(
            "SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            f" WHERE datname=current_database() AND pid<>pg_backend_pid() AND {where}) t")
    finally:
        await admin.close()


async def until(condition, timeout: float = 60.0) -> None:
    async def wait() -> None:
        while not await condition():
            await asyncio.sleep(0.01)
    await asyncio.wait_for(wait(), timeout)


@contextlib.asynccontextmanager
async def processes(pg_cluster, n: int):
    """`n` storages (one per bot process) on a new database, each with its service; closed afterwards."""
    url = pg_cluster.database_url(await pg_cluster.create_database(template=pg_cluster.template))
    clock = ManualClock(1_800_000_000.0)
    seeds = itertools.count(1)
    storages = [await Storage.open(url) for _ in range(n)]
    try:
        yield url, clock, storages, [GameService(s, clock=clock, seed_source=lambda: next(seeds)) for s in storages]
    finally:
        for s in storages:
            await s.close()


async def times_applied(storage: Storage, gid: int, key: str) -> int:
    """How many stored actions of the game carry the idempotency key."""
    async with storage.reading() as tx:
        return [a.idempotency_key for a in await tx.actions(gid)].count(key)


def fail_first(monkeypatch, method: str, error: Exception) -> list[object]:
    """PgTx.<method> raises `error` at its first call and works from then on; the server session of every
    call, in order."""
    real = getattr(PgTx, method)
    used: list[object] = []

    async def failing(self: PgTx, *args, **kwargs):
        used.append(self.connection)
        if len(used) == 1:
            raise error
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(PgTx, method, failing)
    return used


def choose(info, seat: int) -> dict:
    return {"type": "choose", "card": min(info.pending[seat].prompt.choices["options"])}


async def test_after_the_server_drops_every_connection_the_next_action_works(pg_cluster):
    async with processes(pg_cluster, 1) as (url, _clock, storages, (service,)):
        gid, started = await started_game(service, humans=2)
        assert await drop_connections(url) >= 1
        result = await service.submit(gid, 100, choose(started, 0), idempotency_key="after-drop")
        assert not result.duplicate
        assert await times_applied(storages[0], gid, "after-drop") == 1


async def test_an_action_cut_off_before_its_commit_runs_again_on_a_new_connection(pg_cluster, caplog):
    async with processes(pg_cluster, 1) as (url, _clock, storages, (service,)):
        gid, started = await started_game(service, humans=2)
        holder = await asyncpg.connect(url)  # another process holds the game: the submission waits on its lock
        tr = holder.transaction()
        await tr.start()
        await holder.execute("SELECT id FROM games WHERE id=$1 FOR UPDATE", gid)
        submitting = asyncio.create_task(service.submit(gid, 100, choose(started, 0), idempotency_key="cut"))

        async def waiting() -> int:  # asked outside the holder's transaction, which sees one snapshot of it
            return await storages[0]._pool.fetchval("SELECT COUNT(*) FROM pg_stat_activity"
                                                    " WHERE wait_event_type='Lock' AND datname=current_database()")

        await until(waiting)
        assert await drop_connections(url, "wait_event_type='Lock'") == 1  # the submission's session only
        await until(waiting)  # it runs again, on a new connection, and waits for the lock again
        assert not submitting.done()
        await tr.rollback()
        await holder.close()
        result = await asyncio.wait_for(submitting, 60)
        assert not result.duplicate and result.version == started.version + 1
        assert "lost mid-transaction" in caplog.text
        again = await service.submit(gid, 100, choose(started, 0), idempotency_key="cut")
        assert again.duplicate
        assert await times_applied(storages[0], gid, "cut") == 1


async def test_a_query_meeting_the_servers_goodbye_runs_again_on_a_fresh_connection(pg_cluster, monkeypatch):
    """Sent between the server's FATAL notice and the socket closing, a query meets asyncpg's protocol still
    consuming that notice (InternalClientError "cannot switch to state ..."): the session is gone, nothing was
    committed, and every pooled connection is opened afresh before the action runs again."""
    async with processes(pg_cluster, 1) as (url, _clock, storages, (service,)):
        gid, started = await started_game(service, humans=2)
        used = fail_first(monkeypatch, "_flush", asyncpg.InternalClientError(
            "cannot switch to state 15; another operation (2) is in progress"))
        result = await service.submit(gid, 100, choose(started, 0), idempotency_key="goodbye")
        assert not result.duplicate and result.version == started.version + 1
        assert used[-1] is not used[0]  # the second try did not reuse the dead session
        assert await times_applied(storages[0], gid, "goodbye") == 1


async def test_after_a_read_finds_its_connection_lost_the_next_read_opens_a_fresh_one(pg_cluster, monkeypatch):
    """A read is not run again (its caller answers "try again"), but the pool is opened afresh, so the next
    click does not meet another of the sessions the server ended."""
    async with processes(pg_cluster, 1) as (_url, _clock, storages, (service,)):
        gid, _started = await started_game(service, humans=2)
        used = fail_first(monkeypatch, "_do", asyncpg.ConnectionDoesNotExistError(
            "connection was closed in the middle of operation"))
        with pytest.raises(asyncpg.ConnectionDoesNotExistError):
            async with storages[0].reading() as tx:
                await tx.game(gid)
        async with storages[0].reading() as tx:
            assert (await tx.game(gid)).id == gid
        assert used[-1] is not used[0]


async def test_a_connection_lost_during_the_commit_is_not_run_again(pg_cluster, monkeypatch):
    """The COMMIT may have landed: the error is raised, and the submission's retry (same key) finds it."""
    async with processes(pg_cluster, 1) as (url, _clock, storages, (service,)):
        gid, started = await started_game(service, humans=2)
        flush = PgTx._flush
        commits: list[PgTx] = []

        async def reply_lost(self: PgTx, *, commit: bool = False) -> None:
            await flush(self, commit=commit)
            if commit:
                commits.append(self)
                raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")

        monkeypatch.setattr(PgTx, "_flush", reply_lost)
        with pytest.raises(asyncpg.ConnectionDoesNotExistError):
            await service.submit(gid, 100, choose(started, 0), idempotency_key="landed")
        assert len(commits) == 1 and commits[0].commit_sent  # one try only
        monkeypatch.setattr(PgTx, "_flush", flush)
        again = await service.submit(gid, 100, choose(started, 0), idempotency_key="landed")
        assert again.duplicate  # the first one's COMMIT had landed
        assert await times_applied(storages[0], gid, "landed") == 1


async def test_timer_notifications_come_back_after_the_listening_connection_is_dropped(pg_cluster):
    async with processes(pg_cluster, 2) as (url, _clock, storages, (listening, other)):
        woken = asyncio.Event()
        await storages[0].listen_timers(woken.set)
        first = storages[0]._listener
        dropped = await drop_connections(url, "application_name='viceroy-gm-listen'")
        assert dropped == 1

        async def listening_again() -> bool:  # on a new session, not the dropped one before it is seen closed
            listener = storages[0]._listener
            return listener is not None and listener is not first and not listener.is_closed()

        await until(listening_again)
        woken.clear()
        await started_game(other, humans=2, time_limit=DAY)  # another process adds deadlines
        await asyncio.wait_for(woken.wait(), 60)
