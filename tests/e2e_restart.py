"""Shared steps of the end-to-end games that run the bot as a process and kill it (SIGKILL) mid-game: start
and wait for the gateway session, open a lobby and start the game, bring every simulated player to a prompt,
kill and restart the bot at a quiet moment, and check the stored records replay to the stored states."""

from __future__ import annotations

import subprocess
import sys
import time

from bot.autoplay import SimulatedPlayer
from bot.localdiscord import FakeDiscord, FakeMessage, FakeUser
from tests.bot.harness import ROOT, Table


async def start(table: Table) -> None:
    await table.start_process_ready()


def has_button(msg: FakeMessage, label: str) -> bool:
    return any(c.get("label") == label for c in msg.buttons())


def text(msg: FakeMessage) -> str:
    return msg.content + "".join(f"{e.get('title', '')}\n{e.get('description', '')}" for e in msg.embeds)


def title(msg: FakeMessage | None) -> str:
    return (msg.embeds[0].get("title") or "") if msg is not None and msg.embeds else ""


async def start_game(table: Table, host: FakeUser, guests: list[FakeUser], seats: int, **options: object) -> None:
    """``/viceroy new`` by ``host`` against the bot process, every guest joins, the host presses Start.
    Waits for what each step shows, not for a quiet moment: on a busy machine the bot can be silent for a
    while between acknowledging a click and storing it."""
    world = table.world
    rec = await host.slash(table.channel, "viceroy new", seats=seats, timeout=15, **options)
    lobby_id = rec.reply.id
    await world.wait_for(lambda: has_button(world.messages[lobby_id], "Join"), timeout=60,
                         what="the lobby's Join button")
    for seated, guest in enumerate(guests, start=2):
        await guest.click(world.messages[lobby_id], label="Join", timeout=15)
        want = f"Seats: {seated + int(options.get('ai', 0))}/{seats}"  # AI seats are seated from the start
        await world.wait_for(lambda want=want: want in text(world.messages[lobby_id]), timeout=60,
                             what=f"{guest.name} seated in the lobby")
    await host.click(world.messages[lobby_id], label="Start", timeout=15)


async def until(world: FakeDiscord, sims: list[SimulatedPlayer], want: str,
                table: Table | None = None) -> list[SimulatedPlayer]:
    """Let the players decide until all face a prompt titled ``want``; returns them, first to get it first."""
    deadline = time.monotonic() + 180
    arrived: list[SimulatedPlayer] = []
    while time.monotonic() < deadline:
        acted = False
        for sim in sims:
            prompt = sim.current_prompt()
            if prompt is None:
                continue
            if want in title(prompt):
                if sim not in arrived:
                    arrived.append(sim)
            else:
                acted = await sim.step() or acted
        if len(arrived) == len(sims):
            return arrived
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
    seen = {s.user.name: [(title(m) or m.content[:60], bool(m.iter_components())) for m in s.user.dms()[-4:]] for s in sims}
    pending_requests = [(r.method, r.path) for r in world.requests if r.status == 0]
    chan = [(title(m) or m.content[:80]) for m in (table.channel.messages()[-6:] if table else [])]
    raise AssertionError(f"never reached prompts titled {want!r} for every player; channel: {chan}; last DMs: {seen}; "
                         f"unanswered requests: {pending_requests}; last: {[(r.method, r.path, r.status) for r in world.requests[-5:]]}")


async def kill_and_restart(table: Table) -> None:
    """SIGKILL the bot process once it has finished talking (the kill hits a quiet moment), then start it again."""
    await table.world.idle(quiet=1.0, timeout=30)
    table.kill_process()
    await start(table)


def assert_records_replay(table: Table) -> None:
    """``python -m bot.check``: every stored game's record replays to its stored state."""
    check = subprocess.run([sys.executable, "-m", "bot.check", "--db", str(table.db)], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "MISMATCH" not in check.stdout
