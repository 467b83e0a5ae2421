"""A game whose channel was deleted: its players are told by DM, play on there, can abandon it from a DM, and
get their results by DM."""

from __future__ import annotations

import json
import sqlite3

import pytest

import tests.service.toygame as toygame
from bot.autoplay import SimulatedPlayer, any_control
from bot.presenters import register_presenter
from tests.bot.harness import Table, new_table
from tests.bot.test_ux_dm_commands import start_global, start_toy
from tests.bot.toy_presenter import PRESENTER


@pytest.fixture(autouse=True)
def toy_registered():
    assert toygame.KIND.name == "toy"
    register_presenter(PRESENTER)


async def _channel_deleted(world, tmp_path) -> Table:
    """A started two-player toy game (commands synced globally, so they work in DMs) whose channel is then
    deleted."""
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    await start_global(table)
    try:
        await start_toy(table, *table.users)
    except BaseException:
        await table.stop_bot()
        raise
    world.delete_channel(table.channel, notify=True)
    return table


def _told(user) -> bool:
    return any("is gone. The game goes on here" in m.content for m in user.dms())


async def test_a_game_whose_channel_is_gone_plays_on_by_dm_and_ends_with_results_by_dm(fake_discord, tmp_path):
    world = fake_discord
    table = await _channel_deleted(world, tmp_path)
    try:
        ann, bo = table.users
        sims = [SimulatedPlayer(world, u, table.channel, seed=i, strategy=any_control) for i, u in enumerate((ann, bo))]
        service = table.bot.service
        game_id = (await service.games_for_user(ann.id))[0].id
        for _ in range(200):
            if (await service.game(game_id)).status == "finished":
                break
            stepped = [await sim.step() for sim in sims]
            await table.settle()
            if not any(stepped):
                await world.wait_for(lambda: any(s.current_prompt() is not None for s in sims), timeout=30,
                                     what="a prompt by DM")
        assert (await service.game(game_id)).status == "finished"
        await table.settle()
        for user in (ann, bo):
            assert _told(user), f"{user.name} was told by DM that the channel is gone"
            assert sum("is gone" in m.content for m in user.dms()) == 1, "told once"
            assert any(f"game #{game_id} is over: you finished" in m.content for m in user.dms()), \
                f"{user.name} got the result by DM"
        assert await service.outbox(game_id) == [], "nothing is stuck in the outbox"
        # Only open games are found from DMs: the finished one is not in the way of the next.
        rec = await ann.slash(ann.dm_channel, "toy waiting")
        await rec.wait_done()
        assert "no Toy game" in rec.reply.content
    finally:
        await table.stop_bot()


async def test_the_host_abandons_a_game_whose_channel_is_gone_from_a_dm(fake_discord, tmp_path):
    world = fake_discord
    table = await _channel_deleted(world, tmp_path)
    try:
        ann, bo = table.users
        game_id = (await table.bot.service.games_for_user(ann.id))[0].id
        rec = await bo.slash(bo.dm_channel, "toy waiting")  # a player finds the game from a DM
        await rec.wait_done()
        assert "Ann" in rec.reply.content and "no Toy game" not in rec.reply.content
        rec = await ann.slash(ann.dm_channel, "toy abandon")
        assert "cannot be resumed" in rec.reply.content
        await ann.click(rec.reply, label="Abandon the game")
        await table.settle()
        assert (await table.bot.service.game(game_id)).status == "abandoned"
        assert "was abandoned" in world.messages[rec.reply.id].content
    finally:
        await table.stop_bot()


async def test_with_several_games_a_dm_command_reaches_the_one_whose_channel_is_gone(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    second = world.add_text_channel(table.guild, "second-table")
    await start_global(table)
    try:
        ann, bo = table.users
        await start_toy(table, ann, bo)
        rec = await ann.slash(second, "toy new", seats=2, rounds=2)
        await table.settle()
        gone_game = (await table.bot.service.game_in_channel(table.channel.id)).id
        world.delete_channel(table.channel, notify=True)
        await world.wait_for(lambda: table.bot.get_channel(table.channel.id) is None, timeout=10,
                             what="the bot to learn that the channel is gone")
        rec = await ann.slash(ann.dm_channel, "toy abandon")
        assert f"game #{gone_game}?" in rec.reply.content, rec.reply.content
    finally:
        await table.stop_bot()


async def test_the_gone_notice_shown_before_a_crash_is_not_sent_again_past_the_nonce_window(fake_discord, tmp_path):
    world = fake_discord
    table = await _channel_deleted(world, tmp_path)
    try:
        ann, bo = table.users
        bot = table.bot
        sims = [SimulatedPlayer(world, u, table.channel, seed=i, strategy=any_control) for i, u in enumerate((ann, bo))]
        await world.wait_for(lambda: any(s.current_prompt() is not None for s in sims), timeout=30, what="a prompt")
        for sim in sims:
            await sim.step()
        await table.settle()
        await world.wait_for(lambda: _told(ann) and _told(bo), timeout=30, what="both players told")
        game_id = (await bot.service.games_for_user(ann.id))[0].id
        # The process died after Discord showed the notices and before it recorded them, and restarted once
        # Discord had forgotten the nonces: the announcement is delivered again with nothing recorded.
        gone = [m.id for m in await bot.service.prompt_messages(game_id) if m.purpose == "gone"]
        await bot.service.retire_prompt_messages(gone)
        with sqlite3.connect(table.db) as con:
            oid, sent = con.execute("SELECT id, sent FROM outbox WHERE game_id=? AND delivered_at IS NOT NULL "
                                    "ORDER BY id DESC LIMIT 1", (game_id,)).fetchone()
        await bot.service.outbox_progress(oid, json.loads(sent or "{}"), delivered=False)
        world.nonce_window = 0.0
        bot.announcer.nonce_trusted = 0.0
        async with bot.announcer.lock(game_id):
            assert await bot.announcer.deliver(game_id)
        await table.settle()
        for user in (ann, bo):
            assert sum("is gone" in m.content for m in user.dms()) == 1, f"{user.name} was told once"
        assert any(m.purpose == "gone" for m in await bot.service.prompt_messages(game_id)), "recorded again"
    finally:
        await table.stop_bot()
