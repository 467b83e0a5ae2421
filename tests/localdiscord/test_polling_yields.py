"""A test that polls the fake in a tight loop must not starve it: the fake answers on the same event loop."""

from __future__ import annotations

import asyncio

import aiohttp


async def test_polling_an_idle_world_still_lets_the_fake_answer(fake_discord):
    world = fake_discord

    async def request() -> int:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{world.http_base}/api/v10/gateway", headers={"Authorization": f"Bot {world.token}"}) as resp:
                return resp.status

    task = asyncio.create_task(request())
    polls = 0
    while not task.done() and polls < 5000:
        # Already idle: before the fix this returned without ever yielding, so the request was never read.
        await world.idle(quiet=0.0)
        polls += 1
    assert task.done() and task.result() == 200, f"the request got no answer after {polls} polls"
