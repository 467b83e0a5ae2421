"""A gateway connection that hangs (open, but no heartbeat ACK and no event) is noticed by the bot, which
reconnects and resumes by itself: the events dispatched meanwhile arrive, and it answers again."""

from __future__ import annotations

from bot.app import GameMasterBot
from bot.localdiscord import connect_client
from tests.bot.harness import new_table, settings_for

HEARTBEAT_MS = 200  # the fake's HELLO: heartbeats every 0.2 s instead of Discord's 41.25 s
SILENCE = 1.0  # seconds without any gateway message after which the bot gives the connection up


async def test_a_hung_gateway_connection_is_replaced_and_its_events_replayed(fake_discord, tmp_path):
    world = fake_discord
    world.heartbeat_interval_ms = HEARTBEAT_MS
    world.interaction_deadline = None  # the click waits in the buffer until the bot resumes
    table = await new_table(world, tmp_path, ["Ann"])
    bot = GameMasterBot(settings_for(world, table.guild, table.db), poll_interval=0.2)
    bot._connection.heartbeat_timeout = SILENCE  # discord.py's zombie-connection limit (60 s by default)
    table.bot = bot
    table.task = await connect_client(world, bot)
    try:
        await world.wait_for(lambda: bool(world.commands(table.guild)), timeout=10, what="command sync")
        session = next(s for s in world.sessions.values() if s.conn is not None)
        first = session.conn
        assert world.stall_gateway() == 1

        # A command sent while the connection hangs: Discord has it, the bot does not (yet).
        rec = await table.users[0].slash(table.channel, "viceroy status", wait=False)
        await world.wait_for(lambda: session.conn is not None and session.conn is not first, timeout=60,
                             what="the bot to resume on a new connection")
        await rec.wait_response(timeout=60)
        assert rec.reply is not None and "no Viceroy game in this channel" in rec.reply.content
        assert world.stalled_connections() == 0  # the hung connection was closed, not left behind
        assert len([s for s in world.sessions.values() if s.conn is not None]) == 1  # resumed, not a second session
    finally:
        await table.stop_bot()
