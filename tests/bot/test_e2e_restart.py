"""The bot is killed (SIGKILL) mid-auction and mid-development; after a restart the old buttons work."""

from __future__ import annotations

import subprocess
import sys

from bot.autoplay import SimulatedPlayer, game_over
from bot.localdiscord import FakeDiscord, FakeMessage
from tests.bot.harness import ROOT, Table, new_table


def _syncs(world: FakeDiscord) -> int:
    return sum(1 for r in world.requests if r.method == "PUT" and r.path.endswith("/commands") and r.status == 200)


async def _start(table: Table) -> None:
    before = _syncs(table.world)
    table.start_process()
    await table.world.wait_for(lambda: _syncs(table.world) > before, timeout=60, what="the bot process to start")
    await table.world.idle(quiet=0.2, timeout=30)


def _title(msg: FakeMessage | None) -> str:
    return (msg.embeds[0].get("title") or "") if msg is not None and msg.embeds else ""


async def _until(world: FakeDiscord, sims: list[SimulatedPlayer], want: str) -> None:
    """Let the players decide until the first one's prompt title contains ``want``."""
    for _ in range(400):
        if want in _title(sims[0].current_prompt()):
            return
        acted = False
        for sim in sims:
            if sim.current_prompt() is not None and want not in _title(sim.current_prompt()):
                acted = await sim.step() or acted
        if not acted:
            await world.idle(quiet=0.1, timeout=30)
    raise AssertionError(f"never reached a prompt titled {want!r}")


async def test_restart_mid_auction_and_mid_development_loses_nothing(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    ann, bo = table.users
    await _start(table)
    try:
        rec = await ann.slash(table.channel, "viceroy new", seats=3, ai=1, timeout=15)
        await world.idle(quiet=0.1)
        await bo.click(rec.reply, label="Join", timeout=15)
        await world.idle(quiet=0.1)
        await ann.click(rec.reply, label="Start", timeout=15)
        await world.idle(quiet=0.2)
        sims = [SimulatedPlayer(world, u, table.channel, seed=i + 3) for i, u in enumerate((ann, bo))]

        # Mid-auction: Ann's bid is in, Bo's is not.
        await _until(world, sims, "auction round")
        await world.wait_for(lambda: sims[1].current_prompt() is not None, timeout=15, what="Bo's auction prompt")
        assert await sims[0].step()
        await world.idle(quiet=0.2)
        bo_old_prompt = sims[1].current_prompt()
        table.kill_process()
        await _start(table)
        assert bo_old_prompt is not None and "auction round" in _title(bo_old_prompt)
        reveals_before = sum("bids:" in m.content for m in table.channel.messages())
        assert await sims[1].step(), "Bo's prompt from before the restart still works"
        await world.wait_for(lambda: sum("bids:" in m.content for m in table.channel.messages()) > reveals_before,
                             timeout=15, what="the auction reveal after the restart")
        reveal = [m for m in table.channel.messages() if "bids:" in m.content][-1].content
        assert "Ann" in reveal and "Bo" in reveal, "Ann's choice from before the restart was kept"

        # Mid-development: Ann's plan is in, Bo's is not.
        await _until(world, sims, "development round")
        await world.wait_for(lambda: "development round" in _title(sims[1].current_prompt()), timeout=30,
                             what="Bo's development prompt")
        assert await sims[0].step()
        await world.idle(quiet=0.2)
        table.kill_process()
        await _start(table)
        assert await sims[1].step(), "Bo's development prompt from before the restart still works"

        # And the game plays on to its end.
        import asyncio

        await asyncio.gather(*(s.run(timeout=300) for s in sims))
        assert game_over(table.channel)
    finally:
        table.kill_process()
    check = subprocess.run([sys.executable, "-m", "bot.check", "--db", str(table.db)], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "MISMATCH" not in check.stdout
