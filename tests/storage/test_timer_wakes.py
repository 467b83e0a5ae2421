"""A re-armed timer keeps its wake time (the scheduler's index is not touched by a re-arm); the scheduler,
woken at the old time, finds nothing due, moves the wake time up to the due time, and fires it then, once."""

from __future__ import annotations

from tests.storage.conftest import new_game


async def _unfired(storage, gid: int) -> list:
    async with storage.reading() as tx:
        return await tx.timers(gid)


async def test_a_re_arm_to_later_times_keeps_every_wake_time(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        for kind, due in (("deadline", 100.0), ("reminder", 50.0), ("reminder", 90.0)):
            await tx.add_timer(gid, 0, kind, due, "p1", 0.0)
    old = await _unfired(storage, gid)
    assert [(t.due_at, t.wake_at) for t in old] == [(50.0, 50.0), (90.0, 90.0), (100.0, 100.0)]
    async with storage.transaction() as tx:  # the schedule in the service's order: deadline first
        await tx.replace_timers(gid, 0, old, [("deadline", 130.0), ("reminder", 80.0), ("reminder", 120.0)],
                                "p2", 30.0)
    new = await _unfired(storage, gid)
    # the earliest row takes the earliest new time: every due time is later, no wake time moved
    assert [(t.id, t.kind, t.due_at, t.wake_at) for t in new] == [
        (old[0].id, "reminder", 80.0, 50.0), (old[1].id, "reminder", 120.0, 90.0),
        (old[2].id, "deadline", 130.0, 100.0)]
    async with storage.reading() as tx:
        assert await tx.next_due() == 50.0  # the scheduler looks at the old time...
        assert await tx.due_timers(60.0) == []  # ...and finds nothing due then
    async with storage.transaction() as tx:
        await tx.push_wakes(70.0)
    assert [(t.due_at, t.wake_at) for t in await _unfired(storage, gid)] == [
        (80.0, 80.0), (120.0, 90.0), (130.0, 100.0)]  # only the timer whose wake time had come
    async with storage.transaction() as tx:
        await tx.push_wakes(95.0)  # a timer already due keeps its wake time: it is fired, not moved
    assert [(t.due_at, t.wake_at) for t in await _unfired(storage, gid)] == [
        (80.0, 80.0), (120.0, 120.0), (130.0, 100.0)]
    async with storage.reading() as tx:
        assert [t.due_at for t in await tx.due_timers(95.0)] == [80.0]


async def test_a_re_arm_to_an_earlier_time_moves_the_wake_time(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.add_timer(gid, 0, "deadline", 100.0, "p1", 0.0)
    old = await _unfired(storage, gid)
    async with storage.transaction() as tx:  # a shorter limit: due before the old wake time
        await tx.replace_timers(gid, 0, old, [("deadline", 40.0), ("reminder", 20.0)], "p2", 10.0)
    assert [(t.kind, t.due_at, t.wake_at) for t in await _unfired(storage, gid)] == [
        ("reminder", 20.0, 20.0), ("deadline", 40.0, 40.0)]
    async with storage.reading() as tx:
        assert await tx.next_due() == 20.0
