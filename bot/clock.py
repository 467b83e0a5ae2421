"""Clocks for the scheduler and the service.

The service never calls time.time() directly so that tests can drive deadlines with a ManualClock.
Times are POSIX seconds (float).
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """Wall clock time; sleeps with asyncio."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """A clock that only moves when told to. Sleepers wake when advance() passes their wake time."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = float(start)
        self._changed: asyncio.Event | None = None  # created lazily inside the running loop

    def now(self) -> float:
        return self._now

    def _event(self) -> asyncio.Event:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed

    async def sleep(self, seconds: float) -> None:
        target = self._now + max(0.0, seconds)
        while self._now < target:
            event = self._event()
            await event.wait()

    def set(self, when: float) -> None:
        self._now = float(when)
        # Wake every sleeper; each re-checks its own target.
        event = self._event()
        event.set()
        self._changed = asyncio.Event()

    def advance(self, seconds: float) -> None:
        self.set(self._now + seconds)
