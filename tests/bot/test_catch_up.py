"""Start-up catch-up: what a crash left unsaid is said once, and nothing that was said is said again."""

from __future__ import annotations

from bot.autoplay import SimulatedPlayer, game_over
from bot.localdiscord import FakeChannel
from tests.bot.harness import new_table


def score_sheets(channel: FakeChannel) -> int:
    return sum("final scores" in (e.get("title") or "") for m in channel.messages() for e in m.embeds)


async def test_a_game_that_finished_unannounced_gets_its_score_sheet_once(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann"])
    bot = await table.start_bot()
    try:
        ann = table.users[0]
        rec = await ann.slash(table.channel, "viceroy new", seats=1)
        await table.settle()

        async def crashed(*args, **kwargs):  # the process died between committing the end and posting it
            return None

        bot.announcer._post_final = crashed
        await ann.click(rec.reply, label="Start")
        await table.settle()
        sim = SimulatedPlayer(world, ann, table.channel, seed=1)
        for _ in range(400):
            if await bot.service.list_games(statuses=("finished",)):
                break
            await sim.step()
            await table.settle()
    finally:
        await table.settle()
        await table.stop_bot()
    assert not game_over(table.channel)
    await table.start_bot()
    try:
        assert (await table.bot.service.list_games(statuses=("finished",))), "the game finished"
        await world.wait_for(lambda: game_over(table.channel), timeout=60, what="the score sheet after the restart")
        await table.settle()
        sheets = score_sheets(table.channel)
        assert sheets >= 1
    finally:
        await table.stop_bot()
    await table.start_bot()
    try:
        await table.settle()
        assert score_sheets(table.channel) == sheets, "a restart re-posted a score sheet that was already there"
    finally:
        await table.stop_bot()
