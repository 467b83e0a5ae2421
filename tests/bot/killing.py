"""Games played through the real bot process while it is SIGKILLed at random moments (test and benchmark).

The bot runs as a subprocess against the fake Discord; two simulated players play Viceroy through their
DMs; a killer task kills the process after a random pause (seeded), restarts it and waits for its gateway
session, again and again. At the end of each game the channel must show every public line of the stored
log exactly once, in order, and exactly one score sheet.
"""

from __future__ import annotations

import asyncio
import collections
import random
import time
from dataclasses import dataclass, field

from bot.autoplay import SimulatedPlayer, game_over
from bot.localdiscord import FakeChannel, FakeDiscord, FakeMessage
from tests.bot.harness import Table
from tests.bot.lines import expected_lines, shown_lines

# What a player's click may meet while the bot is down or restarting: no answer, or a prompt that changed
# under it. The player looks again.
_DISRUPTED = (TimeoutError, AssertionError, KeyError, ValueError, IndexError)
STALL = 20.0  # seconds without a new prompt after which a player answers its newest open prompt again


@dataclass
class KillReport:
    games: int = 0
    kills: int = 0
    lines: int = 0  # public lines the games' logs hold
    shown: int = 0  # public lines the channels show (each copy counted)
    lost: int = 0
    doubled: int = 0
    out_of_order: int = 0  # games whose shown lines are all there, once each, but not in the log's order
    sheets: list[int] = field(default_factory=list)  # score sheets posted per game
    seconds: float = 0.0

    def ok(self) -> bool:
        return not (self.lost or self.doubled or self.out_of_order) and all(n == 1 for n in self.sheets)


def _has_button(msg: FakeMessage, label: str) -> bool:
    return any(c.get("label") == label for c in msg.buttons())


def _text(msg: FakeMessage) -> str:
    return msg.content + "".join(f"{e.get('title', '')}\n{e.get('description', '')}" for e in msg.embeds)


async def _new_game(table: Table) -> None:
    world, channel = table.world, table.channel
    ann, bo = table.users[:2]
    rec = await ann.slash(channel, "viceroy new", seats=2, timeout=30)
    lobby = rec.reply.id
    await world.wait_for(lambda: _has_button(world.messages[lobby], "Join"), timeout=60, what="the lobby")
    await bo.click(world.messages[lobby], label="Join", timeout=30)
    await world.wait_for(lambda: "Seats: 2/2" in _text(world.messages[lobby]), timeout=60, what="Bo seated")
    await ann.click(world.messages[lobby], label="Start", timeout=30)


async def _play(sim: SimulatedPlayer, channel: FakeChannel, deadline: float) -> None:
    world = sim.world
    last_progress = time.monotonic()
    last_error: BaseException | None = None
    while not game_over(channel):
        if time.monotonic() > deadline:
            prompt = sim.current_prompt()
            raise TimeoutError(f"{sim.user.name} did not finish the game; last error: {last_error!r}; open prompt: "
                               f"{prompt and [c.get('custom_id') for c in prompt.iter_components()]}")
        try:
            if await sim.step():
                last_progress = time.monotonic()
                continue
        except _DISRUPTED as exc:
            last_error = exc
            await asyncio.sleep(0.2)
            continue
        if time.monotonic() - last_progress > STALL:
            # A click the bot acknowledged but died before storing: the prompt is still open, answer it again.
            sim.done_keys.clear()
            last_progress = time.monotonic()
        try:
            await world.wait_for(lambda: sim.current_prompt() is not None or game_over(channel), timeout=5,
                                 what=f"a prompt for {sim.user.name}")
        except TimeoutError:
            pass


async def _killer(table: Table, rng: random.Random, report: KillReport, kills: int, pause: tuple[float, float]) -> None:
    for _ in range(kills):
        await asyncio.sleep(rng.uniform(*pause))
        if game_over(table.channel):
            return
        table.kill_process()
        report.kills += 1
        await table.start_process_ready()


async def kill_game(table: Table, game_id: int, rng: random.Random, report: KillReport, *, kills: int,
                    pause: tuple[float, float] = (0.3, 4.0), timeout: float = 900.0) -> None:
    """Play game `game_id` (just started) to its end through the bot process, killing it up to `kills` times."""
    world, channel = table.world, table.channel
    sims = [SimulatedPlayer(world, u, channel, seed=rng.randrange(1 << 30)) for u in table.users[:2]]
    deadline = time.monotonic() + timeout
    killer = asyncio.create_task(_killer(table, rng, report, kills, pause))
    try:
        await asyncio.gather(*(_play(s, channel, deadline) for s in sims))
    finally:
        killer.cancel()
        try:
            await killer
        except asyncio.CancelledError:
            pass
    if table.proc is None:
        await table.start_process_ready()
    expected = await expected_lines(table.db, game_id)
    try:  # the last lines may still be on their way
        await world.wait_for(lambda: shown_lines(channel, game_id) == expected, timeout=60, what="every line")
    except TimeoutError:
        pass
    await world.idle(quiet=1.0, timeout=60)
    shown = shown_lines(channel, game_id)
    want, got = collections.Counter(expected), collections.Counter(shown)
    report.games += 1
    report.lines += len(expected)
    report.shown += len(shown)
    report.lost += sum((want - got).values())
    report.doubled += sum((got - want).values())
    if want == got and shown != expected:
        report.out_of_order += 1
    report.sheets.append(sum(any("final scores" in (e.get("title") or "") and f"#{game_id}:" in (e.get("title") or "")
                                 for e in m.embeds) for m in channel.messages()))


async def kill_games(world: FakeDiscord, table: Table, *, kills: int, seed: int, per_game: int = 25,
                     pause: tuple[float, float] = (0.3, 4.0)) -> KillReport:
    """Games one after another in the table's channel until `kills` SIGKILLs have been survived."""
    rng = random.Random(seed)
    report = KillReport()
    started = time.monotonic()
    await table.start_process_ready()
    try:
        while report.kills < kills:
            if report.games:  # each game at a table of its own
                table.channel = world.add_text_channel(table.guild, f"viceroy-{report.games + 1}")
            await _new_game(table)
            game = await _open_game(table)
            await kill_game(table, game, rng, report, kills=min(per_game, kills - report.kills), pause=pause)
    finally:
        table.kill_process()
    report.seconds = time.monotonic() - started
    return report


async def _open_game(table: Table) -> int:
    """The id of the game just started in the table's channel (read from the lobby title)."""
    import re

    def found() -> int | None:
        for m in reversed(table.channel.messages()):
            for e in m.embeds:
                hit = re.search(r"game #(\d+): started", e.get("title") or "")
                if hit:
                    return int(hit.group(1))
        return None

    return await table.world.wait_for(found, timeout=60, what="the game to start")
