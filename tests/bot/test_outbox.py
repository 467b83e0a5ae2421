"""Durable announcements: what a commit must say is in the outbox with it, shown once, also after a crash."""

from __future__ import annotations

from bot.autoplay import SimulatedPlayer
from tests.bot.lines import expected_lines, shown_lines
from tests.bot.test_bot_interactions import two_player_game


async def _game_id(table) -> int:
    return (await table.bot.service.game_in_channel(table.channel.id)).id


async def _setup_choices(table) -> list[SimulatedPlayer]:
    sims = [SimulatedPlayer(table.world, u, table.channel, seed=i) for i, u in enumerate(table.users[:2])]
    for sim in sims:
        await table.world.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=30, what="a prompt")
    return sims


async def test_every_commit_leaves_its_announcement_in_the_outbox_until_it_is_shown(fake_discord, tmp_path):
    world = fake_discord
    table, _ = await two_player_game(world, tmp_path)
    try:
        game_id = await _game_id(table)
        service = table.bot.service
        assert await service.outbox(game_id) == [], "the start was announced and marked delivered"
        world.strict = False  # the channel refuses on purpose below
        world.fail("POST", f"/channels/{table.channel.id}/messages", status=503, message="Service Unavailable",
                   times=1000)
        sims = await _setup_choices(table)
        for sim in sims:
            assert await sim.step()
        await world.wait_for(lambda: table.bot.announcer._retries, timeout=30, what="a scheduled redelivery")
        rows = await service.outbox(game_id)
        assert rows and rows[-1].payload["public"], "the lines that could not be shown wait in the outbox"
        assert rows[-1].payload["channel"] == table.channel.id
    finally:
        await table.settle()
        await table.stop_bot()
    world.clear_faults()
    # A new process: start-up drains the outbox, in order, each line once.
    await table.start_bot()
    try:
        await world.wait_for(lambda: not table.bot.announcer.busy(), timeout=60, what="the catch-up")
        await table.settle()
        expected = await expected_lines(table.db, game_id)
        await world.wait_for(lambda: shown_lines(table.channel, game_id) == expected, timeout=60,
                             what="every public line once, in order")
        assert await table.bot.service.outbox(game_id) == []
    finally:
        await table.stop_bot()


async def test_a_crash_after_discord_showed_a_line_but_before_it_was_recorded_shows_it_once(fake_discord, tmp_path):
    world = fake_discord
    table, _ = await two_player_game(world, tmp_path)
    try:
        game_id = await _game_id(table)
        sims = await _setup_choices(table)

        record = table.bot.service.outbox_progress

        async def crash(outbox_id, sent, **kwargs):
            if "c0" in sent:  # the process dies right after Discord accepted the channel lines
                raise RuntimeError("killed")
            await record(outbox_id, sent, **kwargs)

        table.bot.service.outbox_progress = crash
        for sim in sims:
            assert await sim.step()
        await table.settle()
        shown = shown_lines(table.channel, game_id)
        assert any("starts with" in line for line in shown), "the reveal was shown"
        assert len(await table.bot.service.outbox(game_id)) == 1, "but not recorded as delivered"
    finally:
        await table.settle()
        await table.stop_bot()
    await table.start_bot()
    try:
        await world.wait_for(lambda: not table.bot.announcer.busy(), timeout=60, what="the catch-up")
        await table.settle()
        assert await table.bot.service.outbox(game_id) == [], "the redelivery completed"
        assert shown_lines(table.channel, game_id) == shown, "nothing was shown twice"
        assert shown == await expected_lines(table.db, game_id)
        # The reveal went out in the auction's new table message: Discord returned that message for the
        # lines' nonce, and it was adopted as the table message instead of a second one being posted.
        posts = [m for m in table.channel.messages() if any("auction round 1" in (e.get("title") or "") for e in m.embeds)]
        assert len(posts) == 1 and "starts with" in posts[0].content
        records = [m for m in await table.bot.service.prompt_messages(game_id) if m.purpose == "status"]
        assert [m.message_id for m in records] == [posts[0].id]
    finally:
        await table.stop_bot()
