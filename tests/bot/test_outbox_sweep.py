"""Several processes: an announcement left undelivered by a process that died between its commit and its
messages is delivered by the process that owns the game's server, without waiting for a restart or the
game's next deadline; a live process's own announcements and other processes' games are left alone."""

from __future__ import annotations

from bot.autoplay import SimulatedPlayer
from bot.clock import ManualClock
from cogs.announcer import ORPHANED_AFTER, SWEEP_INTERVAL
from tests.bot.lines import expected_lines, shown_lines
from tests.bot.test_bot_interactions import two_player_game


async def _died_after_commit(table) -> tuple[int, list[SimulatedPlayer]]:
    """Both players answer their first prompts, but the process that applies the clicks stores them and
    says nothing more (as if it died right after each commit): the round's lines and next prompts are owed."""
    world, bot = table.world, table.bot
    game_id = (await bot.service.game_in_channel(table.channel.id)).id
    sims = [SimulatedPlayer(world, u, table.channel, seed=i) for i, u in enumerate(table.users[:2])]
    for sim in sims:
        await world.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=30, what="a prompt")

    async def died(result) -> None:
        return None

    bot.announcer.announce = died
    for sim in sims:
        assert await sim.step()
    await table.settle()
    del bot.announcer.announce  # the class's own again: the process that owns the server is alive
    assert await bot.service.outbox(game_id), "the commits' announcements wait in the outbox"
    assert all(sim.current_prompt() is None for sim in sims), "the next prompts were not sent"
    return game_id, sims


async def _sweep(table, clock: ManualClock, seconds: float) -> None:
    """Let the clock run on `seconds`, then wait for the sweep that is due by then to have run."""
    announcer = table.bot.announcer
    before = announcer.sweeps
    clock.advance(seconds)
    await table.world.wait_for(lambda: announcer.sweeps > before, timeout=60, what="a sweep")
    await table.settle()


async def test_an_orphaned_announcement_is_delivered_with_the_games_next_prompts(fake_discord, tmp_path):
    clock = ManualClock(1_000_000.0)
    table, _ = await two_player_game(fake_discord, tmp_path, clock=clock)
    try:
        game_id, sims = await _died_after_commit(table)
        await _sweep(table, clock, SWEEP_INTERVAL)
        assert SWEEP_INTERVAL < ORPHANED_AFTER
        assert await table.bot.service.outbox(game_id), "too recent: its own process may still be at it"
        await _sweep(table, clock, ORPHANED_AFTER)
        assert await table.bot.service.outbox(game_id) == []
        expected = await expected_lines(table.db, game_id)
        assert shown_lines(table.channel, game_id) == expected, "every public line once, in order"
        for sim in sims:
            await fake_discord.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=30,
                                        what="the next round's prompt")
        assert await sims[0].step(), "the game goes on"
        await table.settle()
    finally:
        await table.stop_bot()


async def test_a_process_that_died_between_the_lines_and_the_prompts_leaves_the_prompts_to_the_sweep(
        fake_discord, tmp_path):
    """An announcement counts as delivered once its prompts are out too, not when its lines are."""
    world = fake_discord
    clock = ManualClock(1_000_000.0)
    table, _ = await two_player_game(world, tmp_path, clock=clock)
    try:
        bot = table.bot
        game_id = (await bot.service.game_in_channel(table.channel.id)).id
        sims = [SimulatedPlayer(world, u, table.channel, seed=i) for i, u in enumerate(table.users[:2])]
        for sim in sims:
            await world.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=30, what="a prompt")

        async def died(result, **kwargs) -> None:  # the lines went out; the process died before the prompts
            raise ConnectionResetError("the process is gone")

        bot.announcer.sync_messages = died
        for sim in sims:
            assert await sim.step()
        await table.settle()
        del bot.announcer.sync_messages
        assert shown_lines(table.channel, game_id) == await expected_lines(table.db, game_id)
        assert await bot.service.outbox(game_id), "not delivered while its prompts are owed"
        assert any(sim.current_prompt() is None for sim in sims)
        await _sweep(table, clock, ORPHANED_AFTER + 1)
        assert await bot.service.outbox(game_id) == []
        for sim in sims:
            await world.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=30,
                                 what="the next round's prompt")
        assert shown_lines(table.channel, game_id) == await expected_lines(table.db, game_id), "no line twice"
    finally:
        await table.stop_bot()


async def test_the_games_of_another_processs_servers_are_left_to_it(fake_discord, tmp_path):
    clock = ManualClock(1_000_000.0)
    table, _ = await two_player_game(fake_discord, tmp_path, clock=clock)
    try:
        game_id, sims = await _died_after_commit(table)
        lines = shown_lines(table.channel, game_id)
        table.bot.owns_guild = lambda guild_id: guild_id != table.guild.id
        await _sweep(table, clock, ORPHANED_AFTER + SWEEP_INTERVAL)
        assert await table.bot.service.outbox(game_id), "left for the process that owns the server"
        assert shown_lines(table.channel, game_id) == lines
        assert all(sim.current_prompt() is None for sim in sims)
    finally:
        await table.stop_bot()


async def test_a_game_whose_delivery_this_process_is_retrying_is_left_to_the_retry(fake_discord, tmp_path,
                                                                                 monkeypatch):
    monkeypatch.setattr("cogs.announcer.RETRY_DELAYS", (3600.0,))  # the retry waits while the test looks
    world = fake_discord
    clock = ManualClock(1_000_000.0)
    table, _ = await two_player_game(world, tmp_path, clock=clock)
    try:
        game_id, _sims = await _died_after_commit(table)
        announcer = table.bot.announcer
        world.strict = False  # the channel refuses on purpose
        world.fail("POST", f"/channels/{table.channel.id}/messages", status=503, message="Service Unavailable",
                   times=1000)
        await _sweep(table, clock, ORPHANED_AFTER + 1)  # its delivery fails: a redelivery is scheduled
        assert game_id in announcer._retries
        posts = sum(1 for r in world.requests if r.method == "POST")
        await _sweep(table, clock, SWEEP_INTERVAL)
        assert sum(1 for r in world.requests if r.method == "POST") == posts, "the sweep left it to the retry"
    finally:
        world.clear_faults()
        await table.stop_bot()
