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
import io
import json
import logging
import zlib
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import discord

from bot.locks import KeyedLocks, Recent
from bot.presenters import presenter_for
from bot.service import ActionResult, GameService, Reminder
from bot.ui import sync
from bot.ui.drafts import load_draft
from bot.ui.presenter import Presenter, SeatCtx, TableCtx, Waiting
from bot.ui.texts import move_line, names_map, split_text, timestamp
from engine.api import GameType, Outcome

from .discord_ui import merge_kwargs, message_kwargs, refile, shown_picture

log = logging.getLogger(__name__)
REQUEST_TIMEOUT = 20.0  # seconds for one Discord request made while announcing
FINAL = "final"  # message records of a posted score sheet (prompt_key: the part's index)
# Finished games younger than this get a missing score sheet at start-up; older ones are left alone (their
# sheets were posted before these records existed).
FINAL_CATCH_UP_WINDOW = 2 * 24 * 3600.0
# Why a DM could not be delivered (Discord's codes: docs/fake-discord.md and shared reference).
DM_CLOSED = "closed"  # 50007: the user accepts no DMs from the bot: the ephemeral path ("My screen")
DM_NO_MUTUAL_GUILD = "no mutual guild"  # 50278: the user shares no server with the bot any more
DM_TRANSIENT = "transient"  # 40003 (opening DMs too fast), 429, 5xx, a timeout: try again later
DM_REFUSED = "refused"  # any other 4xx: the request itself is wrong, retrying cannot help
DM_RETRY_DELAYS = (1.0, 4.0, 15.0)  # seconds between the attempts of a DM that failed transiently
DM_PING_REASONS = {
    DM_CLOSED: "I cannot DM you",
    DM_NO_MUTUAL_GUILD: "I cannot DM you: we share no server, so Discord refuses my messages",
    DM_TRANSIENT: "Discord did not deliver my DM just now; the next one comes by DM again",
    DM_REFUSED: "Discord did not deliver my DM",
}
CLOSED_BY_REPLY_MEMORY = 10_000  # prompt message ids remembered as closed by their answering click
CLOSED_TEXT = "✔ This decision is closed: the rules have moved on (see the channel)."


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


def dm_failure(exc: discord.HTTPException) -> str:
    """Classify a failed DM (see DM_CLOSED and the others)."""
    if exc.code == 50007:
        return DM_CLOSED
    if exc.code == 50278:
        return DM_NO_MUTUAL_GUILD
    if exc.code == 40003 or exc.status == 429 or exc.status >= 500:
        return DM_TRANSIENT
    return DM_REFUSED


def _same_picture(results: Any, table: dict) -> bool:
    """True when a results spec is nothing but the picture the new table message shows (same file name:
    both drawn from the same public view)."""
    file = table.get("file")
    image = getattr(results, "image", None)
    return (image is not None and file is not None and file.filename == image.filename
            and not results.description and not results.fields)


class _TimeoutResponse:
    """Stands in for an HTTP response in the HTTPException raised when a request hangs."""

    status = 504
    reason = "Timeout"


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
        self.dm_retry_delays: tuple[float, ...] = DM_RETRY_DELAYS
        self.request_timeout = REQUEST_TIMEOUT
        self._closed_by_reply: set[int] = set()  # prompt messages the answering click closed itself
        self._queued: dict[int, int] = {}  # game id -> results announced or waiting for the game's lock
        self._skipped: dict[int, int] = {}  # game id -> newest version whose sync was left to a later result
        self.batches = 0  # announcement batches carried out (benchmarks count state reads per batch)

    # ---------------------------------------------------------------- tasks

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """``async with announcer.lock(game_id):`` serialises one game's announcements in this process."""
        return self._locks.hold(game_id)

    def spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def busy(self) -> bool:
        """True while an announcement runs (spawned, or awaited by the scheduler)."""
        return bool(self._tasks) or self._running > 0

    async def drain(self) -> None:
        """Wait for background announcements (used at shutdown, by tests and the demo)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # ---------------------------------------------------------------- requests

    async def patient(self, make: Any, what: str) -> Any:
        """Run a Discord request with a time limit, once more if it hangs: a stuck request must never hold
        up a game's announcements (they are serialised per game)."""
        for attempt in (1, 2):
            task = asyncio.ensure_future(make())
            done, _ = await asyncio.wait({task}, timeout=self.request_timeout / 2)
            if not done:
                # Half the time limit gone: say where the request is stuck (a lock, the HTTP pool, a socket).
                log.warning("%s is slow (attempt %d); stuck at:\n%s", what, attempt, _stack(task))
                done, _ = await asyncio.wait({task}, timeout=self.request_timeout / 2)
            if done:
                return task.result()
            task.cancel()
            task.add_done_callback(_retrieve)
            log.warning("%s timed out (attempt %d)", what, attempt)
        raise discord.HTTPException(_TimeoutResponse(), f"{what} timed out")

    async def dm(self, user_id: int, **kwargs: Any) -> discord.Message | None:
        """Send a DM; None when it could not be delivered (see send_dm for what is remembered)."""
        return (await self.send_dm(user_id, **kwargs))[0]

    async def send_dm(self, user_id: int, **kwargs: Any) -> tuple[discord.Message | None, str | None]:
        """Send a DM: (the message, None), or (None, why) with why one of DM_CLOSED (remembered: that player
        plays through "My screen" from now on), DM_NO_MUTUAL_GUILD, DM_TRANSIENT (retried with backoff first;
        the player is not marked closed) or DM_REFUSED (a request Discord will never accept; logged)."""
        fresh = refile(kwargs.pop("file", None))
        several = [refile(f) for f in kwargs.pop("files", None) or []]

        async def send() -> discord.Message:
            channel = await self.client.create_dm(discord.Object(user_id))
            if several:
                return await channel.send(**kwargs, files=[f()["file"] for f in several])
            return await channel.send(**kwargs, **fresh())

        delays = list(self.dm_retry_delays)
        while True:
            try:
                return await self.patient(send, f"DM to {user_id}"), None
            except discord.HTTPException as exc:
                why = dm_failure(exc)
                if why == DM_TRANSIENT and delays:
                    log.info("DM to %s failed (%s %s); retrying", user_id, exc.status, exc.code)
                    await asyncio.sleep(delays.pop(0))
                    continue
                if why == DM_CLOSED:
                    await self.service.set_dm_status(user_id, "closed")
                else:
                    log.warning("DM to %s failed (%s %s: %s)", user_id, exc.status, exc.code, why)
                return None, why

    async def send_channel(self, channel_id: int, **kwargs: Any) -> discord.Message | None:
        fresh = refile(kwargs.pop("file", None))
        several = [refile(f) for f in kwargs.pop("files", None) or []]

        async def send() -> discord.Message:
            channel = self.client.get_partial_messageable(channel_id)
            if several:
                return await channel.send(**kwargs, files=[f()["file"] for f in several])
            return await channel.send(**kwargs, **fresh())

        try:
            return await self.patient(send, f"message in channel {channel_id}")
        except discord.NotFound:
            log.warning("channel %s is gone", channel_id)
        except discord.HTTPException:
            log.warning("could not post in channel %s", channel_id)
        return None

    async def edit(self, channel_id: int, message_id: int, **kwargs: Any) -> bool:
        return await self.edit_message(channel_id, message_id, **kwargs) is not None

    async def edit_message(self, channel_id: int, message_id: int, **kwargs: Any) -> discord.Message | None:
        if not message_id:
            return None
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

    def closed_by_reply(self, message_id: int) -> None:
        """The click answering this prompt message replaces it with its own closing text (cogs/table.py): the
        sync plan retires its record without editing it again."""
        if len(self._closed_by_reply) > CLOSED_BY_REPLY_MEMORY:
            self._closed_by_reply.clear()
        self._closed_by_reply.add(message_id)

    def remember_picture(self, msg: discord.Message | None) -> None:
        """Remember which file a table message's picture is (see _edit_table)."""
        picture = shown_picture(msg)
        if msg is not None and picture is not None:
            self._pictures[msg.id] = picture

    # ---------------------------------------------------------------- announcing

    async def announce(self, result: ActionResult | Reminder) -> None:
        """Tell the channel and the players what happened (after the service committed it)."""
        self._running += 1
        counted = isinstance(result, ActionResult)
        if counted:
            self._queued[result.game_id] = self._queued.get(result.game_id, 0) + 1
        try:
            await self._announce_locked(result, counted)
        finally:
            self._running -= 1

    async def _announce_locked(self, result: ActionResult | Reminder, counted: bool = False) -> None:
        async with self.lock(result.game_id):
            later = False
            if counted:
                # Results of this game waiting behind this one: the last of them brings the messages in line
                # (the sync plan works from the newest state), so this one only posts its lines.
                left = self._queued[result.game_id] = self._queued[result.game_id] - 1
                if not left:
                    del self._queued[result.game_id]
                later = left > 0
            try:
                if isinstance(result, Reminder):
                    await self._remind(result)
                else:
                    if result.public_view is None and result.status == "active":
                        # A stored (duplicate) result carries no views: one read of the game as it is now.
                        fresh = await self.service.table_state(result.game_id)
                        fresh.public, fresh.private, fresh.timed_out = [], {}, []
                        result = fresh
                    gid = result.game_id
                    if later:
                        self._skipped[gid] = max(self._skipped.get(gid, -1), result.version)
                    elif self._skipped.pop(gid, -1) > result.version and result.status == "active":
                        # A newer result went first and left the messages to this one: sync the game as it is.
                        fresh = await self.service.table_state(gid)
                        fresh.public, fresh.private, fresh.timed_out = result.public, result.private, result.timed_out
                        result = fresh
                    await self._announce(result, later=later)
            except Exception:
                log.exception("announcing for game %s failed", result.game_id)

    async def _remind(self, reminder: Reminder) -> None:
        if reminder.user_id is None:
            return
        name = self.presenter(reminder.kind).display_name
        text = f"⏰ Reminder: {name} game #{reminder.game_id} is waiting for your move ({timestamp(reminder.deadline)})."
        if await self.dm(reminder.user_id, content=text) is None:
            await self.send_channel(reminder.channel_id, content=f"<@{reminder.user_id}> {text} Press **My screen** to play.")

    def event_lines(self, presenter: Presenter, result: ActionResult, names: dict[int, str]) -> list[str]:
        game_type = self.game_type(result.kind)
        lines = []
        for e in result.public:
            kind = e.get("type")
            if kind == "game_started":
                text: str | None = presenter.started_line(game_type)
            elif kind == "seat_replaced":
                text = f"Seat {e['seat'] + 1} is now played by {e['name']}."
            elif kind == "undo":
                text = self.undo_line(e, result, names)
            elif kind == "abandoned":
                text = "The game was abandoned."
            elif kind in ("final_scores", "timeout"):
                text = None
            else:
                text = presenter.event_line(e, names)
            if text:
                lines.append(text)
        for seat in result.timed_out:
            lines.append(f"⌛ Time ran out for {names.get(seat, seat)}: they pass (or skip).")
        return lines

    @staticmethod
    def undo_line(event: dict, result: ActionResult, names: dict[int, str]) -> str:
        """What an undo took back and whom it concerns: whose moves, and who must now choose again."""
        moves = event.get("moves", 0)
        whose = [names.get(s, f"Seat {s + 1}") for s in event.get("seats", [])]
        text = f"↩ The host undid the last step: {moves} move{'s' if moves != 1 else ''} taken back"
        text += f" ({', '.join(whose)})." if whose else "."
        again = [names.get(s, f"Seat {s + 1}") for s, p in sorted(result.pending.items()) if p.waiting and not p.is_ai]
        if again:
            text += f" Now to decide: {', '.join(again)} (a new prompt comes by DM)."
        return text

    async def _announce(self, result: ActionResult, *, later: bool = False) -> None:
        self.batches += 1
        presenter = self.presenter(result.kind)
        names = names_map(result.seats)
        lines = self.event_lines(presenter, result, names)
        private = {}
        for seat, events in result.private.items():
            texts = [t for t in (presenter.private_line(e, names) for e in events) if t]
            if texts:
                private[seat] = texts
        if result.finished or result.status != "active" or later or \
                self._synced.get(result.game_id, -1) > result.version:
            # Over, or a later result was announced first (its views are the newer ones): the lines only.
            await self._post_lines(result, presenter, names, lines)
            if result.finished:
                await self._post_final(result, presenter, names)
            await self._dm_private(result, private)
            return
        await self.sync_messages(result, lines=lines, private=private)

    async def _post_lines(self, result: ActionResult, presenter: Presenter, names: dict[int, str],
                          lines: list[str], *, table: dict | None = None) -> discord.Message | None:
        """The public event lines in the channel, with the presenter's results. With ``table`` (a new table
        message: embed, picture, buttons) the lines go into it, one post per resolved step, when the results
        are only that same picture; results of their own (a score, another picture) come first, with the
        lines, and the table after them. Returns the table message (or the results post)."""
        chunks = split_text(lines)
        results = presenter.results(result.public, result.public_view, names) \
            if chunks and result.public_view is not None and not result.finished else None
        if results is not None and table is not None and _same_picture(results, table):
            results = None  # the new table message shows it
        for chunk in chunks[:-1]:
            await self.send_channel(result.channel_id, content=chunk, silent=True)
        last = chunks[-1] if chunks else None
        if results is not None:
            posted = await self.send_channel(result.channel_id, silent=True, content=last,
                                             **await message_kwargs(results, presenter.embed_color))
            if table is None:
                return posted
            last = None
        if table is not None:
            return await self.send_channel(result.channel_id, **table, content=last, silent=True)
        if last:
            await self.send_channel(result.channel_id, content=last, silent=True)
        return None

    async def _dm_private(self, result: ActionResult, private: dict[int, list[str]]) -> None:
        """Each player's private event lines (those no prompt carried), as a silent DM."""
        for seat, texts in private.items():
            user = next((s.user_id for s in result.seats if s.seat == seat and not s.is_ai), None)
            if user:
                await self.dm(user, content="\n".join(texts)[:1900], silent=True)

    async def _post_final(self, result: ActionResult, presenter: Presenter, names: dict[int, str]) -> None:
        """Close the game's controls and post its score sheet. Each posted part is recorded, so catching up
        after a crash posts only the parts that are missing."""
        records = await self.service.prompt_messages(result.game_id)
        posted = {m.prompt_key for m in records if m.purpose == FINAL}
        messages = [m for m in records if m.purpose != FINAL]
        for m in messages:
            await self.edit(m.channel_id, m.message_id, view=None)
        await self.service.retire_prompt_messages([m.id for m in messages])
        if result.outcome is None or result.public_view is None:
            return
        outcome = Outcome.from_json(result.outcome)
        first = None
        # The parts (score sheet, final pyramids, ...) go out as one post: its embeds and pictures together.
        parts = [(i, spec) for i, spec in enumerate(presenter.final(result.game_id, outcome, result.public_view, names))
                 if str(i) not in posted]
        if parts:
            kwargs = merge_kwargs(*[await message_kwargs(spec, presenter.embed_color) for _, spec in parts])
            msg = await self.send_channel(result.channel_id, **kwargs)
            if msg is not None:
                for i, _ in parts:
                    await self.service.record_prompt_message(result.game_id, None, msg.id, result.channel_id, FINAL,
                                                             prompt_key=str(i))
            if parts[0][0] == 0:
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
            if text:
                await self.dm(s.user_id, content=(text + link)[:1900])
        await self.service.record_prompt_message(result.game_id, None, 0, result.channel_id, FINAL, prompt_key="dm")

    async def catch_up(self) -> None:
        """At start-up: a crash between storing an action and announcing it must not leave anyone without
        their prompt, so every active game's messages are brought up to date, and a game that finished
        recently without its score sheet gets it."""
        cutoff = self.service.clock.now() - FINAL_CATCH_UP_WINDOW
        # Several processes over shards: each catches up the games of its own shards' servers.
        owns = getattr(self.client, "owns_guild", lambda guild_id: True)
        for game in await self.service.list_games(statuses=("finished",)):
            if game.updated_at < cutoff or not owns(game.guild_id):
                continue
            async with self.lock(game.id):
                try:
                    result = await self.service.table_state(game.id)
                    await self._post_final(result, self.presenter(result.kind), names_map(result.seats))
                except Exception:
                    log.exception("posting the end of game %s failed", game.id)
        for game in await self.service.list_games(statuses=("active",)):
            if not owns(game.guild_id):
                continue
            async with self.lock(game.id):
                try:
                    await self.sync_messages(await self.service.table_state(game.id))
                except Exception:
                    log.exception("catching up game %s failed", game.id)

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

    async def sync_messages(self, result: ActionResult, *, lines: list[str] | None = None,
                            private: dict[int, list[str]] | None = None) -> None:
        """Bring the game's Discord messages in line with its state. Safe to repeat. ``lines`` (public event
        lines) go into the new table message when there is one; ``private`` lines open the seats' new
        prompts (or come as a silent DM when a seat gets none)."""
        lines = lines or []
        private = dict(private or {})
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
        await self._sync_table(result, presenter, game_type, names, public_view, table_key, todo, lines)
        # Within one step group of simultaneous choices (the table message stays: same phase and turn) a
        # seat's next decision takes the place of its answered prompt, edited in place: the player is in the
        # middle of it, and the DMs stay short. A new step group, or a turn that comes back round in a
        # sequential game, brings a new prompt message: the decision's one notification.
        reuse: dict[int, Any] = {}
        if not todo.table_post and game_type.dynamics != "sequential":
            sending = {s.seat for s in todo.send}
            for m in todo.close:
                if m.purpose == "prompt" and m.message_id and m.seat in sending:
                    reuse.setdefault(m.seat, m)
        for m in todo.close:
            if reuse.get(m.seat) is m:
                self._closed_by_reply.discard(m.message_id)
                continue
            if m.message_id in self._closed_by_reply:
                self._closed_by_reply.discard(m.message_id)
                continue
            await self.edit(m.channel_id, m.message_id, content=CLOSED_TEXT, view=None)
        if todo.close:
            await self.service.retire_prompt_messages([m.id for m in todo.close])
        shown = {m.seat: m.prompt_key for m in messages if m.purpose == "screen"}
        for s in todo.send:
            await self._send_prompt(result, presenter, names, s, private.pop(s.seat, None), shown, reuse.get(s.seat))
        stale = [old.id for s, old in todo.screens if old is not None and s in todo.send]
        if stale:
            await self.service.retire_prompt_messages(stale)
        await self._dm_private(result, private)
        # A screen that changed is shown by the seat's next prompt (a seat's screen changes when it has
        # something to decide); "My screen" shows it at any time.

    async def _sync_table(self, result: ActionResult, presenter: Presenter, game_type: GameType,
                          names: dict[int, str], public_view: dict, table_key: str | None, todo: sync.Plan,
                          lines: list[str]) -> None:
        """Post the new table message (with the step's public lines: one post per resolved step) or edit the
        current one (the lines then come as their own post)."""
        if not todo.table_post:
            await self._post_lines(result, presenter, names, lines)
            if todo.table_edit is None:
                return
        ctx = TableCtx(result.game_id, game_type, public_view, names,
                       [Waiting(seat, names.get(seat, str(seat)), p.deadline, p.waiting)
                        for seat, p in sorted(result.pending.items())], result.status)
        if not todo.table_post:
            await self._edit_table(presenter, ctx, todo.table_edit, result.game_id)
            return
        for m in todo.table_retire:
            await self.edit(m.channel_id, m.message_id, view=None)
        if todo.table_retire:
            await self.service.retire_prompt_messages([m.id for m in todo.table_retire])
        spec = presenter.table(ctx, with_image=True)
        shown = await self._table_fingerprint(presenter, ctx)
        msg = await self._post_lines(result, presenter, names, lines,
                                     table=await message_kwargs(spec, presenter.embed_color))
        self.remember_picture(msg)
        if msg is not None:
            await self.service.record_prompt_message(result.game_id, None, msg.id, result.channel_id, "status",
                                                     prompt_key=table_key, version=shown)

    async def _edit_table(self, presenter: Presenter, ctx: TableCtx, m: Any, game_id: int) -> None:
        """New text under the same picture. Discord resolves ``attachment://`` only against the files of the
        same request, so the edit names the posted file in its attachments list (nothing uploaded); when that
        file is not known (the bot restarted since the message was posted) the picture is uploaded once more."""
        spec = presenter.table(ctx, with_image=False)
        spec.image = None
        kwargs = await message_kwargs(spec, presenter.embed_color)
        embed = kwargs.get("embed")
        if embed is None:
            return
        shown = fingerprint(embed)
        if getattr(m, "version", None) == shown:
            return  # the message already shows this (a catch-up after a restart sends nothing)
        kept = self._pictures.get(m.message_id)
        if kept is not None:
            embed.set_image(url=f"attachment://{kept.filename}")
            edited = await self.edit_message(m.channel_id, m.message_id, embed=embed, attachments=[kept])
        else:
            full = await message_kwargs(presenter.table(ctx, with_image=True), presenter.embed_color)
            file = full.get("file")
            edited = await self.edit_message(m.channel_id, m.message_id, embed=full.get("embed", embed),
                                             attachments=[file] if file is not None else [])
            self.remember_picture(edited)
        if edited is None:
            log.warning("could not edit the table message of game %s", game_id)
            return
        # Remember what it shows now (a table message record's version holds the fingerprint of its text).
        await self.service.record_prompt_message(game_id, None, m.message_id, m.channel_id, "status",
                                                 prompt_key=m.prompt_key, version=shown)
        await self.service.retire_prompt_messages([m.id])

    async def _table_fingerprint(self, presenter: Presenter, ctx: TableCtx) -> int | None:
        spec = presenter.table(ctx, with_image=False)
        spec.image = None
        return fingerprint((await message_kwargs(spec, presenter.embed_color)).get("embed"))

    def seat_ctx(self, result: ActionResult, seat: int) -> SeatCtx | None:
        p = result.pending.get(seat)
        view = result.views.get(seat)
        if p is None or view is None:
            return None
        return SeatCtx(result.game_id, seat, result.kind, view, p.prompt, names_map(result.seats), p.deadline,
                       result.version)

    async def _send_prompt(self, result: ActionResult, presenter: Presenter, names: dict[int, str],
                           s: sync.SeatState, private: list[str] | None = None,
                           screens: dict[int, str | None] | None = None, reuse: Any = None) -> None:
        """A new prompt by DM (the one notification of a decision), opened by what happened to this player
        since their last prompt (their private event lines)."""
        screens = screens or {}
        ctx = self.seat_ctx(result, s.seat)
        if ctx is None or ctx.prompt is None or s.user_id is None:
            if private and s.user_id is not None:
                await self.dm(s.user_id, content="\n".join(private)[:1900], silent=True)
            return
        draft = load_draft(result.drafts.get(s.seat), ctx.key)
        spec = presenter.prompt_kind(ctx.prompt).render(ctx, draft)
        content = move_line(presenter.display_name, result.game_id, ctx.deadline)
        if private:
            content = ("\n".join(private)[:1500] + "\n" + content)[:2000]
        kwargs = await message_kwargs(spec, presenter.embed_color, content=content)
        screen = presenter.screen(result.game_id, ctx.view, s.seat, names) \
            if s.screen_key is not None and not s.dm_closed else None
        if screen is not None:
            kwargs = merge_kwargs(kwargs, await message_kwargs(screen, presenter.embed_color))
        msg = await self._reuse_prompt(reuse, kwargs) if reuse is not None else None
        why = None
        if msg is None:
            msg, why = await self.send_dm(s.user_id, **kwargs)
        if msg is not None:
            await self.service.record_prompt_message(result.game_id, s.seat, msg.id, msg.channel.id, "prompt",
                                                     prompt_key=ctx.key)
            if screen is not None and s.screen_key != screens.get(s.seat):
                # The plan compares this key with the seat's screen: the prompt just showed it.
                await self.service.record_prompt_message(result.game_id, s.seat, msg.id, msg.channel.id, "screen",
                                                         prompt_key=s.screen_key)
        else:
            # No DM: a ping in the channel, the prompt itself comes through "My screen". Only closed DMs are
            # remembered for the player (send_dm); this ping stands for this one prompt.
            await self.service.record_prompt_message(result.game_id, s.seat, 0, result.channel_id, "ping",
                                                     prompt_key=ctx.key)
            await self.send_channel(result.channel_id, content=f"<@{s.user_id}>, your move in {presenter.display_name}: "
                                    f"press **My screen** ({DM_PING_REASONS.get(why or '', DM_PING_REASONS[DM_CLOSED])}).")

    async def _reuse_prompt(self, old: Any, kwargs: dict) -> discord.Message | None:
        """Edit an answered prompt message into the seat's next prompt (None if the edit fails)."""
        edit = dict(kwargs)
        files = edit.pop("files", None) or ([edit.pop("file")] if edit.get("file") is not None else [])
        edit.pop("file", None)
        if "embed" in edit:
            edit["embeds"] = [edit.pop("embed")]
        edit.setdefault("embeds", [])
        edit.setdefault("view", None)
        edit.setdefault("content", None)
        return await self.edit_message(old.channel_id, old.message_id, attachments=files, **edit)
