"""A small Discord stand-in: REST API v10 and gateway on 127.0.0.1, enough for a game bot.

Unknown routes answer 501 and are recorded in ``FakeDiscord.unimplemented`` so that gaps are visible.
"""

from __future__ import annotations

import asyncio
import copy
import fnmatch
import json
import logging
import re
import secrets
import time
import zlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from aiohttp import WSMsgType, web

from . import rules
from .model import (
    ADD_REACTIONS,
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ATTACH_FILES,
    ATTACHMENT_SIZE_LIMIT,
    BOT_PERMISSIONS,
    EMBED_LINKS,
    MEMBER_PERMISSIONS,
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_LOADING,
    PERMISSION_NAMES,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    InteractionRecord,
    SnowflakeFactory,
    WaitTimeout,
    iso,
    shard_of,
)
from .ratelimit import RateLimiter
from .users import FakeUser

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
HEARTBEAT_INTERVAL_MS = 41250
# Discord's heartbeat ACK crosses a network. Answered on the same loop tick, over loopback, it can reach
# discord.py before its keep-alive thread has noted that the heartbeat went out, and discord.py then reports
# the connection "41 s behind" (the whole interval) although nothing was late.
HEARTBEAT_ACK_DELAY = 0.02
INTERACTION_TOKEN_LIFETIME = 15 * 60
REPLAY_BUFFER = 2000


# Every check is on by default (docs/fake-discord.md, "Strictness"); a test relaxes one with checks.discard.
DEFAULT_CHECKS = frozenset(rules.ALL_CHECKS)
OLD_MESSAGE_AGE = 3600.0  # seconds after which a message's edits are limited (error 30046)


class ApiError(Exception):
    """Raised inside a handler to answer with Discord's error JSON."""

    def __init__(self, status: int, code: int, message: str, *, errors: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.errors = errors
        self.headers = headers

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        return out


@dataclass
class Violation:
    """A request the fake refused because the bot broke one of Discord's documented rules."""

    check: str
    method: str
    path: str
    detail: str


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py only parses JSON when Content-Type is exactly "application/json" (no charset).
    hdrs = {"Content-Type": "application/json"}
    hdrs.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=hdrs)


@dataclass
class Fault:
    method: str
    pattern: str
    kind: str  # "ratelimit" | "slow" | "fail" | "hold"
    times: int | None  # None = until removed
    retry_after: float = 0.0
    delay: float = 0.0
    status: int = 500
    code: int = 0
    message: str = ""
    event: asyncio.Event | None = None  # "hold": the request waits until this is set

    def matches(self, method: str, path: str) -> bool:
        return (self.method in ("*", method)) and fnmatch.fnmatchcase(path, self.pattern)


SEND_TIMEOUT = 2.0  # seconds a gateway frame may take to reach a connection before it is given up
# Discord closes a session whose shard would hold more guilds than this with 4011 "Sharding required".
MAX_GUILDS_PER_SHARD = 2500


@dataclass
class RequestRecord:
    method: str
    path: str
    status: int = 0
    started: float = field(default_factory=time.monotonic)


@dataclass(eq=False)
class GatewaySession:
    id: str
    user_id: int
    shard: tuple[int, int] = (0, 1)  # (shard_id, shard_count) from IDENTIFY
    seq: int = 0
    buffer: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    conn: GatewayConnection | None = None

    @property
    def connected(self) -> bool:
        return self.conn is not None

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session gets an event of `guild_id` (None: not of a guild, e.g. a DM: shard 0)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, count) == shard_id


@dataclass(eq=False)
class GatewayConnection:
    ws: web.WebSocketResponse
    compress: str | None
    session: GatewaySession | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    zctx: Any = None
    # A stalled connection (FakeDiscord.stall_gateway) stays open but acks no heartbeat and gets no event:
    # what a client sees of a gateway node that hangs. Its session's events wait in the buffer for a RESUME.
    stalled: bool = False

    async def send(self, payload: dict[str, Any]) -> None:
        raw = json.dumps(payload)
        async with self.lock:
            if self.ws.closed:
                return
            if self.compress == "zlib-stream":
                if self.zctx is None:
                    self.zctx = zlib.compressobj()
                # One shared stream per connection; Z_SYNC_FLUSH marks the end of each gateway message.
                data = self.zctx.compress(raw.encode()) + self.zctx.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(raw)


class FakeDiscord:
    """The fake Discord world and its server. Create, populate, ``await start()``, point the bot at it."""

    def __init__(self, *, token: str | None = None, bot_name: str = "Viceroy GM",
                 interaction_deadline: float | None = 3.0, checks: Any = None,
                 rate_limit_scale: float = 0.05, shard_count: int = 1) -> None:
        self.snowflake = SnowflakeFactory()
        # The number of shards GET /gateway/bot recommends; sessions may IDENTIFY with any count that keeps
        # each shard within max_guilds_per_shard guilds.
        self.shard_count = shard_count
        self.max_guilds_per_shard = MAX_GUILDS_PER_SHARD
        self.token = token or f"fake.{secrets.token_hex(12)}"
        self.application_id = self.snowflake()
        self.bot = FakeUser(id=self.application_id, name=bot_name, world=self, bot=True)
        self.owner = FakeUser(id=self.snowflake(), name="Owner", world=self)
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        # An interaction answered later than this (seconds) gets 404 "Unknown interaction", as on Discord.
        self.interaction_deadline = interaction_deadline
        self.strict = True
        # Discord's rules the fake enforces (names in rules.py); discard one to relax it in a test.
        self.checks: set[str] = set(DEFAULT_CHECKS if checks is None else checks)
        self.rate_limiter = RateLimiter(scale=rate_limit_scale)
        # Seconds between a user's click and its INTERACTION_CREATE reaching the bot (Discord's 3 s run meanwhile).
        self.gateway_latency = 0.0
        # New DM channels the bot may open per window before 40003 (Discord does not publish its numbers).
        self.dm_open_limit: tuple[int, float] = (20, 10.0)
        self._dm_opens: list[float] = []
        # A message created with a nonce and enforce_nonce is created once: the same author sending the same
        # nonce within this many seconds gets the first message back (Discord: "the past few minutes").
        self.nonce_window = 300.0
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        # Edits of a message older than an hour allowed per window before 30046 (community-documented).
        self.old_edit_limit: tuple[int, float] = (3, 60.0)
        self._old_edits: dict[int, list[float]] = {}
        self.violations: list[Violation] = []
        # Accepted but deprecated or lossy requests (action-row modal inputs, pictures an edit dropped, ...).
        self.warnings: list[str] = []
        self.unimplemented: list[str] = []
        self.errors: list[str] = []
        self.requests: list[RequestRecord] = []
        # Every file the bot uploaded: (filename, bytes), in order.
        self.uploads: list[tuple[str, int]] = []
        self.faults: list[Fault] = []
        self._holding: set[asyncio.Task] = set()  # request handlers waiting on a hold: dropped at stop
        self.sessions: dict[str, GatewaySession] = {}
        self._connections: set[GatewayConnection] = set()
        self._gateway_open = asyncio.Event()
        self._gateway_open.set()
        # The heartbeat interval HELLO announces (a test may shorten it to see a stalled session noticed soon).
        self.heartbeat_interval_ms = HEARTBEAT_INTERVAL_MS
        self._acks: set[asyncio.Task] = set()
        self._changed: asyncio.Condition | None = None
        self._in_flight = 0
        self._last_activity = time.monotonic()
        self._runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0

    # ======================================================================================= world building
    @property
    def bot_user_id(self) -> int:
        return self.bot.id

    def add_guild(self, name: str, *, owner: FakeUser | None = None, shard: int | None = None) -> FakeGuild:
        """A server with the bot in it; `shard` picks an id that lands on that shard of ``shard_count``."""
        if shard is not None and not 0 <= shard < self.shard_count:
            raise ValueError(f"shard {shard} is not one of the {self.shard_count} shards")
        gid = self.snowflake() if shard is None else self.snowflake.on_shard(shard, self.shard_count)
        owner = owner or self.owner
        guild = FakeGuild(id=gid, name=name, owner_id=owner.id, world=self)
        guild.roles[gid] = self._role_payload(gid, "@everyone", MEMBER_PERMISSIONS, 0)
        # The bot's managed role, as the invite creates it.
        guild.bot_role_id = self.snowflake()
        guild.roles[guild.bot_role_id] = {**self._role_payload(guild.bot_role_id, self.bot.name, BOT_PERMISSIONS, 1),
                                          "managed": True, "tags": {"bot_id": str(self.bot.id)}}
        self.guilds[gid] = guild
        for uid in (self.bot.id, owner.id):
            guild.member_ids.append(uid)
            guild.member_roles[uid] = []
        guild.member_roles[self.bot.id] = [guild.bot_role_id]
        self._later_dispatch("GUILD_CREATE", lambda: self.guild_payload(guild))
        return guild

    def add_role(self, guild: FakeGuild, name: str, permissions: int = 0) -> int:
        rid = self.snowflake()
        guild.roles[rid] = self._role_payload(rid, name, permissions, len(guild.roles))
        return rid

    def give_role(self, guild: FakeGuild, user: FakeUser, role_id: int) -> None:
        guild.member_roles.setdefault(user.id, []).append(role_id)

    def add_text_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        chan = FakeChannel(id=self.snowflake(), name=name, type=0, world=self, guild_id=guild.id,
                           position=len(guild.channel_ids))
        self.channels[chan.id] = chan
        guild.channel_ids.append(chan.id)
        self._later_dispatch("CHANNEL_CREATE", lambda: self.channel_payload(chan))
        return chan

    def add_user(self, name: str, *guilds: FakeGuild, dms_open: bool = True) -> FakeUser:
        user = FakeUser(id=self.snowflake(), name=name, world=self, dms_open=dms_open)
        self.users[user.id] = user
        for guild in guilds:
            self.add_member(guild, user)
        return user

    def add_member(self, guild: FakeGuild, user: FakeUser) -> None:
        if user.id not in guild.member_ids:
            guild.member_ids.append(user.id)
            guild.member_roles[user.id] = []
            self._later_dispatch("GUILD_MEMBER_ADD",
                                 lambda: {**self.member_payload(guild, user), "guild_id": str(guild.id)})

    def remove_member(self, guild: FakeGuild, user: FakeUser) -> None:
        """The user leaves (or is removed from) the guild. Sharing no guild with the bot any more, their DMs
        then fail with 403 / 50278, as on Discord."""
        if user.id in guild.member_ids:
            guild.member_ids.remove(user.id)
            guild.member_roles.pop(user.id, None)
            self._later_dispatch("GUILD_MEMBER_REMOVE", lambda: {"guild_id": str(guild.id), "user": user.payload()})

    def shard_of(self, guild: FakeGuild | int, shard_count: int | None = None) -> int:
        """The shard (of `shard_count`, default the recommended count) that receives `guild`'s events."""
        gid = guild if isinstance(guild, int) else guild.id
        return shard_of(gid, shard_count or self.shard_count)

    def sessions_on(self, shard_id: int) -> list[GatewaySession]:
        """The live gateway sessions that identified as `shard_id`."""
        return [s for s in self.sessions.values() if s.connected and s.shard[0] == shard_id]

    def shares_guild_with_bot(self, user: FakeUser) -> bool:
        return any(user.id in g.member_ids and self.bot.id in g.member_ids for g in self.guilds.values())

    def delete_channel(self, channel: FakeChannel, *, notify: bool = False) -> None:
        """Delete a channel: later requests about it answer 404 / 10003 (Unknown Channel).

        With ``notify`` the bot also receives CHANNEL_DELETE; without it the bot's cache still has the
        channel, which is the case a bot must survive (deleted while it was offline or mid-game).
        """
        channel.deleted = True
        if notify:
            self._later_dispatch("CHANNEL_DELETE", lambda: self.channel_payload(channel))

    def dm_channel_of(self, user: FakeUser) -> FakeChannel | None:
        for chan in self.channels.values():
            if chan.type == 1 and chan.recipient_id == user.id:
                return chan
        return None

    def _get_or_create_dm(self, user: FakeUser) -> FakeChannel:
        chan = self.dm_channel_of(user)
        if chan is None:
            chan = FakeChannel(id=self.snowflake(), name="", type=1, world=self, recipient_id=user.id)
            self.channels[chan.id] = chan
        return chan

    def channel(self, channel_id: int) -> FakeChannel:
        return self.channels[int(channel_id)]

    def channel_messages(self, channel_id: int) -> list[FakeMessage]:
        chan = self.channels[int(channel_id)]
        return [self.messages[i] for i in chan.message_ids if not self.messages[i].deleted]

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """The commands the bot synced (global, or for ``guild``)."""
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    # ============================================================================================== faults
    def rate_limit(self, method: str, path: str, *, times: int = 1, retry_after: float = 0.05) -> Fault:
        """The next ``times`` requests matching ``method`` + ``path`` (glob on the path after /api/v10,
        e.g. ``/channels/*/messages``) get 429 with Retry-After and ``{"retry_after", "global": false}``."""
        fault = Fault(method.upper(), path, "ratelimit", times, retry_after=retry_after)
        self.faults.append(fault)
        return fault

    def slow(self, method: str, path: str, delay: float, *, times: int | None = None) -> Fault:
        """Delay matching requests by ``delay`` seconds (all of them, or the next ``times``)."""
        fault = Fault(method.upper(), path, "slow", times, delay=delay)
        self.faults.append(fault)
        return fault

    def hold(self, method: str, path: str, *, times: int = 1) -> asyncio.Event:
        """The next ``times`` matching requests wait until the returned event is set (a message that is slow
        for as long as a test wants)."""
        event = asyncio.Event()
        self.faults.append(Fault(method.upper(), path, "hold", times, event=event))
        return event

    def fail(self, method: str, path: str, *, status: int = 500, code: int = 0, message: str = "Internal Server Error",
             times: int = 1) -> Fault:
        """The next ``times`` matching requests answer ``status`` with ``{"code", "message"}``."""
        fault = Fault(method.upper(), path, "fail", times, status=status, code=code, message=message)
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    async def drop_gateway(self, *, hold: bool = False, code: int = 4000) -> None:
        """Close every gateway websocket from the server side (sessions stay resumable).

        With ``hold`` new gateway connections wait (no HELLO) until :meth:`restore_gateway`, so events
        dispatched in between are buffered and must come back through RESUME.
        """
        if hold:
            self._gateway_open.clear()
        for conn in list(self._connections):
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            await conn.ws.close(code=code, message=b"dropped by test")
        await self._notify()

    def restore_gateway(self) -> None:
        self._gateway_open.set()

    def stall_gateway(self) -> int:
        """Every open gateway connection stops answering: no heartbeat ACK, no event, but the socket stays
        open (a hung gateway node). Events dispatched meanwhile are buffered for a RESUME on a new
        connection; connections made later are served normally. Returns the number of connections stalled."""
        stalled = 0
        for conn in self._connections:
            if not conn.stalled:
                conn.stalled = True
                stalled += 1
        return stalled

    def stalled_connections(self) -> int:
        return sum(1 for conn in self._connections if conn.stalled)

    # ============================================================================================ waiting
    @property
    def in_flight(self) -> int:
        """REST requests the fake is handling right now."""
        return self._in_flight

    async def _notify(self) -> None:
        if self._changed is None:
            return
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Any, timeout: float = 5.0, *, what: str = "condition") -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every change in the world); return its value.

        Always yields to the event loop first, even when the predicate already holds: the fake serves the
        bot on the caller's event loop, and a test polling in a loop that never yields would starve it
        (a bot process's requests then go unread and it waits for answers that never come)."""
        await asyncio.sleep(0)
        if self._changed is None:
            self._changed = asyncio.Condition()
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                value = predicate()
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise WaitTimeout(f"timed out after {timeout}s waiting for {what}")
                try:
                    # Wake up periodically too: a predicate may depend on time or on the bot's own state.
                    await asyncio.wait_for(self._changed.wait(), min(remaining, 0.05))
                except TimeoutError:
                    pass

    async def idle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until no request is in flight, nothing happened for ``quiet`` seconds and no rate-limit bucket
        is still empty (discord.py may be waiting for it to refill)."""

        await self.wait_for(lambda: self.is_idle(quiet), timeout=timeout, what="the fake Discord to be idle")

    def is_idle(self, quiet: float = 0.05) -> bool:
        """No request in flight, nothing happened for ``quiet`` seconds, no rate-limit bucket still empty."""
        # A client told to wait for an empty rate-limit bucket is busy even though nothing is in flight.
        now = time.monotonic()
        return (self._in_flight == 0 and now - self._last_activity >= quiet
                and now >= self.rate_limiter.blocked_until())

    async def wait_message(self, channel: FakeChannel, predicate: Any = None, timeout: float = 5.0, *,
                           after: int = 0) -> FakeMessage:
        """Wait for a bot message in ``channel`` beyond the first ``after`` messages (newest match wins)."""

        def check() -> FakeMessage | None:
            for msg in reversed(channel.messages()[after:]):
                if msg.author_id == self.bot.id and (predicate is None or predicate(msg)):
                    return msg
            return None

        return await self.wait_for(check, timeout=timeout, what=f"a bot message in #{channel.name}")

    # ========================================================================================== lifecycle
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        self._changed = asyncio.Condition()
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        sock = site._server.sockets[0]  # type: ignore[union-attr]
        self.host, self.port = sock.getsockname()[:2]
        return self.host, self.port

    async def stop(self) -> None:
        self._gateway_open.set()
        # Held requests never get an answer: drop them (the server would otherwise wait for them to finish).
        for task in list(self._holding):
            task.cancel()
        for conn in list(self._connections):
            await conn.ws.close(code=1001, message=b"server stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def http_base(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    def env(self) -> dict[str, str]:
        """Environment for a bot subprocess: where the fake is, and the token it accepts."""
        return {"VICEROY_FAKE_DISCORD": f"{self.host}:{self.port}", "DISCORD_TOKEN": self.token}

    # ========================================================================================== payloads
    @staticmethod
    def _role_payload(rid: int, name: str, permissions: int, position: int) -> dict[str, Any]:
        return {"id": str(rid), "name": name, "permissions": str(permissions), "position": position,
                "color": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False, "managed": False, "mentionable": False, "icon": None, "unicode_emoji": None,
                "flags": 0}

    def permissions_of(self, guild: FakeGuild, user: FakeUser) -> int:
        """Guild-level permissions: @everyone and the member's roles (the owner and administrators: all)."""
        if user.id == guild.owner_id:
            return ALL_PERMISSIONS | ADMINISTRATOR
        perms = int(guild.roles[guild.id]["permissions"])
        for rid in guild.member_roles.get(user.id, []):
            perms |= int(guild.roles[rid]["permissions"])
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def channel_permissions(self, channel: FakeChannel, user: FakeUser) -> int:
        """Discord's computation: guild permissions, then the channel's @everyone, role and member overwrites."""
        if channel.guild_id is None:
            return ALL_PERMISSIONS & ~ADMINISTRATOR
        guild = self.guilds[channel.guild_id]
        perms = self.permissions_of(guild, user)
        if perms & ADMINISTRATOR or perms == ALL_PERMISSIONS:
            return perms
        everyone = channel.overwrites.get(guild.id)
        if everyone is not None:
            perms = (perms & ~everyone[2]) | everyone[1]
        allow = deny = 0
        for rid in guild.member_roles.get(user.id, []):
            ow = channel.overwrites.get(rid)
            if ow is not None and ow[0] == 0:
                allow |= ow[1]
                deny |= ow[2]
        perms = (perms & ~deny) | allow
        member = channel.overwrites.get(user.id)
        if member is not None and member[0] == 1:
            perms = (perms & ~member[2]) | member[1]
        return perms

    def revoke(self, permission: int, *, channel: FakeChannel | None = None, guild: FakeGuild | None = None) -> None:
        """Take ``permission`` (a bit such as ``1 << 15`` Attach Files) from the bot's role: in one channel (a deny
        overwrite) or in every channel of a guild. Requests that need it then fail with 403 / 50013 (50001 for
        View Channel), and the bot's cache and ``app_permissions`` show the change, as on Discord."""
        for chan in self._channels_for(channel, guild):
            rid = self.guilds[chan.guild_id].bot_role_id  # type: ignore[index]
            kind, allow, deny = chan.overwrites.get(rid, (0, 0, 0))
            chan.overwrites[rid] = (0, allow & ~permission, deny | permission)
            self._later_dispatch("CHANNEL_UPDATE", lambda c=chan: self.channel_payload(c))

    def grant(self, permission: int, *, channel: FakeChannel | None = None, guild: FakeGuild | None = None) -> None:
        """Undo :meth:`revoke` for ``permission``."""
        for chan in self._channels_for(channel, guild):
            rid = self.guilds[chan.guild_id].bot_role_id  # type: ignore[index]
            if rid in chan.overwrites:
                kind, allow, deny = chan.overwrites[rid]
                chan.overwrites[rid] = (0, allow, deny & ~permission)
                self._later_dispatch("CHANNEL_UPDATE", lambda c=chan: self.channel_payload(c))

    def _channels_for(self, channel: FakeChannel | None, guild: FakeGuild | None) -> list[FakeChannel]:
        if (channel is None) == (guild is None):
            raise ValueError("name a channel or a guild")
        if channel is not None:
            if channel.guild_id is None:
                raise ValueError("DM channels have no permissions to revoke")
            return [channel]
        return [c for c in guild.channels()]  # type: ignore[union-attr]

    def bot_posts(self, channel: FakeChannel, body: dict[str, Any]) -> FakeMessage:
        """A message in ``channel`` as if the bot had sent ``body``, without a request (tests of what reads
        the world: scans, tallies, forged clicks on the bot's own messages)."""
        return self._new_message_from_body(channel.id, self.bot.id, body, {})

    def age_message(self, message: FakeMessage, seconds: float) -> None:
        """Pretend ``message`` was posted ``seconds`` earlier (for the old-message edit limit)."""
        message.created_at -= seconds

    def _require(self, channel: FakeChannel, *permissions: int) -> None:
        """403 like Discord when the bot lacks a permission in a guild channel (check ``permissions``)."""
        if rules.PERMISSIONS not in self.checks or channel.guild_id is None:
            return
        have = self.channel_permissions(channel, self.bot)
        if not have & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        missing = [PERMISSION_NAMES.get(p, str(p)) for p in permissions if not have & p]
        if missing:
            log.info("fake Discord: bot lacks %s in #%s", ", ".join(missing), channel.name)
            raise ApiError(403, 50013, "Missing Permissions")

    def member_payload(self, guild: FakeGuild, user: FakeUser, *, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": user.payload(),
            "roles": [str(r) for r in guild.member_roles.get(user.id, [])],
            "joined_at": iso(guild.joined_at),
            "deaf": False, "mute": False, "flags": 0, "pending": False, "nick": None, "avatar": None,
            "banner": None, "premium_since": None, "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions_of(guild, user))
        return data

    def channel_payload(self, chan: FakeChannel) -> dict[str, Any]:
        last = str(chan.message_ids[-1]) if chan.message_ids else None
        if chan.type == 1:
            user = self.users[chan.recipient_id or 0]
            return {"id": str(chan.id), "type": 1, "recipients": [user.payload()], "last_message_id": last,
                    "flags": 0}
        overwrites = [{"id": str(oid), "type": kind, "allow": str(allow), "deny": str(deny)}
                      for oid, (kind, allow, deny) in chan.overwrites.items()]
        return {"id": str(chan.id), "type": 0, "guild_id": str(chan.guild_id), "name": chan.name,
                "position": chan.position, "permission_overwrites": overwrites, "nsfw": False, "parent_id": None,
                "topic": None, "last_message_id": last, "rate_limit_per_user": 0, "flags": 0}

    def guild_payload(self, guild: FakeGuild) -> dict[str, Any]:
        return {
            "id": str(guild.id), "name": guild.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(guild.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": list(guild.roles.values()), "emojis": [], "stickers": [], "features": [],
            "mfa_level": 0, "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
            "joined_at": iso(guild.joined_at), "large": False, "unavailable": False,
            "member_count": len(guild.member_ids),
            "members": [self.member_payload(guild, self.users[u]) for u in guild.member_ids],
            "channels": [self.channel_payload(c) for c in guild.channels() if not c.deleted],
            "threads": [], "presences": [], "voice_states": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "preferred_locale": guild.preferred_locale,
            "premium_tier": 0, "premium_subscription_count": 0, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "description": None, "banner": None,
            "vanity_url_code": None, "application_id": None,
        }

    def attachment_payload(self, msg: FakeMessage, att: FakeAttachment) -> dict[str, Any]:
        url = f"{self.http_base}/attachments/{msg.channel_id}/{att.id}/{att.filename}"
        data: dict[str, Any] = {"id": str(att.id), "filename": att.filename, "size": att.size, "url": url,
                                "proxy_url": url, "content_type": att.content_type}
        if att.description is not None:
            data["description"] = att.description
        return data

    def message_payload(self, msg: FakeMessage) -> dict[str, Any]:
        chan = self.channels[msg.channel_id]
        author = self.users[msg.author_id]
        data: dict[str, Any] = {
            "id": str(msg.id), "channel_id": str(msg.channel_id), "type": msg.message_type,
            "author": author.payload(), "content": msg.content, "timestamp": iso(msg.created_at),
            "edited_timestamp": iso(msg.edited_at) if msg.edited_at else None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False,
            "attachments": [self.attachment_payload(msg, a) for a in msg.attachments],
            "embeds": msg.embeds, "components": msg.components, "flags": msg.flags,
        }
        if rules.EMBEDDED_FILES in self.checks:
            data["attachments"], data["embeds"] = self._as_discord_shows(msg)
        if chan.guild_id is not None:
            data["guild_id"] = str(chan.guild_id)
        if msg.reactions:
            data["reactions"] = [
                {"count": len(users), "me": self.bot.id in users, "emoji": {"id": None, "name": emoji},
                 "count_details": {"burst": 0, "normal": len(users)}, "burst_colors": [], "me_burst": False,
                 "burst_me": False, "burst_count": 0}
                for emoji, users in msg.reactions.items() if users
            ]
        if msg.interaction_id is not None:
            rec = self.interactions[msg.interaction_id]
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = {
                "id": str(rec.id), "type": rec.type, "user": self.users[rec.user_id].payload(),
                "authorizing_integration_owners": rec.payload.get("authorizing_integration_owners", {}),
            }
        return data

    def _as_discord_shows(self, msg: FakeMessage) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Files an embed shows are not listed among a message's attachments, and the embed's
        ``attachment://name`` comes back as the file's URL: what Discord returns."""
        used = {name for _, name in rules.attachment_refs({"embeds": msg.embeds, "components": msg.components})}
        by_name = {a.filename: a for a in msg.attachments}
        attachments = [self.attachment_payload(msg, a) for a in msg.attachments if a.filename not in used]
        embeds = copy.deepcopy(msg.embeds)
        for embed in embeds:
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                url = (media or {}).get("url") or ""
                if url.startswith("attachment://"):
                    att = by_name.get(url.removeprefix("attachment://"))
                    if att is None:
                        del embed[key]  # Discord drops a picture whose file is gone
                    else:
                        media["url"] = media["proxy_url"] = self.attachment_payload(msg, att)["url"]
        return attachments, embeds

    # ====================================================================================== message store
    def _store_message(self, msg: FakeMessage) -> FakeMessage:
        self.messages[msg.id] = msg
        if msg.ephemeral_to is None:
            self.channels[msg.channel_id].message_ids.append(msg.id)
        return msg

    def _new_message_from_body(self, channel_id: int, author_id: int, body: dict[str, Any],
                               files: dict[int, tuple[str, bytes, str]], *, ephemeral_to: int | None = None,
                               interaction_id: int | None = None, message_type: int = 0) -> FakeMessage:
        msg = FakeMessage(id=self.snowflake(), channel_id=channel_id, author_id=author_id,
                          ephemeral_to=ephemeral_to, interaction_id=interaction_id, message_type=message_type)
        self._apply_edit(msg, body, files, creating=True)
        msg.first_titles = tuple(str(e.get("title") or "") for e in msg.embeds)
        if ephemeral_to is not None:
            msg.flags |= MESSAGE_FLAG_EPHEMERAL
        return self._store_message(msg)

    def _apply_edit(self, msg: FakeMessage, body: dict[str, Any], files: dict[int, tuple[str, bytes, str]],
                    *, creating: bool = False) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "embed" in body:  # legacy single-embed field
            msg.embeds = [body["embed"]] if body["embed"] else []
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            # Only SUPPRESS_EMBEDS (4), EPHEMERAL (64, on creation), SUPPRESS_NOTIFICATIONS (4096) and
            # IS_COMPONENTS_V2 (32768) can be set by a bot; keep the loading/ephemeral bits Discord owns.
            settable = 4 | 4096 | 32768 | (MESSAGE_FLAG_EPHEMERAL if creating else 0)
            owned = msg.flags & (MESSAGE_FLAG_EPHEMERAL | MESSAGE_FLAG_LOADING)
            msg.flags = owned | (int(body["flags"]) & settable)
        new_atts: list[FakeAttachment] = []
        if "attachments" in body and body["attachments"] is not None:
            existing = {a.id: a for a in msg.attachments}
            used: set[int] = set()
            for entry in body["attachments"]:
                ref = int(entry["id"])
                if ref in existing:
                    new_atts.append(existing[ref])
                elif ref in files:
                    name, data, ctype = files[ref]
                    new_atts.append(FakeAttachment(self.snowflake(), entry.get("filename") or name, data, ctype,
                                                   entry.get("description")))
                    used.add(ref)
                else:
                    raise ApiError(400, 50035, f"Invalid Form Body: attachments: unknown id {ref}")
            # Files sent without an attachments entry are still attached.
            for idx in sorted(set(files) - used):
                name, data, ctype = files[idx]
                new_atts.append(FakeAttachment(self.snowflake(), name, data, ctype))
            msg.attachments = new_atts
        elif files:
            for idx in sorted(files):
                name, data, ctype = files[idx]
                msg.attachments.append(FakeAttachment(self.snowflake(), name, data, ctype))
        for att in msg.attachments:
            if len(att.data) > ATTACHMENT_SIZE_LIMIT:
                raise ApiError(413, 40005, "Request entity too large")
        if not creating:
            msg.edited_at = time.time()
            msg.edits += 1

    # ================================================================================ simulated user input
    def _interaction_base(self, user: FakeUser, channel: FakeChannel, itype: int, data: dict[str, Any],
                          message: FakeMessage | None) -> InteractionRecord:
        if channel.deleted:
            raise ValueError(f"channel {channel.name!r} was deleted")
        iid = self.snowflake()
        token = f"aW50ZXJhY3Rpb24.{secrets.token_urlsafe(24)}"
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.application_id), "type": itype, "data": data,
            "token": token, "version": 1, "channel_id": str(channel.id), "locale": user.locale,
            "entitlements": [], "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        chan_payload = self.channel_payload(channel)
        if guild is not None:
            if user.id not in guild.member_ids:
                raise ValueError(f"{user.name} is not a member of {guild.name}")
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.preferred_locale, "features": []}
            payload["guild_locale"] = guild.preferred_locale
            payload["member"] = self.member_payload(guild, user, with_permissions=True)
            payload["app_permissions"] = str(self.channel_permissions(channel, self.bot))
            chan_payload["permissions"] = payload["member"]["permissions"]
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
            payload["context"] = 0
        else:
            payload["user"] = user.payload()
            payload["app_permissions"] = str(BOT_PERMISSIONS)
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["context"] = 1
        payload["channel"] = chan_payload
        if message is not None:
            payload["message"] = self.message_payload(message)
        rec = InteractionRecord(id=iid, token=token, type=itype, user_id=user.id, channel_id=channel.id,
                                guild_id=guild.id if guild else None, data=data, world=self,
                                source_message_id=message.id if message else None, payload=payload)
        self.interactions[iid] = rec
        self._interactions_by_token[token] = rec
        return rec

    def _find_command(self, channel: FakeChannel, name: str) -> dict[str, Any]:
        pools = []
        if channel.guild_id is not None:
            pools.append(self.guild_commands.get(channel.guild_id, []))
        pools.append(self.global_commands)
        # Interaction context types (Discord): 0 guild, 1 the bot's DM, 2 group DMs and other users' DMs.
        context = 0 if channel.guild_id is not None else 1
        for pool in pools:
            for cmd in pool:
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    if cmd.get("contexts") is not None and context not in cmd["contexts"]:
                        raise LookupError(f"/{name} is not offered in this kind of channel (contexts {cmd['contexts']})")
                    return cmd
        raise LookupError(f"/{name} is not a synced command here (did the bot sync its command tree?)")

    def _build_options(self, schema: list[dict[str, Any]], values: dict[str, Any],
                       resolved: dict[str, dict[str, Any]], guild: FakeGuild | None) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema}
        unknown = set(values) - set(by_name)
        if unknown:
            raise ValueError(f"unknown option(s) {sorted(unknown)}; command takes {sorted(by_name)}")
        out = []
        for opt in schema:
            name, otype = opt["name"], opt["type"]
            if name not in values:
                if opt.get("required"):
                    raise ValueError(f"option {name!r} is required")
                continue
            value = values[name]
            if otype == 3:
                value = str(value)
            elif otype == 4:
                value = int(value)
            elif otype == 5:
                value = bool(value)
            elif otype == 10:
                value = float(value)
            elif otype in (6, 9) and isinstance(value, FakeUser):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if guild is not None and value.id in guild.member_ids:
                    member = self.member_payload(guild, value, with_permissions=True)
                    member.pop("user")
                    resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            elif otype in (7, 9) and isinstance(value, FakeChannel):
                chan = self.channel_payload(value)
                chan["permissions"] = str(MEMBER_PERMISSIONS)
                resolved.setdefault("channels", {})[str(value.id)] = chan
                value = str(value.id)
            elif otype in (6, 7, 8, 9):
                value = str(value)
            else:
                raise ValueError(f"option type {otype} ({name!r}) is not supported by the fake")
            choices = opt.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise ValueError(f"{value!r} is not a choice of option {name!r}")
            out.append({"name": name, "type": otype, "value": value})
        return out

    def _command_path(self, channel: FakeChannel, command: str) -> tuple[dict[str, Any], list[dict[str, Any]],
                                                                        list[dict[str, Any]], list[dict[str, Any]]]:
        """The synced command named by "group sub": (command, the subcommand nodes of the interaction data,
        the list its options go in, the options' schema)."""
        words = command.strip().lstrip("/").split()
        cmd = self._find_command(channel, words[0])
        schema = cmd.get("options", [])
        path_opts: list[dict[str, Any]] = []
        container = path_opts
        for word in words[1:]:
            sub = next((o for o in schema if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                raise LookupError(f"/{cmd['name']} has no subcommand {word!r}")
            node: dict[str, Any] = {"name": word, "type": sub["type"], "options": []}
            container.append(node)
            container = node["options"]
            schema = sub.get("options", [])
        return cmd, path_opts, container, schema

    async def start_command(self, user: FakeUser, channel: FakeChannel, command: str,
                            options: dict[str, Any]) -> InteractionRecord:
        cmd, path_opts, container, schema = self._command_path(channel, command)
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        resolved: dict[str, dict[str, Any]] = {}
        if any(o["type"] in (1, 2) for o in schema):
            raise LookupError(f"/{command} needs a subcommand: {[o['name'] for o in schema]}")
        container.extend(self._build_options(schema, options, resolved, guild))
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if path_opts:
            data["options"] = path_opts
        if resolved:
            data["resolved"] = resolved
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        rec = self._interaction_base(user, channel, 2, data, None)
        await self._deliver_interaction(rec)
        return rec

    async def start_autocomplete(self, user: FakeUser, channel: FakeChannel, command: str, options: dict[str, Any],
                                 focused: str) -> InteractionRecord:
        """What a client sends while the user types into an option with autocomplete: the options so far,
        with ``focused`` marked (its partial text is not checked against choices, as in Discord)."""
        cmd, path_opts, container, schema = self._command_path(channel, command)
        opt = next((o for o in schema if o["name"] == focused), None)
        if opt is None or not opt.get("autocomplete"):
            raise LookupError(f"option {focused!r} of /{command} has no autocomplete")
        for o in schema:
            if o["name"] in options:
                container.append({"name": o["name"], "type": o["type"], "value": str(options[o["name"]]),
                                  **({"focused": True} if o["name"] == focused else {})})
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": path_opts}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        rec = self._interaction_base(user, channel, 4, data, None)
        await self._deliver_interaction(rec)
        return rec

    def _visible_to(self, message: FakeMessage, user: FakeUser) -> bool:
        if message.deleted:
            return False
        if message.ephemeral_to is not None:
            return message.ephemeral_to == user.id
        chan = self.channels[message.channel_id]
        if chan.type == 1:
            return chan.recipient_id == user.id
        return chan.guild_id is not None and user.id in self.guilds[chan.guild_id].member_ids

    async def start_component(self, user: FakeUser, message: FakeMessage, comp: dict[str, Any],
                              values: list[Any] | None) -> InteractionRecord:
        message = self.messages[message.id]  # always the current version of the message
        if not self._visible_to(message, user):
            raise PermissionError(f"{user.name} cannot see message {message.id}")
        if comp.get("disabled"):
            raise ValueError(f"component {comp.get('custom_id') or comp.get('label')!r} is disabled")
        if comp.get("type") == 2 and comp.get("style") in (5, 6):
            raise ValueError("link and premium buttons do not create interactions")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp.get("id") is not None:
            data["id"] = comp["id"]
        if values is not None:
            guild = self.guilds.get(self.channels[message.channel_id].guild_id or 0)
            resolved: dict[str, dict[str, Any]] = {}
            str_values = []
            for v in values:
                if isinstance(v, FakeUser):
                    resolved.setdefault("users", {})[str(v.id)] = v.payload()
                    if guild is not None and v.id in guild.member_ids:
                        member = self.member_payload(guild, v, with_permissions=True)
                        member.pop("user")
                        resolved.setdefault("members", {})[str(v.id)] = member
                    str_values.append(str(v.id))
                elif isinstance(v, FakeChannel):
                    resolved.setdefault("channels", {})[str(v.id)] = self.channel_payload(v)
                    str_values.append(str(v.id))
                else:
                    str_values.append(str(v))
            if comp["type"] == 3:
                allowed = [o["value"] for o in comp.get("options", [])]
                bad = [v for v in str_values if v not in allowed]
                if bad:
                    raise ValueError(f"{bad} not among the select options {allowed}")
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not lo <= len(str_values) <= hi:
                raise ValueError(f"select {comp['custom_id']!r} takes {lo}..{hi} values, got {len(str_values)}")
            data["values"] = str_values
            if resolved:
                data["resolved"] = resolved
        chan = self.channels[message.channel_id]
        rec = self._interaction_base(user, chan, 3, data, message)
        await self._deliver_interaction(rec)
        return rec

    async def start_modal_submit(self, user: FakeUser, opened_by: InteractionRecord, custom_id: str | None,
                                 values: dict[str, Any]) -> InteractionRecord:
        modal = opened_by.modal
        if modal is None:
            raise LookupError(f"the bot did not answer {opened_by} with a modal")
        if user.id != opened_by.user_id:
            raise PermissionError("only the user who opened a modal can submit it")
        if custom_id is not None and custom_id != modal["custom_id"]:
            raise LookupError(f"the open modal is {modal['custom_id']!r}, not {custom_id!r}")
        remaining = dict(values)

        def answer(comp: dict[str, Any]) -> dict[str, Any] | None:
            ctype = comp.get("type")
            cid = comp.get("custom_id")
            if ctype == 4:
                value = remaining.pop(cid, comp.get("value") or "")
                if comp.get("required", True) and value == "":
                    raise ValueError(f"modal field {cid!r} is required")
                out = {"type": 4, "custom_id": cid, "value": str(value)}
            elif ctype in (3, 5, 6, 7, 8):
                chosen = remaining.pop(cid, [])
                out = {"type": ctype, "custom_id": cid, "values": [str(v) for v in chosen]}
            elif ctype == 10:
                out = {"type": 10}
            else:
                return None
            if comp.get("id") is not None:
                out["id"] = comp["id"]
            return out

        components: list[dict[str, Any]] = []
        for top in modal.get("components", []):
            if top.get("type") == 1:
                row = [a for a in (answer(c) for c in top.get("components", [])) if a is not None]
                components.append({"type": 1, "components": row})
            elif top.get("type") == 18:
                inner = answer(top["component"])
                if inner is not None:
                    components.append({"type": 18, "id": top.get("id"), "component": inner})
            else:
                ans = answer(top)
                if ans is not None:
                    components.append(ans)
        if remaining:
            raise ValueError(f"modal {modal['custom_id']!r} has no field(s) {sorted(remaining)}")
        chan = self.channels[opened_by.channel_id]
        data = {"custom_id": modal["custom_id"], "components": components}
        rec = self._interaction_base(user, chan, 5, data, opened_by.source_message)
        opened_by.modal = None  # a submitted modal is closed
        await self._deliver_interaction(rec)
        return rec

    async def _deliver_interaction(self, rec: InteractionRecord) -> None:
        # The 3 s window runs from the click (rec.created), so time spent reaching the bot counts too.
        if self.gateway_latency > 0:
            await asyncio.sleep(self.gateway_latency)
        await self.dispatch("INTERACTION_CREATE", rec.payload)

    async def user_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        if channel.deleted:
            raise ValueError(f"channel {channel.name!r} was deleted")
        msg = self._store_message(FakeMessage(id=self.snowflake(), channel_id=channel.id, author_id=user.id,
                                              content=content))
        data = self.message_payload(msg)
        if channel.guild_id is not None:
            member = self.member_payload(self.guilds[channel.guild_id], user)
            member.pop("user")
            data["member"] = member
        await self.dispatch("MESSAGE_CREATE", data)
        return msg

    async def user_reaction(self, user: FakeUser, message: FakeMessage, emoji: str) -> None:
        message.reactions.setdefault(emoji, set()).add(user.id)
        data: dict[str, Any] = {"user_id": str(user.id), "channel_id": str(message.channel_id),
                                "message_id": str(message.id), "emoji": {"id": None, "name": emoji},
                                "burst": False, "type": 0}
        chan = self.channels[message.channel_id]
        if chan.guild_id is not None:
            data["guild_id"] = str(chan.guild_id)
            data["member"] = self.member_payload(self.guilds[chan.guild_id], user)
        await self.dispatch("MESSAGE_REACTION_ADD", data)

    # ============================================================================================ gateway
    def _later_dispatch(self, event: str, build: Any) -> None:
        """Dispatch from sync world-building code if a bot is connected (nothing to do before start)."""
        if not self.sessions:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.create_task(self.dispatch(event, build()))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH to every session of the event's shard (buffered for replay if the session is
        disconnected): a guild's events go to shard ``(guild_id >> 22) % shard_count``, the rest to shard 0."""
        self._last_activity = time.monotonic()
        gid = _event_guild(event, data)
        for session in list(self.sessions.values()):
            if not session.receives(gid):
                continue  # another shard's guild (or a DM, which only shard 0 gets)
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            session.buffer.append((session.seq, frame))
            del session.buffer[:-REPLAY_BUFFER]
            if session.conn is not None:
                await self._deliver(session, frame)
        await self._notify()

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if not self._gateway_open.is_set():
            await self._gateway_open.wait()
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        compress = request.query.get("compress")
        conn = GatewayConnection(ws=ws, compress=compress if compress == "zlib-stream" else None)
        self._connections.add(conn)
        try:
            await conn.send({"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for frame in ws:
                if frame.type != WSMsgType.TEXT or conn.stalled:
                    continue
                msg = json.loads(frame.data)
                await self._gateway_op(conn, msg)
        finally:
            self._connections.discard(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                # A client that closes with 1000/1001 ends its session; any other close may RESUME.
                # (discord.py's Client.close() usually ends up sending 4000, so sessions mostly stay.)
                if ws.close_code in (1000, 1001) and self.sessions.get(session.id) is session:
                    del self.sessions[session.id]
            await self._notify()
        return ws

    async def _gateway_op(self, conn: GatewayConnection, msg: dict[str, Any]) -> None:
        op, d = msg.get("op"), msg.get("d")
        if op == 1:
            task = asyncio.get_running_loop().create_task(self._ack_heartbeat(conn))
            self._acks.add(task)
            task.add_done_callback(self._acks.discard)
        elif op == 2:
            if d.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = _identify_shard(d.get("shard"))
            if shard is None:
                await conn.ws.close(code=4010, message=b"Invalid shard.")
                return
            mine = [g for g in self.guilds.values() if shard_of(g.id, shard[1]) == shard[0]]
            if len(mine) > self.max_guilds_per_shard:
                await conn.ws.close(code=4011, message=b"Sharding required.")
                return
            session = GatewaySession(id=secrets.token_hex(16), user_id=self.bot.id, shard=shard)
            self.sessions[session.id] = session
            session.conn = conn
            conn.session = session
            ready = {
                "v": 10, "user": {**self.bot.payload(), "verified": True, "mfa_enabled": False, "email": None},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
                "session_id": session.id, "session_type": "normal", "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0}, "private_channels": [],
                "relationships": [], "presences": [], "guild_join_requests": [], "geo_ordered_rtc_regions": [],
                "user_settings": {}, "auth": {}, "_trace": ["fake-discord"],
            }
            if d.get("shard"):
                ready["shard"] = d["shard"]
            await self._send_to_session(session, "READY", ready)
            for guild in mine:
                await self._send_to_session(session, "GUILD_CREATE", self.guild_payload(guild))
            await self._notify()
        elif op == 6:
            session = self.sessions.get(d.get("session_id"))
            if session is None or d.get("token") != self.token:
                await conn.send({"op": 9, "s": None, "t": None, "d": False})
                return
            if session.conn is not None and session.conn is not conn:
                await session.conn.ws.close(code=4000)
            session.conn = conn
            conn.session = session
            last = d.get("seq") or 0
            for seq, frame in list(session.buffer):
                if seq > last:
                    await conn.send(frame)
            await self._send_to_session(session, "RESUMED", {"_trace": ["fake-discord"]})
            await self._notify()
        elif op == 8:
            gid = int(d["guild_id"])
            guild = self.guilds.get(gid)
            if guild is None or conn.session is None or not conn.session.receives(gid):
                return  # Discord answers member requests only for the session's own shard
            members = [self.member_payload(guild, self.users[u]) for u in guild.member_ids]
            chunk: dict[str, Any] = {"guild_id": str(gid), "members": members, "chunk_index": 0,
                                     "chunk_count": 1, "not_found": []}
            if d.get("nonce"):
                chunk["nonce"] = d["nonce"]
            await self._send_to_session(conn.session, "GUILD_MEMBERS_CHUNK", chunk)
        elif op in (3, 4):
            return  # presence / voice state: accepted and ignored
        else:
            self.unimplemented.append(f"gateway op {op}")

    async def _ack_heartbeat(self, conn: GatewayConnection) -> None:
        await asyncio.sleep(HEARTBEAT_ACK_DELAY)
        if not conn.stalled:
            await conn.send({"op": 11, "s": None, "t": None, "d": None})

    async def _send_to_session(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.buffer.append((session.seq, frame))
        if session.conn is not None:
            await self._deliver(session, frame)

    async def _deliver(self, session: GatewaySession, frame: dict[str, Any]) -> None:
        """Send a frame to a session's connection. A connection that cannot take it (its process was killed and
        the socket is half dead) is dropped after a short wait instead of holding up every other session;
        the frame stays buffered for a RESUME."""
        conn = session.conn
        if conn is None or conn.stalled:
            return  # buffered: a RESUME on a new connection replays it
        try:
            await asyncio.wait_for(conn.send(frame), SEND_TIMEOUT)
        except (TimeoutError, ConnectionError, RuntimeError):
            if session.conn is conn:
                session.conn = None
            asyncio.get_running_loop().create_task(conn.ws.close(code=4000))

    # =============================================================================================== REST
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == "/" and request.headers.get("Upgrade", "").lower() == "websocket":
            return await handler(request)
        path = request.path
        api_path = path[len(API_PREFIX):] if path.startswith(API_PREFIX) else path
        record = RequestRecord(request.method, api_path)
        self.requests.append(record)
        self._in_flight += 1
        self._last_activity = time.monotonic()
        try:
            for fault in list(self.faults):
                if not fault.matches(request.method, api_path):
                    continue
                if fault.times is not None:
                    fault.times -= 1
                    if fault.times <= 0:
                        self.faults.remove(fault)
                if fault.kind == "slow":
                    await asyncio.sleep(fault.delay)
                elif fault.kind == "hold" and fault.event is not None:
                    task = asyncio.current_task()
                    self._holding.add(task)
                    try:
                        await fault.event.wait()
                    finally:
                        self._holding.discard(task)
                elif fault.kind == "ratelimit":
                    record.status = 429
                    return json_response(
                        {"message": "You are being rate limited.", "retry_after": fault.retry_after,
                         "global": False},
                        status=429,
                        # discord.py treats a 429 without Via as a Cloudflare ban.
                        headers={"Retry-After": f"{fault.retry_after:.3f}", "Via": "1.1 google",
                                 "X-RateLimit-Scope": "user"})
                elif fault.kind == "fail":
                    record.status = fault.status
                    return json_response({"message": fault.message, "code": fault.code}, status=fault.status)
            limits = None
            if rules.RATE_LIMITS in self.checks and path.startswith(API_PREFIX):
                limits = self.rate_limiter.check(request.method, api_path)
                if limits.refused:
                    record.status = 429
                    return json_response({"message": "You are being rate limited.",
                                          "retry_after": round(limits.retry_after, 3),
                                          "global": limits.scope == "global", "code": 0},
                                         status=429, headers=limits.headers)
            try:
                if path.startswith(API_PREFIX) and not self._authorized(request, api_path):
                    raise ApiError(401, 0, "401: Unauthorized")
                response = await handler(request)
            except ApiError as err:
                response = json_response(err.body(), status=err.status, headers=err.headers)
            except web.HTTPException:
                raise
            except ConnectionResetError:
                # The client hung up before its body arrived (it gave up on a slow request): nothing to answer.
                record.status = 499
                raise
            except Exception as exc:  # a bug in the fake: report it, do not hide it
                log.exception("fake Discord handler failed")
                self.errors.append(f"{request.method} {api_path}: {exc!r}")
                response = json_response({"message": "fake Discord internal error", "code": 0}, status=500)
            record.status = response.status
            if limits is not None and isinstance(response, web.Response):
                response.headers.update(limits.headers)
            return response
        finally:
            self._in_flight -= 1
            self._last_activity = time.monotonic()
            await self._notify()

    def _authorized(self, request: web.Request, api_path: str) -> bool:
        # Interaction callbacks and webhooks are authenticated by the token in the URL.
        if api_path.startswith("/interactions/") or api_path.startswith("/webhooks/"):
            return True
        return request.headers.get("Authorization") == f"Bot {self.token}"

    def _add_routes(self, app: web.Application) -> None:
        p = API_PREFIX
        r = app.router
        r.add_get("/", self._gateway)
        r.add_get(p + "/users/@me", self._get_me)
        r.add_get(p + "/users/{user_id:\\d+}", self._get_user)
        r.add_get(p + "/oauth2/applications/@me", self._get_application)
        r.add_get(p + "/applications/@me", self._get_application)
        r.add_get(p + "/gateway", self._get_gateway)
        r.add_get(p + "/gateway/bot", self._get_gateway_bot)
        r.add_post(p + "/users/@me/channels", self._create_dm)
        r.add_get(p + "/channels/{cid}", self._get_channel)
        r.add_post(p + "/channels/{cid}/typing", self._typing)
        r.add_get(p + "/channels/{cid}/messages", self._list_messages)
        r.add_post(p + "/channels/{cid}/messages", self._create_message)
        r.add_get(p + "/channels/{cid}/messages/{mid}", self._get_message)
        r.add_patch(p + "/channels/{cid}/messages/{mid}", self._edit_message)
        r.add_delete(p + "/channels/{cid}/messages/{mid}", self._delete_message)
        r.add_put(p + "/channels/{cid}/messages/{mid}/reactions/{emoji}/@me", self._add_reaction)
        r.add_delete(p + "/channels/{cid}/messages/{mid}/reactions/{emoji}/@me", self._remove_reaction)
        r.add_get(p + "/guilds/{gid}", self._get_guild)
        r.add_get(p + "/guilds/{gid}/channels", self._get_guild_channels)
        r.add_get(p + "/guilds/{gid}/members/{uid}", self._get_member)
        r.add_post(p + "/interactions/{iid}/{token}/callback", self._interaction_callback)
        r.add_get(p + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_get)
        r.add_patch(p + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_edit)
        r.add_delete(p + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_delete)
        r.add_post(p + "/webhooks/{app}/{token}", self._webhook_followup)
        r.add_get(p + "/applications/{app}/commands", self._get_commands)
        r.add_put(p + "/applications/{app}/commands", self._put_commands)
        r.add_get(p + "/applications/{app}/guilds/{gid}/commands", self._get_commands)
        r.add_put(p + "/applications/{app}/guilds/{gid}/commands", self._put_commands)
        r.add_get("/attachments/{cid}/{aid}/{filename}", self._get_attachment)
        r.add_route("*", "/{tail:.*}", self._unimplemented)

    async def _unimplemented(self, request: web.Request) -> web.Response:
        what = f"{request.method} {request.path}"
        self.unimplemented.append(what)
        log.warning("fake Discord does not implement %s", what)
        return json_response({"message": f"Not implemented by the fake Discord: {what}", "code": 0}, status=501)

    # ----------------------------------------------------------------------------------------- helpers
    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], dict[int, tuple[str, bytes, str]]]:
        """JSON body, or multipart ``payload_json`` + ``files[n]``."""
        files: dict[int, tuple[str, bytes, str]] = {}
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            body: dict[str, Any] = {}
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = part.name or ""
                if name == "payload_json":
                    body = json.loads(await part.text())
                    continue
                m = re.fullmatch(r"files\[(\d+)\]|file(\d*)", name)
                if m is None:
                    raise ApiError(400, 50035, f"Invalid Form Body: unexpected field {name!r}")
                idx = int(m.group(1) or m.group(2) or 0)
                data = await part.read(decode=False)
                self.uploads.append((part.filename or f"file{idx}", len(data)))
                files[idx] = (part.filename or f"file{idx}", bytes(data),
                              part.headers.get("Content-Type", "application/octet-stream"))
            return body, files
        if not request.can_read_body:
            return {}, files
        text = await request.text()
        return (json.loads(text) if text else {}), files

    def _channel_or_404(self, cid: str) -> FakeChannel:
        chan = self.channels.get(int(cid)) if cid.isdigit() else None
        if chan is None or chan.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        return chan

    def _message_or_404(self, chan: FakeChannel, mid: str) -> FakeMessage:
        msg = self.messages.get(int(mid)) if mid.isdigit() else None
        if msg is None or msg.deleted or msg.channel_id != chan.id or msg.ephemeral_to is not None:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _validate_message_body(self, body: dict[str, Any], files: dict[int, Any], *, creating: bool,
                               msg: FakeMessage | None = None, where: str = "") -> None:
        """Discord's checks on a message body (create, or an edit of ``msg``): the basic ones always, the
        documented limits of :mod:`rules` for every check in ``self.checks``."""
        content = body.get("content") or ""
        if len(content) > rules.CONTENT_MAX:
            raise ApiError(400, 50035, "Invalid Form Body: content: Must be 2000 or fewer in length.")
        if len(body.get("embeds") or []) > rules.EMBEDS_MAX:
            raise ApiError(400, 50035, "Invalid Form Body: embeds: Must be 10 or fewer in length.")
        if len(body.get("components") or []) > rules.V2_COMPONENTS_MAX:
            raise ApiError(400, 50035, "Invalid Form Body: components: too many components.")
        for comp in _walk_components(body.get("components") or []):
            cid = comp.get("custom_id")
            if cid is not None and len(cid) > rules.CUSTOM_ID_MAX:
                raise ApiError(400, 50035, "Invalid Form Body: custom_id: Must be 100 or fewer in length.")
        if creating and not (content or body.get("embeds") or body.get("components") or files
                             or body.get("sticker_ids") or body.get("poll")):
            raise ApiError(400, 50006, "Cannot send an empty message")
        old_flags = msg.flags if msg is not None else 0
        flags = int(body["flags"]) if body.get("flags") is not None else old_flags
        merged = dict(body)
        if msg is not None:  # what the message will be after the edit
            for key, value in (("content", msg.content), ("embeds", msg.embeds), ("components", msg.components)):
                merged.setdefault(key, value)
        for check, run in (
            (rules.LIMITS, lambda e: rules.check_limits(e, body, files)),
            (rules.COMPONENTS, lambda e: rules.check_components(e, body.get("components"), flags)),
            (rules.COMPONENTS_V2, lambda e: self._check_v2(e, merged, flags, old_flags)),
            (rules.ATTACHMENTS, lambda e: self._check_refs(e, body, files, msg)),
        ):
            if check in self.checks:
                errors = rules.FormErrors()
                run(errors)
                if errors:
                    self._refuse(check, where, errors)

    @staticmethod
    def _check_v2(errors: rules.FormErrors, merged: dict[str, Any], flags: int, old_flags: int) -> None:
        if old_flags & rules.FLAG_COMPONENTS_V2 and not flags & rules.FLAG_COMPONENTS_V2:
            errors.add(("flags",), "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                       "The IS_COMPONENTS_V2 flag cannot be removed from a message")
        rules.check_components_v2(errors, merged, flags)
        if not flags & rules.FLAG_COMPONENTS_V2:
            for path, comp in rules.walk(merged.get("components") or []):
                if comp.get("type") in (9, 10, 11, 12, 13, 14, 17):
                    errors.add((*path, "type"), "COMPONENT_REQUIRES_COMPONENTS_V2",
                               "This component type needs the IS_COMPONENTS_V2 flag")

    @staticmethod
    def _check_refs(errors: rules.FormErrors, body: dict[str, Any], files: dict[int, Any],
                    msg: FakeMessage | None) -> None:
        if msg is not None and "embeds" not in body and "components" not in body:
            return  # the message's embeds are not being sent again
        entries = {str(e.get("id")): e for e in body.get("attachments") or [] if isinstance(e, dict)}
        names = {(entries.get(str(i)) or {}).get("filename") or f[0] for i, f in files.items()}
        if msg is not None:
            kept = {str(a.id) for a in msg.attachments} & set(entries)
            names |= {a.filename for a in msg.attachments if str(a.id) in kept}
        rules.check_attachment_refs(errors, body, names)

    def _refuse(self, check: str, where: str, errors: rules.FormErrors) -> None:
        method, _, path = where.partition(" ")
        self.violations.append(Violation(check, method, path, errors.summary()))
        log.warning("fake Discord refused %s (%s): %s", where, check, errors.summary())
        raise ApiError(400, 50035, "Invalid Form Body", errors=errors.nested())

    # ----------------------------------------------------------------------------------------- users/app
    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response({**self.bot.payload(), "verified": True, "mfa_enabled": False, "email": None,
                              "locale": "en-US"})

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response({
            "id": str(self.application_id), "name": self.bot.name, "icon": None, "description": "",
            "bot_public": True, "bot_require_code_grant": False, "owner": self.owner.payload(),
            "verify_key": "0" * 64, "flags": 0, "team": None, "summary": "", "rpc_origins": [],
            "bot": self.bot.payload(), "tags": [], "install_params": None, "custom_install_url": None,
            "integration_types_config": {}, "approximate_guild_count": len(self.guilds),
            "redirect_uris": [], "interactions_endpoint_url": None, "terms_of_service_url": None,
            "privacy_policy_url": None, "cover_image": None, "guild_id": None, "primary_sku_id": None,
            "slug": None, "role_connections_verification_url": None,
        })

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url.rstrip("/")})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url.rstrip("/"), "shards": self.shard_count,
                              "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                                      "max_concurrency": 1}})

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None or user.bot:
            raise ApiError(400, 50007, "Cannot send messages to this user")
        if rules.DMS in self.checks and self.dm_channel_of(user) is None:
            count, window = self.dm_open_limit
            now = time.monotonic()
            self._dm_opens = [t for t in self._dm_opens if now - t < window]
            if len(self._dm_opens) >= count:
                raise ApiError(403, 40003, "You are opening direct messages too fast.")
            self._dm_opens.append(now)
        return json_response(self.channel_payload(self._get_or_create_dm(user)))

    # ------------------------------------------------------------------------------------------ guilds
    def _guild_or_404(self, gid: str) -> FakeGuild:
        guild = self.guilds.get(int(gid)) if gid.isdigit() else None
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild_or_404(request.match_info["gid"])
        data = self.guild_payload(guild)
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large",
                    "member_count"):
            data.pop(key, None)
        return json_response(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild_or_404(request.match_info["gid"])
        return json_response([self.channel_payload(c) for c in guild.channels() if not c.deleted])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._guild_or_404(request.match_info["gid"])
        uid = int(request.match_info["uid"])
        if uid not in guild.member_ids:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(self.member_payload(guild, self.users[uid]))

    # ---------------------------------------------------------------------------------------- channels
    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self.channel_payload(self._channel_or_404(request.match_info["cid"])))

    async def _typing(self, request: web.Request) -> web.Response:
        self._channel_or_404(request.match_info["cid"])
        return web.Response(status=204)

    async def _list_messages(self, request: web.Request) -> web.Response:
        chan = self._channel_or_404(request.match_info["cid"])
        limit = max(1, min(100, int(request.query.get("limit", 50))))
        msgs = chan.messages()
        q = request.query
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
            msgs = msgs[-limit:]
        elif "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])][:limit]
        elif "around" in q:
            pivot = int(q["around"])
            older = [m for m in msgs if m.id < pivot][-(limit // 2):]
            newer = [m for m in msgs if m.id >= pivot][: limit - len(older)]
            msgs = older + newer
        else:
            msgs = msgs[-limit:]
        return json_response([self.message_payload(m) for m in reversed(msgs)])

    async def _create_message(self, request: web.Request) -> web.Response:
        chan = self._channel_or_404(request.match_info["cid"])
        body, files = await self._read_body(request)
        if chan.type == 1:
            recipient = self.users[chan.recipient_id or 0]
            if rules.DMS in self.checks and not self.shares_guild_with_bot(recipient):
                raise ApiError(403, 50278, "Cannot send messages to this user due to having no mutual guilds")
            if not recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        needs = [SEND_MESSAGES]
        if body.get("embeds"):
            needs.append(EMBED_LINKS)
        if files:
            needs.append(ATTACH_FILES)
        self._require(chan, *needs)
        self._validate_message_body(body, files, creating=True, where=f"POST {request.path}")
        if body.get("flags"):
            # Only interaction responses can be ephemeral; Discord ignores the bit on channel messages.
            body["flags"] = int(body["flags"]) & ~MESSAGE_FLAG_EPHEMERAL
        nonce = body.get("nonce")
        if nonce is not None and len(str(nonce)) > rules.NONCE_MAX:
            raise ApiError(400, 50035, "Invalid Form Body: nonce: Must be 25 or fewer in length.")
        if nonce is not None and body.get("enforce_nonce"):
            seen = self._nonces.get((self.bot.id, str(nonce)))
            if seen is not None and time.monotonic() - seen[1] < self.nonce_window:
                first = self.messages[seen[0]]
                if first.deleted:
                    raise ApiError(404, 10008, "Unknown Message")
                payload = self.message_payload(first)
                payload["nonce"] = first.nonce
                return json_response(payload)
        msg = self._new_message_from_body(chan.id, self.bot.id, body, files)
        if nonce is not None:
            msg.nonce = str(nonce)
            if body.get("enforce_nonce"):
                self._nonces[(self.bot.id, str(nonce))] = (msg.id, time.monotonic())
        await self._notify()
        payload = self.message_payload(msg)
        if msg.nonce is not None:
            payload["nonce"] = msg.nonce
        return json_response(payload)

    async def _get_message(self, request: web.Request) -> web.Response:
        chan = self._channel_or_404(request.match_info["cid"])
        return json_response(self.message_payload(self._message_or_404(chan, request.match_info["mid"])))

    async def _edit_message(self, request: web.Request) -> web.Response:
        chan = self._channel_or_404(request.match_info["cid"])
        msg = self._message_or_404(chan, request.match_info["mid"])
        body, files = await self._read_body(request)
        if msg.author_id != self.bot.id:
            # Others' messages: only the SUPPRESS_EMBEDS flag may be changed.
            if set(body) - {"flags"}:
                raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        needs = []
        if body.get("embeds"):
            needs.append(EMBED_LINKS)
        if files:
            needs.append(ATTACH_FILES)
        self._require(chan, *needs)
        self._limit_old_edits(msg)
        self._validate_message_body(body, files, creating=False, msg=msg, where=f"PATCH {request.path}")
        self._apply_edit(msg, body, files)
        await self._notify()
        return json_response(self.message_payload(msg))

    def _limit_old_edits(self, msg: FakeMessage) -> None:
        if rules.OLD_MESSAGE_EDITS not in self.checks or time.time() - msg.created_at < OLD_MESSAGE_AGE:
            return
        count, window = self.old_edit_limit
        now = time.monotonic()
        recent = [t for t in self._old_edits.get(msg.id, []) if now - t < window]
        if len(recent) >= count:
            # No Via header: this is not a bucket discord.py could wait out, it raises at once.
            raise ApiError(429, 30046, "Maximum number of edits to messages older than 1 hour reached. Try again later")
        recent.append(now)
        self._old_edits[msg.id] = recent

    async def _delete_message(self, request: web.Request) -> web.Response:
        chan = self._channel_or_404(request.match_info["cid"])
        msg = self._message_or_404(chan, request.match_info["mid"])
        msg.deleted = True
        await self._notify()
        return web.Response(status=204)

    async def _add_reaction(self, request: web.Request) -> web.Response:
        chan = self._channel_or_404(request.match_info["cid"])
        self._require(chan, ADD_REACTIONS)
        msg = self._message_or_404(chan, request.match_info["mid"])
        msg.reactions.setdefault(unquote(request.match_info["emoji"]), set()).add(self.bot.id)
        await self._notify()
        return web.Response(status=204)

    async def _remove_reaction(self, request: web.Request) -> web.Response:
        chan = self._channel_or_404(request.match_info["cid"])
        msg = self._message_or_404(chan, request.match_info["mid"])
        msg.reactions.get(unquote(request.match_info["emoji"]), set()).discard(self.bot.id)
        await self._notify()
        return web.Response(status=204)

    async def _get_attachment(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["aid"])
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(body=att.data, headers={"Content-Type": att.content_type})
        return web.Response(status=404)

    # ------------------------------------------------------------------------------------ interactions
    def _interaction_for_webhook(self, request: web.Request) -> InteractionRecord:
        if request.match_info["app"] != str(self.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        rec = self._interactions_by_token.get(request.match_info["token"])
        if rec is None or time.monotonic() - rec.created > INTERACTION_TOKEN_LIFETIME:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return rec

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        rec = self.interactions.get(int(request.match_info["iid"])) if request.match_info["iid"].isdigit() else None
        if rec is None or rec.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if rec.acknowledged:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        elapsed = time.monotonic() - rec.created
        if (self.interaction_deadline is not None and rules.INTERACTION_WINDOW in self.checks
                and elapsed > self.interaction_deadline):
            raise ApiError(404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        rtype = body.get("type")
        data = body.get("data") or {}
        user = self.users[rec.user_id]
        resource_msg: FakeMessage | None = None
        where = f"POST {request.path.rsplit('/', 2)[0]}/…/callback"
        if rtype == 4:
            self._validate_message_body(data, files, creating=True, where=where)
            eph = user.id if int(data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL else None
            resource_msg = self._new_message_from_body(rec.channel_id, self.bot.id, data, files, ephemeral_to=eph,
                                                       interaction_id=rec.id,
                                                       message_type=20 if rec.type == 2 else 0)
            rec.original_id = resource_msg.id
        elif rtype == 5:
            eph = user.id if int(data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL else None
            resource_msg = self._new_message_from_body(rec.channel_id, self.bot.id, {}, {}, ephemeral_to=eph,
                                                       interaction_id=rec.id,
                                                       message_type=20 if rec.type == 2 else 0)
            resource_msg.flags |= MESSAGE_FLAG_LOADING
            rec.original_id = resource_msg.id
        elif rtype in (6, 7):
            if rec.source_message_id is None:
                raise ApiError(400, 40004, "Interaction response type not allowed for this interaction")
            if rtype == 7:
                source = self.messages[rec.source_message_id]
                self._validate_message_body(data, files, creating=False, msg=source, where=where)
                self._apply_edit(source, data, files)
                resource_msg = source
        elif rtype == 9:
            if rec.type == 5:
                raise ApiError(400, 40004, "A modal cannot answer a modal submit")
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                raise ApiError(400, 50035, "Invalid Form Body: a modal needs custom_id, title and components")
            if rules.MODALS in self.checks:
                errors = rules.FormErrors()
                for note in rules.check_modal(errors, data):
                    self.warnings.append(f"{where}: {note}")
                if errors:
                    self._refuse(rules.MODALS, where, errors)
            rec.modal = data
        elif rtype == 8:
            if rec.type != 4:
                raise ApiError(400, 40004, "Autocomplete results answer only an autocomplete interaction")
            choices = data.get("choices")
            if not isinstance(choices, list) or len(choices) > 25 or any(
                    not isinstance(c, dict) or not 1 <= len(str(c.get("name", ""))) <= 100
                    or len(str(c.get("value", ""))) > 100 for c in choices):
                raise ApiError(400, 50035, "Invalid Form Body: at most 25 choices, names of 1-100 characters")
            rec.choices = choices
        else:
            self.unimplemented.append(f"interaction callback type {rtype}")
            raise ApiError(501, 0, f"Callback type {rtype} is not implemented by the fake Discord")
        rec.response_type = rtype
        rec.responded_after = elapsed
        await self._notify()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        interaction: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        out: dict[str, Any] = {"interaction": interaction}
        if resource_msg is not None:
            interaction["response_message_id"] = str(resource_msg.id)
            interaction["response_message_loading"] = resource_msg.loading
            interaction["response_message_ephemeral"] = resource_msg.ephemeral
            out["resource"] = {"type": rtype, "message": self.message_payload(resource_msg)}
        return json_response(out)

    def _webhook_message(self, rec: InteractionRecord, mid: str) -> FakeMessage:
        if mid == "@original":
            msg = rec.original
        else:
            msg = self.messages.get(int(mid)) if mid.isdigit() else None
            if msg is not None and msg.id not in rec.followup_ids and msg.id != rec.original_id:
                msg = None
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _webhook_get(self, request: web.Request) -> web.Response:
        rec = self._interaction_for_webhook(request)
        return json_response(self.message_payload(self._webhook_message(rec, request.match_info["mid"])))

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        rec = self._interaction_for_webhook(request)
        msg = self._webhook_message(rec, request.match_info["mid"])
        body, files = await self._read_body(request)
        self._validate_message_body(body, files, creating=msg.loading, msg=None if msg.loading else msg,
                                    where="PATCH /webhooks/…/messages/" + request.match_info["mid"])
        self._apply_edit(msg, body, files)
        msg.flags &= ~MESSAGE_FLAG_LOADING
        await self._notify()
        return json_response(self.message_payload(msg))

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        rec = self._interaction_for_webhook(request)
        msg = self._webhook_message(rec, request.match_info["mid"])
        msg.deleted = True
        await self._notify()
        return web.Response(status=204)

    async def _webhook_followup(self, request: web.Request) -> web.Response:
        rec = self._interaction_for_webhook(request)
        if not rec.acknowledged:
            raise ApiError(404, 10015, "Unknown Webhook")
        body, files = await self._read_body(request)
        self._validate_message_body(body, files, creating=True, where="POST /webhooks/… (follow-up)")
        original = self.messages.get(rec.original_id) if rec.original_id else None
        if original is not None and original.loading and not original.deleted:
            # On Discord the first follow-up after a "thinking" defer replaces the loading message (and
            # ignores its ephemeral flag); deprecated: edit_original_response is the supported way.
            self.warnings.append("the first follow-up after a deferred reply replaced the thinking message "
                                 "(deprecated: use edit_original_response)")
            self._apply_edit(original, body, files)
            original.flags &= ~MESSAGE_FLAG_LOADING
            msg = original
        else:
            eph = rec.user_id if int(body.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL else None
            msg = self._new_message_from_body(rec.channel_id, self.bot.id, body, files, ephemeral_to=eph,
                                              interaction_id=rec.id)
            rec.followup_ids.append(msg.id)
        await self._notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self.message_payload(msg))
        return web.Response(status=204)

    # ---------------------------------------------------------------------------------------- commands
    async def _get_commands(self, request: web.Request) -> web.Response:
        if request.match_info["app"] != str(self.application_id):
            raise ApiError(403, 50001, "Missing Access")
        gid = request.match_info.get("gid")
        if gid is not None:
            self._guild_or_404(gid)
            return json_response(self.guild_commands.get(int(gid), []))
        return json_response(self.global_commands)

    async def _put_commands(self, request: web.Request) -> web.Response:
        if request.match_info["app"] != str(self.application_id):
            raise ApiError(403, 50001, "Missing Access")
        gid_s = request.match_info.get("gid")
        gid = int(self._guild_or_404(gid_s).id) if gid_s is not None else None
        body, _ = await self._read_body(request)
        if not isinstance(body, list):
            raise ApiError(400, 50035, "Invalid Form Body: expected a list of commands")
        if rules.LIMITS in self.checks:  # names, descriptions, options and their localisations
            errors = rules.FormErrors()
            for i, cmd in enumerate(body):
                if int(cmd.get("type", 1)) == 1:
                    rules.check_command(errors, (i,), cmd)
            if errors:
                self._refuse(rules.LIMITS, f"PUT {request.path}", errors)
        stored = []
        seen: set[tuple[str, int]] = set()
        for cmd in body:
            ctype = int(cmd.get("type", 1))
            name = cmd.get("name", "")
            if (name, ctype) in seen:
                raise ApiError(400, 50035, f"Invalid Form Body: duplicate command name {name!r}")
            seen.add((name, ctype))
            if ctype == 1 and not re.fullmatch(r"[-_\w]{1,32}", name):
                raise ApiError(400, 50035, f"Invalid Form Body: bad command name {name!r}")
            for key, allowed in (("contexts", {0, 1, 2}), ("integration_types", {0, 1})):
                value = cmd.get(key)
                if value is not None and (not isinstance(value, list) or not set(value) <= allowed or not value):
                    raise ApiError(400, 50035, f"Invalid Form Body: {key} must be a non-empty list of {sorted(allowed)}")
            # Discord keeps a command's id across re-syncs when its name and type stay the same.
            cid = self._command_ids.setdefault((gid, name, ctype), self.snowflake())
            entry = {"description": "", "options": [], "default_member_permissions": None, "nsfw": False,
                     **cmd, "type": ctype, "id": str(cid), "application_id": str(self.application_id),
                     "version": str(self.snowflake())}
            if gid is not None:
                entry["guild_id"] = str(gid)
            stored.append(entry)
        if gid is None:
            self.global_commands = stored
        else:
            self.guild_commands[gid] = stored
        await self._notify()
        return json_response(stored)


def _identify_shard(raw: Any) -> tuple[int, int] | None:
    """IDENTIFY's ``shard`` ([shard_id, shard_count], absent = [0, 1]); None when Discord would refuse it."""
    if raw is None:
        return 0, 1
    if (not isinstance(raw, list) or len(raw) != 2 or not all(isinstance(n, int) and not isinstance(n, bool)
                                                             for n in raw)):
        return None
    shard_id, count = raw
    return (shard_id, count) if 0 <= shard_id < count else None


# Events whose payload is the guild itself (its id is "id"); other guild events carry "guild_id".
_GUILD_OBJECT_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


def _event_guild(event: str, data: dict[str, Any]) -> int | None:
    raw = data.get("id") if event in _GUILD_OBJECT_EVENTS else data.get("guild_id")
    return int(raw) if raw is not None else None


def _walk_components(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for comp in items:
        out.append(comp)
        for key in ("components",):
            if isinstance(comp.get(key), list):
                out.extend(_walk_components(comp[key]))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                out.extend(_walk_components([comp[key]]))
    return out
