"""DM failures told apart: only closed DMs (50007) send a player down the "My screen" path for good; a player
who shares no server (50278) is told so in the channel; 40003, 5xx, long 429s and timeouts are retried."""

from __future__ import annotations

import discord
import pytest

from bot.autoplay import SimulatedPlayer
from cogs.announcer import DM_CLOSED, DM_NO_MUTUAL_GUILD, DM_REFUSED, DM_TRANSIENT, dm_failure
from tests.bot.harness import new_table
from tests.bot.test_bot_interactions import two_player_game


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "test"


@pytest.mark.parametrize(("status", "code", "why"), [
    (403, 50007, DM_CLOSED), (400, 50007, DM_CLOSED), (403, 50278, DM_NO_MUTUAL_GUILD),
    (403, 40003, DM_TRANSIENT), (429, 0, DM_TRANSIENT), (500, 0, DM_TRANSIENT), (503, 0, DM_TRANSIENT),
    (504, 0, DM_TRANSIENT), (400, 50035, DM_REFUSED)])
def test_dm_failures_are_classified_by_code(status, code, why):
    assert dm_failure(discord.HTTPException(_Response(status), {"code": code, "message": "x"})) == why


async def _dm_status(table, user) -> str:
    game = (await table.bot.service.list_games(statuses=("active",)))[0]
    return next(s.dm_status for s in game.seats if s.user_id == user.id)


async def _setup_prompts_then(table, fault) -> tuple[SimulatedPlayer, SimulatedPlayer]:
    """Ann chooses her starting card; `fault()` is planted before Bo's answer brings both new prompts."""
    ann, bo = table.users
    sims = [SimulatedPlayer(table.world, u, table.channel) for u in (ann, bo)]
    table.bot.announcer.dm_retry_delays = (0.01, 0.01, 0.01)
    assert await sims[0].step()
    await table.settle()
    fault()
    assert await sims[1].step()
    await table.settle()
    return sims[0], sims[1]


async def test_closed_dms_ping_in_the_channel_and_are_remembered(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        bo = table.users[1]
        await _setup_prompts_then(table, bo.close_dms)
        assert any(f"<@{bo.id}>" in m.content and "I cannot DM you" in m.content for m in table.channel.messages())
        assert await _dm_status(table, bo) == "closed"
    finally:
        await table.stop_bot()


async def test_no_mutual_guild_is_told_in_the_channel_and_not_remembered_as_closed(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        bo = table.users[1]
        await _setup_prompts_then(table, lambda: fake_discord.remove_member(table.guild, bo))
        pings = [m.content for m in table.channel.messages() if f"<@{bo.id}>" in m.content]
        assert pings and "we share no server" in pings[-1]
        assert await _dm_status(table, bo) != "closed"
    finally:
        await table.stop_bot()


@pytest.mark.parametrize("kind", ["5xx", "long 429", "timeout"])
async def test_transient_dm_failures_are_retried_and_never_close_the_player(fake_discord, tmp_path, kind):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        bo_channel = bo.dm_channel.id
        path = f"/channels/{bo_channel}/messages"

        def fault() -> None:
            if kind == "5xx":
                fake_discord.fail("POST", path, status=503, message="Service Unavailable", times=2)
            elif kind == "long 429":
                table.bot.announcer.request_timeout = 0.4
                fake_discord.rate_limit("POST", path, times=1, retry_after=30.0)
            else:
                table.bot.announcer.request_timeout = 0.4
                fake_discord.slow("POST", path, 1.0, times=2)

        _, sim_bo = await _setup_prompts_then(table, fault)
        await fake_discord.wait_for(lambda: sim_bo.current_prompt() is not None, timeout=15,
                                    what="Bo's next prompt by DM after the retries")
        assert await _dm_status(table, bo) != "closed"
        assert not any(f"<@{bo.id}>" in m.content for m in table.channel.messages())
    finally:
        await table.stop_bot()


async def test_opening_dms_too_fast_is_retried_when_a_player_joins(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        table.bot.announcer.dm_retry_delays = (0.01, 0.01, 0.01)
        rec = await ann.slash(table.channel, "viceroy new", seats=2)
        await table.settle()
        fake_discord.fail("POST", "/users/@me/channels", status=403, code=40003,
                          message="You are opening direct messages too fast.", times=2)
        await bo.click(rec.reply, label="Join")
        await table.settle()
        assert any("You joined" in m.content for m in bo.dms())
        game = (await table.bot.service.list_games(statuses=("lobby",)))[0]
        assert next(s.dm_status for s in game.seats if s.user_id == bo.id) == "open"
        assert "cannot receive DMs" not in str(rec.reply.embeds)
    finally:
        await table.stop_bot()
