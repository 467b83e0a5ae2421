"""The bot process is killed (SIGKILL) in the middle of a Splendor Duel turn; after a restart the prompt from
before the kill still works, with the half-built plan kept, and the game plays on to its end."""

from __future__ import annotations

import subprocess
import sys
import time

from bot.autoplay import controls, game_over, play_together
from bot.presenters.splendor_duel.autoplay import SplendorPlayer
from tests.bot.harness import ROOT, new_table
from tests.bot.test_e2e_restart import _start


async def test_restart_mid_turn_keeps_the_prompt_and_the_plan(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    ann, bo = table.users
    await _start(table)
    try:
        rec = await ann.slash(table.channel, "splendorduel new", timeout=15)
        await world.idle(quiet=0.1)
        await bo.click(rec.reply, label="Join", timeout=15)
        await world.idle(quiet=0.1)
        await ann.click(rec.reply, label="Start", timeout=15)
        await world.idle(quiet=0.2)
        sims = [SplendorPlayer(world, u, table.channel, seed=i + 5) for i, u in enumerate((ann, bo))]

        # A few turns, then stop in the middle of one: the mode and first token chosen, not confirmed.
        deadline = time.monotonic() + 300
        turns, mover = 0, None
        while mover is None and time.monotonic() < deadline:
            acted = False
            for sim in sims:
                prompt = sim.current_prompt()
                if prompt is None:
                    continue
                if turns >= 6 and "mode.take" in controls(prompt) and "first" not in controls(prompt):
                    await sim._click(prompt, controls(prompt)["mode.take"])
                    if "first" in controls(prompt):
                        mover = sim
                        break
                    # The board is empty (the deal is random): nothing to take this turn, so play it out.
                    await sim._click(prompt, controls(prompt)["clear"])
                acted = await sim.step() or acted
            turns += acted
            if mover is None and not acted:
                await world.wait_for(lambda: any(s.current_prompt() is not None for s in sims) or game_over(
                    table.channel), timeout=60, what="a turn prompt")
        assert mover is not None, "no turn prompt came"
        first = controls(prompt)["first"]
        await mover._select(prompt, first, [first["options"][0]["value"]])
        assert "line" in controls(prompt)
        await world.idle(quiet=1.0, timeout=30)
        table.kill_process()
        await _start(table)

        # The old message's menus still work and remember the first token.
        ctl = controls(prompt)
        line = ctl["line"]
        await mover._select(prompt, line, [line["options"][0]["value"]])
        ctl = controls(prompt)
        if "discard" in ctl:
            n = ctl["discard"].get("min_values", 1)
            await mover._select(prompt, ctl["discard"], [o["value"] for o in ctl["discard"]["options"][:n]])
        moves_before = len(table.channel.messages())
        await mover._click(prompt, controls(prompt)["confirm"])
        await world.wait_for(lambda: len(table.channel.messages()) > moves_before, timeout=30,
                             what="the turn confirmed after the restart to be announced")

        # No second restart to hide a bot that stopped answering; the budget the three tries shared.
        await play_together(sims, timeout=720)
        assert game_over(table.channel)
    finally:
        table.kill_process()
    check = subprocess.run([sys.executable, "-m", "bot.check", "--db", str(table.db)], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
