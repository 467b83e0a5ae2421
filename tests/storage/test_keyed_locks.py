"""KeyedLocks: one game at a time per key, and nothing kept for idle games."""

from __future__ import annotations

import asyncio

import pytest

from bot.locks import KeyedLocks


async def test_same_key_is_exclusive_other_keys_are_not():
    locks = KeyedLocks()
    order: list[str] = []
    gate = asyncio.Event()

    async def first() -> None:
        async with locks.hold(1):
            order.append("first in")
            await gate.wait()
            order.append("first out")

    async def second() -> None:
        async with locks.hold(1):
            order.append("second in")

    async def other() -> None:
        async with locks.hold(2):
            order.append("other in")

    t1 = asyncio.create_task(first())
    while not locks.locked(1):
        await asyncio.sleep(0)
    t2 = asyncio.create_task(second())
    await other()  # another game does not wait
    assert order == ["first in", "other in"]
    gate.set()
    await asyncio.gather(t1, t2)
    assert order == ["first in", "other in", "first out", "second in"]


async def test_idle_keys_are_forgotten():
    locks = KeyedLocks()
    for game in range(10_000):
        async with locks.hold(game):
            assert len(locks) == 1
    assert len(locks) == 0


async def test_a_cancelled_waiter_and_an_error_leave_nothing_behind():
    locks = KeyedLocks()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks.hold("g"):
            await release.wait()

    async def waiter() -> None:
        async with locks.hold("g"):
            pass

    h = asyncio.create_task(holder())
    while not locks.locked("g"):
        await asyncio.sleep(0)
    w = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    w.cancel()
    with pytest.raises(asyncio.CancelledError):
        await w
    release.set()
    await h
    with pytest.raises(RuntimeError):
        async with locks.hold("g"):
            raise RuntimeError("boom")
    assert len(locks) == 0


def test_recent_keeps_only_the_latest_keys():
    from bot.locks import Recent

    memo = Recent(3)
    for game in range(10):
        memo[game] = game * 10
    assert list(memo) == [7, 8, 9] and memo[8] == 80
    memo[7] = 71  # set again: the most recent now
    memo[10] = 100
    assert list(memo) == [9, 7, 10]


async def test_the_announcer_keeps_no_lock_for_an_idle_game():
    from cogs.announcer import Announcer

    announcer = Announcer(client=None, service=None, game_type=lambda name: None)
    async with announcer.lock(5):
        assert announcer._locks.locked(5)
    assert len(announcer._locks) == 0
