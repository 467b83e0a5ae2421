"""Deadline scheduler: sleeps until the next due timer in the database and fires it.

Timers live in the database, so a restart loses nothing: on start the scheduler marks reminders that are long
past as sent (no flood of stale reminders) and then applies every expired deadline exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.clock import Clock
from bot.service import ActionResult, GameService, Reminder

log = logging.getLogger(__name__)

Outcome = ActionResult | Reminder
Callback = Callable[[Outcome], Awaitable[None]]


class Scheduler:
    """Runs `service.fire_timer` for due timers and passes each outcome to `callback`.

    poll_interval caps each sleep, so timers written by another process are picked up too.
    late_grace: a reminder found more than this many seconds late is dropped instead of sent.
    """

    def __init__(self, service: GameService, callback: Callback, *, clock: Clock | None = None,
                 poll_interval: float = 60.0, late_grace: float = 300.0) -> None:
        self.service = service
        self.callback = callback
        self.clock = clock or service.clock
        self.poll_interval = poll_interval
        self.late_grace = late_grace
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._stopping = False
        self.firing = False
        service.on_timers_changed = self.wake

    def wake(self) -> None:
        """Re-read the next due time (called by the service when timers change)."""
        self._wake.set()

    async def start(self) -> None:
        # Timers other processes add (several processes on PostgreSQL) wake this one too.
        await self.service.storage.listen_timers(self.wake)
        # Only reminders already too late to send (late_grace): one that just fell due is sent as usual, by
        # this process or by another one sharing the database that is about to.
        skipped = await self.service.skip_missed_reminders(self.clock.now() - self.late_grace)
        if skipped:
            log.info("skipped %d reminders that fell due while the bot was down", skipped)
        self._stopping = False
        self._task = asyncio.create_task(self._loop(), name="viceroy-scheduler")

    async def stop(self, grace: float = 5.0) -> None:
        """Stop after the current pass: cancelling mid-transaction would leave the database connection
        inside an unfinished transaction (and the shutdown checkpoint would then fail)."""
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), timeout=grace)
            except TimeoutError:
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
            self._task = None

    async def run_due(self) -> list[Outcome]:
        """Fire everything due now; returns the outcomes (also passed to the callback)."""
        try:
            return await self._run_due()
        finally:
            self.firing = False

    async def _run_due(self) -> list[Outcome]:
        outcomes: list[Outcome] = []
        tried: set[int] = set()  # a timer that keeps failing must not spin this loop
        while True:
            now = self.clock.now()
            due = [d for d in await self.service.due_timer_ids(now) if d[0] not in tried]
            if not due:
                return outcomes
            self.firing = True  # until the due timers are fired and announced (shutdown and tests wait on it)
            for timer_id, kind, due_at in due:
                tried.add(timer_id)
                send = not (kind == "reminder" and now - due_at > self.late_grace)
                try:
                    outcome = await self.service.fire_timer(timer_id, send_reminder=send)
                except Exception:
                    log.exception("timer %s failed", timer_id)
                    continue
                if outcome is None:
                    continue
                outcomes.append(outcome)
                try:
                    await self.callback(outcome)
                except Exception:  # announcing failed; the game state is already committed
                    log.exception("scheduler callback failed for timer %s", timer_id)

    async def _sleep_until(self, when: float) -> None:
        while (left := when - self.clock.now()) > 0:
            await self.clock.sleep(left)

    async def _loop(self) -> None:
        while not self._stopping:
            self._wake.clear()  # before reading, so a change made meanwhile still wakes us
            try:
                await self.run_due()
                nxt = await self.service.next_timer_due()
            except Exception:
                log.exception("scheduler pass failed")
                nxt = None
            if self._stopping:
                return
            # An absolute wake time, read again when the sleeper starts: the clock may move between this
            # line and the task's first step, and a relative delay would then oversleep the next deadline.
            until = self.clock.now() + self.poll_interval if nxt is None else min(self.clock.now() + self.poll_interval, nxt)
            sleeper = asyncio.create_task(self._sleep_until(until))
            waker = asyncio.create_task(self._wake.wait())
            try:
                await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for t in (sleeper, waker):
                    t.cancel()
