"""Deferred commands answer with edit_original_response (never the deprecated "first follow-up replaces the
thinking message"), and an error after a public "thinking" defer is never shown to the channel."""

from __future__ import annotations

from bot.service import ServiceError
from tests.bot.test_bot_interactions import past_setup, two_player_game

DEPRECATED = "first follow-up after a deferred reply"


async def test_deferred_commands_edit_the_thinking_message(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        await past_setup(table)
        ann = table.users[0]
        status = await ann.slash(table.channel, "viceroy status")
        await fake_discord.wait_for(lambda: status.reply is not None and not status.reply.loading, timeout=10)
        assert status.reply.embeds and not status.reply.ephemeral
        screen = await ann.slash(table.channel, "viceroy screen")
        await fake_discord.wait_for(lambda: screen.reply is not None and not screen.reply.loading, timeout=10)
        assert screen.reply.ephemeral and screen.reply.embeds
        await table.settle()
        assert not [w for w in fake_discord.warnings if DEPRECATED in w]
    finally:
        await table.stop_bot()


async def test_an_error_after_a_public_defer_is_private(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        await past_setup(table)
        ann = table.users[0]

        async def broken(*args, **kwargs):
            raise ServiceError("The table cannot be read right now.")

        table.bot.service.table_state = broken
        before = {m.id for m in table.channel.messages()}
        rec = await ann.slash(table.channel, "viceroy status")
        await fake_discord.wait_for(lambda: any("cannot be read" in m.content for m in ann.ephemerals()), timeout=10,
                                    what="the error, privately")
        await table.settle()
        public = [m for m in table.channel.messages() if m.id not in before]
        assert not [m for m in public if "cannot be read" in m.content]
        assert rec.original is None or rec.original.deleted
        assert not [w for w in fake_discord.warnings if DEPRECATED in w]
    finally:
        await table.stop_bot()
