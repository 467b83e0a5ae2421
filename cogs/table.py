"""The table cog: one slash-command group per registered game, lobby, prompt controls and forms.

Every handler is generic: it parses the interaction, asks the service (one read for a click), lets the
game's presenter decide what to show or which action a click makes, and hands the committed result to the
announcer. Nothing here knows a game's rules or texts.
"""

import asyncio
import contextlib
import inspect
import io
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import ai as ai_seats
from bot.i18n import DEFAULT_LOCALE, LANGUAGES, here, reader, reading
from bot.permissions import missing_permissions
from bot.presenters import UnknownPresenter, presenter_for
from bot.service import (
    ActionResult,
    GameFinished,
    GameInfo,
    GameService,
    NotInGame,
    SeatContext,
    ServiceError,
    StalePrompt,
    ai_seat_name,
)
from bot.ui import checks, ids, lobby, lockin
from bot.ui.drafts import RECAP, load_draft
from bot.ui.history import HISTORY_SIZE, STATS_GAMES, history_line, history_text, stats_table, stats_text
from bot.ui.presenter import Presenter, SeatCtx, TableCtx, Waiting
from bot.ui.spec import Button, MessageSpec, PlanIncomplete, cut
from bot.ui.texts import (
    EXPORT_FINISHED_ONLY,
    IN_A_SERVER,
    NOTHING_DRAFTED,
    export_text,
    hours,
    names_map,
    no_card_text,
    prompt_head,
    split_text,
)
from engine.api import GameType, OptionSpec

from .announcer import CLOSED_TEXT, Announcer
from .discord_ui import (
    DEFAULT_UPLOAD_LIMIT,
    DYNAMIC_ITEMS,
    digest,
    form_values,
    layout_kwargs,
    message_kwargs,
    modal,
    render,
    shown_picture,
    view_from_rows,
)

log = logging.getLogger(__name__)
THINKING = "gm.thinking"  # interaction.extras key: a "thinking" defer not answered yet ("public"/"ephemeral")
ACK = "gm.ack"  # interaction.extras key: the _Ack guarding a click's answer
# A click is answered by editing its message in the interaction response itself (one request) when the work
# is done this soon after the click arrived; otherwise it is deferred first (Discord allows 3 s) and edited
# afterwards (two requests).
ACK_WITHIN = 1.5


class _Ack:
    """Defers a click that is not answered within ACK_WITHIN seconds. Answers take the lock, so an answer and
    the late defer never race: whoever comes second sees the response done."""

    def __init__(self, interaction: discord.Interaction, within: float = ACK_WITHIN) -> None:
        self.interaction = interaction
        self.lock = asyncio.Lock()
        self.sending = False  # the defer is on its way
        # Discord's 3 s run from the click (the interaction's id says when), not from its arrival: a click that
        # reached the bot late (a slow gateway, a busy host) is deferred that much sooner.
        self.task = asyncio.create_task(self._defer_later(max(0.0, within - _age(interaction))))

    async def _defer_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            if not self.interaction.response.is_done():
                self.sending = True
                try:
                    await asyncio.wait_for(self.interaction.response.defer(), REPLY_TIMEOUT)
                except (discord.HTTPException, TimeoutError):
                    log.warning("could not acknowledge interaction %s (%.1f s after the click)",
                                self.interaction.id, _age(self.interaction))

    def stop(self) -> None:
        """No defer after all (the answer is ready). One on its way is not cancelled: Discord may have taken
        it already, and a bot that never heard back would send the answer as the click's response, which
        Discord refuses as a second one (the prompt would never show it). The answer waits for it instead."""
        if not self.sending:
            self.task.cancel()


def _age(interaction: discord.Interaction) -> float:
    """Seconds since the click, by the interaction's snowflake (0 for a clock that is behind Discord's)."""
    return max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())


def _ack_lock(interaction: discord.Interaction) -> Any:
    ack = interaction.extras.get(ACK)
    if ack is None:
        return contextlib.nullcontext()
    ack.stop()
    return ack.lock

STALE_TEXT = ("This prompt is from an earlier step of the game and has closed. Your current prompt is in your "
              "latest message (or press **My screen**).")
NOT_YOURS = "These controls belong to another player's seat."
REPLY_TIMEOUT = 20.0  # seconds for the edit that answers a click


class _Game:
    """One registered game as the cog sees it."""

    def __init__(self, game_type: GameType, presenter: Presenter) -> None:
        self.type = game_type
        self.presenter = presenter

    @property
    def name(self) -> str:
        return self.type.name

    @property
    def command(self) -> str:
        """The slash-command group's name (a presenter may spell it without the underscore)."""
        return getattr(self.presenter, "command_name", None) or self.type.name

    @property
    def title(self) -> str:
        return self.presenter.display_name or self.type.display_name


class TableCog(commands.Cog, name="Table"):
    def __init__(self, bot: commands.Bot, service: GameService, announcer: Announcer,
                 games: list[tuple[GameType, Presenter]]) -> None:
        self.bot = bot
        self.service = service
        self.announcer = announcer
        self.games = {t.name: _Game(t, p) for t, p in games}
        self.groups = [self._group(g) for g in self.games.values()]
        self.form_ops = tuple({op for g in self.games.values() for op in g.presenter.form_ops})
        self._caught_up = False
        # Open confirmation questions of irreversible commands: token -> (who asked, what to do).
        self._confirmations: dict[str, tuple[int, Callable[[discord.Interaction], Any]]] = {}
        self._confirm_seq = 0

    async def cog_load(self) -> None:
        for group in self.groups:
            self.bot.tree.add_command(group, override=True)

    async def cog_unload(self) -> None:
        for group in self.groups:
            self.bot.tree.remove_command(group.name)

    # ---------------------------------------------------------------- helpers

    def game_of(self, kind: str) -> _Game:
        return self.games[kind]

    async def _reply(self, interaction: discord.Interaction, text: str) -> None:
        """A short private message to whoever clicked, whatever the interaction's state. After a "thinking"
        defer the answer replaces the thinking message; a public one is removed first, so that an error is
        never shown to the channel."""
        async with _ack_lock(interaction):
            await self._reply_now(interaction, text)

    async def _reply_now(self, interaction: discord.Interaction, text: str) -> None:
        try:
            thinking = interaction.extras.get(THINKING)
            if thinking is not None:
                del interaction.extras[THINKING]
                if thinking == "ephemeral":
                    await interaction.edit_original_response(content=here(text), embed=None, attachments=[], view=None)
                    return
                await interaction.delete_original_response()
            if interaction.response.is_done():
                await interaction.followup.send(here(text), ephemeral=True)
            else:
                await interaction.response.send_message(here(text), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not reply to interaction %s", interaction.id)

    @staticmethod
    async def _think(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
        """Defer with a "thinking" message; the answer comes with `_answer` (or an error with `_reply`)."""
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        interaction.extras[THINKING] = "ephemeral" if ephemeral else "public"

    @staticmethod
    async def _answer(interaction: discord.Interaction, **kwargs: Any) -> discord.Message:
        """The answer to a deferred command: the first replaces the thinking message (edit_original_response;
        a follow-up doing that is deprecated), later ones are follow-ups."""
        file = kwargs.pop("file", None)
        ephemeral = bool(kwargs.pop("ephemeral", False))  # a thinking message's own flag decides the first
        if interaction.extras.pop(THINKING, None) is not None:
            if file is not None:
                kwargs["attachments"] = [file]
            return await interaction.edit_original_response(**kwargs)
        if file is not None:
            kwargs["file"] = file
        return await interaction.followup.send(wait=True, ephemeral=ephemeral, **kwargs)  # type: ignore[return-value]

    def _tracking(self, interaction: discord.Interaction) -> Any:
        track = getattr(self.bot, "handling_interaction", None)
        return track(interaction.id) if track is not None else contextlib.nullcontext()

    async def _safe(self, interaction: discord.Interaction, coro: Any) -> None:
        with self._tracking(interaction), reading(await self._reader(interaction)):
            await self._guarded(interaction, coro)

    async def _set_language(self, interaction: discord.Interaction, code: str) -> None:
        """A server's language for its game channels; players' DMs and private replies follow their own client."""
        languages = getattr(self.bot, "languages", None)
        if interaction.guild_id is None:
            raise ServiceError("The server language is set in a server channel.")
        if code not in LANGUAGES or languages is None:
            raise ServiceError("That language is not available: " + ", ".join(LANGUAGES.values()) + ".")
        if not self._is_admin(interaction):
            raise ServiceError("Only a server admin (Manage Server) can change the server's language.")
        await languages.set_guild(interaction.guild_id, code)
        with reading(code):  # said in the new language
            await interaction.response.send_message(here(f"Game channels in this server now speak {LANGUAGES[code]}."))

    async def _reader(self, interaction: discord.Interaction) -> str:
        """The clicker's language (their client's, remembered for their DMs); replies to them use it."""
        languages = getattr(self.bot, "languages", None)
        if languages is None:
            return DEFAULT_LOCALE
        try:
            return await languages.remember(interaction.user.id, interaction.locale)
        except Exception:  # a language is never worth failing a click
            log.exception("could not read the language of user %s", interaction.user.id)
            return DEFAULT_LOCALE

    async def _guarded(self, interaction: discord.Interaction, coro: Any) -> None:
        # Registered with the bot while it runs, so that drain() also waits for clicks still being handled.
        handling = getattr(self.bot, "handling", None)
        task = asyncio.current_task()
        if handling is not None and task is not None:
            handling.add(task)
        try:
            await coro
        except (ServiceError, PlanIncomplete) as exc:
            await self._reply(interaction, exc.message)
        except Exception:
            log.exception("interaction %s failed", interaction.id)
            await self._reply(interaction, "Something went wrong on my side; nothing was lost. Please try again.")
        finally:
            if handling is not None and task is not None:
                handling.discard(task)
            ack = interaction.extras.get(ACK)
            if ack is not None and interaction.response.is_done():
                ack.stop()

    def _limit(self, interaction: discord.Interaction | None) -> int:
        size = getattr(interaction, "attachment_size_limit", None) if interaction is not None else None
        return int(size) if size else DEFAULT_UPLOAD_LIMIT

    def _is_admin(self, interaction: discord.Interaction) -> bool:
        perms = getattr(interaction.user, "guild_permissions", None)
        return bool(perms and (perms.manage_guild or perms.administrator))

    async def _game_here(self, interaction: discord.Interaction, game: _Game, *, finished_ok: bool = False,
                         game_id: int | None = None) -> GameInfo:
        """The game a command is about: `game_id` when given (a finished one too), else the channel's open game
        (in DMs: the user's), else, for commands that only look (`finished_ok`), the channel's latest game."""
        if game_id is not None:
            return await self._numbered_game(interaction, game, game_id)
        if interaction.guild_id is None:
            return await self._game_of_user(interaction, game)
        info = await self.service.game_in_channel(interaction.channel_id or 0)
        if (info is None or info.kind != game.name) and finished_ok:
            done = await self.service.finished_games(game.name, interaction.guild_id, interaction.channel_id)
            info = done[0] if done else None
        if info is None or info.kind != game.name:
            raise ServiceError(f"There is no {game.title} game in this channel. Start one with `/{game.command} new`.")
        return info

    async def _numbered_game(self, interaction: discord.Interaction, game: _Game, game_id: int) -> GameInfo:
        """Game #N, if it is one of this kind that the user may look at: hosted on this server, or theirs."""
        info = await self.service.game(game_id)
        seated = any(s.user_id == interaction.user.id for s in info.seats)
        if info.kind != game.name or not (seated or (interaction.guild_id and info.guild_id == interaction.guild_id)):
            raise ServiceError(f"There is no {game.title} game #{game_id} here.")
        return info

    async def _game_of_user(self, interaction: discord.Interaction, game: _Game) -> GameInfo:
        """A command used in DMs (where players live) reaches the user's game of this kind."""
        mine = [g for g in await self.service.list_games(statuses=("lobby", "active"))
                if g.kind == game.name and any(s.user_id == interaction.user.id for s in g.seats)]
        if len(mine) > 1:
            # A game whose channel is gone can only be reached from DMs: it is the one meant here.
            gone = [g for g in mine if self._channel_gone(g.channel_id)]
            if len(gone) == 1:
                return gone[0]
        if len(mine) == 1:
            return mine[0]
        if not mine:
            raise ServiceError(f"You have no {game.title} game in progress. Start one in a server channel with "
                               f"`/{game.command} new`.")
        where = ", ".join(f"#{g.id} in <#{g.channel_id}>" for g in mine)
        raise ServiceError(f"You play in several {game.title} games ({where}): use the command in that game's channel.")

    async def _options_here(self, interaction: discord.Interaction, game: _Game) -> list[str]:
        """What the game here (or the user's one game of this kind, in DMs) has switched on, for `/… rules`."""
        try:
            info = await self._game_here(interaction, game)
        except ServiceError:
            return []
        flags = lobby.active_flags(game.type, info.options)
        if not flags:
            return []
        topics = [v for spec in lobby.flag_options(game.type) for v, _ in spec.choices
                  if v in (info.options.get(spec.name) or []) and v in game.presenter.rules_topics]
        lines = [f"**{game.title} game #{info.id} plays with** " + "; ".join(flags) + "."]
        if topics:
            lines.append("Their rules: " + ", ".join(f"`/{game.command} rules topic:{t}`" for t in topics) + ".")
        return lines

    def _channel_gone(self, channel_id: int) -> bool:
        """Deleted (Discord told the bot, or refused a message there as an unknown channel)."""
        return channel_id in self.announcer.gone or (self.bot.is_ready() and self.bot.get_channel(channel_id) is None)

    async def _host_game_here(self, interaction: discord.Interaction, game: _Game) -> GameInfo:
        """The game here, for a host-only command: refused before anything is asked (the service checks again)."""
        info = await self._game_here(interaction, game)
        if info.host_user_id != interaction.user.id and not self._is_admin(interaction):
            raise ServiceError("Only the host (or a server admin) can do that.")
        return info

    async def _confirm(self, interaction: discord.Interaction, game_id: int, question: str, label: str,
                       act: Callable[[discord.Interaction], Any]) -> None:
        """Ask once, privately, before an irreversible command. The question lives in this process only: after
        a restart its buttons answer that it expired (nothing was done), and the command can be run again."""
        self._confirm_seq += 1
        token = f"{self._confirm_seq}{secrets.token_hex(3)}"
        self._confirmations[token] = (interaction.user.id, act)
        spec = MessageSpec(content=f"⚠ {question}", rows=[[
            Button(label, ids.table_id(game_id, f"confirm.{token}"), "danger"),
            Button("Cancel", ids.table_id(game_id, f"cancel.{token}"))]])
        await interaction.response.send_message(here(spec.content), view=view_from_rows(spec.rows), ephemeral=True)

    async def _confirmed(self, interaction: discord.Interaction, op: str) -> None:
        what, _, token = op.partition(".")
        pending = self._confirmations.get(token)
        if pending is None:
            await interaction.response.edit_message(content=here("This question has expired: nothing was done. Run the "
                                                                 "command again if you still want to."), view=None)
            return
        if pending[0] != interaction.user.id:
            await self._reply(interaction, "This question was asked to someone else.")
            return
        del self._confirmations[token]
        if what == "cancel":
            await interaction.response.edit_message(content=here("Cancelled: nothing was changed."), view=None)
            return
        await interaction.response.edit_message(content=here("Working on it…"), view=None)
        try:
            text = await pending[1](interaction)
        except (ServiceError, PlanIncomplete) as exc:
            text = exc.message
        await interaction.edit_original_response(content=here(text))

    # ---------------------------------------------------------------- commands

    def _group(self, game: _Game) -> app_commands.Group:
        p = game.presenter
        description = getattr(p, "description", "") or game.type.description or f"Play {game.title}"
        # Installed to servers only (not to users' accounts); usable in its servers and in DMs with the bot,
        # where commands reach the player's own game.
        group = app_commands.Group(name=game.command, description=description[:100],
                                   allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True),
                                   allowed_installs=app_commands.AppInstallationType(guild=True))
        cmd: Callable[..., app_commands.Command] = app_commands.Command
        group.add_command(cmd(name="new", description=f"Open a {game.title} lobby in this channel",
                              callback=self._new_callback(game)))

        async def screen(interaction: discord.Interaction) -> None:
            async def run() -> None:
                info = await self._game_here(interaction, game)
                await self.show_screen(interaction, info.id)

            await self._safe(interaction, run())

        async def waiting(interaction: discord.Interaction) -> None:
            await self._safe(interaction, self._waiting(interaction, game))

        @app_commands.describe(game_number="A game's number (default: this channel's game, or its latest)")
        async def status(interaction: discord.Interaction, game_number: app_commands.Range[int, 1] | None = None) -> None:
            await self._safe(interaction, self._status(interaction, game, game_number))

        @app_commands.describe(player="Whose board (default: yours)",
                               game_number="A game's number (default: this channel's game, or its latest)")
        async def show(interaction: discord.Interaction, player: discord.User | None = None,
                       game_number: app_commands.Range[int, 1] | None = None) -> None:
            await self._safe(interaction, self._show(interaction, game, player, game_number))

        @app_commands.describe(count="How many events (default 15)",
                               game_number="A game's number (default: this channel's game, or its latest)")
        async def log_cmd(interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 15,
                          game_number: app_commands.Range[int, 1] | None = None) -> None:
            await self._safe(interaction, self._log(interaction, game, count, game_number))

        async def history(interaction: discord.Interaction) -> None:
            await self._safe(interaction, self._history(interaction, game))

        @app_commands.describe(player="Whose results (default: the server's leaderboard)")
        async def stats(interaction: discord.Interaction, player: discord.User | None = None) -> None:
            await self._safe(interaction, self._stats(interaction, game, player))

        @app_commands.describe(game_number="A game's number (default: this channel's game, or its latest)")
        async def export(interaction: discord.Interaction, game_number: app_commands.Range[int, 1] | None = None) -> None:
            await self._safe(interaction, self._export(interaction, game, game_number))

        for callback in (status, show, log_cmd, export):  # the option is called "game" on Discord
            app_commands.rename(game_number="game")(callback)

        @app_commands.describe(topic="Which part of the rules")
        @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in p.rules_topics])
        async def rules(interaction: discord.Interaction, topic: str = "overview") -> None:
            async def run() -> None:
                lines = p.rules_text(topic).splitlines()
                playing = await self._options_here(interaction, game)
                if playing:
                    lines = playing + [""] + lines
                chunks = split_text(lines)
                await interaction.response.send_message(here(chunks[0]), ephemeral=True)
                for chunk in chunks[1:4]:
                    await interaction.followup.send(here(chunk), ephemeral=True)

            await self._safe(interaction, run())

        @app_commands.describe(time_limit="Hours per decision (0 = no limit)",
                               language="The language of this server's game channels (server admins)")
        @app_commands.choices(language=[app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()])
        async def settings(interaction: discord.Interaction, time_limit: app_commands.Range[float, 0, 720] | None = None,
                           language: str | None = None) -> None:
            async def run() -> None:
                if language is not None:
                    await self._set_language(interaction, language)
                    return
                if time_limit is None:
                    raise ServiceError("Give a time limit (hours per decision) or a language.")
                info = await self._game_here(interaction, game)
                seconds = int(time_limit * 3600) if time_limit > 0 else None
                await self.service.set_time_limit(info.id, seconds, interaction.user.id, admin=self._is_admin(interaction))
                with await self._public(info):
                    said = here(f"Time per decision is now {'unlimited' if seconds is None else f'{time_limit:g} h'}.")
                await interaction.response.send_message(said)

            await self._safe(interaction, run())

        async def abandon(interaction: discord.Interaction) -> None:
            async def run() -> None:
                info = await self._host_game_here(interaction, game)

                async def act(confirm: discord.Interaction) -> str:
                    await self.service.abandon(info.id, confirm.user.id, admin=self._is_admin(confirm))
                    await self.announcer.send_channel(info.channel_id, content=(
                        f"{game.title} game #{info.id} was abandoned by <@{confirm.user.id}>. "
                        f"Start a new one with `/{game.command} new`."))
                    self.announcer.spawn(self.announcer.retire_all(info.id))
                    return f"{game.title} game #{info.id} was abandoned."

                await self._confirm(interaction, info.id, f"Abandon {game.title} game #{info.id}? The game ends for "
                                    "everyone and cannot be resumed.", "Abandon the game", act)

            await self._safe(interaction, run())

        @app_commands.describe(seat=f"Seat number (1-{game.type.max_seats}, as in the lobby)",
                               player="The new player (leave empty for the AI)",
                               ai_level="The AI's level when no player is given (default normal)")
        @app_commands.choices(ai_level=_level_choices())
        async def replace(interaction: discord.Interaction, seat: app_commands.Range[int, 1, game.type.max_seats],
                          player: discord.User | None = None, ai_level: str | None = None) -> None:
            async def run() -> None:
                info = await self._host_game_here(interaction, game)
                level = ai_level or ai_seats.DEFAULT_LEVEL
                name = player.display_name if player else ai_seat_name(seat, level)
                old = next((s.display_name for s in info.seats if s.seat == seat - 1), f"seat {seat}")

                async def act(confirm: discord.Interaction) -> str:
                    result = await self.service.replace_seat(info.id, seat - 1, player.id if player else None, name,
                                                             by_user_id=confirm.user.id, admin=self._is_admin(confirm),
                                                             level=None if player else level)
                    self.announcer.spawn(self.announcer.announce(result))  # the channel is told by the event line
                    return f"Seat {seat} is now played by {name}."

                await self._confirm(interaction, info.id, f"Give seat {seat} ({old}) to {name}? {old} loses the seat.",
                                    "Replace", act)

            await self._safe(interaction, run())

        async def undo(interaction: discord.Interaction) -> None:
            async def run() -> None:
                info = await self._host_game_here(interaction, game)

                async def act(confirm: discord.Interaction) -> str:
                    result = await self.service.undo(info.id, confirm.user.id, admin=self._is_admin(confirm))
                    self.announcer.spawn(self.announcer.retire_all(info.id))
                    self.announcer.spawn(self.announcer.announce(result))  # the undo line says what was taken back
                    return "The last step was undone; everyone is told in the channel."

                await self._confirm(interaction, info.id, f"Undo the last step of {game.title} game #{info.id}? "
                                    "The moves of that step (and any choices made since) are taken back, and "
                                    "everyone is told.", "Undo", act)

            await self._safe(interaction, run())

        if p.card_entries():
            @app_commands.describe(card="The card's number or name")
            async def card_cmd(interaction: discord.Interaction, card: str) -> None:
                await self._safe(interaction, self._card(interaction, game, card))

            async def card_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
                with self._tracking(interaction):
                    return [app_commands.Choice(name=cut(label, 100), value=value[:100])
                            for value, label in p.card_matches(current)]

            look_up = cmd(name="card", description=f"Look up a {game.title} card: its face and what it does",
                          callback=card_cmd)
            look_up.autocomplete("card")(card_complete)
            group.add_command(look_up)

        mine = "secret screen and current choice" if game.type.hidden_information else "current decision"
        for name, description, callback in (
                ("screen", f"Show your {mine} (only you see it)", screen),
                ("waiting", "Who the game is waiting for, and until when", waiting),
                ("status", "The table as it stands", status),
                ("show", p.board_description if hasattr(p, "board_description") else "Show a player's board", show),
                ("log", "The latest public events of this game (or of a finished one)", log_cmd),
                ("history", "The finished games of this server", history),
                ("stats", "Results on this server: a player's, or the leaderboard", stats),
                ("export", "The replayable record of a game, as a file", export),
                ("rules", f"The rules of {game.title} and this bot's rulings", rules),
                ("settings", "Host: change the time limit per decision", settings),
                ("abandon", "Host or admin: abandon the game in this channel", abandon),
                ("replace", "Host or admin: give a seat to another player, or to the AI", replace),
                ("undo", "Host or admin: undo the last public step (announced to everyone)", undo)):
            group.add_command(cmd(name=name, description=description, callback=callback))
            if name == "show" and p.board_command and p.board_command != "show":
                group.add_command(cmd(name=p.board_command, description=description, callback=callback))
        return group

    def _new_callback(self, game: _Game) -> Callable[..., Any]:
        """`/<game> new`: the generic options (seats, ai, time_limit) and one option per OptionSpec."""
        t, p = game.type, game.presenter
        slash = {spec.name: p.slash_names.get(spec.name, spec.name) for spec in t.options}

        async def new(interaction: discord.Interaction, **kwargs: Any) -> None:
            seats = kwargs.pop("seats", t.max_seats)
            ai = kwargs.pop("ai", 0)
            ai_level = kwargs.pop("ai_level", None)
            time_limit = kwargs.pop("time_limit", None)
            options = {spec.name: kwargs[slash[spec.name]] for spec in t.options if slash[spec.name] in kwargs}
            for spec in t.options:  # flags arrive as a comma-separated list
                if spec.kind == "flags" and isinstance(options.get(spec.name), str):
                    options[spec.name] = [v.strip() for v in options[spec.name].split(",") if v.strip()]
            await self._safe(interaction, self._new(interaction, game, seats, ai, time_limit, options, ai_level))

        kw = inspect.Parameter.KEYWORD_ONLY
        params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
                  inspect.Parameter("seats", kw, default=t.max_seats,
                                    annotation=app_commands.Range[int, t.min_seats, t.max_seats])]
        describe = {"seats": f"Seats at the table, {t.min_seats}-{t.max_seats}" + (" (1 = solo)" if t.min_seats == 1 else ""),
                    "ai": "AI players to add now", "ai_level": "Level of those AI players (default normal)",
                    "time_limit": "Hours per decision (0 = no limit)"}
        choices: dict[str, list[app_commands.Choice]] = {}
        for spec in t.options:
            name = slash[spec.name]
            annotation, default = _option_annotation(spec)
            describe[name] = (p.slash_help.get(spec.name) or spec.help or spec.label)[:100]
            if spec.kind == "choice":
                choices[name] = [app_commands.Choice(name=str(label)[:100], value=value) for value, label in spec.choices]
            params.append(inspect.Parameter(name, kw, default=default, annotation=annotation))
        params.append(inspect.Parameter("ai", kw, default=0, annotation=app_commands.Range[int, 0, max(t.max_seats - 1, 0)]))
        params.append(inspect.Parameter("ai_level", kw, default=None, annotation=str | None))
        choices["ai_level"] = _level_choices()
        params.append(inspect.Parameter("time_limit", kw, default=None,
                                        annotation=app_commands.Range[float, 0, 720] | None))
        new.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        new.__annotations__ = {q.name: q.annotation for q in params}
        new = app_commands.describe(**describe)(new)
        if choices:
            new = app_commands.choices(**choices)(new)
        return new

    async def _new(self, interaction: discord.Interaction, game: _Game, seats: int, ai: int,
                   time_limit: float | None, options: dict, ai_level: str | None = None) -> None:
        if interaction.guild_id is None:
            raise ServiceError("Start games in a server channel; I will send your decisions by DM.")
        _check_channel_permissions(interaction)
        game.presenter.check_new(seats, ai, options)
        if ai >= seats:
            raise ServiceError("Leave at least one seat for a person (the host).")
        kwargs: dict = {}
        if time_limit is not None:
            kwargs["time_limit"] = int(time_limit * 3600) if time_limit > 0 else None
        info = await self.service.create_lobby(interaction.guild_id, interaction.channel_id or 0, interaction.user.id,
                                               interaction.user.display_name, kind=game.name,
                                               options={**options, "seats": seats}, **kwargs)
        for _ in range(ai):
            info = await self.service.add_ai(info.id, interaction.user.id, level=ai_level)
        await self._think(interaction)
        info = await self._probe_dm(info.id, interaction.user.id, game)
        msg = await self._answer(interaction, **await self._lobby_message(info))
        await self.service.record_prompt_message(info.id, None, msg.id, msg.channel.id, "lobby")

    # ---------------------------------------------------------------- lobby

    def lobby_spec(self, info: GameInfo) -> MessageSpec:
        game = self.game_of(info.kind)
        opts = info.options
        lines = [f"Host: <@{info.host_user_id}>", f"Seats: {len(info.seats)}/{opts.get('seats', game.type.max_seats)}"]
        for s in info.seats:
            mark = lobby.seat_mark(s)
            if s.dm_status == "closed":
                mark += " ⚠ cannot receive DMs: will play through the **My screen** button"
            lines.append(f"• {s.display_name}{mark}")
        game_lines = game.presenter.lobby_lines(game.type, opts)
        limit = f"time per decision: {hours(info.time_limit)}"
        if game_lines:
            game_lines[-1] += f" · {limit}"
        else:
            game_lines = [limit[0].upper() + limit[1:]]
        lines += game_lines
        g = info.id
        rows: list[list] = [[Button("Join", ids.lobby_id(g, "join"), "primary"), Button("Leave", ids.lobby_id(g, "leave")),
                             Button("Add AI", ids.lobby_id(g, "ai")), Button("Start", ids.lobby_id(g, "start"), "success")]]
        rows += lobby.control_rows(g, game.type, opts, info.seats)
        return MessageSpec(title=f"{game.title} game #{g}: lobby", description="\n".join(lines), rows=rows,
                           footer=game.presenter.lobby_footer)

    async def _server_language(self, info: GameInfo) -> str:
        """The language of the game's public messages: its server's, whoever clicked."""
        languages = getattr(self.bot, "languages", None)
        return await languages.of_guild(info.guild_id) if languages is not None else DEFAULT_LOCALE

    async def _public(self, info: GameInfo) -> Any:
        """Build a public answer (the channel sees it) inside this block: in the server's language and the
        game's texts, not the clicker's language."""
        return reading(await self._server_language(info), info.kind)

    async def _lobby_message(self, info: GameInfo, *, private: bool = False) -> dict:
        """The lobby, a public message: in the server's language whoever clicked (``private``: a copy shown
        only to the clicker, in theirs)."""
        with reading(reader()[0] if private else await self._server_language(info), info.kind):
            spec = self.lobby_spec(info)
            embed, _ = await render(spec, self.game_of(info.kind).presenter.embed_color)
            return {"embed": embed, "view": view_from_rows(spec.rows)}

    async def _probe_dm(self, game_id: int, user_id: int, game: _Game) -> GameInfo:
        """Tell a joining player where decisions will arrive; remember if their DMs are closed."""
        what = "secret choices" if game.type.hidden_information else "decisions"
        ok = await self.announcer.dm(user_id, content=f"You joined {game.title} game #{game_id}. Your {what} will arrive here.")
        if ok:  # closed DMs are remembered by the announcer; other failures (transient) change nothing
            await self.service.set_dm_status(user_id, "open")
        return await self.service.game(game_id)

    async def on_table_control(self, interaction: discord.Interaction, custom_id: str,
                               values: list[str] | None = None) -> None:
        with self._tracking(interaction):
            control = ids.ControlId.decode(custom_id)
            if control is not None and control.surface == "table" and control.op == "screen":
                await self.show_screen(interaction, control.game)
            elif control is not None and control.surface == "table" and control.op == "rematch":
                await self._safe(interaction, self._rematch(interaction, control.game))
            elif control is not None and control.surface == "table" and control.op.startswith(("confirm.", "cancel.")):
                await self._safe(interaction, self._confirmed(interaction, control.op))
            elif control is not None and control.surface == "lobby" and lobby.is_menu(control.op):
                await self._safe(interaction, self._lobby_menu(interaction, control.game, control.op, custom_id, values))
            elif control is not None and control.surface == "lobby":
                await self._safe(interaction, self._lobby_button(interaction, control.game, control.op))
            else:
                await self._safe(interaction, self._refuse(checks.UNKNOWN_CONTROL))

    @staticmethod
    async def _refuse(message: str) -> None:
        raise ServiceError(message)

    async def _lobby_menu(self, interaction: discord.Interaction, game_id: int, op: str, custom_id: str,
                          values: list[str] | None) -> None:
        """The host's choice in a lobby menu: an option of the game (flags) or the AI seats' level."""
        if values is None:  # a button with a menu's id: not something the lobby offers
            raise ServiceError(checks.UNKNOWN_CONTROL)
        info = await self.service.game(game_id)
        problem = checks.origin_problem(info.guild_id, info.channel_id, interaction.guild_id,
                                        interaction.channel_id, dm_ok=False)
        if problem is not None:
            raise ServiceError(problem)
        if info.status != "lobby":
            raise ServiceError(lobby.NOT_IN_LOBBY)
        game = self.game_of(info.kind)
        spec = game.type.option(op[len(lobby.OPTION_OP):]) if op.startswith(lobby.OPTION_OP) else None
        if op != lobby.AI_LEVEL_OP and spec is None:
            raise ServiceError(lobby.UNKNOWN_OPTION)
        admin = self._is_admin(interaction)
        if info.host_user_id != interaction.user.id and not admin:
            what = spec.label if spec is not None else "the AI level"
            raise ServiceError(lobby.NOT_HOST.format(host=info.host_user_id, what=what))
        problem = checks.control_problem(self.lobby_spec(info), custom_id, values)
        if problem is not None:
            raise ServiceError(problem)
        if spec is not None:
            info = await self.service.set_lobby_options(game_id, {spec.name: lobby.option_from_values(spec, values)},
                                                        interaction.user.id, admin=admin)
        else:
            info = await self.service.set_ai_level(game_id, values[0], interaction.user.id, admin=admin)
        await interaction.response.edit_message(**await self._lobby_message(info))

    async def _lobby_button(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        user = interaction.user
        where = await self.service.game(game_id)
        problem = checks.origin_problem(where.guild_id, where.channel_id, interaction.guild_id,
                                        interaction.channel_id, dm_ok=False)
        if problem is not None:
            raise ServiceError(problem)
        admin = self._is_admin(interaction)
        if op == "join":
            info = await self.service.join(game_id, user.id, user.display_name)
            await interaction.response.defer()
            info = await self._probe_dm(game_id, user.id, self.game_of(info.kind))
            await interaction.edit_original_response(**await self._lobby_message(info))
            return
        if op == "leave":
            result = await self.service.leave(game_id, user.id)
            if isinstance(result, ActionResult):
                await self._reply(interaction, "You left the game.")
                self.announcer.spawn(self.announcer.announce(result))
                return
            info = result
        elif op == "ai":
            info = await self.service.add_ai(game_id, user.id, admin=admin)
        elif op == "start":
            info0 = await self.service.game(game_id)
            if info0.host_user_id != user.id and not admin:
                raise ServiceError(f"Only the host (<@{info0.host_user_id}>) or a server admin can start the game.")
            _check_channel_permissions(interaction)
            wanted = info0.options.get("seats", len(info0.seats))
            if len(info0.seats) < wanted and wanted > 1:
                raise ServiceError(f"The lobby has {len(info0.seats)} of {wanted} seats: wait for players, or Add AI.")
            result = await self.service.start(game_id, user.id, admin=admin)
            # Stored as started: its players are prompted whether or not this click can still be answered
            # (Discord forgets an interaction after 3 s).
            self.announcer.spawn(self.announcer.announce(result))
            info = await self.service.game(game_id)
            game = self.game_of(info.kind)
            embed = (await self._lobby_message(info))["embed"]
            closed = [s.display_name for s in info.seats if s.dm_status == "closed"]
            with await self._public(info):  # the started lobby and its note are public
                embed.title = here(f"{game.title} game #{game_id}: started")  # type: ignore[union-attr]
                note = here(f"I cannot send direct messages to {', '.join(closed)}. You can still play: press "
                            "**My screen** under the table message to see your screen and choices privately. "
                            "To get DMs, allow direct messages from server members (Server → Privacy Settings).")
            try:
                await interaction.response.edit_message(embed=embed, view=None)
                if closed:
                    await interaction.followup.send(note)
            except discord.HTTPException as exc:
                log.warning("game %s started, but the Start click could not be answered: %s", game_id, exc)
            return
        else:
            raise ServiceError("Unknown lobby button.")
        await interaction.response.edit_message(**await self._lobby_message(info))

    # ---------------------------------------------------------------- prompt controls

    async def on_prompt_control(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        await self._safe(interaction, self._prompt_control(interaction, custom_id, values))

    async def _prompt_control(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        control = ids.ControlId.decode(custom_id)
        if control is None or control.seat is None:
            await self._reply(interaction, checks.UNKNOWN_CONTROL)
            return
        is_form = control.op.startswith(self.form_ops) if self.form_ops else False
        if not is_form:
            # The answer edits the prompt in the response itself, or follows a defer if the work is slow.
            interaction.extras[ACK] = _Ack(interaction)
        try:
            click = await self.service.click_context(control.game, interaction.user.id, control.seat, control.key)
        except NotInGame:
            await self._reply(interaction, NOT_YOURS)
            return
        except GameFinished as exc:
            await self._close_prompt(interaction, exc.message)
            return
        except StalePrompt:
            await self._close_prompt(interaction, STALE_TEXT)
            return
        problem = checks.origin_problem(click.guild_id, click.channel_id, interaction.guild_id,
                                        interaction.channel_id, dm_ok=True)
        if problem is not None:
            await self._reply(interaction, problem)
            return
        ctx, draft = _seat_ctx(click)
        presenter = self.game_of(ctx.kind).presenter
        kind = presenter.prompt_kind(ctx.prompt)  # type: ignore[arg-type]
        # Only a control the current prompt offers, with values it offers, reaches the presenter.
        shown = lockin.render(kind, ctx, load_draft(click.draft, ctx.key), presenter.describe)
        problem = checks.control_problem(shown, custom_id, values)
        if problem is not None and interaction.message is not None:
            # The clicked message may show this prompt out of date (the bot stopped between saving a half-made
            # choice and showing it): it is shown again as it stands, so the player can go on from there.
            shown.description = f"{problem}\n{shown.description or ''}"
            await self._edit_original(interaction, presenter, _with_move_line(shown, presenter, ctx, draft))
            return
        problem = problem or checks.blocked_problem(shown, custom_id, values)
        if problem is not None:
            await self._reply(interaction, problem)
            return
        if is_form:
            form = kind.form(ctx, draft, control.op)
            if form is None:
                await self._reply(interaction, "This form is not available.")
                return
            await interaction.response.send_modal(modal(form))
            return
        try:
            action = lockin.on_control(kind, ctx, draft, control.op, values)
            if action is None and control.op == lockin.LOCK_OP and lockin.uses_lock_in(kind):
                raise PlanIncomplete(NOTHING_DRAFTED)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            log.warning("interaction %s: control %s with %r does not parse", interaction.id, custom_id, values[:3])
            await self._reply(interaction, checks.BAD_VALUE)
            return
        if action is None:
            await self.service.save_draft(ctx.game_id, ctx.seat, draft)
            await self._edit_original(interaction, presenter, _with_move_line(
                lockin.render(kind, ctx, draft, presenter.describe), presenter, ctx, draft))
            return
        # The draft is kept with the action (same transaction): a sealed choice may be amended until the reveal.
        result = await self.service.submit(ctx.game_id, interaction.user.id, action, idempotency_key=f"i{interaction.id}",
                                           prompt_key=ctx.key, draft=draft)
        if result.duplicate:  # a retried interaction: its result was announced the first time
            await self._acknowledge(interaction, presenter, ctx, draft, action, result)
            return
        after = self.announcer.seat_ctx(result, ctx.seat)
        message = interaction.message
        if message is not None and not message.flags.ephemeral and (after is None or after.key != ctx.key):
            # The answer below replaces this prompt with no controls: the announcer need not close it.
            self.announcer.closed_by_reply(message.id)
        self.announcer.spawn(self.announcer.announce(result))
        await self._acknowledge(interaction, presenter, ctx, draft, action, result)

    async def _acknowledge(self, interaction: discord.Interaction, presenter: Presenter, ctx: SeatCtx, draft: dict,
                           action: dict, result: ActionResult) -> None:
        # The action is applied: from here on nothing may tell the player it failed.
        try:
            await self._acknowledge_applied(interaction, presenter, ctx, draft, action, result)
        except Exception:
            log.exception("interaction %s: confirming an applied action failed", interaction.id)
            await self._reply(interaction, "Your move is in (see the channel).")

    async def _acknowledge_applied(self, interaction: discord.Interaction, presenter: Presenter, ctx: SeatCtx, draft: dict,
                       action: dict, result: ActionResult) -> None:
        after = self.announcer.seat_ctx(result, ctx.seat)
        if after is not None and after.key == ctx.key:
            # Still the same prompt (a sealed choice that can be changed): show it with the choice made.
            spec = lockin.render(presenter.prompt_kind(after.prompt), after, draft, presenter.describe)  # type: ignore[arg-type]
            spec.description = f"Your choice is in.\n{spec.description or ''}"
            others = [p.deadline for p in result.pending.values() if p.waiting and p.deadline]
            await self._edit_original(interaction, presenter, _with_move_line(
                spec, presenter, after, draft, max(others) if others and not after.prompt.waiting else None))  # type: ignore[union-attr]
        else:
            text = _chosen_text(presenter, action)
            # The recap at the prompt's top stays: it may be the only place that shows what the player was given.
            await self._edit_original(interaction, presenter, MessageSpec(
                content=draft.get(RECAP) or "", title="✔ Done",
                description=f"{text}\nThe results are in the channel; your next prompt comes in a new message."),
                keep_screen=False)

    async def _close_prompt(self, interaction: discord.Interaction, text: str) -> None:
        """A click on a prompt that has closed: the prompt itself says so and loses its controls."""
        message = interaction.message
        if message is None or message.flags.ephemeral:
            await self._reply(interaction, text)
            return
        # What the prompt showed at its top (its recap: what the player was given) stays above the notice.
        if self.announcer.recap_known(message.id):
            recap = self.announcer.recap_shown(message.id)
            content = f"{recap}\n{text}" if recap else text
        else:  # sent before a restart: all of its text stays
            content = f"{message.content[:1990 - len(text)]}\n{text}" if message.content else text
        await self._respond_edit(interaction, content=content, view=None)

    async def on_form(self, interaction: discord.Interaction) -> None:
        data = interaction.data or {}
        custom_id = data.get("custom_id", "")
        await self._safe(interaction, self._form_submit(interaction, custom_id, form_values(data)))

    async def _form_submit(self, interaction: discord.Interaction, custom_id: str, values: dict[str, str]) -> None:
        control = ids.ControlId.decode(custom_id)
        if control is None or control.seat is None:
            await self._reply(interaction, checks.BAD_FORM)
            return
        interaction.extras[ACK] = _Ack(interaction)  # the answer edits the prompt, deferred only if slow
        try:
            click = await self.service.click_context(control.game, interaction.user.id, control.seat, control.key)
        except NotInGame:
            await self._reply(interaction, NOT_YOURS)
            return
        except (StalePrompt, GameFinished):
            await self._reply(interaction, "This prompt has closed; nothing was changed.")
            return
        problem = checks.origin_problem(click.guild_id, click.channel_id, interaction.guild_id,
                                        interaction.channel_id, dm_ok=True)
        if problem is not None:
            await self._reply(interaction, problem)
            return
        ctx, draft = _seat_ctx(click)
        presenter = self.game_of(ctx.kind).presenter
        kind = presenter.prompt_kind(ctx.prompt)  # type: ignore[arg-type]
        problem = checks.form_problem(kind.form(ctx, load_draft(click.draft, ctx.key), control.op), custom_id, values)
        if problem is not None:
            await self._reply(interaction, problem)
            return
        try:
            note = kind.on_form(ctx, draft, control.op, values)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            await self._reply(interaction, "Those values do not fit this form; nothing was changed.")
            return
        await self.service.save_draft(ctx.game_id, ctx.seat, draft)
        spec = lockin.render(kind, ctx, draft, presenter.describe)
        spec.description = f"{note}\n{spec.description or ''}"
        await self._edit_original(interaction, presenter, _with_move_line(spec, presenter, ctx, draft))

    async def _edit_original(self, interaction: discord.Interaction, presenter: Presenter, spec: MessageSpec, *,
                             keep_screen: bool = True) -> bool:
        """The clicked prompt, re-rendered. The player's screen under it (a second embed, see the announcer's
        prompts) does not change within a decision: it is kept, with its picture, without uploading it again.
        False: Discord refused the edit."""
        kept = None
        message = interaction.message
        if spec.image is not None and spec.image.stable and message is not None:
            # The same picture is already on the message (it does not change within a decision): the edit keeps
            # that file (named in its attachments list) instead of uploading it again.
            kept = shown_picture(message, spec.image.filename)
        if kept is not None:
            spec.image = None
        embed, file = await render(spec, presenter.embed_color, self._limit(interaction))
        drawn = digest(file)
        pictures = self.announcer.picture_digests
        if file is not None and message is not None and drawn is not None and pictures.get(message.id) == drawn:
            # Drawn again, byte for byte what the message shows already: kept, not uploaded again.
            kept = shown_picture(message, file.filename)
            file = None if kept is not None else file
        kwargs: dict = {"content": here(spec.content) or None, "embed": embed, "view": view_from_rows(spec.rows)}
        if kept is not None and embed is not None:
            embed.set_image(url=f"attachment://{kept.filename}")
            kwargs["attachments"] = [kept]
        else:
            kwargs["attachments"] = [file] if file else []
        if keep_screen and embed is not None and message is not None and len(message.embeds) > 1:
            kept_screen = message.embeds[1].copy()
            picture = shown_picture(message, index=1)
            if picture is not None:
                kept_screen.set_image(url=f"attachment://{picture.filename}")
                kwargs["attachments"].append(picture)
            elif kept_screen.image:
                kept_screen.set_image(url=None)
            kwargs["embeds"] = [kwargs.pop("embed"), kept_screen]
        closed = message is not None and spec.rows and self.announcer.closed_by_sync(message.id)
        if closed:
            # The game moved on while this click was being answered: the prompt stays closed (the choice shown,
            # the controls gone) instead of getting them back for a moment.
            kwargs["view"] = None
            kwargs["content"] = here(self.announcer.closing_text(message.id, 0, CLOSED_TEXT).get("content")) \
                or kwargs["content"]
        done = await self._respond_edit(interaction, **kwargs)
        if done and message is not None and kept is None:
            pictures[message.id] = drawn if file is not None else None
        if done and message is not None and spec.rows and not closed:
            # The game moved on while this answer was on its way: the sync closed the prompt before the answer
            # put its controls back.
            await self.announcer.close_again(message.channel.id, message.id)
        return done

    async def _respond_edit(self, interaction: discord.Interaction, **kwargs: Any) -> bool:
        """Edit the clicked message: in the interaction response (one request) unless it was deferred."""
        async with _ack_lock(interaction):
            try:
                # A time limit like every request of an announcement: a hung edit must not keep this handler
                # (and with it the bot's shutdown and the tests' settle) waiting.
                if interaction.response.is_done():
                    await asyncio.wait_for(interaction.edit_original_response(**kwargs), REPLY_TIMEOUT)
                else:
                    await asyncio.wait_for(interaction.response.edit_message(**kwargs), REPLY_TIMEOUT)
                return True
            except (discord.HTTPException, TimeoutError):
                log.warning("could not update the prompt for interaction %s", interaction.id)
                return False

    # ---------------------------------------------------------------- screens and commands

    async def show_screen(self, interaction: discord.Interaction, game_id: int) -> None:
        """The private screen and current prompt, as ephemeral messages (the path for closed DMs)."""

        async def run() -> None:
            try:
                click = await self.service.click_context(game_id, interaction.user.id, None, None)
            except NotInGame:
                await self._reply(interaction, "You have no seat in this game; you can watch the table above.")
                return
            await self._think(interaction, ephemeral=True)
            ctx, draft = _seat_ctx(click)
            presenter = self.game_of(ctx.kind).presenter
            limit = self._limit(interaction)
            screen = presenter.my_screen(ctx.game_id, ctx.view, ctx.seat, ctx.names)
            sent = False
            if screen is not None:
                await self._answer(interaction, ephemeral=True, **await message_kwargs(screen, presenter.embed_color, limit))
                sent = True
            if ctx.prompt is not None and click.active:
                spec = _with_move_line(lockin.render(presenter.prompt_kind(ctx.prompt), ctx, draft, presenter.describe),
                                       presenter, ctx, draft)
                await self._answer(interaction, ephemeral=True, **await message_kwargs(spec, presenter.embed_color, limit))
                sent = True
            if not sent:
                await self._answer(interaction, content=here("Nothing to decide right now."), ephemeral=True)

        await self._safe(interaction, run())

    async def _waiting(self, interaction: discord.Interaction, game: _Game) -> None:
        info = await self._game_here(interaction, game)
        if info.status == "lobby":
            await interaction.response.send_message(here("The game has not started yet: it is in its lobby."), ephemeral=True)
            return
        pend = await self.service.pending(info.id)
        names = names_map(info.seats)
        rows = [game.presenter.waiting_line(names.get(s, str(s)), p.waiting, p.deadline) for s, p in sorted(pend.items())]
        await interaction.response.send_message(here("\n".join(rows) or "Nobody: the game is resolving or over."), ephemeral=True)

    async def _status(self, interaction: discord.Interaction, game: _Game, game_id: int | None = None) -> None:
        info = await self._game_here(interaction, game, finished_ok=True, game_id=game_id)
        if info.status == "lobby":
            await interaction.response.send_message(**await self._lobby_message(info, private=True), ephemeral=True)
            return
        await self._think(interaction)
        state = await self.service.table_state(info.id)
        names = names_map(state.seats)
        ctx = TableCtx(info.id, game.type, state.public_view or {}, names,
                       [Waiting(s, names.get(s, str(s)), p.deadline, p.waiting) for s, p in sorted(state.pending.items())],
                       state.status)
        spec = game.presenter.table(ctx, with_image=True)
        with await self._public(info):
            kwargs = await message_kwargs(spec, game.presenter.embed_color, self._limit(interaction))
        await self._answer(interaction, **kwargs)

    async def _show(self, interaction: discord.Interaction, game: _Game, player: discord.User | None,
                    game_id: int | None = None) -> None:
        info = await self._game_here(interaction, game, finished_ok=True, game_id=game_id)
        target = player or interaction.user
        seat = next((s.seat for s in info.seats if s.user_id == target.id), None)
        if seat is None:
            raise ServiceError(f"{target.display_name} has no seat in this game.")
        await self._think(interaction)
        view = await self.service.view_seat(info.id, None)
        name = names_map(info.seats).get(seat, target.display_name)
        spec = game.presenter.board(view, seat, name)
        with await self._public(info):
            if spec is None:
                kwargs = {"content": here("There is no board to show in this game.")}
            else:
                kwargs = await message_kwargs(spec, game.presenter.embed_color, self._limit(interaction))
        await self._answer(interaction, **kwargs)

    async def _history(self, interaction: discord.Interaction, game: _Game) -> None:
        if interaction.guild_id is None:
            raise ServiceError(IN_A_SERVER)
        done = (await self.service.finished_games(game.name, interaction.guild_id))[:HISTORY_SIZE]
        lines = []
        for info in done:
            scores = await self.service.final_scores(info.id) or []
            lines.append(history_line(info, scores))
        await interaction.response.send_message(here(history_text(game.title, game.command, lines)), ephemeral=True)

    async def _stats(self, interaction: discord.Interaction, game: _Game, player: discord.User | None) -> None:
        if interaction.guild_id is None:
            raise ServiceError(IN_A_SERVER)
        await self._think(interaction, ephemeral=True)
        table = stats_table(await self._results(game, interaction.guild_id))
        await self._answer(interaction, content=here(stats_text(game.title, table, player.id if player else None,
                                                                player.display_name if player else None)))

    async def _results(self, game: _Game, guild_id: int) -> list[tuple[GameInfo, list[dict]]]:
        done = (await self.service.finished_games(game.name, guild_id))[:STATS_GAMES]
        return [(info, await self.service.final_scores(info.id) or []) for info in done]

    async def _export(self, interaction: discord.Interaction, game: _Game, game_id: int | None) -> None:
        info = await self._game_here(interaction, game, finished_ok=True, game_id=game_id)
        if info.status != "finished":
            # The record holds the seed: before the end it would reveal every hand and deck.
            raise ServiceError(EXPORT_FINISHED_ONLY)
        record = await self.service.game_record(info.id)
        data = json.dumps(record, indent=1, ensure_ascii=False).encode()
        await interaction.response.send_message(
            here(export_text(game.title, info.id, len(record.get("actions", [])))), ephemeral=True,
            file=discord.File(io.BytesIO(data), filename=f"{game.name}-{info.id}.json"))

    async def _rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        where = await self.service.game(game_id)
        problem = checks.origin_problem(where.guild_id, where.channel_id, interaction.guild_id,
                                        interaction.channel_id, dm_ok=False)
        if problem is not None:
            raise ServiceError(problem)
        info = await self.service.rematch(game_id, interaction.user.id)
        await interaction.response.send_message(**await self._lobby_message(info))
        msg = await interaction.original_response()
        await self.service.record_prompt_message(info.id, None, msg.id, msg.channel.id, "lobby")

    async def _card(self, interaction: discord.Interaction, game: _Game, query: str) -> None:
        p = game.presenter
        value = p.find_card(query)
        spec = p.card_page(value) if value is not None else None
        if spec is None:
            near = [label for _, label in p.card_matches(query, 8)]
            raise ServiceError(no_card_text(query, near))
        await self._think(interaction, ephemeral=True)
        # A components V2 layout: the card's name, its rows or law text and its face in one container.
        await self._answer(interaction, ephemeral=True, **await layout_kwargs(spec, p.embed_color, self._limit(interaction)))

    async def _log(self, interaction: discord.Interaction, game: _Game, count: int, game_id: int | None = None) -> None:
        info = await self._game_here(interaction, game, finished_ok=True, game_id=game_id)
        entries = await self.service.public_log(info.id)
        names = names_map(info.seats)
        lines = []
        for e in entries:
            line = game.presenter.event_line(e.event, names)
            if line is None and not e.event.get("text"):
                line = e.event.get("type", "")
            if line:
                lines.append(line)
        text = "\n".join(lines[-count:]) or "Nothing has happened yet."
        await interaction.response.send_message(here(text[-1900:]), ephemeral=True)

    # ---------------------------------------------------------------- listeners

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type == discord.InteractionType.modal_submit:
            custom_id = (interaction.data or {}).get("custom_id", "")
            if isinstance(custom_id, str) and custom_id.startswith(ids.FORM_PREFIXES):
                await self.on_form(interaction)
            else:
                await self._safe(interaction, self._refuse(checks.BAD_FORM))
        elif interaction.type == discord.InteractionType.component:
            custom_id = (interaction.data or {}).get("custom_id", "")
            if not ids.claimed(custom_id):  # no control of ours answers it: say so instead of staying silent
                await self._safe(interaction, self._refuse(checks.UNKNOWN_CONTROL))

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if not self._caught_up:
            self._caught_up = True
            self.announcer.spawn(self.announcer.catch_up())
            self.announcer.start_sweeping()
            runner = getattr(self.bot, "ai_runner", None)
            if runner is not None:  # AI seats that owed a move when the bot stopped
                self.announcer.spawn(runner.catch_up(getattr(self.bot, "owns_guild", lambda guild_id: True)))


def _level_choices() -> list[app_commands.Choice]:
    return [app_commands.Choice(name=ai_seats.level_label(n)[:100], value=n) for n in ai_seats.level_names()]


def _check_channel_permissions(interaction: discord.Interaction) -> None:
    """Refuse, naming what is missing, when the bot could not post the game in this channel."""
    thread = isinstance(interaction.channel, discord.Thread)
    missing = missing_permissions(interaction.app_permissions.value, thread=thread)
    if missing:
        raise ServiceError("I cannot run a game in this channel: I need the permission"
                           + ("s " if len(missing) > 1 else " ") + ", ".join(f"**{m}**" for m in missing)
                           + " here. A server admin can grant them in the channel's settings.")


def _chosen_text(presenter: Presenter, action: dict) -> str:
    """What the player just chose, in a sentence."""
    chosen = action.get("plan", action) if action.get("type") == "decide" else action
    return f"You chose: **{presenter.describe(chosen)}**." if chosen.get("type") != "decide" else "Your answer is in."


def _with_move_line(spec: MessageSpec, presenter: Presenter, ctx: SeatCtx, draft: dict | None = None,
                    reveal_by: float | None = None) -> MessageSpec:
    """A prompt keeps its recap, game and deadline lines on every edit (a presenter's own text goes below).
    A seat that has chosen has no deadline of its own: `reveal_by` is the latest one the others have."""
    waiting = ctx.prompt is None or ctx.prompt.waiting
    line = prompt_head(presenter.display_name, ctx.game_id, ctx.deadline if waiting else reveal_by,
                       (draft or {}).get(RECAP), waiting)
    spec.content = f"{line}\n{spec.content}" if spec.content else line
    return spec


def _seat_ctx(click: SeatContext) -> tuple[SeatCtx, dict]:
    """The presenter's view of one read of the service, and the seat's draft for its current prompt."""
    ctx = SeatCtx(click.game_id, click.seat, click.kind, click.view, click.prompt, click.names, click.deadline,
                  click.version)
    return ctx, load_draft(click.draft, ctx.key)


def _option_annotation(spec: OptionSpec) -> tuple[Any, Any]:
    """The slash-command type and default of one game option."""
    if spec.kind == "int":
        lo = spec.min if spec.min is not None else -(2**31)
        hi = spec.max if spec.max is not None else 2**31 - 1
        return app_commands.Range[int, lo, hi], spec.default
    if spec.kind == "bool":
        return bool, spec.default
    if spec.kind == "choice":
        sample = spec.choices[0][0] if spec.choices else ""
        return (int if isinstance(sample, int) else str), spec.default
    return str, ",".join(str(v) for v in spec.default or [])  # flags: a comma-separated list


def registered_games() -> list[tuple[GameType, Presenter]]:
    """Every game that has both an engine and a presenter."""
    from bot.games import game_types

    out = []
    for game_type in game_types():
        try:
            out.append((game_type, presenter_for(game_type.name)))
        except UnknownPresenter:
            log.warning("game %s has no presenter: not offered on Discord", game_type.name)
    return out


async def setup(bot: commands.Bot) -> None:
    service: GameService = bot.service  # type: ignore[attr-defined]
    announcer: Announcer = bot.announcer  # type: ignore[attr-defined]
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    cog = TableCog(bot, service, announcer, registered_games())
    bot.controls = cog  # type: ignore[attr-defined]
    await bot.add_cog(cog)


__all__ = ["TableCog", "setup"]
