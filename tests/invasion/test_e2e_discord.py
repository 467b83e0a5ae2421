"""Invasion games through the real bot on the strict fake Discord, to the final scores (two with a SIGKILL of
the bot process mid-combat)."""

from __future__ import annotations

from bot.autoplay import SimulatedPlayer, game_over, play_together
from tests.bot.harness import new_table
from tests.darkness.test_e2e_discord import _game
from tests.e2e_restart import assert_records_replay, kill_and_restart, start, start_game, until


async def test_three_player_game_with_invasion_to_the_final_scores(fake_discord, tmp_path):
    result = await _game(fake_discord, tmp_path, ["Ann", "Bo", "Cy"], 3, "invasion")
    assert result["options"]["modules"] == ["invasion"]
    public = result["public"]
    assert public.count("Combat revealed:") == 3 and "A monster joins the stack" in public


async def _killed_mid_combat(world, tmp_path, names: list[str], modules: str, seed: int) -> list:  # noqa: ANN001
    """A game of human players against the bot process, killed while the first combat plan is sealed and the
    others are not; after the restart the old prompts still work, the combat reveals every plan, the game
    plays on to the final scores and every stored record replays to its stored state. Returns the
    channel's messages."""
    table = await new_table(world, tmp_path, names)
    host, *guests = table.users
    await start(table)
    try:
        await start_game(table, host, guests, len(names), modules=modules)
        sims = [SimulatedPlayer(world, u, table.channel, seed=i + seed) for i, u in enumerate(table.users)]
        first, *others = await until(world, sims, "combat!", table)
        assert await first.step()
        await kill_and_restart(table)
        for sim in others:
            assert await sim.step(), "the combat prompt from before the restart still works"
        await world.wait_for(lambda: any("Combat revealed:" in m.content for m in table.channel.messages()),
                             timeout=30, what="the combat reveal after the restart")
        reveal = next(m for m in table.channel.messages() if "Combat revealed:" in m.content).content
        assert all(name in reveal for name in names), "the plan sealed before the restart was kept"
        await play_together(sims, timeout=900)
        assert game_over(table.channel)
    finally:
        table.kill_process()
    assert_records_replay(table)
    return table.channel.messages()


async def test_a_sigkill_during_a_combat_with_one_plan_in_loses_nothing(fake_discord, tmp_path):
    await _killed_mid_combat(fake_discord, tmp_path, ["Ann", "Bo"], "invasion", seed=5)


async def test_three_players_every_module_for_three_with_a_sigkill_mid_combat(fake_discord, tmp_path):
    """Every module a three-player game may have: darkness, aristocrats, invasion and underworld (the fifth,
    duo, is for one or two players only)."""
    messages = await _killed_mid_combat(fake_discord, tmp_path, ["Ann", "Bo", "Cy"],
                                        "darkness,aristocrats,invasion,underworld", seed=7)
    public = " ".join(m.content for m in messages)
    assert public.count("Combat revealed:") == 3
    assert "Domain card rewards:" in public and "Judgement tokens are revealed" in public
