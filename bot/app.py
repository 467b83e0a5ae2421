"""The running bot: storage, service, scheduler and the Viceroy cog, wired together."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.clock import Clock
from bot.config import Settings
from bot.scheduler import Scheduler
from bot.service import ActionResult, GameService, Reminder
from bot.storage import Storage

log = logging.getLogger(__name__)


class ViceroyBot(commands.Bot):
    """A discord.py bot with no privileged intents: everything is slash commands, buttons and DMs."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None, poll_interval: float = 60.0) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel and guild caches; no message content, no member list
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.settings = settings
        self.clock = clock
        self.poll_interval = poll_interval
        self.storage: Storage | None = None
        self.service: GameService | None = None
        self.scheduler: Scheduler | None = None

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(self.settings.db_path)  # a path (folder created) or a PostgreSQL URL
        self.service = GameService(self.storage, clock=self.clock, default_time_limit=self.settings.default_time_limit)
        await self.load_extension("cogs.viceroy")
        await self.sync_commands()
        self.scheduler = Scheduler(self.service, self._on_timer, clock=self.clock, poll_interval=self.poll_interval)
        await self.scheduler.start()

    async def sync_commands(self) -> None:
        """Sync deliberately: to the development guild if configured, globally only when asked."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("slash commands synced to guild %s", self.settings.dev_guild_id)
        elif self.settings.sync_global:
            await self.tree.sync()
            log.info("slash commands synced globally")

    async def _on_timer(self, outcome: ActionResult | Reminder) -> None:
        cog = self.get_cog("Viceroy")
        if cog is not None:
            await cog.announce(outcome)  # type: ignore[attr-defined]

    async def close(self) -> None:
        if self.scheduler is not None:
            await self.scheduler.stop()
        cog = self.get_cog("Viceroy")
        if cog is not None:
            await cog.drain()  # type: ignore[attr-defined]
        await super().close()
        if self.storage is not None:
            await self.storage.close()
            self.storage = None
