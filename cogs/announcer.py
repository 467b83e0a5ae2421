"""The announcer: tells Discord what the service committed. Owned by the bot; the cog and the scheduler call it.

An announcement gets everything from the ActionResult the service built inside its transaction (the
public view, the seat views, the pending prompts and drafts): it reads no game state, only the records of
the messages already sent (inside the game's lock, so they include what earlier announcements sent). It posts the public event lines (with the presenter's picture, if any) and the private ones
by DM, then carries out the sync plan (bot/ui/sync.py): stale prompts closed, new prompts sent, screens
and the table message brought up to date. Announcements are serialised per game; every Discord request
has a time limit and one retry, and a failed message loses nothing (the state is committed; "My screen"
shows it again).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import io
import json
import logging
import operator
import time
import zlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import aiohttp
import discord

from bot.i18n import DEFAULT_LOCALE, reader, reading
from bot.locks import KeyedLocks, Recent
from bot.presenters import presenter_for
from bot.service import ActionResult, GameService, Reminder
from bot.storage import OutboxRow
from bot.ui import ids, lockin, sync
from bot.ui.drafts import RECAP, RECAP_OF, load_draft
from bot.ui.presenter import Presenter, SeatCtx, TableCtx, Waiting
from bot.ui.spec import Button
from bot.ui.texts import (
    REMATCH,
    channel_gone_text,
    jump_link,
    names_map,
    ping_text,
    prompt_head,
    reminder_text,
    split_text,
    timeout_public,
    timestamp,
    where_text,
)
from engine.api import GameType, Outcome

from .discord_ui import digest, localize_kwargs, merge_kwargs, message_kwargs, refile, shown_picture

MAX_EMBEDS = 10  # Discord: embeds per message

log = logging.getLogger(__name__)
REQUEST_TIMEOUT = 20.0  # seconds for one Discord request made while announcing
FINAL = "final"  # message records of a posted score sheet (prompt_key: the part's index)
# Finished games younger than this get a missing score sheet at start-up; older ones are left alone (their
# sheets were posted before these records existed).
FINAL_CATCH_UP_WINDOW = 2 * 24 * 3600.0
CLOSED_TEXT = "✔ This decision is closed: the game has moved on (see the channel)."
# The channel ping that stands in for a prompt that could not be sent by DM, by why (classify_dm_failure);
# closed DMs use bot.ui.texts.ping_text, and the first time add how to open them.
DM_PINGS = {
    "no_guild": "<@{u}>, {g} game #{n} is waiting for {what}: press **My screen** (I cannot DM you while we share "
                "no server).",
    "refused": "<@{u}>, {g} game #{n} is waiting for {what}: press **My screen** (your direct message could not "
               "be delivered).",
}
HOW_TO_OPEN_DMS = "To get your prompts by DM, allow direct messages from server members (Server menu → Privacy Settings)."
# Catch-up after a restart paces its repairs to this many Discord requests per second: half of Discord's
# global 50/s, so the players' live games keep the other half.
CATCH_UP_RATE = 25.0
UNKNOWN_CHANNEL = 10003  # Discord's error code for a deleted channel
GONE = "gone"  # message record: the players were told that their game's channel is gone
RETRY_DELAYS = (2.0, 5.0, 15.0, 60.0, 300.0)  # seconds before delivering a game's outbox again after a failure
TABLE_EDIT_PAUSE = 1.0  # seconds a table message's edit waits for more results of its game (see table_step)
# Why a DM could not be delivered (classify_dm_failure), from Discord's error codes.
DMS_CLOSED = "closed"  # 50007: the player does not accept DMs from server members (remembered for them)
NO_MUTUAL_GUILD = "no_guild"  # 50278: the player shares no server with the bot any more
LATER = "later"  # a time-out, 5xx, 429 or 40003 "opening DMs too fast": it may pass, so it is tried again
REFUSED = "refused"  # anything else (e.g. 50001 missing access): not tried again for this message
CANNOT_SEND_TO_USER = 50007
NO_MUTUAL_GUILDS = 50278
OPENING_DMS_TOO_FAST = 40003
# Discord returns the first message for a repeated nonce only for "a few minutes". An announcement older
# than this may have had a part shown by a process that died before recording it, and a nonce may no longer
# protect it: the channel (or DM) is searched for that part before it is sent.
NONCE_TRUSTED = 60.0
HISTORY_SEARCHED = 100  # recent messages searched for such a part
# Several processes: an announcement still undelivered this long after its commit was left by a process
# that died between the commit and its messages (a live one delivers within seconds, and holds the game's
# lane while it does). The process that owns the game's server then delivers it, as its start-up catch-up
# would; the repeated parts' nonces (Discord keeps them "a few minutes") and the history search above keep
# a part from showing twice should the first process still be at it.
ORPHANED_AFTER = 120.0
SWEEP_INTERVAL = 60.0  # how often each process looks for such announcements


class Transient(Exception):
    """A Discord request failed in a way that may pass (time-out, server error): deliver again later."""


def classify_dm_failure(exc: BaseException) -> str:
    """Why a DM failed: DMS_CLOSED, NO_MUTUAL_GUILD, LATER (worth another try) or REFUSED. Only closed DMs
    say anything about the player; the others must never mark them as unreachable."""
    if isinstance(exc, discord.HTTPException):
        if exc.code == CANNOT_SEND_TO_USER:
            return DMS_CLOSED
        if exc.code == NO_MUTUAL_GUILDS:
            return NO_MUTUAL_GUILD
        if exc.code == OPENING_DMS_TOO_FAST or exc.status == 429 or exc.status >= 500:
            return LATER
        return REFUSED
    return LATER  # the connection itself failed (OSError, aiohttp.ClientError, a time-out)


def nonce(*parts: Any) -> str:
    """A message's idempotency key for Discord (at most 25 characters): a repeated create with the same
    nonce returns the first message instead of posting a second one."""
    text = ".".join(str(p) for p in parts)
    return text if len(text) <= 25 else f"{zlib.crc32(text.encode()):x}.{len(text)}"[:25]


def state_nonce(game_id: int, version: int, tag: str, key: str | None = None) -> str:
    """The nonce of a message sent for one state of a game (its version): a catch-up right after a crash
    repeats it, a later state of the game (where a prompt or table key may come back) does not."""
    return nonce(game_id, version, tag + format(zlib.crc32((key or "").encode()) & 0xFFFFFF, "x"))


def recap_mark(version: int, recap: str | None) -> int | None:
    """What a prompt message's record keeps of the recap at its top (the record's version field): which commit's
    lines it tells, and the text. The outbox finds there the prompt that showed a seat's private lines."""
    if not recap:
        return None
    return zlib.crc32(f"{version}.{recap}".encode())


def fingerprint(embed: discord.Embed | None) -> int | None:
    """A short fingerprint of what an embed shows (stored with the message record, compared at catch-up)."""
    if embed is None:
        return None
    return zlib.crc32(json.dumps(embed.to_dict(), sort_keys=True, default=str).encode())


def _retrieve(task: asyncio.Task) -> None:
    if not task.cancelled():
        task.exception()


def _stack(task: asyncio.Task) -> str:
    out = io.StringIO()
    task.print_stack(limit=30, file=out)
    return out.getvalue()


class _HeldPings:
    """The channel pings of one announcement (a player whose DMs are closed has a new decision), held back
    while its lines are posted: the two lanes run side by side, and a ping above the lines that announce its
    decision reads out of order. Closed once the lines are out; a ping sent later (a resync the announcement
    scheduled) goes out at once."""

    def __init__(self) -> None:
        self.held: list[tuple[contextvars.Context, int, str]] = []
        self.open = True


_HELD_PINGS: contextvars.ContextVar[_HeldPings | None] = contextvars.ContextVar("held_pings", default=None)


class _TimeoutResponse:
    """Stands in for an HTTP response in the HTTPException raised when a request hangs."""

    status = 504
    reason = "Timeout"


def of_game(kind_of: Callable[[Any], str]) -> Callable[[Any], Any]:
    """A method that builds and sends the messages of one game, the kind of which ``kind_of`` reads from its
    first argument (a result, a reminder, an outbox row): inside it their texts are that game's, English while
    built and each reader's language as sent (bot.i18n.reading)."""
    def wrap(method: Any) -> Any:
        @functools.wraps(method)
        async def run(self: Any, first: Any, *args: Any, **kwargs: Any) -> Any:
            with reading(DEFAULT_LOCALE, kind_of(first)):
                return await method(self, first, *args, **kwargs)
        return run
    return wrap


_kind = operator.attrgetter("kind")  # a result's or a reminder's game


class Announcer:
    def __init__(self, client: discord.Client, service: GameService,
                 game_type: Callable[[str], GameType], presenter: Callable[[str], Presenter] = presenter_for) -> None:
        self.client = client
        self.service = service
        self.game_type = game_type
        self.presenter = presenter
        self._locks = KeyedLocks()  # one per game while announcing it, none for idle games
        self._tasks: set[asyncio.Task] = set()
        self._running = 0  # announcements in progress
        self._synced: dict[int, int] = Recent(2000)  # game id -> version its messages were last brought in line with
        # Table message id -> the file its picture is: an edit naming it keeps the picture without uploading
        # it again (in memory: after a restart the first edit uploads it once).
        self._pictures: dict[int, discord.Attachment] = Recent(2000)
        # Message id -> fingerprint (discord_ui.digest) of the picture its first embed shows: an edit that draws
        # the same bytes again keeps the file instead of uploading it (in memory, like _pictures).
        self.picture_digests: dict[int, str | None] = Recent(5000)
        # DM channel id -> its player, so that edits of a DM read in that player's language.
        self._dm_user: dict[int, int] = Recent(5000)
        # Prompt message ids whose click's answer closed them (no controls left): not edited to closed again.
        self._closed_by_reply: dict[int, bool] = Recent(5000)
        # Prompt message id -> the recap at its top (None: none), so that closing it keeps those lines (a
        # seat's private lines may be shown there and nowhere else). After a restart the record's mark says
        # whether there is one (see _closing_text).
        self._recaps: dict[int, str | None] = Recent(5000)
        # Prompt message ids closed by the sync: an answer to a click that was on its way meanwhile may have
        # put the controls back (the table cog closes it again).
        self._closed: dict[int, bool] = Recent(5000)
        # Game id -> newest version waiting for the messages lane: an older result behind it leaves the
        # messages to it (a burst of clicks is brought in line once).
        self._queued: dict[int, int] = Recent(2000)
        # Game id -> newest version whose table message was shown (or is waiting to be): an older result
        # never takes the table back to an earlier state.
        self._tables: dict[int, int] = Recent(2000)
        self._table_locks = KeyedLocks()  # the table message is posted or edited by one lane at a time
        self._table_queue: dict[int, int] = Recent(2000)  # game id -> newest version waiting for the lines lane
        self._table_edits: dict[int, ActionResult] = {}  # game id -> the newest result a table edit waits to show
        self._table_editing: set[int] = set()  # games with a table edit waiting (see table_step)
        # Prompts, screens and the table message are kept in line in their own lane per game, so a slow
        # channel message never holds up anyone's next prompt (and the other way round).
        self._sync_locks = KeyedLocks()
        self._retries: dict[int, asyncio.Task] = {}  # game id -> a scheduled redelivery of its outbox
        self._failures: dict[int, int] = {}
        self._resyncs: dict[int, asyncio.Task] = {}  # game id -> a scheduled second try of its prompts
        self._resync_failures: dict[int, int] = {}
        self.requests = 0  # Discord requests made (catch-up paces itself on them)
        self.gone: set[int] = set()  # channels Discord said are deleted (their games go on by DM)
        self.batches = 0  # announcement batches carried out (benchmarks count state reads per batch)
        self.on_result: Callable[[ActionResult | Reminder], None] | None = None  # called after each announcement
        self.nonce_trusted = NONCE_TRUSTED
        self.searches = 0  # parts of late announcements looked for in a channel's history
        self._sweeper: asyncio.Task | None = None
        # (game, version) -> (outbox id, parts shown) of a live announcement whose lines are out, recorded as
        # delivered when its messages lane is done (within the same announce).
        self._owed: dict[tuple[int, int], tuple[int, dict]] = {}
        self.sweeps = 0  # looks for orphaned announcements made (tests wait on it)

    # ---------------------------------------------------------------- tasks

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """``async with announcer.lock(game_id):`` the game's announcement lane: its outbox is delivered in
        order under it."""
        return self._locks.hold(game_id)

    def sync_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The game's message lane (prompts, screens, table message)."""
        return self._sync_locks.hold(game_id)

    def spawn(self, coro: Any) -> None:
        # In a context of its own: an announcement started by a click must not read in the clicker's language
        # (bot.i18n.reading); each message it sends is in the language of whoever reads it.
        task = asyncio.create_task(coro, context=contextvars.Context())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def busy(self) -> bool:
        """True while an announcement runs (spawned, or awaited by the scheduler)."""
        return bool(self._tasks) or self._running > 0

    async def drain(self) -> None:
        """Wait for background announcements (used at shutdown, by tests and the demo)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def stop(self) -> None:
        """Drop the scheduled redeliveries (shutdown: the outbox keeps them for the next start)."""
        for task in [*self._retries.values(), *self._resyncs.values()]:
            task.cancel()
        self._retries.clear()
        self._resyncs.clear()
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    # ---------------------------------------------------------------- requests

    async def patient(self, make: Any, what: str) -> Any:
        """Run a Discord request with a time limit, once more if it hangs: a stuck request must never hold
        up a game's announcements (they are serialised per game)."""
        for attempt in (1, 2):
            self.requests += 1
            task = asyncio.ensure_future(make())
            done, _ = await asyncio.wait({task}, timeout=REQUEST_TIMEOUT / 2)
            if not done:
                # Half the time limit gone: say where the request is stuck (a lock, the HTTP pool, a socket).
                log.warning("%s is slow (attempt %d); stuck at:\n%s", what, attempt, _stack(task))
                done, _ = await asyncio.wait({task}, timeout=REQUEST_TIMEOUT / 2)
            if done:
                return task.result()
            task.cancel()
            task.add_done_callback(_retrieve)
            log.warning("%s timed out (attempt %d)", what, attempt)
        raise discord.HTTPException(_TimeoutResponse(), f"{what} timed out")

    async def _language(self, channel_id: int | None = None, user_id: int | None = None) -> str:
        """The language a message is read in: a DM in its player's, a channel post in its server's."""
        languages = getattr(self.client, "languages", None)
        if languages is None:
            return DEFAULT_LOCALE
        try:
            if user_id is not None:
                return await languages.of_user(user_id)
            channel = self.client.get_channel(channel_id) if channel_id else None
            if isinstance(channel, discord.DMChannel) and channel.recipient is not None:
                return await languages.of_user(channel.recipient.id)
            if channel_id in self._dm_user:
                return await languages.of_user(self._dm_user[channel_id])
            guild = getattr(channel, "guild", None)
            return await languages.of_guild(guild.id if guild is not None else None)
        except Exception:  # a language is never worth losing a message
            log.exception("could not read the language for channel %s / user %s", channel_id, user_id)
            return DEFAULT_LOCALE

    async def _kwargs(self, spec: Any, presenter: Presenter, *, channel_id: int | None = None,
                      user_id: int | None = None, content: str | None = None) -> dict:
        """send() arguments for a message of the game being announced (see ``of_game``): its texts English
        (each send translates them for its reader), its picture drawn for whoever reads it in ``channel_id`` or
        ``user_id``'s DMs (no destination: a message with no picture)."""
        locale = await self._language(channel_id, user_id) if spec.image is not None else DEFAULT_LOCALE
        return await message_kwargs(spec, presenter.embed_color, content=content, locale=locale, game=reader()[1],
                                    texts=False)

    async def dm(self, user_id: int, **kwargs: Any) -> discord.Message | None:
        """Send a DM; None when it could not be delivered (closed DMs are remembered, never retried in a loop)."""
        return (await self.send_dm(user_id, **kwargs))[0]

    async def send_dm(self, user_id: int, **kwargs: Any) -> tuple[discord.Message | None, str | None]:
        """Send a DM: (the message, None), or (None, why it failed: see classify_dm_failure)."""
        kwargs = localize_kwargs(kwargs, await self._language(user_id=user_id), reader()[1])
        fresh = refile(kwargs.pop("file", None), kwargs.pop("files", None))

        async def send() -> discord.Message:
            channel = await self.client.create_dm(discord.Object(user_id))
            self._dm_user[channel.id] = user_id
            return await channel.send(**kwargs, **fresh())

        try:
            return await self.patient(send, f"DM to {user_id}"), None
        except (discord.HTTPException, OSError, TimeoutError, aiohttp.ClientError) as exc:
            why = classify_dm_failure(exc)
            if why == DMS_CLOSED:
                await self.service.set_dm_status(user_id, "closed")
            else:
                log.warning("DM to %s failed (%s): %s", user_id, why, exc)
            return None, why

    async def send_channel(self, channel_id: int, **kwargs: Any) -> discord.Message | None:
        kwargs = localize_kwargs(kwargs, await self._language(channel_id), reader()[1])
        fresh = refile(kwargs.pop("file", None), kwargs.pop("files", None))

        async def send() -> discord.Message:
            return await self.client.get_partial_messageable(channel_id).send(**kwargs, **fresh())

        try:
            return await self.patient(send, f"message in channel {channel_id}")
        except discord.NotFound:
            log.warning("channel %s is gone", channel_id)
        except discord.HTTPException:
            log.warning("could not post in channel %s", channel_id)
        return None

    async def post(self, channel_id: int | None, *, user_id: int | None = None, nonce: str,
                   **kwargs: Any) -> discord.Message | None:
        """Create a message in a channel (or a user's DM) at most once per `nonce`. None: it can never be
        shown there (channel gone, no access, DMs closed); raises Transient when a later try may succeed."""
        kwargs = localize_kwargs(kwargs, await self._language(channel_id, user_id), reader()[1])
        fresh = refile(kwargs.pop("file", None), kwargs.pop("files", None))

        async def send() -> discord.Message:
            if user_id is not None:
                channel: Any = await self.client.create_dm(discord.Object(user_id))
                self._dm_user[channel.id] = user_id
            else:
                channel = self.client.get_partial_messageable(channel_id or 0)
            return await channel.send(**kwargs, **fresh(), nonce=nonce)

        what = f"DM to {user_id}" if user_id is not None else f"message in channel {channel_id}"
        try:
            return await self.patient(send, what)
        except discord.HTTPException as exc:
            if user_id is not None:  # a DM: classified, and only closed DMs are remembered for the player
                why = classify_dm_failure(exc)
                if why == LATER:
                    raise Transient(f"{what}: {exc}") from exc
                if why == DMS_CLOSED:
                    await self.service.set_dm_status(user_id, "closed")
                else:
                    log.warning("%s refused (%s): %s", what, why, exc)
                return None
            if isinstance(exc, discord.Forbidden):
                log.warning("no access to channel %s", channel_id)
                return None
            if isinstance(exc, discord.NotFound):
                log.warning("%s: the channel (or the message of nonce %s) is gone", what, nonce)
                if exc.code == UNKNOWN_CHANNEL:
                    self.gone.add(channel_id or 0)
                return None
            if exc.status >= 500 or exc.status == 429:
                raise Transient(f"{what}: {exc}") from exc
            log.warning("%s refused: %s", what, exc)
            return None
        except (OSError, TimeoutError, aiohttp.ClientError) as exc:  # the connection itself failed
            raise Transient(f"{what}: {exc}") from exc

    async def edit(self, channel_id: int, message_id: int, **kwargs: Any) -> bool:
        return await self.edit_message(channel_id, message_id, **kwargs) is not None

    async def edit_message(self, channel_id: int, message_id: int, **kwargs: Any) -> discord.Message | None:
        if not message_id:
            return None
        kwargs = localize_kwargs(kwargs, await self._language(channel_id), reader()[1])
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        # New attachments are read once: a retried edit sends fresh copies (discord.py closes a sent file).
        files = [refile(a) if isinstance(a, discord.File) else a for a in kwargs.pop("attachments", None) or []] \
            if "attachments" in kwargs else None

        def make() -> Any:
            extra = {} if files is None else {"attachments": [f()["file"] if callable(f) else f for f in files]}
            return message.edit(**kwargs, **extra)

        try:
            return await self.patient(make, f"edit of message {message_id}")
        except discord.HTTPException:
            return None

    def closing_text(self, message_id: int, mark: int | None, text: str) -> dict:
        """The text of a prompt message that closes with ``text``: the recap at its top stays (it may be the
        only place that shows what the seat was given privately). A message sent before a restart whose
        record says it has one keeps its text as it is (only its controls go)."""
        recap = self._recaps.get(message_id, "")
        if message_id not in self._recaps and mark is not None:
            return {}
        return {"content": f"{recap}\n{text}" if recap else text}

    def recap_known(self, message_id: int) -> bool:
        return message_id in self._recaps

    def recap_shown(self, message_id: int) -> str | None:
        """The recap at the top of a prompt message sent by this process (None: none, or not known)."""
        return self._recaps.get(message_id)

    def closed_by_sync(self, message_id: int) -> bool:
        """Whether the sync closed this prompt message (the game moved on from it)."""
        return message_id in self._closed

    async def close_again(self, channel_id: int, message_id: int) -> None:
        """The answer to a click on its way while the sync closed this prompt put its controls back: closed
        again, keeping its recap (not known here: the text stays, only the controls go)."""
        if message_id in self._closed:
            await self.edit(channel_id, message_id, **self.closing_text(message_id, 0, CLOSED_TEXT), view=None)

    def closed_by_reply(self, message_id: int) -> None:
        """The answer to a click on this prompt replaces it with no controls: the sync need not close it."""
        self._closed_by_reply[message_id] = True

    def remember_picture(self, msg: discord.Message | None) -> None:
        """Remember which file a table message's picture is (see _edit_table)."""
        picture = shown_picture(msg)
        if msg is not None and picture is not None:
            self._pictures[msg.id] = picture

    # ---------------------------------------------------------------- announcing

    async def announce(self, result: ActionResult | Reminder) -> None:
        """Tell the channel and the players what happened (after the service committed it)."""
        self._running += 1
        try:
            await self._announce_locked(result)
            if self.on_result is not None:
                self.on_result(result)  # e.g. AI seats that must now decide (bot/ai_runner.py)
        finally:
            self._running -= 1

    async def _announce_locked(self, result: ActionResult | Reminder) -> None:
        if isinstance(result, Reminder):
            async with self.lock(result.game_id):
                try:
                    await self._remind(result)
                except Exception:
                    log.exception("reminding for game %s failed", result.game_id)
            return
        # Two lanes: the outbox (lines in the channel, private lines, the end) and the game's messages
        # (prompts, screens, table). Neither waits for the other's Discord requests, but the channel pings of
        # the messages lane wait for the lines (see _HeldPings).
        pings = _HeldPings()
        token = _HELD_PINGS.set(pings)
        try:
            _, synced = await asyncio.gather(self._lines_lane(result), self._messages_lane(result))
        finally:
            _HELD_PINGS.reset(token)
            pings.open = False
        for context, channel_id, text in pings.held:  # in the reader's language they were written for
            await asyncio.create_task(self.send_channel(channel_id, content=text), context=context)
        # The commit's own announcement counts as delivered once its messages are in line too: a process
        # that dies between the two leaves it in the outbox, and the sweep brings the prompts out.
        owed = self._owed.pop((result.game_id, result.version), None)
        if owed is not None and synced:
            try:
                await self.service.outbox_progress(owed[0], owed[1], delivered=True)
            except Exception:
                log.exception("recording the announcement of game %s as delivered failed", result.game_id)

    async def _lines_lane(self, result: ActionResult) -> None:
        """The outbox, then the table message (a new one goes out with the commit's lines)."""
        game_id = result.game_id
        showing = result.public_view is not None and not result.finished and result.status == "active"
        # Every newer result (the end too) supersedes the table of the older ones still waiting.
        self._table_queue[game_id] = max(self._table_queue.get(game_id, -1), result.version)
        async with self.lock(game_id):
            self.batches += 1
            try:
                await self.deliver(game_id, result)
            except Exception:
                log.exception("announcing for game %s failed", game_id)
            if showing:
                try:
                    await self.table_step(result)
                except Exception:
                    log.exception("bringing the table message of game %s up to date failed", game_id)

    def where(self, guild_id: int | None, channel_id: int) -> str:
        """Where a game is played, for a message read in DMs: the server's name and the channel."""
        guild = self.client.get_guild(guild_id) if guild_id else None
        return where_text(guild.name if guild is not None else None, channel_id)

    async def _messages_lane(self, result: ActionResult) -> bool:
        """The game's prompts, screens and table brought in line; False if that failed."""
        if result.finished or result.status != "active":
            return True
        game_id = result.game_id
        self._queued[game_id] = max(self._queued.get(game_id, -1), result.version)
        async with self.sync_lock(game_id):
            if self._queued.get(game_id, -1) > result.version:
                return True  # a newer result of this game waits for the lane: it brings every message in line
            try:
                refreshed = result.public_view is None
                if refreshed:
                    # A stored (duplicate) result carries no views: one read of the game as it is now.
                    fresh = await self.service.table_state(result.game_id)
                    fresh.public, fresh.private, fresh.timed_out = [], {}, []
                    result = fresh
                    if result.finished or result.status != "active":
                        return True
                if self._synced.get(result.game_id, -1) > result.version:
                    return True  # a later result was shown first: its views are the newer ones
                # The table message of an announcement's own views is the lines lane's (see _lines_lane).
                await self.sync_messages(result, table=refreshed)
            except Exception:
                log.exception("bringing the messages of game %s up to date failed", result.game_id)
                return False
        return True

    # ---------------------------------------------------------------- the outbox

    async def deliver(self, game_id: int, live: ActionResult | None = None) -> bool:
        """Show the game's undelivered announcements, in order (call under `lock(game_id)`). Each part is
        created with a nonce of its own and recorded once shown, so a redelivery never shows it twice.
        False: a Discord failure that may pass stopped it; a redelivery is scheduled."""
        for row in await self.service.outbox(game_id):
            if live is not None and row.version > live.version:
                break  # a later commit: its own announcement shows it (with its picture)
            same = live if live is not None and live.version == row.version else None
            if not await self._deliver(row, same):
                self._retry_later(game_id)
                return False
        self._failures.pop(game_id, None)
        return True

    def notice_lines(self, presenter: Presenter, kind: str, public: list[dict], names: dict[int, str],
                     again: list[int]) -> list[str]:
        """The channel lines of one commit's public events (the same for a first delivery and a redelivery)."""
        game_type = self.game_type(kind)
        lines = []
        for e in public:
            etype = e.get("type")
            if etype == "game_started":
                text: str | None = presenter.started_line(game_type)
            elif etype == "seat_replaced":
                text = f"Seat {e['seat'] + 1} is now played by {e['name']}."
            elif etype == "undo":
                text = self.undo_line(e, again, names)
            elif etype == "abandoned":
                text = "The game was abandoned."
            elif etype in ("final_scores", "timeout"):
                text = None
            else:
                text = presenter.event_line(e, names)
            if text:
                lines.append(text)
        for e in public:
            if e.get("type") == "timeout":
                seat = e.get("seat")
                lines.append(timeout_public(names.get(seat, str(seat))))
        return lines

    @of_game(lambda row: row.payload["kind"])
    async def _deliver(self, row: OutboxRow, live: ActionResult | None) -> bool:
        p = row.payload
        presenter = self.presenter(p["kind"])
        names = {int(k): v for k, v in p["names"].items()}
        chunks = split_text(self.notice_lines(presenter, p["kind"], p["public"], names, p.get("again", [])))
        picture = presenter.results(p["public"], live.public_view, names) \
            if chunks and live is not None and live.public_view is not None and not p["finished"] else None
        sent = dict(row.sent)
        done = False
        # Older than a nonce is trusted: a part may have been shown by a process that died before recording it.
        # Parts are sent one after another in this order, so once a channel line is surely not there (its
        # channel read, no such message), no part after it was shown either: nothing more is looked for.
        searching = self.service.clock.now() - row.created_at >= self.nonce_trusted
        earlier: list[dict] | None = None
        try:
            for i, chunk in enumerate(chunks):
                if f"c{i}" in sent:
                    continue
                if searching:
                    earlier = earlier if earlier is not None else await self.service.outbox_recorded(row.game_id, row.id)
                    shown = await self._shown(p["channel"], None, chunk, [sent, *earlier], "c")
                    if shown:
                        sent[f"c{i}"] = shown
                        continue
                    searching = shown is None
                last = i == len(chunks) - 1
                if last and live is not None and live.version == row.version and not p["finished"] \
                        and await self._lines_with_table(row, live, presenter, i, chunk, picture, sent):
                    continue
                if picture is not None and last:
                    kwargs = await self._kwargs(picture, presenter, channel_id=p["channel"], content=chunk)
                else:
                    kwargs = {"content": chunk}
                msg = await self.post(p["channel"], nonce=nonce(row.game_id, row.version, i), silent=True, **kwargs)
                sent[f"c{i}"] = msg.id if msg is not None else 0
                if last and "t" in sent and msg is not None and msg.components:
                    # A redelivery after a crash: Discord returned the table message this chunk went out in.
                    await self._adopt_table(row.game_id, msg, sent["t"])
            if p["channel"] in self.gone:
                await self._tell_channel_gone(row.game_id, presenter, p, late=searching)
            if p["finished"] and "final" not in sent:
                result = live if live is not None and live.finished else await self.service.table_state(row.game_id)
                lines = [v for k, v in sent.items() if k[:1] == "c" and k[1:].isdigit() and isinstance(v, int)]
                await self._post_final(result, presenter, names, late=searching, after=max(lines, default=0))
                sent["final"] = 1
            for seat, events in p["private"].items():
                user = p["users"].get(seat)
                texts = [t for t in (presenter.private_line(e, names) for e in events) if t]
                if f"p{seat}" in sent or not user or not texts:
                    continue
                prompt = await self._in_prompt(row, live, presenter, int(seat), events, texts, names)
                if prompt:  # the lines open the seat's new prompt: no DM of their own
                    sent[f"p{seat}"] = prompt
                    continue
                text = "\n".join(texts)[:1900]
                if searching:  # (a DM that is not there says nothing of the next one: it may have been closed)
                    earlier = earlier if earlier is not None else await self.service.outbox_recorded(row.game_id, row.id)
                    shown = await self._shown(None, user, text, [sent, *earlier], f"p{seat}")
                    if shown:
                        sent[f"p{seat}"] = shown
                        continue
                msg = await self.post(None, user_id=user, nonce=nonce(row.game_id, row.version, f"p{seat}"),
                                      content=text, silent=True)
                sent[f"p{seat}"] = msg.id if msg is not None else 0
            done = True
        except Transient as exc:
            log.warning("game %s: announcement v%s stopped (%s); it is delivered again later", row.game_id,
                        row.version, exc)
        owes_messages = done and live is not None and live.version == row.version and live.status == "active" \
            and not live.finished
        if owes_messages:  # delivered once the messages lane is done too (see _announce_locked)
            self._owed[(row.game_id, row.version)] = (row.id, sent)
        await self.service.outbox_progress(row.id, sent, delivered=done and not owes_messages)
        return done

    async def _in_prompt(self, row: OutboxRow, live: ActionResult | None, presenter: Presenter, seat: int,
                         events: list[dict], texts: list[str], names: dict[int, str]) -> int | None:
        """The prompt message that shows a seat's private lines of this commit, or None: they go in a DM of
        their own. A commit that brings the seat a new prompt opens it with what the commit gave the seat (its
        recap, which closing the prompt keeps); the prompt's record carries a mark of that recap (recap_mark),
        so a redelivery after a crash finds it too and never shows the lines a second time."""
        p = row.payload
        if p["finished"]:
            return None
        recap = presenter.recap(p["public"], events, seat, names)
        if not recap or any(text not in recap for text in texts):
            return None  # the recap is cut short: the lines need room of their own
        mark = recap_mark(row.version, recap)
        if live is not None and live.version == row.version and live.status == "active" and not live.finished:
            ctx = self.seat_ctx(live, seat)
            if ctx is None or ctx.prompt is None or not ctx.prompt.waiting:
                return None
            # The new prompt goes out now unless the messages lane has sent it (or is sending it: its lock).
            async with self.sync_lock(row.game_id):
                if self._synced.get(row.game_id, -1) < row.version:
                    try:
                        await self.sync_messages(live, table=False)
                    except Exception:
                        log.exception("bringing the messages of game %s up to date failed", row.game_id)
                records = await self.service.prompt_messages(row.game_id, active_only=False)
        else:
            records = await self.service.prompt_messages(row.game_id, active_only=False)
        return next((m.message_id for m in records if m.purpose == "prompt" and m.seat == seat
                     and m.version == mark and m.message_id), None)

    async def _lines_with_table(self, row: OutboxRow, live: ActionResult, presenter: Presenter, i: int,
                                chunk: str, picture: Any, sent: dict) -> bool:
        """When this commit brings a new table message, its public lines go out in it (one post for the step:
        the lines, the table, its picture and buttons) and the results picture, the same table, is left out.
        The table key is stored with the announcement before the post, so a redelivery after a crash knows
        the message Discord returns for the chunk's nonce is the table. False: nothing was posted."""
        if live.public_view is None or live.status != "active" or self._table_superseded(live):
            return False
        table_key = presenter.table_key(live.public_view)
        async with self._table_locks.hold(row.game_id):
            todo = self._table_plan(await self.service.prompt_messages(row.game_id), table_key)
            if not todo.table_post:
                return False
            ctx = self.table_ctx(live)
            spec = presenter.table(ctx, with_image=True)
            if picture is not None and (picture.image is None or spec.image is None
                                        or picture.image.filename != spec.image.filename):
                return False  # results of their own (another picture): they keep their post
            sent["t"] = table_key
            await self.service.outbox_progress(row.id, sent, delivered=False)
            msg = await self._post_table(live, presenter, ctx, todo.table_retire, table_key,
                                         nonce=nonce(row.game_id, row.version, i), content=chunk)
            sent[f"c{i}"] = msg.id if msg is not None else 0
            return True

    async def _adopt_table(self, game_id: int, msg: discord.Message, table_key: str) -> None:
        """Record ``msg`` as the game's table message for ``table_key`` unless one is recorded already (its
        text is brought in line by the next table step: no fingerprint is stored)."""
        async with self._table_locks.hold(game_id):
            if any(m.purpose == "status" and m.prompt_key == table_key for m in await self.service.prompt_messages(game_id)):
                return
            self.remember_picture(msg)
            await self.service.record_prompt_message(game_id, None, msg.id, msg.channel.id, "status",
                                                     prompt_key=table_key)

    async def _shown(self, channel_id: int | None, user_id: int | None, text: str, recorded: list[dict],
                     part: str) -> int | None:
        """The id of a message the bot already posted with this text after the game's last recorded part of
        the same kind (`part`: "c" for the channel's lines, "p<seat>" for a seat's private lines); 0 when
        there is none, None when the history cannot be read (the part is sent again: a line shown twice is
        better than a line lost). Parts recorded anywhere in `recorded` (this announcement's and the earlier
        ones') never count, so a line said twice in a game is matched with its own message."""
        def same_kind(key: str) -> bool:
            return key[:1] == "c" and key[1:].isdigit() if part == "c" else key == part

        shown = [(k, v) for sent in recorded for k, v in sent.items() if isinstance(v, int) and v > 0]
        ids = {v for _, v in shown}
        after = max((v for k, v in shown if same_kind(k)), default=0)
        wanted = localize_kwargs({"content": text}, await self._language(channel_id, user_id), reader()[1])["content"].strip()
        return await self._find_shown(channel_id, user_id, after, ids, lambda m: m.content.strip() == wanted)

    async def _find_shown(self, channel_id: int | None, user_id: int | None, after: int, exclude: set[int],
                          matches: Callable[[discord.Message], bool]) -> int | None:
        """The oldest of the bot's recent messages in a channel (or a user's DM) newer than `after`, not in
        `exclude`, for which `matches` holds; 0 when there is none, None when the history cannot be read."""
        me = self.client.user.id if self.client.user is not None else None

        async def search() -> list[discord.Message]:
            if user_id is not None:
                channel: Any = await self.client.create_dm(discord.Object(user_id))
            else:
                channel = self.client.get_partial_messageable(channel_id or 0)
            if after:
                return [m async for m in channel.history(limit=HISTORY_SEARCHED, after=discord.Object(after),
                                                         oldest_first=True)]
            return [m async for m in channel.history(limit=HISTORY_SEARCHED)][::-1]

        self.searches += 1
        try:
            messages = await self.patient(search, f"history of channel {channel_id or f'DM {user_id}'}")
        except (discord.HTTPException, OSError, TimeoutError, aiohttp.ClientError) as exc:
            log.warning("could not search for an unrecorded part (%s): it is sent again", exc)
            return None
        for m in messages:
            if m.author.id == me and m.id > after and m.id not in exclude and matches(m):
                log.info("an unrecorded part was shown before (message %s): not sent again", m.id)
                return m.id
        return 0

    async def _tell_channel_gone(self, game_id: int, presenter: Presenter, notice: dict, *, late: bool = False) -> None:
        """Once per game: its players learn by DM that the game goes on there (and how the host can end it).
        ``late``: Discord may have forgotten the DMs' nonces, so a DM sent by a process that died before
        recording it is looked for in the player's DM history first (the text names the game: it is unique)."""
        if any(m.purpose == GONE for m in await self.service.prompt_messages(game_id)):
            return
        command = getattr(presenter, "command_name", None) or notice["kind"]
        text = channel_gone_text(presenter.display_name, game_id, command)
        for user in notice["users"].values():
            if late:
                wanted = localize_kwargs({"content": text}, await self._language(None, user), reader()[1])["content"].strip()
                if await self._find_shown(None, user, 0, set(), lambda m, w=wanted: m.content.strip() == w):
                    continue
            await self.dm(user, content=text, nonce=nonce(game_id, "gone", user % 100000))
        await self.service.record_prompt_message(game_id, None, 0, notice["channel"], GONE)

    def _retry_later(self, game_id: int) -> None:
        self._later(self._retries, self._failures, game_id, self._redeliver)

    def _later(self, tasks: dict[int, asyncio.Task], failures: dict[int, int], game_id: int,
               again: Callable[[int], Any]) -> None:
        """Run ``again(game_id)`` after a pause that grows with each failure in a row (once at a time)."""
        if game_id in tasks:
            return
        count = failures.get(game_id, 0)
        failures[game_id] = count + 1
        delay = RETRY_DELAYS[min(count, len(RETRY_DELAYS) - 1)]

        async def later() -> None:
            await asyncio.sleep(delay)
            tasks.pop(game_id, None)
            try:
                await again(game_id)
            except Exception:
                log.exception("trying game %s again failed", game_id)

        tasks[game_id] = asyncio.create_task(later())

    async def _redeliver(self, game_id: int) -> None:
        async with self.lock(game_id):
            await self.deliver(game_id)

    @of_game(_kind)
    async def _remind(self, reminder: Reminder) -> None:
        if reminder.user_id is None:
            return
        presenter = self.presenter(reminder.kind)
        decision = presenter.decision_name(reminder.prompt_kind)
        prompt = next((m for m in reversed(await self.service.prompt_messages(reminder.game_id))
                       if m.purpose == "prompt" and m.seat == reminder.seat and m.prompt_key == reminder.prompt_key
                       and m.message_id), None)
        link = jump_link(None, prompt.channel_id, prompt.message_id) if prompt is not None else ""
        text = reminder_text(presenter.display_name, reminder.game_id, decision, reminder.deadline,
                             self.where(reminder.guild_id, reminder.channel_id), link)
        if await self.dm(reminder.user_id, content=text) is None:
            await self.send_channel(reminder.channel_id, content=ping_text(
                reminder.user_id, presenter.display_name, reminder.game_id, decision)
                + f" ({timestamp(reminder.deadline)})")

    def event_lines(self, presenter: Presenter, result: ActionResult, names: dict[int, str]) -> list[str]:
        again = [seat for seat, p in sorted(result.pending.items()) if p.waiting and not p.is_ai]
        public = result.public + [{"type": "timeout", "to": "all", "seat": seat} for seat in result.timed_out
                                  if not any(e.get("type") == "timeout" and e.get("seat") == seat
                                             for e in result.public)]
        return self.notice_lines(presenter, result.kind, public, names, again)

    @staticmethod
    def undo_line(event: dict, again_seats: list[int], names: dict[int, str]) -> str:
        """What an undo took back and whom it concerns: whose moves, and who must now choose again."""
        moves = event.get("moves", 0)
        whose = [names.get(s, f"Seat {s + 1}") for s in event.get("seats", [])]
        text = f"↩ The host undid the last step: {moves} move{'s' if moves != 1 else ''} taken back"
        text += f" ({', '.join(whose)})." if whose else "."
        again = [names.get(s, f"Seat {s + 1}") for s in again_seats]
        if again:
            text += f" Now to decide: {', '.join(again)} (a new prompt comes by DM)."
        return text

    @of_game(_kind)
    async def _post_final(self, result: ActionResult, presenter: Presenter, names: dict[int, str], *,
                          late: bool = False, after: int = 0) -> None:
        """Close the game's controls and post its score sheet. Each posted part is recorded, so catching up
        after a crash posts only the parts that are missing. `late`: the end is older than a nonce is trusted,
        so a part a killed process posted without recording it is looked for first (in the channel after
        message `after` and the parts recorded, in each player's DM for their result)."""
        async with self.sync_lock(result.game_id):  # no prompt of an earlier step is being sent meanwhile
            records = await self.service.prompt_messages(result.game_id)
            posted = {m.prompt_key for m in records if m.purpose == FINAL}
            messages = [m for m in records if m.purpose != FINAL]
            # A prompt the last click's answer closed has no controls left: not edited again. The table
            # message says the game is over instead of whom it waited for.
            over = self.table_ctx(result) if result.public_view is not None else None
            await asyncio.gather(*(self._edit_table(presenter, over, m, result.game_id, closing=True)
                                   if over is not None and m.purpose == "status"
                                   else self.edit(m.channel_id, m.message_id, view=None) for m in messages
                                   if m.message_id not in self._closed_by_reply))
            await self.service.retire_prompt_messages([m.id for m in messages])
        if result.outcome is None or result.public_view is None:
            return
        outcome = Outcome.from_json(result.outcome)
        final_ids = [m.message_id for m in records if m.purpose == FINAL and m.message_id]
        # The sheet's first part (for the link in each player's result), also when an earlier try posted it.
        first: Any = next((discord.Object(m.message_id) for m in records
                           if m.purpose == FINAL and m.prompt_key == "0" and m.message_id), None)
        specs = presenter.final(result.game_id, outcome, result.public_view, names)
        if specs:  # the score sheet: who won by how much, and the same table again
            specs[0].description = f"{presenter.summary_line(outcome, names)}\n{specs[0].description or ''}".rstrip()
            specs[0].rows = [[Button(REMATCH, ids.table_id(result.game_id, "rematch"), "success")]]
        # One final post: the sheet with its other parts (the final pyramids) under it, as far as one message
        # holds them; parts an earlier try left unposted go out one by one.
        whole = not posted and len(specs) <= MAX_EMBEDS
        for group in ([list(range(len(specs)))] if whole and specs else [[i] for i in range(len(specs))]):
            if any(str(i) in posted for i in group):
                continue
            kwargs = merge_kwargs(*[await self._kwargs(specs[i], presenter, channel_id=result.channel_id) for i in group])
            head = (kwargs.get("embeds") or [None])[0]
            anchor = max([after, *final_ids])
            if late and anchor and head is not None:
                # Only after a known message of this game: a sheet's later parts have the same titles in
                # every game.
                title = localize_kwargs({"embed": head}, await self._language(result.channel_id), reader()[1])["embed"].title
                shown = await self._find_shown(result.channel_id, None, anchor, set(final_ids),
                                               lambda m, t=title: bool(m.embeds) and m.embeds[0].title == t)
                if shown:
                    for i in group:
                        await self.service.record_prompt_message(result.game_id, None, shown, result.channel_id,
                                                                 FINAL, prompt_key=str(i))
                    final_ids.append(shown)
                    if group[0] == 0:
                        first = discord.Object(shown)
                    continue
                late = shown is None  # not there: neither is any part after it, nor a result
            msg = await self.send_channel(result.channel_id, **kwargs, nonce=nonce(result.game_id, "final", group[0]))
            if msg is not None:
                for i in group:
                    await self.service.record_prompt_message(result.game_id, None, msg.id, result.channel_id, FINAL,
                                                             prompt_key=str(i))
                final_ids.append(msg.id)
            if group[0] == 0:
                first = msg
        if "dm" in posted:
            return  # the players' own results went out before
        # Each human player's own result, privately, with a link to the score sheet in the channel (when it
        # could be posted: a game whose channel is gone still tells its players by DM).
        link = ""
        if first is not None:
            # A message sent through a partial channel does not know its server: the link is built here.
            guild = (await self.service.game(result.game_id)).guild_id
            link = f"\nFinal scores: https://discord.com/channels/{guild or '@me'}/{result.channel_id}/{first.id}"
        for s in result.seats:
            if s.is_ai or s.user_id is None:
                continue
            text = presenter.result_dm(result.game_id, outcome, s.seat, names)
            if not text:
                continue
            text = (text + link)[:1900]
            if late:  # the result's first line names its game: no other message in the DM starts the same
                wanted = localize_kwargs({"content": text}, await self._language(user_id=s.user_id), reader()[1])["content"]
                head = wanted.strip().split("\n", 1)[0]
                if await self._find_shown(None, s.user_id, 0, set(),
                                          lambda m, h=head: m.content.strip().startswith(h)):
                    continue
            await self.dm(s.user_id, content=text, nonce=nonce(result.game_id, "result", s.seat))
        await self.service.record_prompt_message(result.game_id, None, 0, result.channel_id, FINAL, prompt_key="dm")

    async def catch_up(self) -> None:
        """At start-up: a crash between storing an action and announcing it must not leave anyone without
        their prompt, so every active game's messages are brought up to date, and a game that finished
        recently without its score sheet gets it."""
        # Several processes over shards: each catches up the games of its own shards' servers.
        owns = getattr(self.client, "owns_guild", lambda guild_id: True)
        for game_id, guild_id in await self.service.outbox_games():
            if not owns(guild_id):
                continue
            async with self._paced(), self.lock(game_id):
                try:
                    await self.deliver(game_id)
                except Exception:
                    log.exception("delivering the outbox of game %s failed", game_id)
        cutoff = self.service.clock.now() - FINAL_CATCH_UP_WINDOW
        for game in await self.service.list_games(statuses=("finished",)):
            if game.updated_at < cutoff or not owns(game.guild_id):
                continue
            async with self.lock(game.id):
                try:
                    result = await self.service.table_state(game.id)
                    late = self.service.clock.now() - game.updated_at >= self.nonce_trusted
                    await self._post_final(result, self.presenter(result.kind), names_map(result.seats), late=late)
                except Exception:
                    log.exception("posting the end of game %s failed", game.id)
        for game in await self.service.list_games(statuses=("active",)):
            if not owns(game.guild_id):
                continue
            async with self._paced(), self.sync_lock(game.id):
                try:
                    await self.sync_messages(await self.service.table_state(game.id))
                except Exception:
                    log.exception("catching up game %s failed", game.id)

    def start_sweeping(self) -> None:
        """Look for orphaned announcements every SWEEP_INTERVAL until stop()."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await self.service.clock.sleep(SWEEP_INTERVAL)
            try:
                await self.sweep()
            except Exception:
                log.exception("looking for undelivered announcements failed")

    async def sweep(self) -> list[int]:
        """Deliver the announcements of this process's games that were committed over ORPHANED_AFTER ago and
        are still undelivered, and bring those games' messages in line (their next prompts): what another
        process committed before it died.  Games this process is delivering itself (its lane is busy, or a
        redelivery is scheduled) are left to it.  Returns the games brought up to date."""
        owns = getattr(self.client, "owns_guild", lambda guild_id: True)
        done: list[int] = []
        try:
            for game_id, guild_id in await self.service.outbox_games(before=self.service.clock.now() - ORPHANED_AFTER):
                if not owns(guild_id) or game_id in self._retries or self._locks.locked(game_id) \
                        or self._sync_locks.locked(game_id):
                    continue
                log.info("game %s: delivering an announcement another process left undelivered", game_id)
                async with self._paced(), self.lock(game_id):
                    try:
                        if not await self.deliver(game_id):
                            continue  # a redelivery is scheduled
                    except Exception:
                        log.exception("delivering the outbox of game %s failed", game_id)
                        continue
                async with self.sync_lock(game_id):
                    try:
                        result = await self.service.table_state(game_id)
                        if result.status == "active" and not result.finished:
                            await self.sync_messages(result)
                    except Exception:
                        log.exception("bringing the messages of game %s up to date failed", game_id)
                done.append(game_id)
        finally:
            self.sweeps += 1
        return done

    @contextlib.asynccontextmanager
    async def _paced(self) -> AsyncIterator[None]:
        """One game's catch-up, followed by a pause long enough to keep the requests it made within
        CATCH_UP_RATE (none for a game whose messages were intact)."""
        before, started = self.requests, time.monotonic()
        yield
        made = self.requests - before
        if made:
            await asyncio.sleep(max(0.0, made / CATCH_UP_RATE - (time.monotonic() - started)))

    async def retire_all(self, game_id: int) -> None:
        msgs = await self.service.prompt_messages(game_id)
        for m in msgs:
            await self.edit(m.channel_id, m.message_id, view=None)
        await self.service.retire_prompt_messages([m.id for m in msgs])

    # ---------------------------------------------------------------- the sync plan

    def seat_states(self, result: ActionResult, presenter: Presenter, hidden: bool) -> list[sync.SeatState]:
        out = []
        for s in result.seats:
            p = result.pending.get(s.seat)
            view = result.views.get(s.seat)
            screen_key = presenter.screen_key(view, s.seat) if hidden and view is not None else None
            out.append(sync.SeatState(s.seat, s.user_id, s.is_ai, s.dm_status == "closed",
                                      p.prompt_key if p else None, bool(p and p.waiting), screen_key))
        return out

    @of_game(_kind)
    async def sync_messages(self, result: ActionResult, *, table: bool = True) -> None:
        """Bring the game's Discord messages in line with its state. Safe to repeat. ``table`` False: the
        table message is left to the announcement's lines lane (it may post it with the lines)."""
        presenter = self.presenter(result.kind)
        game_type = self.game_type(result.kind)
        names = names_map(result.seats)
        public_view = result.public_view or {}
        table_key = presenter.table_key(public_view) if result.public_view is not None else None
        seats = self.seat_states(result, presenter, game_type.hidden_information)
        # The message records are read now, inside the game's lock: announcements of earlier results may
        # have sent messages since this result was committed.
        messages = await self.service.prompt_messages(result.game_id)
        self._synced[result.game_id] = max(self._synced.get(result.game_id, -1), result.version)
        todo = sync.plan(seats, messages, dynamics=game_type.dynamics,
                         hidden_information=game_type.hidden_information, table_key=table_key)
        # Each seat's messages go out side by side: one slow DM holds up nobody else's prompt. A prompt the
        # answering click already closed (its answer took the controls away) is not edited again. A seat's
        # screen goes with its new prompt (a second embed): a changed screen waits for the seat's next
        # prompt, and "My screen" shows it at any time.
        # A message that shows a current prompt (a decision answered in place of the one before) is never
        # closed under it.
        stale = {m.id for m in todo.close}
        current = {m.message_id for m in messages if m.purpose in sync.PROMPT_PURPOSES and m.id not in stale}
        closing = [m for m in todo.close if self._closed_by_reply.pop(m.message_id, None) is None
                   and m.message_id not in current]
        screens = {s.seat: old for s, old in todo.screens}
        for m in closing:
            self._closed[m.message_id] = True
        await asyncio.gather(*(self.edit(m.channel_id, m.message_id, **self.closing_text(m.message_id, m.version,
                                                                                          CLOSED_TEXT), view=None)
                               for m in closing),
                             *(self._send_prompt(result, presenter, names, s, screens) for s in todo.send))
        if todo.close:
            await self.service.retire_prompt_messages([m.id for m in todo.close])
        if table:
            async with self._table_locks.hold(result.game_id):
                await self._sync_table(result, presenter, await self.service.prompt_messages(result.game_id))

    def table_ctx(self, result: ActionResult) -> TableCtx:
        names = names_map(result.seats)
        return TableCtx(result.game_id, self.game_type(result.kind), result.public_view or {}, names,
                        [Waiting(seat, names.get(seat, str(seat)), p.deadline, p.waiting)
                         for seat, p in sorted(result.pending.items())], result.status, posted=True)

    def _table_plan(self, messages: list, table_key: str | None) -> sync.Plan:
        """The table part of the sync plan (post a new table message, or edit the current one)."""
        return sync.plan([], [m for m in messages if m.purpose == "status"], dynamics="sealed",
                         hidden_information=False, table_key=table_key)

    def _table_superseded(self, result: ActionResult) -> bool:
        """A newer result of the game waits to show its table, or has shown it already."""
        game_id = result.game_id
        return max(self._tables.get(game_id, -1), self._table_queue.get(game_id, -1)) > result.version

    @of_game(_kind)
    async def table_step(self, result: ActionResult) -> None:
        """Bring the game's table message in line with ``result`` (an announcement's own views): a new one is
        posted at once; an edit waits TABLE_EDIT_PAUSE for the game's next results (players' choices in a
        step come in bursts, each changing "Waiting for") and shows the newest of them."""
        game_id = result.game_id
        if result.public_view is None or result.finished or result.status != "active" or self._table_superseded(result):
            return
        presenter = self.presenter(result.kind)
        async with self._table_locks.hold(game_id):
            messages = await self.service.prompt_messages(game_id)
            if self._table_plan(messages, presenter.table_key(result.public_view)).table_post:
                await self._sync_table(result, presenter, messages)
                return
        waiting = self._table_edits.get(game_id)
        if waiting is None or waiting.version < result.version:
            self._table_edits[game_id] = result
        if game_id not in self._table_editing:
            self._table_editing.add(game_id)
            self.spawn(self._edit_table_soon(game_id))

    async def _edit_table_soon(self, game_id: int) -> None:
        try:
            await asyncio.sleep(TABLE_EDIT_PAUSE)
        finally:
            self._table_editing.discard(game_id)
        result = self._table_edits.pop(game_id, None)
        if result is None:
            return
        try:
            async with self._table_locks.hold(game_id):
                await self._sync_table(result, self.presenter(result.kind), await self.service.prompt_messages(game_id))
        except Exception:
            log.exception("bringing the table message of game %s up to date failed", game_id)

    @of_game(_kind)  # also when a pause later (a fresh task) brings the edit
    async def _sync_table(self, result: ActionResult, presenter: Presenter, messages: list) -> None:
        """Post a new table message or edit the current one (call under the game's table lock)."""
        if result.public_view is None or self._table_superseded(result):
            return
        self._tables[result.game_id] = max(self._tables.get(result.game_id, -1), result.version)
        table_key = presenter.table_key(result.public_view)
        todo = self._table_plan(messages, table_key)
        ctx = self.table_ctx(result)
        if todo.table_post:
            await self._post_table(result, presenter, ctx, todo.table_retire, table_key,
                                   nonce=state_nonce(result.game_id, result.version, "t"))
        elif todo.table_edit is not None:
            await self._edit_table(presenter, ctx, todo.table_edit, result.game_id)

    async def _post_table(self, result: ActionResult, presenter: Presenter, ctx: TableCtx, retire: list,
                          table_key: str, *, nonce: str, content: str | None = None) -> discord.Message | None:
        """A new table message (the older ones lose their buttons), with ``content`` (a commit's public lines,
        posted through the outbox: may raise Transient) or without."""
        self._tables[result.game_id] = max(self._tables.get(result.game_id, -1), result.version)
        for m in retire:
            await self.edit(m.channel_id, m.message_id, view=None)
        if retire:
            await self.service.retire_prompt_messages([m.id for m in retire])
        spec = presenter.table(ctx, with_image=True)
        shown = await self._table_fingerprint(presenter, ctx)
        kwargs = await self._kwargs(spec, presenter, channel_id=result.channel_id, content=content)
        if content is not None:
            msg = await self.post(result.channel_id, nonce=nonce, silent=True, **kwargs)
        else:
            msg = await self.send_channel(result.channel_id, **kwargs, nonce=nonce, silent=True)
        self.remember_picture(msg)
        if msg is not None:
            await self.service.record_prompt_message(result.game_id, None, msg.id, result.channel_id, "status",
                                                     prompt_key=table_key, version=shown)
        return msg

    async def _edit_table(self, presenter: Presenter, ctx: TableCtx, m: Any, game_id: int, *,
                          closing: bool = False) -> None:
        """New text under the same picture. Discord resolves ``attachment://`` only against the files of the
        same request, so the edit names the posted file in its attachments list (nothing uploaded); when that
        file is not known (the bot restarted since the message was posted) the picture is uploaded once more.
        ``closing``: the game is over; the message loses its button and is not recorded again."""
        spec = presenter.table(ctx, with_image=False)
        spec.image = None
        kwargs = await self._kwargs(spec, presenter)  # no picture
        embed = kwargs.get("embed")
        if embed is None:
            return
        shown = fingerprint(embed)
        if getattr(m, "version", None) == shown:
            return  # the message already shows this (a catch-up after a restart sends nothing)
        closed: dict[str, Any] = {"view": None} if closing else {}
        kept = self._pictures.get(m.message_id)
        if kept is not None:
            embed.set_image(url=f"attachment://{kept.filename}")
            edited = await self.edit_message(m.channel_id, m.message_id, embed=embed, attachments=[kept], **closed)
        else:
            full = await self._kwargs(presenter.table(ctx, with_image=True), presenter, channel_id=m.channel_id)
            file = full.get("file")
            edited = await self.edit_message(m.channel_id, m.message_id, embed=full.get("embed", embed),
                                             attachments=[file] if file is not None else [], **closed)
            self.remember_picture(edited)
        if edited is None:
            log.warning("could not edit the table message of game %s", game_id)
            if closing:  # its button goes at least: a finished game has no screen to open
                await self.edit(m.channel_id, m.message_id, view=None)
            return
        if closing:
            return  # the end retires every message record of the game
        # Remember what it shows now (a table message record's version holds the fingerprint of its text).
        await self.service.record_prompt_message(game_id, None, m.message_id, m.channel_id, "status",
                                                 prompt_key=m.prompt_key, version=shown)
        await self.service.retire_prompt_messages([m.id])

    async def _table_fingerprint(self, presenter: Presenter, ctx: TableCtx) -> int | None:
        spec = presenter.table(ctx, with_image=False)
        spec.image = None
        return fingerprint((await self._kwargs(spec, presenter)).get("embed"))

    def seat_ctx(self, result: ActionResult, seat: int) -> SeatCtx | None:
        p = result.pending.get(seat)
        view = result.views.get(seat)
        if p is None or view is None:
            return None
        return SeatCtx(result.game_id, seat, result.kind, view, p.prompt, names_map(result.seats), p.deadline,
                       result.version)

    async def prompt_draft(self, result: ActionResult, presenter: Presenter, ctx: SeatCtx) -> dict:
        """The draft a seat's new prompt is shown with, holding the recap of what this result brought it."""
        draft = load_draft(result.drafts.get(ctx.seat), ctx.key)
        recap = presenter.recap(result.public, result.private.get(ctx.seat, []), ctx.seat, ctx.names)
        if recap and (draft.get(RECAP) != recap or draft.get(RECAP_OF) != result.version):
            # Kept with the prompt's draft (merged into what the player may have chosen already, through
            # "My screen"): every edit of the prompt repeats it.
            draft = await self.service.note_in_draft(result.game_id, ctx.seat, ctx.key,
                                                     {RECAP: recap, RECAP_OF: result.version})
        return draft

    async def _send_prompt(self, result: ActionResult, presenter: Presenter, names: dict[int, str],
                           s: sync.SeatState, screens: dict[int, Any] | None = None) -> None:
        """A new prompt by DM, with the seat's screen under it when the game has hidden information: its lines
        always, its picture only when the screen changed since a prompt last showed it and the prompt's own
        picture does not show it already."""
        ctx = self.seat_ctx(result, s.seat)
        if ctx is None or ctx.prompt is None or s.user_id is None:
            return
        draft = await self.prompt_draft(result, presenter, ctx)
        spec = lockin.render(presenter.prompt_kind(ctx.prompt), ctx, draft, presenter.describe)
        content = prompt_head(presenter.display_name, result.game_id, ctx.deadline, draft.get(RECAP))
        kwargs = await self._kwargs(spec, presenter, user_id=s.user_id, content=content)
        drawn = digest(kwargs.get("file"))
        screen = presenter.screen(result.game_id, ctx.view, s.seat, names) \
            if s.screen_key is not None and not s.dm_closed else None
        changed = screens is None or s.seat in screens
        if screen is not None and (not changed or (spec.image is not None and spec.image.shows_screen)):
            screen.image = None  # the same picture is on an earlier prompt, or in this one's own
        if screen is not None:
            kwargs = merge_kwargs(kwargs, await self._kwargs(screen, presenter, user_id=s.user_id))
        msg, why = await self.send_dm(s.user_id, **kwargs,
                                      nonce=state_nonce(result.game_id, result.version, f"s{s.seat}", ctx.key))
        if msg is not None and screen is not None and changed:
            old = (screens or {}).get(s.seat)
            if old is not None:
                await self.service.retire_prompt_messages([old.id])
            # The plan compares this key with the seat's screen: this prompt shows it now.
            await self.service.record_prompt_message(result.game_id, s.seat, msg.id, msg.channel.id, "screen",
                                                     prompt_key=s.screen_key)
        if msg is not None:
            self.picture_digests[msg.id] = drawn
            self._recaps[msg.id] = draft.get(RECAP)
            self._resync_failures.pop(result.game_id, None)
            # The record marks the recap the prompt opens with: the outbox learns there that this prompt shows
            # the seat's private lines of that commit (see _in_prompt).
            mark = recap_mark(draft.get(RECAP_OF, result.version), draft.get(RECAP))
            await self.service.record_prompt_message(result.game_id, s.seat, msg.id, msg.channel.id, "prompt",
                                                     prompt_key=ctx.key, version=mark)
            return
        if why == LATER:
            # Not the player's doing (Discord busy, DMs opened too fast): no ping, and the prompt goes out
            # again after a pause (nothing is recorded, so the plan still lists it).
            self._resync_later(result.game_id)
            return
        # No DM: a ping in the channel, the prompt itself comes through "My screen". Only closed DMs are
        # remembered for the player; the first time, the channel is told how to get DMs again.
        await self.service.record_prompt_message(result.game_id, s.seat, 0, result.channel_id, "ping",
                                                 prompt_key=ctx.key)
        decision = presenter.decision_name(ctx.prompt.kind)
        if why == DMS_CLOSED:
            text = ping_text(s.user_id, presenter.display_name, result.game_id, decision)
            text += "" if s.dm_closed else " " + HOW_TO_OPEN_DMS
        else:
            text = DM_PINGS[why or REFUSED].format(u=s.user_id, g=presenter.display_name, n=result.game_id,
                                                   what=decision)
        held = _HELD_PINGS.get()
        if held is not None and held.open:
            held.held.append((contextvars.copy_context(), result.channel_id, text))
            return
        await self.send_channel(result.channel_id, content=text)

    def _resync_later(self, game_id: int) -> None:
        """Bring the game's messages in line again after a pause (a prompt DM failed in a way that may pass)."""
        self._later(self._resyncs, self._resync_failures, game_id, self._resync)

    async def _resync(self, game_id: int) -> None:
        async with self.sync_lock(game_id):
            result = await self.service.table_state(game_id)
            if result.status == "active" and not result.finished:
                await self.sync_messages(result)
