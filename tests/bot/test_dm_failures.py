"""A DM that fails is classified by Discord's error: closed DMs (50007) send the player to "My screen" and tell
the channel once how to get DMs again; a player who shares no server with the bot (50278) is told in the
channel but not marked as closed; a failure that may pass (5xx, 40003 opening DMs too fast) is tried again
after a pause, with no ping and nothing remembered against the player. And a Start click whose answer fails
still prompts the players."""

from __future__ import annotations

import discord
import pytest_asyncio

from bot.autoplay import SimulatedPlayer, prompt_key
from cogs.announcer import DMS_CLOSED, LATER, NO_MUTUAL_GUILD, REFUSED, classify_dm_failure
from tests.bot.harness import new_table, open_lobby
from tests.bot.test_bot_interactions import past_setup, two_player_game

HOW_TO_OPEN = "allow direct messages from server members"


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "test"


def _error(status: int, code: int) -> discord.HTTPException:
    return discord.HTTPException(_Response(status), {"code": code, "message": "test"})  # type: ignore[arg-type]


def test_dm_failures_are_classified_by_discords_codes():
    assert classify_dm_failure(_error(403, 50007)) == DMS_CLOSED
    assert classify_dm_failure(_error(400, 50007)) == DMS_CLOSED
    assert classify_dm_failure(_error(403, 50278)) == NO_MUTUAL_GUILD
    assert classify_dm_failure(_error(403, 40003)) == LATER
    assert classify_dm_failure(_error(429, 0)) == LATER
    assert classify_dm_failure(_error(503, 0)) == LATER
    assert classify_dm_failure(TimeoutError()) == LATER
    assert classify_dm_failure(OSError("connection reset")) == LATER
    assert classify_dm_failure(_error(403, 50001)) == REFUSED
    assert classify_dm_failure(_error(403, 50013)) == REFUSED


def pings(table, user) -> list[str]:
    return [m.content for m in table.channel.messages() if f"<@{user.id}>" in m.content and "My screen" in m.content]


async def dm_status(table, user) -> str:
    game = (await table.bot.service.list_games(statuses=("active",)))[0]
    return next(s.dm_status for s in game.seats if s.user_id == user.id)


@pytest_asyncio.fixture
async def in_auction(fake_discord, tmp_path):
    """A 2-player game past its setup (Ann and Bo have their auction prompts): (table, simulated players)."""
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        yield table, await past_setup(table)
    finally:
        await table.stop_bot()


async def lobby_of_two(world, tmp_path):
    """Ann's lobby with Bo joined, not started yet: (table, lobby message)."""
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    ann, bo = table.users
    lobby = await open_lobby(table, ann, seats=2)
    await bo.click(lobby, label="Join")
    await table.settle()
    return table, lobby


async def first_prompts(table) -> list[SimulatedPlayer]:
    sims = [SimulatedPlayer(table.world, u, table.channel) for u in table.users]
    for sim in sims:
        await table.world.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=30,
                                   what=f"{sim.user.name}'s first prompt")
    return sims


async def play_until(table, sims, done, *, rounds: int = 60) -> None:
    """The players make their decisions (by DM, or through "My screen" when their DMs are closed) until
    ``done()``."""
    for _ in range(rounds):
        await table.settle()
        if done():
            return
        # A prompt that failed for a reason that may pass comes a little later: wait for one.
        await table.world.wait_for(lambda: done() or any(not s.user.dms_open or s.current_prompt() is not None
                                                         for s in sims), timeout=30, what="a prompt to answer")
        for sim in sims:
            if sim.user.dms_open:
                await sim.step()
                continue
            msg = await sim._screen_prompt()
            if msg is not None:
                await sim.decide(msg)
                sim.done_keys.add(prompt_key(msg))
    raise AssertionError("the game went on without it")


async def ping_after_the_round(table, sims, user) -> str:
    """The players play on until ``user`` is pinged in the channel for a prompt; that ping."""
    await play_until(table, sims, lambda: pings(table, user))
    return pings(table, user)[0]


async def test_closed_dms_tell_the_channel_once_how_to_open_them(fake_discord, in_auction):
    table, sims = in_auction
    ann, bo = table.users
    bo.close_dms()  # his auction prompt is already in his DMs: he answers it there
    ping = await ping_after_the_round(table, sims, bo)
    assert HOW_TO_OPEN in ping and "I cannot DM you" in ping
    assert await dm_status(table, bo) == "closed"
    # Bo plays on through "My screen"; his next prompt is a short ping, the explanation is not repeated.
    await play_until(table, sims, lambda: len(pings(table, bo)) >= 2)
    assert sum(HOW_TO_OPEN in text for text in pings(table, bo)) == 1
    assert not pings(table, ann)


async def test_a_server_error_on_a_prompt_dm_is_tried_again_without_a_ping(fake_discord, in_auction):
    table, sims = in_auction
    ann, bo = table.users
    dm = bo.dm_channel
    fault = fake_discord.fail("POST", f"/channels/{dm.id}/messages", status=503, message="Service Unavailable",
                              times=2)
    before = sims[1].decisions
    # Bo's DMs fail twice with a server error, then his prompts arrive again by DM and he answers them there.
    await play_until(table, sims, lambda: fault not in fake_discord.faults and sims[1].decisions >= before + 3)
    assert any(r.status == 503 for r in fake_discord.requests)
    assert not pings(table, bo)
    assert await dm_status(table, bo) != "closed"


async def test_opening_dms_too_fast_waits_and_never_marks_the_player_closed(fake_discord, tmp_path):
    world = fake_discord
    world.dm_open_limit = (0, 60.0)  # every new DM channel is refused with 40003 for now
    table, lobby = await lobby_of_two(world, tmp_path)
    try:
        ann, bo = table.users
        assert "cannot receive DMs" not in world.messages[lobby.id].embeds[0]["description"]
        await ann.click(lobby, label="Start")
        await world.wait_for(lambda: any(r.status == 403 and r.path.endswith("/users/@me/channels")
                                         for r in world.requests[-20:]), timeout=15, what="a refused DM channel")
        world.dm_open_limit = (20, 10.0)  # Discord lets the bot open DMs again
        await first_prompts(table)
        await table.settle()
        assert not pings(table, ann) and not pings(table, bo)
        assert await dm_status(table, ann) != "closed" and await dm_status(table, bo) != "closed"
    finally:
        await table.stop_bot()


async def test_a_player_who_shares_no_server_is_told_in_the_channel_and_not_marked_closed(fake_discord, in_auction):
    table, sims = in_auction
    ann, bo = table.users
    fake_discord.remove_member(table.guild, bo)
    assert "share no server" in await ping_after_the_round(table, sims, bo)
    assert await dm_status(table, bo) != "closed"


async def test_a_start_click_whose_answer_fails_still_prompts_the_players(fake_discord, tmp_path):
    world = fake_discord
    table, lobby = await lobby_of_two(world, tmp_path)
    try:
        # Discord has forgotten the click by the time the bot answers it (10062).
        world.fail("POST", "/interactions/*/callback", status=404, code=10062, message="Unknown interaction")
        await table.users[0].click(lobby, label="Start", wait=False)
        await first_prompts(table)
        assert any(r.status == 404 and r.path.endswith("/callback") for r in world.requests)
        # The channel's lane is not the prompts' lane (one slow message never holds up the other): the start
        # line may come after the prompts.
        await world.wait_for(lambda: any("The game begins" in m.content for m in table.channel.messages()),
                             timeout=30, what="the start line in the channel")
    finally:
        await table.stop_bot()



def _text(message) -> str:
    return " ".join([message.content or "", *(f"{e.get('title', '')} {e.get('description', '')}" for e in message.embeds)])


ANNOUNCED_BY = {"auction choice": ("Auction round",), "development plan": ("Development round", "development phase")}


async def test_a_ping_comes_after_the_lines_that_announce_its_decision(fake_discord, in_auction):
    """With DMs closed, the channel ping for a new decision is posted below the lines that lead to it (the
    round's results and the phase that starts), not above them while they are still being posted."""
    table, sims = in_auction
    ann, bo = table.users
    bo.close_dms()  # his auction prompt is already in his DMs: he answers it there
    # The first ping follows a DM that failed; the later ones go out at once (his DMs are known closed).
    await play_until(table, sims, lambda: len(pings(table, bo)) >= 4)
    texts = [_text(m) for m in table.channel.messages()]
    checked = 0
    for i, text in enumerate(texts):
        if f"<@{bo.id}>" not in text or "My screen" not in text:
            continue
        decision = next(d for d in ANNOUNCED_BY if d in text)
        before = next(t for t in reversed(texts[:i]) if not ("<@" in t and "My screen" in t))
        assert any(words in before for words in ANNOUNCED_BY[decision]), (text, before)
        checked += 1
    assert checked >= 4
