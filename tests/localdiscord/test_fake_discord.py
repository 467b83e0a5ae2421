"""End-to-end tests of the fake Discord with a real discord.py client written here."""

from __future__ import annotations

import asyncio
import io
import os
import sys
import zlib

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.localdiscord import (
    FakeDiscord,
    WaitTimeout,
    close_client,
    configure_from_env,
    connect_client,
    point_discord_py_at,
    restore_discord_py,
)
from bot.localdiscord.pytest_plugin import strict_problems

PNG = bytes.fromhex("89504e470d0a1a0a") + b"fake-png-body" * 10


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"vc:(?P<game>\d+):(?P<action>\w+)"):
    def __init__(self, game: int, action: str) -> None:
        super().__init__(discord.ui.Button(label=action.title(), custom_id=f"vc:{game}:{action}"))
        self.game, self.action = game, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # noqa: ANN001, ANN206
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{self.action} game {self.game} by {interaction.user.name} via client {interaction.client.tag}",
            ephemeral=True)


class NameModal(discord.ui.Modal, title="Name your empire"):
    name = discord.ui.TextInput(label="Name", custom_id="name")
    motto = discord.ui.TextInput(label="Motto", custom_id="motto", required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"named {self.name.value}/{self.motto.value or '-'}")


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(custom_id="pick", options=[discord.SelectOption(label="A", value="a"),
                                                  discord.SelectOption(label="B", value="b")])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {','.join(select.values)}", view=None)


class GameTestBot(discord.Client):
    def __init__(self, tag: str = "A") -> None:
        super().__init__(intents=discord.Intents.default())
        self.tag = tag
        self.tree = app_commands.CommandTree(self)
        self.seen_messages: list[str] = []
        self.resumed = asyncio.Event()
        self.late_codes: list[int] = []
        self.add_dynamic_items(GameButton)
        group = app_commands.Group(name="viceroy", description="game")

        @group.command(name="new", description="new game")
        async def new(interaction: discord.Interaction, seats: int, rival: discord.Member | None = None) -> None:
            extra = f" vs {rival.name}" if rival else ""
            await interaction.response.send_message(f"new game, {seats} seats{extra}", ephemeral=True)

        @group.command(name="board", description="public board")
        async def board(interaction: discord.Interaction, game: int) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(GameButton(game, "join"))
            await interaction.response.send_message(f"game {game} lobby", view=view)

        @app_commands.command(name="slow", description="deferred")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True, ephemeral=True)
            await asyncio.sleep(0.05)
            await interaction.followup.send("done thinking", ephemeral=True)
            await interaction.followup.send("second note", ephemeral=True)

        @app_commands.command(name="form", description="modal")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @app_commands.command(name="pick", description="select")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=PickView())

        @app_commands.command(name="late", description="answers too late")
        async def late(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.3)
            try:
                await interaction.response.send_message("too late")
            except discord.NotFound as exc:
                self.late_codes.append(exc.code)

        @app_commands.command(name="status", description="edits its reply")
        async def status(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("v1")
            await interaction.edit_original_response(content="v2")
            note = await interaction.followup.send("temporary", wait=True)
            await note.delete()

        @app_commands.command(name="private", description="ephemeral menu")
        async def private(interaction: discord.Interaction) -> None:
            where = "dm" if interaction.guild_id is None else "guild"
            await interaction.response.send_message(f"menu in {where}", view=PickView(), ephemeral=True)

        for cmd in (group, slow, form, pick, late, status, private):
            self.tree.add_command(cmd)

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message.content)

    async def on_resumed(self) -> None:
        self.resumed.set()


def make_world(world: FakeDiscord):
    guild = world.add_guild("Test")
    chan = world.add_text_channel(guild, "game-1")
    ann = world.add_user("Ann", guild)
    bob = world.add_user("Bob", guild)
    return guild, chan, ann, bob


async def start_bot(world: FakeDiscord, tag: str = "A", sync: bool = True) -> tuple[GameTestBot, asyncio.Task]:
    bot = GameTestBot(tag)
    task = await connect_client(world, bot)
    if sync:
        await bot.tree.sync()
    return bot, task


async def test_slash_subcommand_with_ephemeral_reply(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, bob = make_world(world)
    bot, task = await start_bot(world)
    rec = await ann.slash(chan, "viceroy new", seats=3, rival=bob)
    assert rec.response_type == 4
    assert rec.reply.content == "new game, 3 seats vs Bob"
    assert rec.ephemeral and rec.reply.ephemeral_to == ann.id
    assert ann.ephemerals() == [rec.reply]
    assert bob.ephemerals() == []
    assert chan.messages() == []  # ephemeral replies are not channel messages
    # The interaction referenced the synced command id and nested the subcommand.
    cmd = world.commands()[0]
    assert rec.data["id"] == cmd["id"] and rec.data["options"][0]["type"] == 1
    with pytest.raises(ValueError, match="seats"):
        await ann.slash(chan, "viceroy new")
    await close_client(bot, task, world)


async def test_unsynced_command_is_refused(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, _ = make_world(world)
    bot, task = await start_bot(world, sync=False)
    with pytest.raises(LookupError, match="synced"):
        await ann.slash(chan, "viceroy new", seats=2)
    await bot.tree.sync(guild=discord.Object(guild.id))  # guild sync of a tree with only global commands
    assert world.commands(guild) == []
    await close_client(bot, task, world)


async def test_command_ids_are_stable_across_syncs(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    make_world(world)
    bot, task = await start_bot(world)
    first = {c["name"]: c["id"] for c in world.commands()}
    synced = await bot.tree.sync()
    assert {c.name: str(c.id) for c in synced} == first
    fetched = await bot.tree.fetch_commands()
    assert sorted(c.name for c in fetched) == sorted(first)
    await close_client(bot, task, world)


async def test_dynamic_button_survives_client_restart(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, bob = make_world(world)
    bot_a, task_a = await start_bot(world, "A")
    rec = await ann.slash(chan, "viceroy board", game=42)
    board = rec.reply
    assert board in chan.messages() and board.buttons()[0]["custom_id"] == "vc:42:join"
    await close_client(bot_a, task_a, world)

    bot_b, task_b = await start_bot(world, "B", sync=False)
    click = await bob.click(board, label="Join")
    assert click.reply.content == "join game 42 by Bob via client B"
    assert click.payload["message"]["id"] == str(board.id)  # the full message travels with the click
    assert bob.ephemerals() == [click.reply]
    await close_client(bot_b, task_b, world)


async def test_dm_to_closed_user_raises_forbidden_50007(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, bob = make_world(world)
    bob.close_dms()
    bot, task = await start_bot(world)
    ann_user = await bot.fetch_user(ann.id)
    await ann_user.send("your hand: 12, 40")
    assert [m.content for m in ann.dms()] == ["your hand: 12, 40"]
    bob_user = await bot.fetch_user(bob.id)
    with pytest.raises(discord.Forbidden) as err:
        await bob_user.send("secret")
    assert err.value.code == 50007 and err.value.status == 403
    assert bob.dms() == []
    await close_client(bot, task, world)


async def test_file_upload_with_embed_attachment(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    world.checks |= {"attachments", "embedded_files"}
    guild, chan, ann, _ = make_world(world)
    bot, task = await start_bot(world)
    channel = bot.get_channel(chan.id)
    embed = discord.Embed(title="Pyramid").set_image(url="attachment://pyramid.png")
    sent = await channel.send(embed=embed, file=discord.File(io.BytesIO(PNG), filename="pyramid.png"))
    stored = chan.last_message()
    assert stored.id == sent.id
    assert stored.file("pyramid.png") == PNG
    assert stored.embeds[0]["image"]["url"] == "attachment://pyramid.png"
    assert stored.embed_image() == PNG
    # As on Discord, a file an embed shows is not listed among the attachments; the embed carries its URL.
    assert sent.attachments == []
    assert sent.embeds[0].image.url.endswith("/pyramid.png")
    plain = await channel.send(file=discord.File(io.BytesIO(PNG), filename="plain.png"))
    assert plain.attachments[0].filename == "plain.png"
    assert await plain.attachments[0].read() == PNG
    # Editing with a new file replaces the attachment list the way discord.py asks for.
    await sent.edit(content="v2", attachments=[discord.File(io.BytesIO(b"v2"), filename="pyramid.png")])
    edited = world.messages[sent.id]
    assert edited.content == "v2" and edited.file("pyramid.png") == b"v2" and edited.embed_image() == b"v2"
    await close_client(bot, task, world)


async def test_gateway_drop_then_resume_replays_missed_events(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, bob = make_world(world)
    bot, task = await start_bot(world)
    session_id = bot.ws.session_id
    await world.drop_gateway(hold=True)
    await world.wait_for(lambda: not any(s.connected for s in world.sessions.values()), what="disconnect")
    rec = await ann.slash(chan, "viceroy new", seats=4, wait=False)
    await bob.say(chan, "said while the bot was away")
    await asyncio.sleep(0.05)
    assert not rec.acknowledged and bot.seen_messages == []
    world.restore_gateway()
    await rec.wait_response(timeout=5)
    assert rec.reply.content == "new game, 4 seats"
    await world.wait_for(lambda: bot.seen_messages, what="MESSAGE_CREATE replay")
    assert bot.seen_messages == ["said while the bot was away"]
    await asyncio.wait_for(bot.resumed.wait(), 5)
    assert bot.ws.session_id == session_id  # resumed, not re-identified
    await close_client(bot, task, world)


async def test_rate_limit_is_retried_transparently(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, _ = make_world(world)
    bot, task = await start_bot(world)
    world.rate_limit("POST", "/channels/*/messages", times=1, retry_after=0.05)
    await bot.get_channel(chan.id).send("after the limit")
    assert [m.content for m in chan.messages()] == ["after the limit"]
    statuses = [r.status for r in world.requests if r.method == "POST" and r.path.endswith("/messages")]
    assert statuses == [429, 200]
    assert world.faults == []
    await close_client(bot, task, world)


async def test_rate_limit_response_shape(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, _, _ = make_world(world)
    world.rate_limit("GET", "/channels/*", retry_after=1.5)
    async with aiohttp.ClientSession() as http:
        url = f"{world.http_base}/api/v10/channels/{chan.id}"
        async with http.get(url, headers={"Authorization": f"Bot {world.token}"}) as resp:
            assert resp.status == 429
            assert resp.headers["Content-Type"] == "application/json"
            assert float(resp.headers["Retry-After"]) == 1.5
            body = await resp.json()
        assert body["retry_after"] == 1.5 and body["global"] is False
        async with http.get(url, headers={"Authorization": f"Bot {world.token}"}) as resp:
            assert resp.status == 200 and resp.headers["Content-Type"] == "application/json"
        async with http.get(url, headers={"Authorization": "Bot wrong"}) as resp:
            assert resp.status == 401


async def test_deleted_channel_gives_not_found(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, _, _ = make_world(world)
    bot, task = await start_bot(world)
    channel = bot.get_channel(chan.id)
    world.delete_channel(chan)
    with pytest.raises(discord.NotFound) as err:
        await channel.send("anyone?")
    assert err.value.code == 10003
    await close_client(bot, task, world)


async def test_deferred_thinking_then_followups(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, _ = make_world(world)
    bot, task = await start_bot(world)
    rec = await ann.slash(chan, "slow")
    assert rec.response_type == 5
    await rec.wait_followups(1)
    await world.idle()
    # The first follow-up after a thinking defer replaces the loading message, as on Discord.
    assert rec.reply.content == "done thinking" and not rec.reply.loading
    assert [m.content for m in rec.followups] == ["second note"]
    assert [m.content for m in ann.ephemerals()] == ["done thinking", "second note"]
    assert chan.messages() == []
    await close_client(bot, task, world)


async def test_modal_submit(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, bob = make_world(world)
    bot, task = await start_bot(world)
    opened = await ann.slash(chan, "form")
    assert opened.response_type == 9 and opened.modal["title"] == "Name your empire"
    with pytest.raises(PermissionError):
        await bob.submit_modal(opened, values={"name": "X"})
    with pytest.raises(ValueError, match="no field"):
        await ann.submit_modal(opened, values={"name": "Zed", "colour": "red"})
    submitted = await ann.submit_modal(opened, values={"name": "Zed"})
    assert submitted.reply.content == "named Zed/-"
    assert chan.messages() == [submitted.reply]
    await close_client(bot, task, world)


async def test_select_updates_message(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, _ = make_world(world)
    bot, task = await start_bot(world)
    rec = await ann.slash(chan, "pick")
    menu = rec.reply
    with pytest.raises(ValueError, match="not among"):
        await ann.select(menu, "pick", ["z"])
    sel = await ann.select(menu, "pick", ["b"])
    assert sel.response_type == 7
    assert menu.content == "picked b" and menu.components == [] and menu.edits == 1
    with pytest.raises(LookupError):
        await ann.select(menu, "pick", ["a"])  # the menu is gone from the message
    await close_client(bot, task, world)


async def test_late_answer_is_unknown_interaction(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    world.interaction_deadline = 0.1
    guild, chan, ann, _ = make_world(world)
    bot, task = await start_bot(world)
    rec = await ann.slash(chan, "late", wait=False)
    await world.wait_for(lambda: bot.late_codes, what="the bot to see the late answer fail")
    assert bot.late_codes == [10062] and not rec.acknowledged
    with pytest.raises(WaitTimeout):
        await rec.wait_response(timeout=0.1)
    await close_client(bot, task, world)


async def test_unimplemented_route_is_recorded(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, _, _, _ = make_world(world)
    bot, task = await start_bot(world)
    with pytest.raises(discord.DiscordServerError) as err:
        await bot.http.request(discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=guild.id))
    assert err.value.status == 501
    assert world.unimplemented == [f"GET /api/v10/guilds/{guild.id}/bans"]
    assert strict_problems(world) == [f"unimplemented: GET /api/v10/guilds/{guild.id}/bans"]
    world.strict = False  # provoked on purpose; the fixture must not fail this test
    await close_client(bot, task, world)


async def test_wrong_token_fails_login(fake_discord: FakeDiscord) -> None:
    bot = GameTestBot()
    with pytest.raises(discord.LoginFailure):
        await bot.login("not-the-token")
    await bot.close()


async def test_gateway_frames_are_a_zlib_stream(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    make_world(world)
    inflate = zlib.decompressobj()
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(world.gateway_url + "?v=10&encoding=json&compress=zlib-stream") as ws:
            hello = await ws.receive_bytes()
            assert hello.endswith(b"\x00\x00\xff\xff")
            assert b'"op": 10' in inflate.decompress(hello)
            await ws.send_json({"op": 2, "d": {"token": world.token, "properties": {}, "intents": 513}})
            ready = inflate.decompress(await ws.receive_bytes())
            assert b'"READY"' in ready and b"resume_gateway_url" in ready
            guild = inflate.decompress(await ws.receive_bytes())
            assert b'"GUILD_CREATE"' in guild and b'"flags": 0' in guild
            await ws.send_json({"op": 1, "d": 2})
            assert b'"op": 11' in inflate.decompress(await ws.receive_bytes())


async def test_configure_from_env_points_discord_py() -> None:
    try:
        assert configure_from_env({}) is None
        assert configure_from_env({"VICEROY_FAKE_DISCORD": "127.0.0.1:4567"}) == ("127.0.0.1", 4567)
        assert discord.http.Route.BASE == "http://127.0.0.1:4567/api/v10"
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:4567/"
        with pytest.raises(ValueError):
            configure_from_env({"VICEROY_FAKE_DISCORD": "nonsense"})
    finally:
        restore_discord_py()
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    point_discord_py_at("127.0.0.1", 1)
    restore_discord_py()
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/"


SUBPROCESS_BOT = """
import asyncio, os, sys
import discord
from bot.localdiscord import configure_from_env

assert configure_from_env() is not None

class Bot(discord.Client):
    async def on_ready(self):
        await self.get_channel(int(os.environ["CHANNEL_ID"])).send("hello from a subprocess")
        await self.close()

Bot(intents=discord.Intents.default()).run(os.environ["DISCORD_TOKEN"], log_handler=None)
"""


async def test_bot_in_a_subprocess_uses_the_env_var(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, _, _ = make_world(world)
    env = {**os.environ, **world.env(), "CHANNEL_ID": str(chan.id)}
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", SUBPROCESS_BOT, env=env,
                                                stderr=asyncio.subprocess.PIPE)
    try:
        msg = await world.wait_message(chan, timeout=20)
        assert msg.content == "hello from a subprocess"
        _, err = await asyncio.wait_for(proc.communicate(), 20)
        assert proc.returncode == 0, err.decode()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_edit_original_and_delete_followup(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, _ = make_world(world)
    bot, task = await start_bot(world)
    rec = await ann.slash(chan, "status")
    await world.wait_for(lambda: rec.followup_ids and not rec.followups, what="the follow-up to be deleted")
    assert rec.reply.content == "v2" and rec.reply.edits == 1
    assert [m.content for m in chan.messages()] == ["v2"]
    await close_client(bot, task, world)


async def test_slow_route_and_forced_failure(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, _, _ = make_world(world)
    bot, task = await start_bot(world)
    channel = bot.get_channel(chan.id)
    world.slow("POST", "/channels/*/messages", 0.3, times=1)
    sending = asyncio.create_task(channel.send("slowly"))
    await world.wait_for(lambda: world.in_flight == 1, what="the slow request to be in flight")
    assert chan.messages() == []
    await sending
    assert [m.content for m in chan.messages()] == ["slowly"]
    world.fail("POST", "/channels/*/messages", status=400, code=50035, message="Invalid Form Body")
    with pytest.raises(discord.HTTPException) as err:
        await channel.send("rejected")
    assert err.value.code == 50035
    await channel.send("accepted again")
    assert [m.content for m in chan.messages()] == ["slowly", "accepted again"]
    await world.idle()
    await close_client(bot, task, world)


async def test_command_in_dm_and_click_on_ephemeral_message(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guild, chan, ann, bob = make_world(world)
    bot, task = await start_bot(world)
    rec = await ann.slash(ann.open_dm(), "private")
    assert "user" in rec.payload and "guild_id" not in rec.payload
    menu = rec.reply
    assert menu.content == "menu in dm" and menu.ephemeral and ann.dms() == []
    with pytest.raises(PermissionError):
        await bob.select(menu, "pick", ["a"])
    sel = await ann.select(menu, "pick", ["a"])
    assert sel.response_type == 7 and menu.content == "picked a"
    in_guild = await ann.slash(chan, "private")
    assert in_guild.reply.content == "menu in guild"
    await close_client(bot, task, world)
