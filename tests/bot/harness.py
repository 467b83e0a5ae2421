"""Starting the real bot against the local fake Discord, in-process or as a separate process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.app import GameMasterBot
from bot.autoplay import SimulatedPlayer, game_over, play_together
from bot.config import Settings
from bot.localdiscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMessage,
    FakeUser,
    close_client,
    connect_client,
)

ROOT = Path(__file__).resolve().parents[2]
UNCLAIMED_AFTER = 3.0  # seconds: Discord's response window (when the fake sets none)


def settings_for(world: FakeDiscord, guild: FakeGuild, db: Path, *, time_limit: int | None = None) -> Settings:
    return Settings(token=world.token, db_path=db, dev_guild_id=guild.id, sync_global=False,
                    default_time_limit=time_limit, log_level="WARNING", demo_dir=db.parent / "demo",
                    fake_discord=f"{world.host}:{world.port}")


@dataclass
class Table:
    world: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    users: list[FakeUser]
    db: Path
    bot: GameMasterBot | None = None
    task: asyncio.Task | None = None
    proc: subprocess.Popen | None = None
    extra: dict = field(default_factory=dict)

    async def start_bot(self, *, time_limit: int | None = None, clock=None) -> GameMasterBot:
        self.bot = GameMasterBot(settings_for(self.world, self.guild, self.db, time_limit=time_limit), clock=clock,
                              poll_interval=0.2)
        self.task = await connect_client(self.world, self.bot)
        await self.world.wait_for(lambda: bool(self.world.commands(self.guild)), timeout=10, what="command sync")
        return self.bot

    def settled(self) -> bool:
        """Nothing left to happen: no request in flight, every interaction the users started has been
        handled by the bot (or was never picked up by it: unclaimed and past its 3 s response window),
        no handler and no announcement running."""
        world, bot = self.world, self.bot
        if world.in_flight:
            return False
        if bot is None:
            return True
        if bot.busy():
            return False
        now = time.monotonic()
        unclaimed = (world.interaction_deadline or UNCLAIMED_AFTER) + 0.5
        return all(rec.id in bot.handled or (now - rec.created > unclaimed)
                   for rec in world.interactions.values())

    async def settle(self, timeout: float = 120.0) -> None:
        """Wait until the in-process bot has finished handling every interaction and every announcement."""
        await self.world.wait_for(self.settled, timeout=timeout, what="the bot to finish handling and announcing")

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await close_client(self.bot, self.task, self.world)
            self.bot = None

    def start_process(self) -> subprocess.Popen:
        """The bot as a separate process (python -m bot) against this world and database."""
        env = dict(os.environ)
        env.update(self.world.env())
        env.update({"VICEROY_DB": str(self.db), "VICEROY_DEV_GUILD": str(self.guild.id),
                    "VICEROY_TIME_LIMIT_HOURS": "0", "VICEROY_LOG_LEVEL": "INFO"})
        self.proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=env)
        return self.proc

    async def start_process_ready(self, timeout: float = 120.0) -> None:
        """Start the bot process and wait until its gateway session is live (its commands are synced before
        it connects, on the first start only: they do not change between restarts)."""
        world = self.world
        sessions = set(world.sessions)
        self.start_process()
        await world.wait_for(lambda: any(sid not in sessions and s.conn is not None for sid, s in world.sessions.items()),
                             timeout=timeout, what="the bot's gateway session")
        await world.idle(quiet=0.2, timeout=30)

    def kill_process(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None


async def new_table(world: FakeDiscord, tmp: Path, names: list[str], *, closed: tuple[str, ...] = ()) -> Table:
    guild = world.add_guild("Viceroy club")
    channel = world.add_text_channel(guild, "viceroy")
    users = [world.add_user(n, guild, dms_open=n not in closed) for n in names]
    return Table(world, guild, channel, users, tmp / "viceroy.db")


@contextlib.asynccontextmanager
async def running_table(world: FakeDiscord, tmp: Path, names: list[str], **kwargs) -> AsyncIterator[Table]:
    """A new table with its bot started, stopped again on the way out whatever the test did."""
    table = await new_table(world, tmp, names, **kwargs)
    await table.start_bot()
    try:
        yield table
    finally:
        await table.stop_bot()


async def open_lobby(table: Table, host: FakeUser, command: str = "viceroy", **options) -> FakeMessage:
    """``/<command> new`` in the table's channel; the lobby message it posted. AI seats play the easy level
    unless ``ai_level`` says otherwise: these games test the game flow, not the AI's strength."""
    if options.get("ai"):
        options.setdefault("ai_level", "easy")
    rec = await host.slash(table.channel, f"{command} new", **options)
    await table.settle()
    assert rec.reply is not None and rec.reply.embeds, f"no lobby: {rec.reply and rec.reply.content}"
    return rec.reply


async def play_out(table: Table, players: list[FakeUser], *, strategy=None, timeout: float = 120.0) -> list[int]:  # noqa: ANN001
    """Each of ``players`` plays its seat to the end (seeded by its place in the list); the game is over and
    the bot is quiet. The decisions each made."""
    sims = [SimulatedPlayer(table.world, u, table.channel, seed=i, strategy=strategy) for i, u in enumerate(players)]
    counts = await play_together(sims, timeout=timeout)
    await table.settle()
    assert game_over(table.channel)
    return list(counts)


def final_sheet(channel: FakeChannel) -> FakeMessage:
    """The channel's final score sheet (the first message with a "final scores" embed)."""
    return next(m for m in channel.messages() for e in m.embeds if "final scores" in (e.get("title") or ""))


def posted_totals(channel: FakeChannel) -> dict[str, int]:
    """Each player's total as the final score sheet shows it."""
    text = final_sheet(channel).embeds[0]["description"]
    return {name: int(total) for name, total in re.findall(r"\*\*(.+?)\*\*: (-?\d+)", text)}


async def start_game(table: Table, command: str = "viceroy", *, players: list[FakeUser] | None = None,
                     **options) -> FakeMessage:
    """The first player opens a lobby, the other players join and the host presses Start; the lobby message."""
    host, *others = players if players is not None else table.users
    lobby = await open_lobby(table, host, command, **options)
    for user in others:
        await user.click(lobby, label="Join")
        await table.settle()
    await host.click(lobby, label="Start")
    return lobby
