"""The bot is killed (SIGKILL) mid-auction and mid-development; after a restart the old buttons work."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from bot.autoplay import SimulatedPlayer, game_over
from bot.localdiscord import FakeDiscord, FakeMessage
from tests.bot.harness import ROOT, Table, new_table


async def _start(table: Table) -> None:
    await table.start_process_ready()


def _has_button(msg: FakeMessage, label: str) -> bool:
    return any(c.get("label") == label for c in msg.buttons())


def _text(msg: FakeMessage) -> str:
    return msg.content + "".join(f"{e.get('title', '')}\n{e.get('description', '')}" for e in msg.embeds)


def _title(msg: FakeMessage | None) -> str:
    return (msg.embeds[0].get("title") or "") if msg is not None and msg.embeds else ""


async def _until(world: FakeDiscord, sims: list[SimulatedPlayer], want: str,
                 table: Table | None = None) -> tuple[SimulatedPlayer, SimulatedPlayer]:
    """Let the players decide until both face a prompt titled ``want``; returns them (first to get it first)."""
    import time

    deadline = time.monotonic() + 180
    arrived: list[SimulatedPlayer] = []
    while time.monotonic() < deadline:
        acted = False
        for sim in sims:
            prompt = sim.current_prompt()
            if prompt is None:
                continue
            if want in _title(prompt):
                if sim not in arrived:
                    arrived.append(sim)
            else:
                acted = await sim.step() or acted
        if len(arrived) == len(sims):
            return arrived[0], arrived[1]
        if not acted:
            # Wait for a new prompt. (An idle world returns from idle() without yielding: looping on it
            # would starve the fake Discord, which runs on this event loop, of the time to answer the bot.)
            shown = [getattr(sim.current_prompt(), "id", None) for sim in sims]
            try:
                await world.wait_for(lambda shown=shown: [getattr(s.current_prompt(), "id", None) for s in sims] != shown,
                                     timeout=5, what="a new prompt")
            except TimeoutError:
                pass
            await world.idle(quiet=0.1, timeout=30)
    seen = {s.user.name: [(_title(m) or m.content[:60], bool(m.iter_components())) for m in s.user.dms()[-4:]] for s in sims}
    pending_requests = [(r.method, r.path) for r in world.requests if r.status == 0]
    chan = [(_title(m) or m.content[:80]) for m in (table.channel.messages()[-6:] if table else [])]
    raise AssertionError(f"never reached prompts titled {want!r} for both players; channel: {chan}; last DMs: {seen}; "
                         f"unanswered requests: {pending_requests}; last: {[(r.method, r.path, r.status) for r in world.requests[-5:]]}")


async def test_restart_mid_auction_and_mid_development_loses_nothing(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    ann, bo = table.users
    await _start(table)
    try:
        rec = await ann.slash(table.channel, "viceroy new", seats=3, ai=1, ai_level="easy", timeout=15)
        # Wait for what each step shows, not for a quiet moment: on a busy machine the bot can be silent
        # for a while between acknowledging a click and storing it.
        lobby_id = rec.reply.id
        await world.wait_for(lambda: _has_button(world.messages[lobby_id], "Join"), timeout=60,
                             what="the lobby's Join button")
        await bo.click(world.messages[lobby_id], label="Join", timeout=15)
        await world.wait_for(lambda: "Seats: 3/3" in _text(world.messages[lobby_id]), timeout=60,
                             what="Bo seated in the lobby")
        await ann.click(world.messages[lobby_id], label="Start", timeout=15)
        sims = [SimulatedPlayer(world, u, table.channel, seed=i + 3) for i, u in enumerate((ann, bo))]

        # Mid-auction: one player's bid is in, the other's is not.
        first, second = await _until(world, sims, "auction round", table)
        assert await first.step()
        await world.idle(quiet=1.0, timeout=30)  # the bot has finished talking: the kill hits a quiet moment
        bo_old_prompt = second.current_prompt()
        table.kill_process()
        await _start(table)
        assert bo_old_prompt is not None and "auction round" in _title(bo_old_prompt)
        reveals_before = sum("bids:" in m.content for m in table.channel.messages())
        assert await second.step(), "the prompt from before the restart still works"
        await world.wait_for(lambda: sum("bids:" in m.content for m in table.channel.messages()) > reveals_before,
                             timeout=15, what="the auction reveal after the restart")
        reveal = [m for m in table.channel.messages() if "bids:" in m.content][-1].content
        assert "Ann" in reveal and "Bo" in reveal, "the choice made before the restart was kept"

        # Mid-development: one player's plan is in, the other's is not.
        first, second = await _until(world, sims, "development round", table)
        assert await first.step()
        await world.idle(quiet=1.0, timeout=30)
        table.kill_process()
        await _start(table)
        assert await second.step(), "the development prompt from before the restart still works"

        # And the game plays on to its end (a bot that stopped answering would fail here: there is no
        # second restart to hide it).
        await asyncio.gather(*(s.run(timeout=360) for s in sims))  # the budget the three tries used to share
        assert game_over(table.channel)
    finally:
        table.kill_process()
    check = subprocess.run([sys.executable, "-m", "bot.check", "--db", str(table.db)], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "MISMATCH" not in check.stdout
