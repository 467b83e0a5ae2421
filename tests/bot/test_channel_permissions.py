"""The bot refuses to open or start a game where it could not post it, naming the missing permission
(the strict fake answers 50013 for such posts, and shows the same permissions in app_permissions)."""

from __future__ import annotations

from bot.localdiscord.model import ATTACH_FILES, EMBED_LINKS, SEND_MESSAGES
from tests.bot.harness import new_table


async def test_new_names_the_missing_permission_and_opens_no_lobby(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann = table.users[0]
        fake_discord.revoke(ATTACH_FILES, channel=table.channel)
        fake_discord.revoke(EMBED_LINKS, channel=table.channel)
        rec = await ann.slash(table.channel, "viceroy new", seats=2)
        await rec.wait_done()
        await table.settle()
        reply = rec.messages[-1]
        assert reply.ephemeral
        assert "**Embed Links**, **Attach Files**" in reply.content and "permissions" in reply.content
        assert table.channel.bot_messages() == []
        # Once granted, the same command opens the lobby.
        fake_discord.grant(ATTACH_FILES, channel=table.channel)
        fake_discord.grant(EMBED_LINKS, channel=table.channel)
        rec = await ann.slash(table.channel, "viceroy new", seats=2)
        await table.settle()
        assert any(b.get("label") == "Join" for b in rec.reply.buttons())
    finally:
        await table.stop_bot()


async def test_start_is_refused_while_the_bot_cannot_post(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        rec = await ann.slash(table.channel, "viceroy new", seats=2)
        await table.settle()
        lobby = rec.reply
        await bo.click(lobby, label="Join")
        await table.settle()
        fake_discord.revoke(SEND_MESSAGES, channel=table.channel)
        start = await ann.click(lobby, label="Start")
        await start.wait_done()
        await table.settle()
        assert start.ephemeral and "**Send Messages**" in start.reply.content
        assert any(b.get("label") == "Start" for b in fake_discord.messages[lobby.id].buttons())  # still a lobby
        fake_discord.grant(SEND_MESSAGES, channel=table.channel)
        await ann.click(fake_discord.messages[lobby.id], label="Start")
        await table.settle()
        assert "started" in (fake_discord.messages[lobby.id].embeds[0].get("title") or "")
    finally:
        await table.stop_bot()
