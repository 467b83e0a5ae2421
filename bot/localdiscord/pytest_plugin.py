"""Pytest fixtures for the fake Discord.

Use with ``pytest_plugins = ["bot.localdiscord.pytest_plugin"]`` in a conftest.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from .client import point_discord_py_at, restore_discord_py
from .server import FakeDiscord


def strict_problems(world: FakeDiscord) -> list[str]:
    """What a strict world saw that a test should fail on: unimplemented requests, internal errors, and
    requests refused because they broke one of Discord's documented rules (the bot only logs those)."""
    problems = [f"unimplemented: {u}" for u in world.unimplemented]
    problems += [f"fake Discord error: {e}" for e in world.errors]
    problems += [f"refused ({v.check}): {v.method} {v.path}: {v.detail}" for v in world.violations]
    return problems


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started :class:`FakeDiscord` with discord.py pointed at it.

    At teardown the test fails if the bot made any request the fake does not implement or that Discord would
    refuse (``world.violations``); set ``world.strict = False`` inside a test that provokes them on purpose.
    """
    world = FakeDiscord()
    await world.start()
    point_discord_py_at(world.host, world.port)
    try:
        yield world
    finally:
        await world.stop()
        restore_discord_py()
    problems = strict_problems(world)
    if world.strict and problems:
        pytest.fail("fake Discord strict check failed:\n  " + "\n  ".join(problems))
