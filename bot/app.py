"""The running bot: storage, service, scheduler, announcer and the table cog, wired together."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Iterator

import discord
from discord.ext import commands

from bot.clock import Clock
from bot.config import Settings
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.storage import Storage

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.table",)
HANDLED_MEMORY = 10_000  # finished interaction ids remembered (for waiting on them)
SHUTDOWN_GRACE = 10.0  # seconds running interaction handlers get to finish at shutdown


class GameMasterBot(commands.Bot):
    """A discord.py bot with no privileged intents: everything is slash commands, buttons and DMs.

    The bot owns the announcer (cogs/announcer.py): the table cog hands it committed results, and the
    scheduler calls it directly for deadlines and reminders.
    """

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
        self.announcer = None
        self.controls = None  # the handler the persistent controls call (set by cogs.table)
        # Interactions being handled right now, and the latest ones finished (bounded): shutdown waits for
        # the running ones, and tests wait on them instead of on quiet time.
        self.handling: dict[int, int] = {}  # interaction id -> nesting depth
        self.handled: OrderedDict[int, None] = OrderedDict()
        self._handlers_idle = asyncio.Event()
        self._handlers_idle.set()

    @contextlib.contextmanager
    def handling_interaction(self, interaction_id: int) -> Iterator[None]:
        """Mark an interaction as being handled for the duration of the block."""
        self.handling[interaction_id] = self.handling.get(interaction_id, 0) + 1
        self._handlers_idle.clear()
        try:
            yield
        finally:
            depth = self.handling.pop(interaction_id, 1) - 1
            if depth:
                self.handling[interaction_id] = depth
            else:
                self.handled[interaction_id] = None
            while len(self.handled) > HANDLED_MEMORY:
                self.handled.popitem(last=False)
            if not self.handling:
                self._handlers_idle.set()

    def busy(self) -> bool:
        """True while an interaction handler, an announcement or a due timer is running."""
        return bool(self.handling) or (self.announcer is not None and self.announcer.busy()) or \
            (self.scheduler is not None and self.scheduler.firing)

    async def setup_hook(self) -> None:
        from bot.games import game_type
        from cogs.announcer import Announcer

        self.storage = await Storage.open(self.settings.db_path)  # a path (folder created) or a PostgreSQL URL
        self.service = GameService(self.storage, clock=self.clock, default_time_limit=self.settings.default_time_limit)
        self.announcer = Announcer(self, self.service, game_type)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()
        self.scheduler = Scheduler(self.service, self.announcer.announce, clock=self.clock,
                                   poll_interval=self.poll_interval)
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

    async def drain(self) -> None:
        """Wait until every background announcement is done."""
        if self.announcer is not None:
            await self.announcer.drain()

    async def wait_handlers(self, timeout: float = SHUTDOWN_GRACE) -> None:
        """Wait (bounded) for the interaction handlers that are running."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._handlers_idle.wait(), timeout)

    async def close(self) -> None:
        if self.scheduler is not None:
            await self.scheduler.stop()
        await self.wait_handlers()
        await self.drain()
        await super().close()
        await self.drain()  # an announcement a click started while we were closing
        if self.storage is not None:
            await self.storage.close()
            self.storage = None


ViceroyBot = GameMasterBot  # the name earlier versions used
