"""PostgreSQL only: how deadlines behave when another process holds them or dies holding them."""

from __future__ import annotations

import asyncio
import itertools

import asyncpg
import pytest

import tests.service.toygame  # noqa: F401  (registers "toy")
from bot.clock import ManualClock
from bot.service import ActionResult, GameService
from bot.storage import Storage
from tests.service.conftest import started_game

DAY = 24 * 3600.0


async def two_processes(pg_cluster):
    url = pg_cluster.database_url(await pg_cluster.create_database(template=pg_cluster.template))
    clock = ManualClock(1_800_000_000.0)
    seeds = itertools.count(1)
    storages = [await Storage.open(url) for _ in range(2)]
    return url, clock, storages, [GameService(s, clock=clock, seed_source=lambda: next(seeds)) for s in storages]


async def deadline_of(service: GameService) -> int:
    return next(t for t, kind, _ in await service.due_timer_ids() if kind == "deadline")


async def test_a_deadline_held_by_another_process_is_skipped(pg_cluster):
    url, clock, storages, (a, b) = await two_processes(pg_cluster)
    try:
        await started_game(a, humans=2, time_limit=DAY)
        clock.advance(DAY + 1)
        timer_id = await deadline_of(a)
        other = await asyncpg.connect(url)  # a process busy firing it: the timer row is locked
        try:
            async with other.transaction():
                await other.execute("SELECT id FROM timers WHERE id=$1 FOR UPDATE", timer_id)
                assert await asyncio.wait_for(b.fire_timer(timer_id), timeout=60) is None
        finally:
            await other.close()
        # released without firing (the other process rolled back): the next wake-up fires it
        assert isinstance(await a.fire_timer(timer_id), ActionResult)
        assert await b.fire_timer(timer_id) is None
    finally:
        for s in storages:
            await s.close()


async def test_a_process_killed_mid_claim_leaves_the_deadline_to_the_next(pg_cluster):
    url, clock, storages, (a, b) = await two_processes(pg_cluster)
    try:
        gid, _ = await started_game(a, humans=2, time_limit=DAY)
        clock.advance(DAY + 1)
        timer_id = await deadline_of(a)
        dying = await asyncpg.connect(url)
        tr = dying.transaction()
        await tr.start()
        await dying.execute("SELECT id FROM games WHERE id=$1 FOR UPDATE", gid)
        await dying.execute("UPDATE timers SET fired=1 WHERE id=$1", timer_id)  # claimed, not committed
        firing = asyncio.create_task(b.fire_timer(timer_id))  # waits for the game lock
        async def blocked() -> None:  # until b's transaction waits on the dying process's lock
            while not await storages[0]._pool.fetchval(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type='Lock'"
                    " AND datname=current_database()"):
                await asyncio.sleep(0.01)

        await asyncio.wait_for(blocked(), timeout=60)
        dying.terminate()  # the process dies: its socket closes, the server rolls its transaction back
        result = await asyncio.wait_for(firing, timeout=60)
        assert isinstance(result, ActionResult) and len(result.timed_out) == 1
        async with storages[1].reading() as tx:
            assert [r.kind for r in await tx.actions(gid)].count("timeout") == 1
    finally:
        for s in storages:
            await s.close()


async def test_a_process_that_hangs_mid_claim_loses_its_lease(pg_cluster):
    """A claim lasts as long as its transaction; the server ends a transaction left idle past the lease
    (idle_in_transaction_session_timeout), so a hung process cannot hold a deadline for ever."""
    url, clock, storages, (a, b) = await two_processes(pg_cluster)
    try:
        gid, _ = await started_game(a, humans=2, time_limit=DAY)
        clock.advance(DAY + 1)
        timer_id = await deadline_of(a)
        hung = await asyncpg.connect(url, server_settings={"idle_in_transaction_session_timeout": "300"})
        tr = hung.transaction()
        await tr.start()
        await hung.execute("SELECT id FROM games WHERE id=$1 FOR UPDATE", gid)
        await hung.execute("UPDATE timers SET fired=1 WHERE id=$1", timer_id)  # claimed; then it stops talking
        result = await asyncio.wait_for(b.fire_timer(timer_id), timeout=60)  # waits until the lease ends
        assert isinstance(result, ActionResult) and len(result.timed_out) == 1
        with pytest.raises((asyncpg.PostgresError, asyncpg.InterfaceError, ConnectionError)):
            await tr.commit()  # the hung process's claim is gone
        await hung.close()
        async with storages[1].reading() as tx:
            assert [r.kind for r in await tx.actions(gid)].count("timeout") == 1
    finally:
        for s in storages:
            await s.close()


async def test_pool_connections_carry_the_lease(pg_cluster):
    from bot.storage.postgres import LEASE_SECONDS

    _, _, storages, _ = await two_processes(pg_cluster)
    try:
        shown = await storages[0]._pool.fetchval("SHOW idle_in_transaction_session_timeout")
        assert shown in (f"{LEASE_SECONDS}s", f"{LEASE_SECONDS // 60}min")
    finally:
        for s in storages:
            await s.close()


async def test_a_new_timer_wakes_every_other_process(pg_cluster):
    """A commit that adds timers notifies every process's scheduler (LISTEN/NOTIFY), so a deadline set by a
    process that then dies is still fired on time by another."""
    _, clock, storages, (a, b) = await two_processes(pg_cluster)
    try:
        woken = asyncio.Event()
        await storages[1].listen_timers(woken.set)
        await asyncio.wait_for(woken.wait(), timeout=60)  # listening starts with one wake-up
        woken.clear()
        await started_game(a, humans=2, time_limit=DAY)  # a prompt with a deadline and reminders
        await asyncio.wait_for(woken.wait(), timeout=60)
        assert await b.next_timer_due() == clock.now() + DAY / 2  # the first reminder, read by the other one
    finally:
        for s in storages:
            await s.close()
