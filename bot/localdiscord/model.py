"""The world the fake Discord keeps: guilds, channels, users, messages and interactions.

Everything here is plain data plus the functions that turn it into the JSON payloads discord.py parses.
The server (``server.py``) mutates it; tests read it.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import itertools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import FakeDiscord
    from .users import FakeUser

DISCORD_EPOCH_MS = 1420070400000

ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1

PERMISSION_NAMES = {
    ADD_REACTIONS: "Add Reactions", VIEW_CHANNEL: "View Channel", SEND_MESSAGES: "Send Messages",
    MANAGE_MESSAGES: "Manage Messages", EMBED_LINKS: "Embed Links", ATTACH_FILES: "Attach Files",
    READ_MESSAGE_HISTORY: "Read Message History", USE_EXTERNAL_EMOJIS: "Use External Emojis",
    SEND_MESSAGES_IN_THREADS: "Send Messages in Threads",
}

# Permissions a plain member has in the fake guilds (the @everyone role): view, send, embed, attach, history,
# reactions, external emojis, application commands.
MEMBER_PERMISSIONS = (VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
                      | ADD_REACTIONS | USE_EXTERNAL_EMOJIS | USE_APPLICATION_COMMANDS)
# The bot's own (managed) role, as an invite with these permissions creates it; it also manages messages.
BOT_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_MESSAGES | SEND_MESSAGES_IN_THREADS

# Discord's default upload limit for a guild without boosts (10 MiB).
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

MESSAGE_FLAG_EPHEMERAL = 64
MESSAGE_FLAG_LOADING = 128


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events (Discord's documented formula)."""
    return (guild_id >> 22) % shard_count


class SnowflakeFactory:
    """Monotonic snowflakes built from the wall clock, like Discord's (discord.py reads their time)."""

    def __init__(self) -> None:
        self._last = 0
        self._counter = itertools.count()

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._counter) & 0xFFF)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake whose guild would be on `shard_id` of `shard_count` (Discord routes a guild to
        shard ``(id >> 22) % shard_count``): the time part moved at most ``shard_count - 1`` ms ahead."""
        value = self()
        ms = value >> 22
        ahead = (shard_id - ms) % shard_count
        if ahead:
            value = ((ms + ahead) << 22) | (value & 0x3FFFFF)
            self._last = value
        return value


def iso(ts: float) -> str:
    return _dt.datetime.fromtimestamp(ts, tz=_dt.UTC).isoformat()


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class FakeMessage:
    """A message as the fake stores it. ``embeds`` and ``components`` are the raw JSON the bot sent."""

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    # Set for ephemeral messages: the only user who can see it.
    ephemeral_to: int | None = None
    # The interaction this message answers (original response or follow-up), if any.
    interaction_id: int | None = None
    message_type: int = 0
    reactions: dict[str, set[int]] = field(default_factory=dict)
    deleted: bool = False
    edits: int = 0
    nonce: str | None = None  # what the author sent as the message's nonce (returned on creation only)
    # The embed titles the message was created with (a closed prompt is edited to "Done" later).
    first_titles: tuple[str, ...] = ()

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_LOADING)

    def file(self, filename: str) -> bytes:
        """Bytes of the attachment called ``filename`` (KeyError if there is none)."""
        for att in self.attachments:
            if att.filename == filename:
                return att.data
        raise KeyError(filename)

    @property
    def filenames(self) -> list[str]:
        return [a.filename for a in self.attachments]

    def embed_image(self, index: int = 0) -> bytes | None:
        """Bytes of the attachment the embed's image points at (``attachment://name``), if any."""
        if index >= len(self.embeds):
            return None
        url = (self.embeds[index].get("image") or {}).get("url")
        if not url:
            return None
        name = url.removeprefix("attachment://") if url.startswith("attachment://") else url.rsplit("/", 1)[-1]
        try:
            return self.file(name)
        except KeyError:
            return None

    def iter_components(self) -> list[dict[str, Any]]:
        """Every interactive component on the message, in order, whatever the layout nesting."""
        found: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for comp in items:
                if comp.get("type") in (2, 3, 5, 6, 7, 8):
                    found.append(comp)
                if isinstance(comp.get("components"), list):
                    walk(comp["components"])
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]])
                if isinstance(comp.get("component"), dict):
                    walk([comp["component"]])

        walk(self.components)
        return found

    def text_displays(self) -> list[str]:
        """What a components V2 message says: every text display's text and every media item's description
        (alt text), in order, whatever the layout nesting."""
        found: list[str] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for comp in items:
                if comp.get("type") == 10 and comp.get("content"):
                    found.append(comp["content"])
                found.extend(item["description"] for item in comp.get("items") or []
                             if isinstance(item, dict) and item.get("description"))
                if isinstance(comp.get("components"), list):
                    walk(comp["components"])
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]])

        walk(self.components)
        return found

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    def find_component(self, *, custom_id: str | None = None, label: str | None = None) -> dict[str, Any]:
        """The component with this custom_id or label; LookupError listing what the message offers."""
        for comp in self.iter_components():
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and comp.get("label") == label:
                return comp
        offered = [(c.get("label"), c.get("custom_id")) for c in self.iter_components()]
        raise LookupError(f"no component custom_id={custom_id!r} label={label!r} on message {self.id}; has {offered}")


@dataclass
class FakeChannel:
    id: int
    name: str
    type: int  # 0 guild text, 1 DM
    world: FakeDiscord = field(repr=False)
    guild_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    message_ids: list[int] = field(default_factory=list)
    deleted: bool = False
    # Permission overwrites: role or member id -> (type 0 role / 1 member, allow, deny).
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    def messages(self) -> list[FakeMessage]:
        """Visible (non-ephemeral, not deleted) messages, oldest first."""
        return self.world.channel_messages(self.id)

    def last_message(self) -> FakeMessage | None:
        msgs = self.messages()
        return msgs[-1] if msgs else None

    def bot_messages(self) -> list[FakeMessage]:
        return [m for m in self.messages() if m.author_id == self.world.bot_user_id]


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    world: FakeDiscord = field(repr=False)
    channel_ids: list[int] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)
    # role id -> role payload; the @everyone role has the guild's id.
    roles: dict[int, dict[str, Any]] = field(default_factory=dict)
    member_roles: dict[int, list[int]] = field(default_factory=dict)
    joined_at: float = field(default_factory=time.time)
    # The bot's managed role in this guild (created with the guild).
    bot_role_id: int = 0
    # The server's language (Discord: a community server's preferred locale; en-US otherwise).
    preferred_locale: str = "en-US"

    def channels(self) -> list[FakeChannel]:
        return [self.world.channels[c] for c in self.channel_ids]


@dataclass
class InteractionRecord:
    """One interaction a simulated user started, and everything the bot answered to it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 5 modal submit
    user_id: int
    channel_id: int
    guild_id: int | None
    data: dict[str, Any]
    world: FakeDiscord = field(repr=False)
    source_message_id: int | None = None
    # When the user clicked (or ran the command): Discord's 3 s window starts here, not at delivery.
    created: float = field(default_factory=time.monotonic)
    response_type: int | None = None
    responded_after: float | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None  # the bot's autocomplete suggestions (callback type 8)
    payload: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def original(self) -> FakeMessage | None:
        """The original response message (type 4/5), or the component's message after type 6/7."""
        if self.original_id is not None:
            return self.world.messages.get(self.original_id)
        if self.response_type in (6, 7) and self.source_message_id is not None:
            return self.world.messages.get(self.source_message_id)
        return None

    @property
    def reply(self) -> FakeMessage | None:
        """The bot's answer: the original response, or the first follow-up when there is none."""
        if self.original_id is not None:
            return self.world.messages.get(self.original_id)
        fups = self.followups
        return fups[0] if fups else None

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.world.messages[i] for i in self.followup_ids if not self.world.messages[i].deleted]

    @property
    def messages(self) -> list[FakeMessage]:
        out = [self.world.messages[self.original_id]] if self.original_id is not None else []
        return out + self.followups

    @property
    def ephemeral(self) -> bool:
        msg = self.reply
        return bool(msg and msg.ephemeral)

    @property
    def source_message(self) -> FakeMessage | None:
        return self.world.messages.get(self.source_message_id) if self.source_message_id else None

    @property
    def user(self) -> FakeUser:
        return self.world.users[self.user_id]

    async def wait_response(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait until the bot acknowledged the interaction (any callback type)."""
        await self.world.wait_for(lambda: self.acknowledged, timeout=timeout, what=f"a response to {self}")
        return self

    async def wait_done(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait until the bot acknowledged and no response message is still 'thinking'."""

        def done() -> bool:
            if not self.acknowledged:
                return False
            orig = self.world.messages.get(self.original_id) if self.original_id else None
            return not (orig is not None and orig.loading)

        await self.world.wait_for(done, timeout=timeout, what=f"a finished response to {self}")
        return self

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        await self.world.wait_for(lambda: len(self.followups) >= count, timeout=timeout,
                                  what=f"{count} follow-up(s) to {self}")
        return self.followups

    def __repr__(self) -> str:
        return f"<InteractionRecord id={self.id} type={self.type} response={self.response_type}>"


class WaitTimeout(asyncio.TimeoutError):
    """Raised by the wait helpers; says what was awaited."""
