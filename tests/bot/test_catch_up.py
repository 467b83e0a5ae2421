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
            # On to the next prompt as soon as it is there (the table's edit after a move waits a second for
            # more moves, TABLE_EDIT_PAUSE); when none comes, until the bot is done (the game may be over).
            await world.wait_for(lambda: sim.current_prompt() is not None or table.settled(), timeout=120,
                                 what="Ann's next prompt or a settled bot")
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


def _writes(world) -> int:
    return sum(1 for r in world.requests if r.method in ("POST", "PATCH", "DELETE") and r.path.startswith("/channels/"))


async def test_a_restart_with_every_message_intact_sends_nothing(fake_discord, tmp_path):
    from tests.bot.test_bot_interactions import two_player_game

    world = fake_discord
    table, _ = await two_player_game(world, tmp_path)
    try:
        sims = [SimulatedPlayer(world, u, table.channel, seed=i) for i, u in enumerate(table.users)]
        assert await sims[0].step()  # one seat has chosen, the other not: prompts, screens and the table are out
        await table.settle()
    finally:
        await table.stop_bot()
    before = _writes(world)
    await table.start_bot()
    try:
        await table.settle()
        await world.wait_for(lambda: not table.bot.announcer.busy(), timeout=60, what="the catch-up")
        await table.settle()
        assert _writes(world) == before, [(r.method, r.path) for r in world.requests[-5:]]
        assert await sims[1].step(), "the prompt from before the restart still works"
    finally:
        await table.stop_bot()
