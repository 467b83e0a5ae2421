"""Slash commands are synced when the command set changed (a fingerprint kept in the database), once, and
also when only DISCORD_TOKEN is set; they are installed to servers and offered in servers and the bot's DMs."""

from __future__ import annotations

import dataclasses

from bot.app import BOT_PREFS, COMMAND_SYNC_PREF, GameMasterBot
from bot.localdiscord import connect_client
from tests.bot.harness import Table, new_table, settings_for


def _puts(world) -> int:
    return sum(1 for r in world.requests if r.method == "PUT" and "/commands" in r.path)


async def _start(table: Table, *, guild: bool) -> GameMasterBot:
    settings = settings_for(table.world, table.guild, table.db)
    if not guild:  # as a new operator runs it: DISCORD_TOKEN only
        settings = dataclasses.replace(settings, dev_guild_id=None, sync_global=False)
    table.bot = GameMasterBot(settings, poll_interval=0.2)
    table.task = await connect_client(table.world, table.bot)
    await table.world.wait_for(lambda: table.bot.scheduler is not None, timeout=10, what="the bot's setup")
    return table.bot


async def test_token_only_syncs_globally_once_and_again_when_the_set_changes(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await _start(table, guild=False)
    try:
        names = {c["name"] for c in fake_discord.commands()}
        assert "viceroy" in names and _puts(fake_discord) == 1
        viceroy = next(c for c in fake_discord.commands() if c["name"] == "viceroy")
        assert viceroy["contexts"] == [0, 1] and viceroy["integration_types"] == [0]
        await table.stop_bot()
        await _start(table, guild=False)
        assert _puts(fake_discord) == 1, "an unchanged command set is not synced again"
        # A database that last synced another command set (an older version of the bot): synced once more.
        key = f"{COMMAND_SYNC_PREF}.{table.bot.application_id}.global"
        await table.bot.service.set_pref(BOT_PREFS, key, "an older command set")
        await table.stop_bot()
        await _start(table, guild=False)
        assert _puts(fake_discord) == 2
        assert await table.bot.service.get_pref(BOT_PREFS, key) == await table.bot.command_digest()
    finally:
        await table.stop_bot()


async def test_development_guild_sync_is_kept_per_guild(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await _start(table, guild=True)
    try:
        assert fake_discord.commands(table.guild) and not fake_discord.commands()
        await table.stop_bot()
        await _start(table, guild=True)
        assert _puts(fake_discord) == 1
        rec = await table.users[0].slash(table.channel, "viceroy rules")
        assert rec.reply is not None and rec.reply.ephemeral
    finally:
        await table.stop_bot()


async def test_a_command_not_offered_in_dms_cannot_be_used_there(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await _start(table, guild=False)
    try:
        ann = table.users[0]
        rec = await ann.slash(ann.open_dm(), "viceroy rules")
        assert rec.reply is not None
        viceroy = next(c for c in fake_discord.commands() if c["name"] == "viceroy")
        viceroy["contexts"] = [0]
        try:
            await ann.slash(ann.open_dm(), "viceroy rules")
        except LookupError as exc:
            assert "not offered" in str(exc)
        else:
            raise AssertionError("a guild-only command was usable in DMs")
    finally:
        await table.stop_bot()
