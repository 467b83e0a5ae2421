"""``python -m tests.bot.shard_bot``: ``python -m bot`` with the Nim test game and a fast clock, for the
end-to-end tests that run several bot processes.

VICEROY_TEST_CLOCK_SPEED=N makes every process's clock run N times faster than the wall clock from the same
origin (VICEROY_TEST_CLOCK_ORIGIN), so the processes agree on the time and a one-minute deadline passes in
60 / N seconds.  VICEROY_TEST_POLL is the scheduler's poll interval in (fast) seconds.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time


class FastClock:
    def __init__(self, speed: float, origin: float) -> None:
        self.speed = speed
        self.origin = origin

    def now(self) -> float:
        return self.origin + (time.time() - self.origin) * self.speed

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds) / self.speed)


def main() -> int:
    import bot.__main__ as entry
    import bot.app
    from bot.presenters import register_presenter
    from tests.bot import turngame

    register_presenter(turngame.PRESENTER)
    speed = float(os.environ.get("VICEROY_TEST_CLOCK_SPEED", "1"))
    origin = float(os.environ.get("VICEROY_TEST_CLOCK_ORIGIN", str(time.time())))
    poll = float(os.environ.get("VICEROY_TEST_POLL", "60"))
    make_bot = bot.app.make_bot

    def fast_bot(settings, **options):
        return make_bot(settings, clock=FastClock(speed, origin), poll_interval=poll, **options)

    bot.app.make_bot = fast_bot
    return entry.main()


if __name__ == "__main__":
    sys.exit(main())
