"""Invasion games through the real bot on the strict fake Discord, to the final scores (one with a SIGKILL mid-combat)."""

from __future__ import annotations

import asyncio

from tests.darkness.test_e2e_discord import _game


async def test_three_player_game_with_invasion_to_the_final_scores(fake_discord, tmp_path):
    result = await _game(fake_discord, tmp_path, ["Ann", "Bo", "Cy"], 3, "invasion")
    assert result["options"]["modules"] == ["invasion"]
    public = result["public"]
    assert public.count("Combat revealed:") == 3 and "A monster joins the stack" in public


async def test_a_sigkill_during_a_combat_with_one_plan_in_loses_nothing(fake_discord, tmp_path):
    """The bot process is killed while one combat plan is sealed and the other is not; after the restart the
    old prompt still works, the combat reveals both plans and the game plays on to the final scores."""
    import subprocess
    import sys

    from bot.autoplay import SimulatedPlayer, game_over
    from tests.bot.harness import ROOT, new_table
    from tests.bot.test_e2e_restart import _has_button, _start, _text, _until

    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    ann, bo = table.users
    await _start(table)
    try:
        rec = await ann.slash(table.channel, "viceroy new", seats=2, modules="invasion", timeout=15)
        lobby_id = rec.reply.id
        await world.wait_for(lambda: _has_button(world.messages[lobby_id], "Join"), timeout=60,
                             what="the lobby's Join button")
        await bo.click(world.messages[lobby_id], label="Join", timeout=15)
        await world.wait_for(lambda: "Seats: 2/2" in _text(world.messages[lobby_id]), timeout=60,
                             what="Bo seated in the lobby")
        await ann.click(world.messages[lobby_id], label="Start", timeout=15)
        sims = [SimulatedPlayer(world, u, table.channel, seed=i + 5) for i, u in enumerate((ann, bo))]

        first, second = await _until(world, sims, "combat!", table)
        assert await first.step()
        await world.idle(quiet=1.0, timeout=30)  # the bot has finished talking: the kill hits a quiet moment
        table.kill_process()
        await _start(table)
        assert await second.step(), "the combat prompt from before the restart still works"
        await world.wait_for(lambda: any("Combat revealed:" in m.content for m in table.channel.messages()),
                             timeout=30, what="the combat reveal after the restart")
        reveal = next(m for m in table.channel.messages() if "Combat revealed:" in m.content).content
        assert "Ann" in reveal and "Bo" in reveal, "the plan sealed before the restart was kept"
        await asyncio.gather(*(s.run(timeout=600) for s in sims))
        assert game_over(table.channel)
    finally:
        table.kill_process()
    check = subprocess.run([sys.executable, "-m", "bot.check", "--db", str(table.db)], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
