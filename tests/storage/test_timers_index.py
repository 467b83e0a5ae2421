"""Timer queries of one game use an index: they do not walk every unfired timer of every game."""

from __future__ import annotations

from bot.storage.base import _GAME_TIMERS as TIMERS_OF_GAME  # the query Tx.timers and the game load run
from tests.storage.conftest import new_game


async def plan(storage, sql: str, args: tuple) -> str:
    async with storage.transaction() as tx:
        if storage.driver == "postgres":
            # tiny tables are cheaper to scan: ask whether the index answers the query at all
            await tx.execute("SET LOCAL enable_seqscan = off")
            return " / ".join(r[0] for r in await tx._all("EXPLAIN " + sql, args))
        return " / ".join(r[3] for r in await tx._all("EXPLAIN QUERY PLAN " + sql, args))


async def test_timers_of_a_game_use_the_game_index(storage):
    games = [await new_game(storage, channel=c) for c in range(1, 30)]
    async with storage.transaction() as tx:
        for gid in games:
            for seat in range(2):
                await tx.add_timer(gid, seat, "deadline", 1000.0 + gid, f"k{gid}", 0.0)
                await tx.add_timer(gid, seat, "reminder", 500.0 + gid, f"k{gid}", 0.0)
    async with storage.reading() as tx:
        rows = await tx.timers(games[3])
    assert [(t.seat, t.kind) for t in rows] == [(0, "reminder"), (1, "reminder"), (0, "deadline"), (1, "deadline")]
    detail = await plan(storage, TIMERS_OF_GAME, (games[3],))
    if storage.driver == "postgres":
        assert "Index Scan using timers_game" in detail and "game_id =" in detail, detail
    else:
        assert "timers_game (game_id=? AND fired=?)" in detail, detail


async def test_timers_cached_with_the_game_follow_writes_in_the_transaction(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.update_game(gid, 1.0, status="active")
        await tx.add_timer(gid, 0, "deadline", 10.0, "k", 0.0)
    async with storage.transaction() as tx:
        await tx.load_game(gid)
        assert [t.due_at for t in await tx.timers(gid)] == [10.0]
        await tx.add_timer(gid, 1, "deadline", 5.0, "k", 0.0)
        assert [t.due_at for t in await tx.timers(gid)] == [5.0, 10.0]
        await tx.cancel_timers(gid, 1)
        assert [t.due_at for t in await tx.timers(gid)] == [10.0]
        (timer,) = await tx.timers(gid)
        await tx.mark_fired(timer.id)
        assert await tx.timers(gid) == []


async def test_packing_drops_the_game_timers(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.add_timer(gid, 0, "deadline", 10.0, "k", 0.0)
        (timer,) = await tx.timers(gid)
        await tx.mark_fired(timer.id)
        await tx.add_timer(gid, 1, "reminder", 20.0, "k", 0.0)
        await tx.pack_game(gid)
    async with storage.reading() as tx:
        assert await tx.timers(gid, unfired_only=False) == [] and await tx.next_due() is None


async def test_after_commit_runs_only_once_committed(storage):
    gid = await new_game(storage)
    calls: list[str] = []
    async with storage.transaction() as tx:
        await tx.add_timer(gid, 0, "deadline", 10.0, "k", 0.0)
        tx.after_commit(lambda: calls.append("woken"))
        assert calls == []
    assert calls == ["woken"]
    try:
        async with storage.transaction() as tx:
            tx.after_commit(lambda: calls.append("rolled back"))
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert calls == ["woken"]
