"""The bot is killed (SIGKILL) mid-auction and mid-development; after a restart the old buttons work."""

from __future__ import annotations

from bot.autoplay import SimulatedPlayer, game_over, play_together
from tests.bot.harness import new_table
from tests.e2e_restart import assert_records_replay, kill_and_restart, start_game, title, until
from tests.e2e_restart import start as _start  # other games' restart tests import it from here


async def test_restart_mid_auction_and_mid_development_loses_nothing(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    ann, bo = table.users
    await _start(table)
    try:
        await start_game(table, ann, [bo], 3, ai=1, ai_level="easy")
        sims = [SimulatedPlayer(world, u, table.channel, seed=i + 3) for i, u in enumerate((ann, bo))]

        # Mid-auction: one player's bid is in, the other's is not.
        first, second = await until(world, sims, "auction round", table)
        assert await first.step()
        bo_old_prompt = second.current_prompt()
        await kill_and_restart(table)
        assert bo_old_prompt is not None and "auction round" in title(bo_old_prompt)
        reveals_before = sum("bids:" in m.content for m in table.channel.messages())
        assert await second.step(), "the prompt from before the restart still works"
        await world.wait_for(lambda: sum("bids:" in m.content for m in table.channel.messages()) > reveals_before,
                             timeout=15, what="the auction reveal after the restart")
        reveal = [m for m in table.channel.messages() if "bids:" in m.content][-1].content
        assert "Ann" in reveal and "Bo" in reveal, "the choice made before the restart was kept"

        # Mid-development: one player's plan is in, the other's is not.
        first, second = await until(world, sims, "development round", table)
        assert await first.step()
        await kill_and_restart(table)
        assert await second.step(), "the development prompt from before the restart still works"

        # And the game plays on to its end (a bot that stopped answering would fail here: there is no
        # second restart to hide it).
        await play_together(sims, timeout=360)  # the budget the three tries used to share
        assert game_over(table.channel)
    finally:
        table.kill_process()
    assert_records_replay(table)
