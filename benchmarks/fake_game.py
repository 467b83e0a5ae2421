"""One whole game through the real bot on the local fake Discord (strict, rate limits on), played by simulated
people (bot/autoplay.py) from `/viceroy new` to the final post: what bench_traffic.py and bench_messages.py
count from."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path

from bot.app import GameMasterBot
from bot.autoplay import SimulatedPlayer
from bot.config import Settings
from bot.localdiscord import (
    FakeChannel,
    FakeDiscord,
    FakeUser,
    close_client,
    connect_client,
    restore_discord_py,
)


@dataclass
class PlayedGame:
    world: FakeDiscord  # stopped; what it recorded stays readable
    channel: FakeChannel
    users: list[FakeUser]
    players: list[SimulatedPlayer]
    since: int  # the snowflake just before Start
    first_request: int  # index in world.requests of the first request after Start
    first_upload: int  # index in world.uploads of the first file after Start
    seconds: float  # from Start to the last request

    @property
    def decisions(self) -> int:
        return sum(p.decisions for p in self.players)


async def play_game(names: list[str], seed: int, tmp: Path, *, label: str = "bench") -> PlayedGame:
    """A ``len(names)``-player Viceroy game: the first opens the lobby, the others join, all play to the end."""
    world = FakeDiscord()
    await world.start()
    guild = world.add_guild(label)
    channel = world.add_text_channel(guild, "viceroy")
    users = [world.add_user(name, guild) for name in names]
    settings = Settings(token=world.token, db_path=tmp / f"{label}-{seed}.db", dev_guild_id=guild.id,
                        sync_global=False, default_time_limit=None, log_level="WARNING", demo_dir=tmp,
                        fake_discord=f"{world.host}:{world.port}")
    bot = GameMasterBot(settings, poll_interval=1.0)
    task = await connect_client(world, bot)
    try:
        await world.wait_for(lambda: bool(world.commands(guild)), timeout=30, what="command sync")
        rec = await users[0].slash(channel, "viceroy new", seats=len(users), timeout=30)
        await world.idle()
        # The command is deferred ("thinking") and answered when the lobby is made: on a loaded machine that can
        # be after the world has gone quiet for a moment.
        await world.wait_for(lambda: rec.reply is not None and any(b.get("label") == "Join" for b in rec.reply.buttons()),
                             timeout=60, what="the lobby")
        for user in users[1:]:
            await user.click(rec.reply, label="Join", timeout=30)
            await world.idle()
        since, first_request, first_upload = world.snowflake(), len(world.requests), len(world.uploads)
        started = time.monotonic()
        await users[0].click(rec.reply, label="Start", timeout=30)
        await world.idle()
        players = [SimulatedPlayer(world, u, channel, seed=seed * 10 + i) for i, u in enumerate(users)]
        await asyncio.gather(*(p.run(timeout=1200) for p in players))
        await world.idle(timeout=60)
        await bot.drain()
        await world.idle(timeout=60)
        seconds = time.monotonic() - started
    finally:
        await close_client(bot, task, world)
        await world.stop()
        restore_discord_py()
    return PlayedGame(world, channel, users, players, since, first_request, first_upload, seconds)
