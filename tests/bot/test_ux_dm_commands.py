"""Commands used in DMs reach the user's game instead of answering that there is no game in this channel."""

from __future__ import annotations

import dataclasses

import pytest

import tests.service.toygame as toygame
from bot.app import GameMasterBot
from bot.localdiscord import connect_client
from bot.presenters import register_presenter
from tests.bot.harness import Table, new_table, settings_for, start_game
from tests.bot.toy_presenter import PRESENTER


@pytest.fixture(autouse=True)
def toy_registered():
    assert toygame.KIND.name == "toy"
    register_presenter(PRESENTER)


async def start_global(table: Table) -> None:
    """The bot as deployed: commands synced globally, so they are offered in DMs too."""
    settings = dataclasses.replace(settings_for(table.world, table.guild, table.db), dev_guild_id=None, sync_global=True)
    table.bot = GameMasterBot(settings, poll_interval=0.2)
    table.task = await connect_client(table.world, table.bot)
    await table.world.wait_for(lambda: bool(table.world.commands()), timeout=10, what="global command sync")


async def start_toy(table: Table, host, other) -> None:
    await start_game(table, "toy", players=[host, other], seats=2, rounds=2)
    await table.settle()


async def test_a_command_in_dms_reaches_the_players_game(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await start_global(table)
    try:
        ann, bo = table.users
        await start_toy(table, ann, bo)
        rec = await bo.slash(bo.dm_channel, "toy waiting")
        await rec.wait_done()
        assert "no Toy game" not in rec.reply.content
        assert "Ann" in rec.reply.content and "Bo" in rec.reply.content
        rec = await ann.slash(ann.dm_channel, "toy log")
        await rec.wait_done()
        assert rec.reply.content and "no Toy game" not in rec.reply.content
    finally:
        await table.stop_bot()


async def test_in_dms_without_a_game_or_with_several_the_answer_says_what_to_do(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    second = fake_discord.add_text_channel(table.guild, "second-table")
    await start_global(table)
    try:
        ann, bo = table.users
        await start_toy(table, ann, bo)
        rec = await ann.slash(second, "toy new", seats=2, rounds=2)
        await table.settle()
        rec = await ann.slash(ann.dm_channel, "toy waiting")
        await rec.wait_done()
        assert "several Toy games" in rec.reply.content
        assert f"<#{table.channel.id}>" in rec.reply.content and f"<#{second.id}>" in rec.reply.content
        rec = await bo.slash(bo.dm_channel, "toy abandon")
        await rec.wait_done()
        assert "host" in rec.reply.content.lower()  # Bo's one game is found; he is not its host
    finally:
        await table.stop_bot()
