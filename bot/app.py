"""The running bot: storage, service, scheduler, announcer and the table cog, wired together."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import discord
from discord.ext import commands

from bot.clock import Clock
from bot.config import Settings
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.storage import Storage
from bot.storage.base import is_postgres_url

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.table",)
# The bot's own settings live in user_prefs under user id 0 (no Discord user has it).
BOT_PREFS = 0
COMMAND_SYNC_PREF = "commands.synced"  # + application id + guild id or "global": the synced set's fingerprint
HANDLED_MEMORY = 10_000  # finished interaction ids remembered (for waiting on them)


class GameMasterBot(commands.Bot):
    """A discord.py bot with no privileged intents: everything is slash commands, buttons and DMs.

    The bot owns the announcer (cogs/announcer.py): the table cog hands it committed results, and the
    scheduler calls it directly for deadlines and reminders.
    """

    def __init__(self, settings: Settings, *, clock: Clock | None = None, poll_interval: float = 60.0) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel and guild caches; no message content, no member list
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         **self._gateway_options(settings))
        self.settings = settings
        self.clock = clock
        self.poll_interval = poll_interval
        self.storage: Storage | None = None
        self.service: GameService | None = None
        self.scheduler: Scheduler | None = None
        self.announcer = None
        self.languages: Any = None
        self.ai_runner = None  # plays AI seats in a worker (bot/ai_runner.py)
        self.handling: set[asyncio.Task] = set()  # interaction handlers running now (see drain)
        self.controls = None  # the handler the persistent controls call (set by cogs.table)
        # Interactions being handled right now (id -> nesting depth) and the latest ones finished (bounded):
        # tests wait on them instead of on quiet time.
        self.in_hand: dict[int, int] = {}
        self.handled: OrderedDict[int, None] = OrderedDict()

    @staticmethod
    def _gateway_options(settings: Settings) -> dict:
        return {}

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process's gateway shards receive `guild_id`'s events (None: DMs, shard 0).  Start-up
        catch-up covers only these games: with several processes each game has one owner."""
        return self.settings.owns_guild(guild_id)

    @contextlib.contextmanager
    def handling_interaction(self, interaction_id: int) -> Iterator[None]:
        """Mark an interaction as being handled for the duration of the block."""
        self.in_hand[interaction_id] = self.in_hand.get(interaction_id, 0) + 1
        try:
            yield
        finally:
            depth = self.in_hand.pop(interaction_id, 1) - 1
            if depth:
                self.in_hand[interaction_id] = depth
            else:
                self.handled[interaction_id] = None
            while len(self.handled) > HANDLED_MEMORY:
                self.handled.popitem(last=False)

    def busy(self) -> bool:
        """True while an interaction handler, an announcement or a due timer is running."""
        return bool(self.in_hand) or (self.announcer is not None and self.announcer.busy()) or \
            (self.scheduler is not None and self.scheduler.firing) or \
            (self.ai_runner is not None and self.ai_runner.busy())

    async def setup_hook(self) -> None:
        from bot.ai_runner import AIRunner
        from bot.games import game_type
        from cogs.announcer import Announcer
        from cogs.i18n import CatalogueTranslator, Languages

        # A SQLite path (its folder is created) or a PostgreSQL URL; VICEROY_DB_SYNC is SQLite's pragma.
        sqlite = not is_postgres_url(str(self.settings.db_path))
        options = {"synchronous": self.settings.db_sync} if sqlite else {}
        self.storage = await Storage.open(self.settings.db_path, **options)
        # AI seats think in a worker (ai_runner), never inside a transaction or on the event loop.
        self.service = GameService(self.storage, clock=self.clock, default_time_limit=self.settings.default_time_limit,
                                   ai_inline=False)
        self.languages = Languages(self, self.service)  # who reads which language (cogs/i18n.py)
        self.announcer = Announcer(self, self.service, game_type)
        self.ai_runner = AIRunner(self.service, self.announcer.announce, workers=self.settings.ai_workers)
        self.announcer.on_result = self.ai_runner.on_result
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.tree.set_translator(CatalogueTranslator())  # command names and descriptions in Swedish too
        await self.sync_commands()
        self.scheduler = Scheduler(self.service, self.announcer.announce, clock=self.clock,
                                   poll_interval=self.poll_interval)
        await self.scheduler.start()

    async def command_digest(self, guild: discord.abc.Snowflake | None = None) -> str:
        """A fingerprint of the command set as it would be synced (names, options, descriptions, contexts and
        their translations)."""
        commands_ = sorted(self.tree.get_commands(guild=guild), key=lambda c: c.name)
        translator = self.tree.translator
        payload = [await c.get_translated_payload(self.tree, translator) if translator is not None
                   else c.to_dict(self.tree) for c in commands_]
        return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()

    async def sync_commands(self) -> bool:
        """Sync the slash commands when they changed since the last sync (a fingerprint is kept in the
        database): to the development guild if one is configured, otherwise globally. VICEROY_SYNC_GLOBAL
        forces a global sync. Discord limits command creates per day, so an unchanged set is not re-sent on
        every start; a new operator who set only DISCORD_TOKEN still gets the commands on the first start."""
        assert self.service is not None
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        where = f"guild {guild.id}" if guild is not None else "global"
        key = f"{COMMAND_SYNC_PREF}.{self.application_id}.{guild.id if guild is not None else 'global'}"
        digest = await self.command_digest(guild)
        forced = self.settings.sync_global and guild is None
        if not forced and await self.service.get_pref(BOT_PREFS, key) == digest:
            log.info("slash commands unchanged (%s): not synced", where)
            return False
        try:
            await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            # The bot still runs (buttons of games in progress work); the next start tries again.
            log.error("slash command sync (%s) failed: %s", where, exc)
            return False
        await self.service.set_pref(BOT_PREFS, key, digest)
        log.info("slash commands synced (%s)", where)
        return True

    async def drain(self) -> None:
        """Wait until every click being handled and every background announcement is done."""
        me = asyncio.current_task()
        while pending := [t for t in self.handling if t is not me and not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)
        if self.announcer is not None:
            await self.announcer.drain()

    async def close(self) -> None:
        if self.scheduler is not None:
            await self.scheduler.stop()
        if self.ai_runner is not None:
            await self.ai_runner.close()  # a move still being thought about is not stored: computed again later
        if self.announcer is not None:
            self.announcer.stop()  # redeliveries wait in the outbox for the next start
        await self.drain()
        await super().close()
        await self.drain()  # an announcement a click started while we were closing
        if self.storage is not None:
            await self.storage.close()
            self.storage = None


class ShardedGameMasterBot(GameMasterBot, commands.AutoShardedBot):
    """The same bot over a range of Discord shards (VICEROY_SHARDS / VICEROY_SHARD_IDS).  Several such
    processes may share one PostgreSQL database: games live only there, so any process can apply an action
    to any game (a DM click arrives on shard 0, whatever server the game is in)."""

    @staticmethod
    def _gateway_options(settings: Settings) -> dict:
        ids = list(settings.shard_ids) if settings.shard_ids is not None else None
        return {"shard_count": settings.shard_count, "shard_ids": ids}


def make_bot(settings: Settings, **options) -> GameMasterBot:
    """The bot for these settings: sharded when VICEROY_SHARDS is set, a single connection otherwise."""
    cls = ShardedGameMasterBot if settings.sharded else GameMasterBot
    return cls(settings, **options)


ViceroyBot = GameMasterBot  # the name earlier versions used
