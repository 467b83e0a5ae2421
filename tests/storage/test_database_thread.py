"""SQLite's database thread: every call on the connection runs on one thread, in the order submitted; a
call's result or exception reaches its caller; a caller that stops waiting does not stop its call."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.storage import Storage
from bot.storage.sqlite import DatabaseThread


async def test_calls_run_on_one_thread_in_the_order_they_were_submitted():
    thread = DatabaseThread("test-db")
    try:
        seen: list[tuple[int, int]] = []

        def call(n: int) -> int:
            seen.append((n, threading.get_ident()))
            return n * n

        futures = [thread.submit(call, n) for n in range(50)]
        assert await asyncio.gather(*futures) == [n * n for n in range(50)]
        assert [n for n, _ in seen] == list(range(50))
        idents = {ident for _, ident in seen}
        assert len(idents) == 1 and idents != {threading.get_ident()}
    finally:
        thread.shutdown()


async def test_an_exception_reaches_its_caller_and_the_thread_goes_on():
    thread = DatabaseThread("test-db")
    try:
        def fail() -> None:
            raise ValueError("no such row")

        with pytest.raises(ValueError, match="no such row"):
            await thread.submit(fail)
        with pytest.raises(RuntimeError, match="StopIteration"):  # an asyncio future cannot hold one
            await thread.submit(next, iter(()))
        assert await thread.submit(lambda: "still serving") == "still serving"
    finally:
        thread.shutdown()


async def test_a_caller_that_stops_waiting_does_not_stop_its_call():
    thread = DatabaseThread("test-db")
    try:
        started, release = threading.Event(), threading.Event()
        finished: list[str] = []

        def slow() -> str:
            started.set()
            release.wait(10)
            finished.append("slow")
            return "done"

        waiter = asyncio.ensure_future(thread.submit(slow))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        after = thread.submit(lambda: list(finished))
        release.set()
        assert await after == ["slow"]  # the cancelled call ran to its end, before the next one
    finally:
        thread.shutdown()


async def test_shutdown_lets_submitted_calls_finish_then_refuses_new_ones():
    thread = DatabaseThread("test-db")
    done: list[int] = []
    futures = [thread.submit(done.append, n) for n in range(5)]
    thread.shutdown()
    assert done == list(range(5))
    await asyncio.gather(*futures)
    with pytest.raises(RuntimeError, match="closed"):
        thread.submit(done.append, 5)
    thread.shutdown()  # twice is harmless


async def test_a_closed_storage_refuses_calls_and_leaves_no_thread(tmp_path):
    before = {t.ident for t in threading.enumerate()}
    storage = await Storage.open(str(tmp_path / "t.db"))
    async with storage.reading() as tx:
        assert await tx.games(status=("active",)) == []
    await storage.close()
    assert {t.ident for t in threading.enumerate() if t.is_alive()} <= before
    with pytest.raises(RuntimeError, match="closed"):
        async with storage.reading() as tx:
            await tx.games(status=("active",))
