"""PostgreSQL only: a submission reads its game without locking it and takes the lock with its writes
(viceroy_guard, at the head of the commit's script).  Two round trips; a game another transaction wrote or
holds in between sends the submission round again, and after OPTIMISTIC_TRIES it locks the game first."""

from __future__ import annotations

import asyncio
import itertools

import asyncpg
import pytest

import tests.service.toygame  # noqa: F401  (registers "toy")
from bot.clock import ManualClock
from bot.service import GameService
from bot.storage import Storage
from bot.storage.postgres import OPTIMISTIC_TRIES
from tests.service.conftest import started_game
from tests.storage.test_postgres_reconnect import choose, until


@pytest.fixture
async def two_processes(pg_cluster):
    url = pg_cluster.database_url(await pg_cluster.create_database(template=pg_cluster.template))
    seeds = itertools.count(1)
    storages = [await Storage.open(url) for _ in range(2)]
    services = [GameService(s, clock=ManualClock(1_800_000_000.0), seed_source=lambda: next(seeds)) for s in storages]
    yield url, storages, services
    for s in storages:
        await s.close()


async def _writes(url: str, gid: int) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT writes FROM games WHERE id=$1", gid)
    finally:
        await conn.close()


def _count_round_trips(monkeypatch) -> list[str]:
    """Every message a connection sends and waits for the answer of (a statement, a script, a fetch)."""
    sent: list[str] = []
    for name in ("execute", "executemany", "fetch", "fetchrow", "fetchval"):
        real = getattr(asyncpg.Connection, name)

        async def counted(self, query, *args, _real=real, **kwargs):
            sent.append(query)
            return await _real(self, query, *args, **kwargs)

        monkeypatch.setattr(asyncpg.Connection, name, counted)
    return sent


async def test_a_submission_is_two_round_trips_and_its_retry_one(two_processes, monkeypatch):
    _url, _storages, (service, _) = two_processes
    gid, started = await started_game(service, humans=2)
    sent = _count_round_trips(monkeypatch)
    result = await service.submit(gid, 100, choose(started, 0), idempotency_key="two")
    assert not result.duplicate
    # the unlocked load, then BEGIN, the guard, the writes and COMMIT
    assert len(sent) == 2 and "FOR UPDATE" not in sent[0]
    script = sent[1].split(";\n")
    assert script[0] == "BEGIN" and script[1].startswith("SELECT viceroy_guard(") and script[-1] == "COMMIT"
    sent.clear()
    again = await service.submit(gid, 100, choose(started, 0), idempotency_key="two")
    # the stored result comes with the load, and its public events and seats after it: no transaction
    assert again.duplicate and not any(q.startswith(("BEGIN", "COMMIT")) for q in sent)


async def test_a_game_written_between_the_read_and_the_commit_runs_the_body_again(two_processes):
    _url, (mine, other), (service, _) = two_processes
    gid, _ = await started_game(service, humans=2)
    async with mine.reading() as tx:
        start = (await tx.game(gid)).version
    tries: list[bool] = []

    async def body(tx):
        tries.append(tx.optimistic)
        await tx.lock_game(gid)
        assert await tx.action_by_key("nobody-used-this") is None
        bundle = await tx.load_game(gid)
        if len(tries) == 1:  # another process writes the game now: it is not locked, so it does not wait
            async with other.transaction() as otx:
                game = await otx.game(gid)
                await otx.update_game(gid, 1.0, version=game.version + 1)
        await tx.update_game(gid, 2.0, version=bundle.game.version + 1)
        return bundle.game.version

    read = await mine.run(body)
    assert tries == [True, True] and mine.conflicts == 1
    assert read == start + 1  # the second try read the other process's write ...
    async with mine.reading() as tx:
        assert (await tx.game(gid)).version == start + 2  # ... and neither write was lost


async def test_a_game_locked_at_the_commit_is_tried_again_then_locked_and_waited_for(two_processes):
    url, (mine, _), (service, _) = two_processes
    gid, started = await started_game(service, humans=2)
    holder = await asyncpg.connect(url)  # another process holds the game for a while
    tr = holder.transaction()
    await tr.start()
    await holder.execute("SELECT id FROM games WHERE id=$1 FOR UPDATE", gid)
    submitting = asyncio.create_task(service.submit(gid, 100, choose(started, 0), idempotency_key="held"))

    async def waiting() -> int:
        return await mine._pool.fetchval("SELECT COUNT(*) FROM pg_stat_activity"
                                         " WHERE wait_event_type='Lock' AND datname=current_database()")

    await until(waiting)  # the optimistic tries gave up at once; the last one waits for the lock
    assert mine.conflicts == OPTIMISTIC_TRIES
    assert not submitting.done()
    await tr.rollback()
    await holder.close()
    result = await asyncio.wait_for(submitting, 60)
    assert not result.duplicate and result.version == started.version + 1


async def test_every_try_meeting_a_writer_ends_in_a_locked_try(two_processes):
    _url, (mine, other), (service, _) = two_processes
    gid, _ = await started_game(service, humans=2)
    tries: list[bool] = []

    async def body(tx):
        tries.append(tx.optimistic)
        await tx.lock_game(gid)
        bundle = await tx.load_game(gid)
        if tx.optimistic:  # a locked try would wait for this one: only the optimistic ones meet a writer
            async with other.transaction() as otx:
                await otx.game(gid)
                await otx.execute("UPDATE games SET updated_at=updated_at WHERE id=?", (gid,))
        await tx.update_game(gid, 2.0, version=bundle.game.version + 1)

    await mine.run(body)
    assert tries == [True] * OPTIMISTIC_TRIES + [False]
    assert mine.conflicts == OPTIMISTIC_TRIES


async def test_only_a_locker_that_writes_counts_its_write(two_processes):
    url, (mine, _), (service, _) = two_processes
    gid, _ = await started_game(service, humans=2)
    before = await _writes(url, gid)
    async with mine.transaction() as tx:
        await tx.game(gid)  # locked, nothing written: nobody's read of the game is out of date
    assert await _writes(url, gid) == before
    async with mine.transaction() as tx:
        await tx.lock_game(gid)
        await tx.update_game(gid, 3.0)
    assert await _writes(url, gid) == before + 1
