"""The Viceroy cog: slash commands, persistent buttons and selects, and the messages the bot posts.

Handlers are thin: they parse the interaction, call the game service, and render what bot.presenter says.
Every state change is committed by the service before anything is sent to Discord, so a failed message
loses nothing: the next prompt or the "My screen" button shows the current state again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import presenter as PR
from bot.service import ActionResult, GameInfo, GameService, Reminder, ServiceError

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
DEFAULT_UPLOAD_LIMIT = 8 * 1024 * 1024
REQUEST_TIMEOUT = 20.0  # seconds for one Discord request made while announcing
# Rendering runs off the event loop on its own thread: images are drawn one at a time (Pillow and FreeType
# are not meant to be shared across threads) and never take the default pool's threads, which aiohttp needs
# to open connections.
_RENDER_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="viceroy-render")


class _TimeoutResponse:
    """Stands in for an HTTP response in the HTTPException raised when a request hangs."""

    status = 504
    reason = "Timeout"
RULES_TOPICS = ["overview", "setup", "auction", "development", "pyramid", "laws", "end", "solo", "bot"]


def _cog(interaction: discord.Interaction) -> ViceroyCog:
    return interaction.client.get_cog("Viceroy")  # type: ignore[return-value]


# ------------------------------------------------------------------------------------- persistent items


class PromptButton(discord.ui.DynamicItem[discord.ui.Button], template=r"vg:(?P<game>\d+):(?P<seat>\d+):(?P<key>[^:]+):(?P<op>[\w.]+)"):
    def __init__(self, item: discord.ui.Button) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any) -> PromptButton:
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_prompt_control(interaction, self.item.custom_id, [])


class PromptSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"vs:(?P<game>\d+):(?P<seat>\d+):(?P<key>[^:]+):(?P<op>[\w.]+)"):
    def __init__(self, item: discord.ui.Select) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any) -> PromptSelect:
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_prompt_control(interaction, self.item.custom_id, list(self.item.values))


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"vl:(?P<game>\d+):(?P<op>\w+)"):
    def __init__(self, item: discord.ui.Button) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any) -> LobbyButton:
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        game, op = self.item.custom_id.split(":")[1:]
        await _cog(interaction).on_lobby_button(interaction, int(game), op)


class ScreenButton(discord.ui.DynamicItem[discord.ui.Button], template=r"vc:(?P<game>\d+):screen"):
    def __init__(self, item: discord.ui.Button) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any) -> ScreenButton:
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).show_screen(interaction, int(self.item.custom_id.split(":")[1]))


def _view_from_rows(rows: list[list[PR.Button | PR.Select]]) -> discord.ui.View | None:
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(rows[:5]):
        for comp in row:
            if isinstance(comp, PR.Button):
                item: discord.ui.Item = discord.ui.Button(label=comp.label, custom_id=comp.custom_id,
                                                          style=STYLES[comp.style], disabled=comp.disabled)
                cls: type = {"vg": PromptButton, "vl": LobbyButton, "vc": ScreenButton}[comp.custom_id.split(":")[0]]
            else:
                options = [discord.SelectOption(label=o.label, value=o.value, description=o.description, default=o.default)
                           for o in comp.options]
                if not options:
                    continue
                item = discord.ui.Select(custom_id=comp.custom_id, placeholder=comp.placeholder, options=options,
                                         min_values=comp.min_values, max_values=comp.max_values)
                cls = PromptSelect
            dyn = cls(item)
            dyn.row = r
            view.add_item(dyn)
    return view


def _file(data: bytes, filename: str, limit: int) -> discord.File:
    """An image attachment; one over the upload limit degrades to a JPEG."""
    if len(data) > limit:
        from PIL import Image

        img = Image.open(io.BytesIO(data)).convert("RGB")
        quality = 85
        while True:
            out = io.BytesIO()
            img.save(out, "JPEG", quality=quality)
            if out.tell() <= limit or quality <= 30:
                break
            quality -= 15
            img = img.resize((img.width * 3 // 4, img.height * 3 // 4))
        data = out.getvalue()
        filename = filename.rsplit(".", 1)[0] + ".jpg"
    return discord.File(io.BytesIO(data), filename=filename)


async def _render(spec: PR.MessageSpec, limit: int = DEFAULT_UPLOAD_LIMIT) -> tuple[discord.Embed | None, discord.File | None]:
    """The embed and attachment for a spec (rendering runs off the event loop)."""
    embed = None
    if spec.title or spec.description or spec.fields or spec.image:
        embed = discord.Embed(title=spec.title, description=(spec.description or None), color=PR.EMBED_COLOR)
        for name, value in spec.fields:
            embed.add_field(name=name, value=value[:1024] or "-", inline=False)
        if spec.footer:
            embed.set_footer(text=spec.footer)
    file = None
    if spec.image is not None:
        data = await asyncio.get_running_loop().run_in_executor(_RENDER_POOL, spec.image.render)
        file = _file(data, spec.image.filename, limit)
        embed.set_image(url=f"attachment://{file.filename}")  # type: ignore[union-attr]
    return embed, file


def _refile(file: discord.File | None) -> Any:
    """A factory of fresh copies of an attachment: discord.py closes a file once it has tried to send it."""
    if file is None:
        return dict
    data, name = file.fp.read(), file.filename

    def fresh() -> dict:
        return {"file": discord.File(io.BytesIO(data), filename=name)}

    return fresh


def _split_text(lines: list[str], limit: int = 1900) -> list[str]:
    chunks: list[str] = []
    cur = ""
    for line in lines:
        line = line[:limit]
        if len(cur) + len(line) + 1 > limit:
            chunks.append(cur)
            cur = ""
        cur = f"{cur}\n{line}" if cur else line
    if cur:
        chunks.append(cur)
    return chunks


def _ts(when: float | None) -> str:
    return f"<t:{int(when)}:R>" if when else "no time limit"


# ------------------------------------------------------------------------------------------------ the cog


class ViceroyCog(commands.Cog, name="Viceroy"):
    group = app_commands.Group(name="viceroy", description="Play Viceroy: pyramids, secret bids and laws")

    def __init__(self, bot: commands.Bot, service: GameService) -> None:
        self.bot = bot
        self.service = service
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task] = set()
        self._caught_up = False

    # -------------------------------------------------------------------------------------- helpers

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait for background announcements (used by tests and the demo)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _reply(self, interaction: discord.Interaction, text: str) -> None:
        """A short private message to whoever clicked, whatever the interaction's state."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not reply to interaction %s", interaction.id)

    async def _safe(self, interaction: discord.Interaction, coro: Any) -> None:
        try:
            await coro
        except ServiceError as exc:
            await self._reply(interaction, exc.message)
        except PR.PlanIncomplete as exc:
            await self._reply(interaction, exc.message)
        except Exception:
            log.exception("interaction %s failed", interaction.id)
            await self._reply(interaction, "Something went wrong on my side; nothing was lost. Please try again.")

    def _limit(self, interaction: discord.Interaction | None) -> int:
        size = getattr(interaction, "attachment_size_limit", None) if interaction is not None else None
        return int(size) if size else DEFAULT_UPLOAD_LIMIT

    def _is_admin(self, interaction: discord.Interaction) -> bool:
        perms = getattr(interaction.user, "guild_permissions", None)
        return bool(perms and (perms.manage_guild or perms.administrator))

    async def _game_here(self, interaction: discord.Interaction) -> GameInfo:
        game = await self.service.game_in_channel(interaction.channel_id or 0)
        if game is None:
            raise ServiceError("There is no Viceroy game in this channel. Start one with `/viceroy new`.")
        return game

    # ---------------------------------------------------------------------------------- lobby

    def lobby_spec(self, info: GameInfo) -> PR.MessageSpec:
        opts = info.options
        lines = [f"Host: <@{info.host_user_id}>", f"Seats: {len(info.seats)}/{opts.get('seats', 4)}"]
        for s in info.seats:
            mark = " (AI)" if s.is_ai else ""
            if s.dm_status == "closed":
                mark += " ⚠ cannot receive DMs: will play through the **My screen** button"
            lines.append(f"• {s.display_name}{mark}")
        deal = opts.get("deal", 4)
        lines.append(f"Starting deal: {deal} cards · virtual opponents: {opts.get('virtual_opponents', 0)} · "
                     f"time per decision: {'none' if info.time_limit is None else f'{info.time_limit / 3600:g} h'}")
        g = info.id
        rows: list[list[PR.Button | PR.Select]] = [[
            PR.Button("Join", f"vl:{g}:join", "primary"),
            PR.Button("Leave", f"vl:{g}:leave"),
            PR.Button("Add AI", f"vl:{g}:ai"),
            PR.Button("Start", f"vl:{g}:start", "success"),
        ]]
        return PR.MessageSpec(title=f"Viceroy game #{g}: lobby", description="\n".join(lines), rows=rows,
                              footer="Secret choices come by direct message: allow DMs from server members.")

    @group.command(name="new", description="Open a Viceroy lobby in this channel")
    @app_commands.describe(seats="Seats at the table, 1-4 (1 = solo)", deal="Starting deal: 4 cards, or 2 (first printing)",
                           virtual="Virtual opponents (2-3 players only)", ai="AI players to add now",
                           time_limit="Hours per decision (0 = no limit)")
    @app_commands.choices(deal=[app_commands.Choice(name="4 cards", value=4), app_commands.Choice(name="2 cards", value=2)])
    async def new(self, interaction: discord.Interaction, seats: app_commands.Range[int, 1, 4] = 4, deal: int = 4,
                  virtual: app_commands.Range[int, 0, 2] = 0, ai: app_commands.Range[int, 0, 3] = 0,
                  time_limit: app_commands.Range[float, 0, 720] | None = None) -> None:
        async def run() -> None:
            if interaction.guild_id is None:
                raise ServiceError("Start games in a server channel; I will send your secrets by DM.")
            if seats + virtual > 4 and virtual:
                raise ServiceError("Virtual opponents only fill seats up to 4.")
            if ai >= seats:
                raise ServiceError("Leave at least one seat for a person (the host).")
            kwargs: dict = {}
            if time_limit is not None:
                kwargs["time_limit"] = int(time_limit * 3600) if time_limit > 0 else None
            info = await self.service.create_lobby(interaction.guild_id, interaction.channel_id or 0, interaction.user.id,
                                                   interaction.user.display_name,
                                                   options={"deal": deal, "virtual_opponents": virtual, "seats": seats}, **kwargs)
            for _ in range(ai):
                info = await self.service.add_ai(info.id, interaction.user.id)
            await interaction.response.defer()
            info = await self._probe_dm(info.id, interaction.user.id)
            msg = await interaction.followup.send(**await self._lobby_message(info), wait=True)
            await self.service.record_prompt_message(info.id, None, msg.id, msg.channel.id, "lobby")

        await self._safe(interaction, run())

    async def _lobby_message(self, info: GameInfo) -> dict:
        embed, _ = await _render(self.lobby_spec(info))
        return {"embed": embed, "view": _view_from_rows(self.lobby_spec(info).rows)}

    async def _probe_dm(self, game_id: int, user_id: int) -> GameInfo:
        """Tell a joining player where secrets will arrive; remember if their DMs are closed (§ DMs)."""
        ok = await self._dm(user_id, content=f"You joined Viceroy game #{game_id}. Your secret choices will arrive here.")
        await self.service.set_dm_status(user_id, "open" if ok else "closed")
        return await self.service.game(game_id)

    async def on_lobby_button(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        async def run() -> None:
            user = interaction.user
            admin = self._is_admin(interaction)
            if op == "join":
                await self.service.join(game_id, user.id, user.display_name)
                await interaction.response.defer()
                info = await self._probe_dm(game_id, user.id)
                await interaction.edit_original_response(**await self._lobby_message(info))
                return
            elif op == "leave":
                result = await self.service.leave(game_id, user.id)
                if isinstance(result, ActionResult):
                    await self._reply(interaction, "You left the game.")
                    self._spawn(self.announce(result))
                    return
                info = result
            elif op == "ai":
                info = await self.service.add_ai(game_id, user.id, admin=admin)
            elif op == "start":
                info0 = await self.service.game(game_id)
                if info0.host_user_id != user.id and not admin:
                    raise ServiceError(f"Only the host (<@{info0.host_user_id}>) or a server admin can start the game.")
                wanted = info0.options.get("seats", len(info0.seats))
                if len(info0.seats) < wanted and wanted > 1:
                    raise ServiceError(f"The lobby has {len(info0.seats)} of {wanted} seats: wait for players, or Add AI.")
                result = await self.service.start(game_id, user.id, admin=admin)
                info = await self.service.game(game_id)
                embed, _ = await _render(self.lobby_spec(info))
                embed.title = f"Viceroy game #{game_id}: started"  # type: ignore[union-attr]
                await interaction.response.edit_message(embed=embed, view=None)
                closed = [s.display_name for s in info.seats if s.dm_status == "closed"]
                if closed:
                    await interaction.followup.send(
                        "I cannot send direct messages to " + ", ".join(closed) + ". You can still play: press "
                        "**My screen** under the table message to see your screen and choices privately. To get DMs, "
                        "allow direct messages from server members (Server → Privacy Settings).")
                self._spawn(self.announce(result))
                return
            else:
                raise ServiceError("Unknown lobby button.")
            await interaction.response.edit_message(**await self._lobby_message(info))

        await self._safe(interaction, run())

    # ---------------------------------------------------------------------------------- prompts

    async def _current(self, game_id: int, seat: int) -> tuple[dict, str | None, dict[int, str]]:
        info, view, pend = await self.service.seat_context(game_id, seat)
        key = pend[seat].prompt_key if seat in pend else None
        return view, key, PR.names_map(info.seats)

    async def _draft(self, user_id: int, game_id: int, seat: int, key: str) -> dict:
        return PR.load_draft(await self.service.get_pref(user_id, f"draft:{game_id}:{seat}"), key)

    async def _save_draft(self, user_id: int, game_id: int, seat: int, draft: dict | None) -> None:
        import json

        await self.service.set_pref(user_id, f"draft:{game_id}:{seat}", json.dumps(draft) if draft else None)

    async def on_prompt_control(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        await self._safe(interaction, self._prompt_control(interaction, custom_id, values))

    async def _prompt_control(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        _, game_s, seat_s, key_enc, op = custom_id.split(":")
        game_id, seat = int(game_s), int(seat_s)
        if not op.startswith("gems."):
            # Acknowledge at once (Discord allows 3 s); the answer follows as an edit or a private note.
            await interaction.response.defer()
        info, view, pend = await self.service.seat_context(game_id, seat)
        owner = next((s.seat for s in info.seats if s.user_id == interaction.user.id), None)
        if owner != seat:
            await self._reply(interaction, "These controls belong to another player's seat.")
            return
        if info.status != "active":
            await self._close_prompt(interaction, "This game is over." if info.status == "finished" else "This game was abandoned.")
            return
        key = pend[seat].prompt_key if seat in pend else None
        names = PR.names_map(info.seats)
        if key is None or PR.encode_key(key) != key_enc:
            await self._close_prompt(interaction, "This prompt is from an earlier step of the game and has closed. "
                                     "Your current prompt is in your latest message (or press **My screen**).")
            return
        draft = await self._draft(interaction.user.id, game_id, seat, key)
        if op.startswith("gems."):
            purpose = op.split(".", 1)[1]
            count = PR.gem_choice_count(view, seat, draft, purpose)
            modal = PR.gems_modal(game_id, seat, key, purpose, count, PR.current_gem_choice(view, seat, draft, purpose))
            await interaction.response.send_modal(_modal(modal))
            return
        action = PR.apply_control(view, seat, draft, op, values)
        if action is None:
            await self._save_draft(interaction.user.id, game_id, seat, draft)
            await self._update_prompt(interaction, game_id, seat, view, key, draft, names)
            return
        result = await self.service.submit(game_id, interaction.user.id, action, idempotency_key=f"i{interaction.id}",
                                           prompt_key=key)
        await self._after_submit(interaction, game_id, seat, draft, result, key, action)

    async def _after_submit(self, interaction: discord.Interaction, game_id: int, seat: int, draft: dict,
                            result: ActionResult, answered_key: str, action: dict) -> None:
        # The draft is kept: the player may amend the same plan until the reveal.
        await self._save_draft(interaction.user.id, game_id, seat, draft)
        view, key, names = await self._current(game_id, seat)
        if key == answered_key:
            # Still the same prompt (a sealed choice that can be changed): show it with the choice made.
            await self._update_prompt(interaction, game_id, seat, view, key, draft, names, note="Your choice is in.")
        else:
            chosen = action.get("plan", action) if action.get("type") == "decide" else action
            text = f"You chose: **{PR.describe_action(chosen)}**." if chosen.get("type") != "decide" else "Your answer is in."
            await self._edit_original(interaction, PR.MessageSpec(
                title="✔ Done", description=f"{text} The results are in the channel; your next prompt comes in "
                                           "a new message."))
        self._spawn(self.announce(result))

    async def _close_prompt(self, interaction: discord.Interaction, text: str) -> None:
        await self._reply(interaction, text)
        if interaction.message is not None and not interaction.message.flags.ephemeral:
            try:
                await interaction.message.edit(view=None)
            except discord.HTTPException:
                pass

    async def on_modal(self, interaction: discord.Interaction) -> None:
        data = interaction.data or {}
        custom_id = data.get("custom_id", "")
        values: dict[str, str] = {}
        for row in data.get("components", []):
            for comp in row.get("components", [row]):
                if "custom_id" in comp:
                    values[comp["custom_id"]] = comp.get("value", "")
        await self._safe(interaction, self._modal_submit(interaction, custom_id, values))

    async def _modal_submit(self, interaction: discord.Interaction, custom_id: str, values: dict[str, str]) -> None:
        _, game_s, seat_s, key_enc, op = custom_id.split(":")
        game_id, seat = int(game_s), int(seat_s)
        if await self.service.seat_of(game_id, interaction.user.id) != seat:
            await self._reply(interaction, "These controls belong to another player's seat.")
            return
        view, key, names = await self._current(game_id, seat)
        if key is None or PR.encode_key(key) != key_enc:
            await self._reply(interaction, "This prompt has closed; nothing was changed.")
            return
        purpose = op.split(".", 1)[1]
        gems = PR.parse_gems_modal(values)
        draft = await self._draft(interaction.user.id, game_id, seat, key)
        PR.check_gem_choice(view, seat, draft, purpose, gems)
        draft.setdefault("gems", {})[purpose] = gems
        await self._save_draft(interaction.user.id, game_id, seat, draft)
        await interaction.response.defer()
        await self._update_prompt(interaction, game_id, seat, view, key, draft, names, note=f"Gems set: {PR.gems_long(gems)}.")

    async def _update_prompt(self, interaction: discord.Interaction, game_id: int, seat: int, view: dict, key: str,
                             draft: dict, names: dict[int, str], note: str | None = None) -> None:
        spec = PR.prompt_spec(game_id, seat, view, key, draft, names)
        if note:
            spec.description = f"{note}\n{spec.description or ''}"
        await self._edit_original(interaction, spec)

    async def _edit_original(self, interaction: discord.Interaction, spec: PR.MessageSpec) -> None:
        kept = None
        if spec.image is not None and spec.image.filename in ("auction.png", "dealt.png") and interaction.message is not None:
            # The same picture is already on the message (it does not change within a decision): keep it.
            kept = next((a for a in interaction.message.attachments if a.filename == spec.image.filename), None)
        if kept is not None:
            spec.image = None
        embed, file = await _render(spec, self._limit(interaction))
        kwargs: dict = {"content": spec.content or None, "embed": embed, "view": _view_from_rows(spec.rows)}
        if kept is not None and embed is not None:
            embed.set_image(url=f"attachment://{kept.filename}")
        else:
            kwargs["attachments"] = [file] if file else []
        try:
            await interaction.edit_original_response(**kwargs)
        except discord.HTTPException:
            log.warning("could not update the prompt for interaction %s", interaction.id)

    async def prompt_message(self, game_id: int, seat: int) -> tuple[PR.MessageSpec | None, str | None]:
        info, view, pend = await self.service.seat_context(game_id, seat)
        key = pend[seat].prompt_key if seat in pend else None
        names = PR.names_map(info.seats)
        if key is None:
            return None, None
        user_id = next(s.user_id for s in info.seats if s.seat == seat)
        draft = await self._draft(user_id or 0, game_id, seat, key)
        return PR.prompt_spec(game_id, seat, view, key, draft, names), key

    async def show_screen(self, interaction: discord.Interaction, game_id: int) -> None:
        """The private screen and current prompt, as an ephemeral message (the path for closed DMs)."""

        async def run() -> None:
            seat = await self.service.seat_of(game_id, interaction.user.id)
            if seat is None:
                await self._reply(interaction, "You have no seat in this game; you can watch the table above.")
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            info = await self.service.game(game_id)
            view = await self.service.view_seat(game_id, seat)
            names = PR.names_map(info.seats)
            from rendering import render_screen

            screen = PR.MessageSpec(title="Your screen (only you can see this)",
                                    description=PR._screen_line(view["players"][seat]),
                                    image=PR.Image("screen.png", lambda: render_screen(view, names.get(seat))))
            embed, file = await _render(screen, self._limit(interaction))
            await interaction.followup.send(embed=embed, file=file, ephemeral=True) if file else \
                await interaction.followup.send(embed=embed, ephemeral=True)
            spec, _ = await self.prompt_message(game_id, seat) if info.status == "active" else (None, None)
            if spec is not None:
                embed, file = await _render(spec, self._limit(interaction))
                kwargs: dict = {"embed": embed, "ephemeral": True}
                view_ = _view_from_rows(spec.rows)
                if view_ is not None:
                    kwargs["view"] = view_
                if file is not None:
                    kwargs["file"] = file
                await interaction.followup.send(**kwargs)

        await self._safe(interaction, run())

    # ---------------------------------------------------------------------------------- announcing

    async def _patient(self, make: Any, what: str) -> Any:
        """Run a Discord request with a time limit, once more if it hangs: a stuck request must never hold
        up a game's announcements (they are serialised per game)."""
        for attempt in (1, 2):
            try:
                return await asyncio.wait_for(make(), timeout=REQUEST_TIMEOUT)
            except TimeoutError:
                log.warning("%s timed out (attempt %d)", what, attempt)
        raise discord.HTTPException(_TimeoutResponse(), f"{what} timed out")

    async def _dm(self, user_id: int, **kwargs: Any) -> discord.Message | None:
        """Send a DM; None when the user's DMs are closed (remembered, never retried in a loop)."""
        fresh = _refile(kwargs.pop("file", None))

        async def send() -> discord.Message:
            channel = await self.bot.create_dm(discord.Object(user_id))
            return await channel.send(**kwargs, **fresh())

        try:
            return await self._patient(send, f"DM to {user_id}")
        except discord.Forbidden:
            await self.service.set_dm_status(user_id, "closed")
            return None
        except discord.HTTPException:
            log.warning("DM to %s failed", user_id)
            return None

    async def _send_channel(self, channel_id: int, **kwargs: Any) -> discord.Message | None:
        fresh = _refile(kwargs.pop("file", None))

        async def send() -> discord.Message:
            return await self.bot.get_partial_messageable(channel_id).send(**kwargs, **fresh())

        try:
            return await self._patient(send, f"message in channel {channel_id}")
        except discord.NotFound:
            log.warning("channel %s is gone", channel_id)
        except discord.HTTPException:
            log.warning("could not post in channel %s", channel_id)
        return None

    async def announce(self, result: ActionResult | Reminder) -> None:
        """Tell the channel and the players what happened (after the service committed it)."""
        async with self._lock(result.game_id):
            try:
                if isinstance(result, Reminder):
                    await self._remind(result)
                else:
                    await self._announce(result)
            except Exception:
                log.exception("announcing for game %s failed", result.game_id)

    async def _remind(self, reminder: Reminder) -> None:
        if reminder.user_id is None:
            return
        text = f"⏰ Reminder: Viceroy game #{reminder.game_id} is waiting for your move ({_ts(reminder.deadline)})."
        if await self._dm(reminder.user_id, content=text) is None:
            await self._send_channel(reminder.channel_id, content=f"<@{reminder.user_id}> {text} Press **My screen** to play.")

    async def _announce(self, result: ActionResult) -> None:
        # One read of the game for the whole announcement (the state is already committed).
        info, public_view, pend = await self.service.seat_context(result.game_id, None)
        names = PR.names_map(info.seats)
        lines = []
        for e in result.public:
            text = e.get("text")
            kind = e.get("type")
            if kind == "game_started":
                text = "The game begins! Everyone: choose your starting card in your DMs."
            elif kind == "seat_replaced":
                text = f"Seat {e['seat'] + 1} is now played by {e['name']}."
            elif kind == "undo":
                text = f"↩ The host undid the last step ({e['moves']} moves)."
            elif kind == "abandoned":
                text = "The game was abandoned."
            elif kind == "chosen":
                continue  # the status message shows who we wait for
            if text:
                lines.append(PR.fill_names(text, names))
        for seat in result.timed_out:
            lines.append(f"⌛ Time ran out for {names.get(seat, seat)}: they pass (or skip).")
        chunks = _split_text(lines)
        developed = any(e.get("type") == "development_reveal" for e in result.public)
        for i, chunk in enumerate(chunks):
            if developed and i == len(chunks) - 1 and not result.finished:
                # The development results come with the table as it now stands.
                from rendering import render_table

                spec = PR.MessageSpec(title="The table after this development round",
                                      image=PR.Image("table.png", functools.partial(render_table, public_view, names)))
                embed, file = await _render(spec)
                await self._send_channel(info.channel_id, content=chunk, embed=embed, file=file)
            else:
                await self._send_channel(info.channel_id, content=chunk)
        if result.finished:
            await self._post_final(info, names)
        for seat, events in result.private.items():
            user = next((s.user_id for s in info.seats if s.seat == seat and not s.is_ai), None)
            texts = [PR.fill_names(e["text"], names) for e in events if e.get("text") and e.get("type") != "choice_recorded"]
            if user and texts:
                await self._dm(user, content="\n".join(texts)[:1900])
        if result.finished:
            return
        await self._sync_messages(info, public_view, pend, names)

    async def _sync_messages(self, info: GameInfo, public_view: dict, pend: dict, names: dict[int, str]) -> None:
        """Bring the game's Discord messages in line with its state: old prompts closed, missing prompts sent,
        screens and the table message up to date. Safe to repeat."""
        messages = await self.service.prompt_messages(info.id)
        messages = await self._retire_stale(messages, pend)
        await self._send_prompts(info, pend, messages)
        await self._update_screens(info, names, messages)
        await self._update_status(info, public_view, pend, names, messages)

    async def catch_up(self) -> None:
        """At start-up: a crash between storing an action and announcing it must not leave anyone without
        their prompt, so every active game's messages are brought up to date."""
        for game in await self.service.list_games(statuses=("active",)):
            async with self._lock(game.id):
                try:
                    info, public_view, pend = await self.service.seat_context(game.id, None)
                    await self._sync_messages(info, public_view, pend, PR.names_map(info.seats))
                except Exception:
                    log.exception("catching up game %s failed", game.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if not self._caught_up:
            self._caught_up = True
            self._spawn(self.catch_up())

    async def _update_screens(self, info: GameInfo, names: dict[int, str], messages: list) -> None:
        """Each player's screen (gems, attack tokens, hand) lives in one DM message, edited when it changes."""
        import hashlib
        import json

        from rendering import render_screen

        for seat_info in info.seats:
            if seat_info.is_ai or seat_info.user_id is None or seat_info.dm_status == "closed":
                continue
            seat = seat_info.seat
            _, view, _ = await self.service.seat_context(info.id, seat)
            me = view["players"][seat]
            fingerprint = hashlib.sha1(json.dumps([me.get("gems"), me.get("attacks"), me.get("hand")]).encode()).hexdigest()[:16]
            old = next((m for m in messages if m.purpose == "screen" and m.seat == seat), None)
            if old is not None and old.prompt_key == fingerprint:
                continue
            spec = PR.MessageSpec(title=f"Your screen in Viceroy game #{info.id}", description=PR._screen_line(me),
                                  image=PR.Image("screen.png", functools.partial(render_screen, view, names.get(seat))),
                                  footer="Kept up to date as the game goes on. Only you can see it.")
            embed, file = await _render(spec)
            msg_id = channel_id = None
            if old is not None:
                try:
                    partial = self.bot.get_partial_messageable(old.channel_id).get_partial_message(old.message_id)
                    await partial.edit(embed=embed, attachments=[file] if file else [])
                    msg_id, channel_id = old.message_id, old.channel_id
                except discord.HTTPException:
                    msg_id = None
                await self.service.retire_prompt_messages([old.id])
            if msg_id is None:
                sent = await self._dm(seat_info.user_id, embed=embed, file=file) if file else None
                if sent is None:
                    continue
                msg_id, channel_id = sent.id, sent.channel.id
            await self.service.record_prompt_message(info.id, seat, msg_id, channel_id, "screen", prompt_key=fingerprint)

    async def _retire_stale(self, messages: list, pend: dict) -> list:
        """Disable prompts that are no longer current; returns the prompt messages still active."""
        current = {(s, p.prompt_key) for s, p in pend.items()}
        stale = [m for m in messages if m.purpose in ("prompt", "ping") and (m.seat, m.prompt_key) not in current]
        for m in stale:
            if not m.message_id:
                continue  # a channel ping for closed DMs: nothing to disable
            try:
                msg = self.bot.get_partial_messageable(m.channel_id).get_partial_message(m.message_id)
                await msg.edit(content="✔ This decision is closed: the rules have moved on (see the channel).", view=None)
            except discord.HTTPException:
                pass
        if stale:
            await self.service.retire_prompt_messages([m.id for m in stale])
        gone = {m.id for m in stale}
        return [m for m in messages if m.id not in gone]

    async def _send_prompts(self, info: GameInfo, pend: dict, messages: list) -> None:
        active = {(m.seat, m.prompt_key) for m in messages if m.purpose in ("prompt", "ping")}
        for seat, p in pend.items():
            if p.is_ai or p.user_id is None or not p.waiting or (seat, p.prompt_key) in active:
                continue
            spec, key = await self.prompt_message(info.id, seat)
            if spec is None or key != p.prompt_key:
                continue
            embed, file = await _render(spec)
            kwargs: dict = {"content": f"Your move in Viceroy game #{info.id} ({_ts(p.deadline)}).", "embed": embed}
            view_ = _view_from_rows(spec.rows)
            if view_ is not None:
                kwargs["view"] = view_
            if file is not None:
                kwargs["file"] = file
            msg = await self._dm(p.user_id, **kwargs)
            if msg is not None:
                await self.service.record_prompt_message(info.id, seat, msg.id, msg.channel.id, "prompt", prompt_key=key)
            else:
                # DMs closed: a ping in the channel, the prompt itself comes through "My screen".
                await self.service.record_prompt_message(info.id, seat, 0, info.channel_id, "ping", prompt_key=key)
                await self._send_channel(info.channel_id, content=f"<@{p.user_id}>, your move in Viceroy: press **My screen** "
                                         "(I cannot DM you).")

    def _status_key(self, view: dict) -> str:
        return f"{view['phase']}:{view['turn']}"

    def _status_spec(self, info: GameInfo, view: dict, pend: dict, names: dict[int, str], with_image: bool) -> PR.MessageSpec:
        from rendering import render_table

        waiting = [f"{names.get(s, s)} ({_ts(p.deadline)})" for s, p in sorted(pend.items()) if p.waiting]
        phase = view["phase"]
        title = f"Viceroy game #{info.id} · turn {view['turn']}" + (" (last)" if view["last_turn"] else "")
        title += {"setup": " · setup", "auction": f" · auction round {view['round']}",
                  "development": f" · development round {view['round']}", "painting": " · painting", "over": " · over"}[phase]
        desc = "Waiting for: " + (", ".join(waiting) if waiting else "nobody") if phase != "over" else "The game is over."
        spec = PR.MessageSpec(title=title, description=desc,
                              rows=[[PR.Button("My screen", f"vc:{info.id}:screen", "primary")]],
                              footer="Your secret screen and choices come by DM, or with the My screen button.")
        if with_image:
            spec.image = PR.Image("table.png", lambda: render_table(view, names))
        return spec

    async def _update_status(self, info: GameInfo, view: dict, pend: dict, names: dict[int, str], messages: list) -> None:
        key = self._status_key(view)
        existing = [m for m in messages if m.purpose == "status"]
        current = next((m for m in existing if m.prompt_key == key), None)
        if current is None:
            for m in existing:
                try:
                    msg = self.bot.get_partial_messageable(m.channel_id).get_partial_message(m.message_id)
                    await msg.edit(view=None)
                except discord.HTTPException:
                    pass
            if existing:
                await self.service.retire_prompt_messages([m.id for m in existing])
            spec = self._status_spec(info, view, pend, names, with_image=True)
            embed, file = await _render(spec)
            kwargs: dict = {"embed": embed, "view": _view_from_rows(spec.rows)}
            if file is not None:
                kwargs["file"] = file
            msg = await self._send_channel(info.channel_id, **kwargs)
            if msg is not None:
                await self.service.record_prompt_message(info.id, None, msg.id, info.channel_id, "status", prompt_key=key)
            return
        spec = self._status_spec(info, view, pend, names, with_image=False)
        embed, _ = await _render(spec)
        embed.set_image(url="attachment://table.png")  # type: ignore[union-attr]
        try:
            msg = self.bot.get_partial_messageable(current.channel_id).get_partial_message(current.message_id)
            await msg.edit(embed=embed)
        except discord.HTTPException:
            log.warning("could not edit the status message of game %s", info.id)

    async def _post_final(self, info: GameInfo, names: dict[int, str]) -> None:
        from rendering import render_scores, render_table

        scores = await self.service.final_scores(info.id) or []
        view = await self.service.view_seat(info.id, None)
        for m in await self.service.prompt_messages(info.id):
            try:
                msg = self.bot.get_partial_messageable(m.channel_id).get_partial_message(m.message_id)
                if m.message_id:
                    await msg.edit(view=None)
            except discord.HTTPException:
                pass
        await self.service.retire_prompt_messages([m.id for m in await self.service.prompt_messages(info.id)])
        lines = []
        for s in sorted(scores, key=lambda s: -s["total"]):
            b = s["breakdown"]
            lines.append(f"**{names.get(s['seat'], s['seat'])}**: {s['total']}" + (" 🏆" if s["winner"] else "") +
                         f" (circles {b['circles']}, infinite gems {b['infinite_gems']}, laws {b['laws']}, PP {b['power_points']}, "
                         f"magic {b['magic']}, sets {b['sets']}, attack {b['attack']})")
        spec = PR.MessageSpec(title=f"Viceroy game #{info.id}: final scores", description="\n".join(lines),
                              image=PR.Image("scores.png", lambda: render_scores(scores, names)))
        embed, file = await _render(spec)
        await self._send_channel(info.channel_id, embed=embed, file=file)
        table = PR.MessageSpec(title="The final pyramids", image=PR.Image("table.png", lambda: render_table(view, names)))
        embed, file = await _render(table)
        await self._send_channel(info.channel_id, embed=embed, file=file)

    # ---------------------------------------------------------------------------------- commands

    @group.command(name="screen", description="Show your secret screen and current choice (only you see it)")
    async def screen(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            game = await self._game_here(interaction)
            await self.show_screen(interaction, game.id)

        await self._safe(interaction, run())

    @group.command(name="waiting", description="Who the game is waiting for, and until when")
    async def waiting(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            game = await self._game_here(interaction)
            if game.status == "lobby":
                await interaction.response.send_message("The game has not started yet: it is in its lobby.", ephemeral=True)
                return
            pend = await self.service.pending(game.id)
            names = PR.names_map(game.seats)
            rows = [f"• {names.get(s, s)}: {'chosen (can still change)' if not p.waiting else 'to decide'}, {_ts(p.deadline)}"
                    for s, p in sorted(pend.items())]
            await interaction.response.send_message("\n".join(rows) or "Nobody: the game is resolving or over.", ephemeral=True)

        await self._safe(interaction, run())

    @group.command(name="status", description="The table: auction row and every pyramid")
    async def status(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            game = await self._game_here(interaction)
            if game.status == "lobby":
                await interaction.response.send_message(**await self._lobby_message(game), ephemeral=True)
                return
            await interaction.response.defer(thinking=True)
            info, view, pend = await self.service.seat_context(game.id, None)
            spec = self._status_spec(info, view, pend, PR.names_map(info.seats), with_image=True)
            embed, file = await _render(spec, self._limit(interaction))
            await interaction.followup.send(embed=embed, file=file)  # type: ignore[arg-type]

        await self._safe(interaction, run())

    @group.command(name="pyramid", description="Show a player's pyramid")
    @app_commands.describe(player="Whose pyramid (default: yours)")
    async def pyramid(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        async def run() -> None:
            from rendering import render_pyramid

            game = await self._game_here(interaction)
            target = player or interaction.user
            seat = await self.service.seat_of(game.id, target.id)
            if seat is None:
                raise ServiceError(f"{target.display_name} has no seat in this game.")
            await interaction.response.defer(thinking=True)
            view = await self.service.view_seat(game.id, None)
            name = PR.names_map(game.seats).get(seat, target.display_name)
            pyr = view["players"][seat]["pyramid"]
            spec = PR.MessageSpec(title=f"{name}'s pyramid", image=PR.Image("pyramid.png", lambda: render_pyramid(pyr, name)))
            embed, file = await _render(spec, self._limit(interaction))
            await interaction.followup.send(embed=embed, file=file)  # type: ignore[arg-type]

        await self._safe(interaction, run())

    @group.command(name="log", description="The latest public events of this game")
    @app_commands.describe(count="How many events (default 15)")
    async def log_cmd(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 15) -> None:
        async def run() -> None:
            game = await self._game_here(interaction)
            entries = await self.service.public_log(game.id)
            names = PR.names_map(game.seats)
            lines = [PR.fill_names(e.event.get("text") or e.event.get("type", ""), names) for e in entries
                     if e.event.get("type") != "chosen"][-count:]
            text = "\n".join(lines) or "Nothing has happened yet."
            await interaction.response.send_message(text[-1900:], ephemeral=True)

        await self._safe(interaction, run())

    @group.command(name="rules", description="The rules of Viceroy and this bot's rulings")
    @app_commands.describe(topic="Which part of the rules")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in RULES_TOPICS])
    async def rules(self, interaction: discord.Interaction, topic: str = "overview") -> None:
        from bot.rules import rules_text

        async def run() -> None:
            chunks = _split_text(rules_text(topic).splitlines())
            await interaction.response.send_message(chunks[0], ephemeral=True)
            for chunk in chunks[1:4]:
                await interaction.followup.send(chunk, ephemeral=True)

        await self._safe(interaction, run())

    @group.command(name="settings", description="Host: change the time limit per decision")
    @app_commands.describe(time_limit="Hours per decision (0 = no limit)")
    async def settings(self, interaction: discord.Interaction, time_limit: app_commands.Range[float, 0, 720]) -> None:
        async def run() -> None:
            game = await self._game_here(interaction)
            seconds = int(time_limit * 3600) if time_limit > 0 else None
            await self.service.set_time_limit(game.id, seconds, interaction.user.id, admin=self._is_admin(interaction))
            await interaction.response.send_message(
                f"Time per decision is now {'unlimited' if seconds is None else f'{time_limit:g} h'}.")

        await self._safe(interaction, run())

    @group.command(name="abandon", description="Host or admin: abandon the game in this channel")
    async def abandon(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            game = await self._game_here(interaction)
            await self.service.abandon(game.id, interaction.user.id, admin=self._is_admin(interaction))
            await interaction.response.send_message(f"Viceroy game #{game.id} was abandoned. Start a new one with `/viceroy new`.")
            self._spawn(self._retire_all(game.id))

        await self._safe(interaction, run())

    async def _retire_all(self, game_id: int) -> None:
        msgs = await self.service.prompt_messages(game_id)
        for m in msgs:
            if m.message_id:
                try:
                    await self.bot.get_partial_messageable(m.channel_id).get_partial_message(m.message_id).edit(view=None)
                except discord.HTTPException:
                    pass
        await self.service.retire_prompt_messages([m.id for m in msgs])

    @group.command(name="replace", description="Host or admin: give a seat to another player, or to the AI")
    @app_commands.describe(seat="Seat number (1-4, as in the lobby)", player="The new player (leave empty for the AI)")
    async def replace(self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 4],
                      player: discord.User | None = None) -> None:
        async def run() -> None:
            game = await self._game_here(interaction)
            name = player.display_name if player else f"AI {seat}"
            result = await self.service.replace_seat(game.id, seat - 1, player.id if player else None, name,
                                                     by_user_id=interaction.user.id, admin=self._is_admin(interaction))
            await interaction.response.send_message(f"Seat {seat} is now played by {name}.")
            self._spawn(self.announce(result))

        await self._safe(interaction, run())

    @group.command(name="undo", description="Host or admin: undo the last public step (announced to everyone)")
    async def undo(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            game = await self._game_here(interaction)
            result = await self.service.undo(game.id, interaction.user.id, admin=self._is_admin(interaction))
            await interaction.response.send_message("Undoing the last step…", ephemeral=True)
            self._spawn(self._retire_all(game.id))
            self._spawn(self.announce(result))

        await self._safe(interaction, run())

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type == discord.InteractionType.modal_submit:
            custom_id = (interaction.data or {}).get("custom_id", "")
            if custom_id.startswith("vm:"):
                await self.on_modal(interaction)


class _GemsModal(discord.ui.Modal):
    """Four numbers, one per colour. Submissions are handled in ``on_interaction`` so they survive restarts."""

    async def on_submit(self, interaction: discord.Interaction) -> None:
        return None


def _modal(spec: PR.ModalSpec) -> discord.ui.Modal:
    modal = _GemsModal(title=spec.title, custom_id=spec.custom_id, timeout=None)
    for field_id, label, default in spec.fields:
        modal.add_item(discord.ui.TextInput(label=label, custom_id=field_id, default=default, max_length=2, required=False))
    return modal


async def setup(bot: commands.Bot) -> None:
    service: GameService = bot.service  # type: ignore[attr-defined]
    bot.add_dynamic_items(PromptButton, PromptSelect, LobbyButton, ScreenButton)
    await bot.add_cog(ViceroyCog(bot, service))


__all__ = ["ViceroyCog", "setup"]
