"""Click-to-response latency of the real bot with 50 games in progress, against a bare discord.py floor,
and what one click costs the service (counted, not timed).

Everything runs on loopback against the local fake Discord (bot/localdiscord). For each click we measure
  * ack:  from sending the INTERACTION_CREATE to the bot's first callback (Discord's 3-second clock), and
  * done: from sending it to the prompt message being updated with the result (what the player sees).
The floor is a bare discord.py bot whose button only acknowledges (ack) or edits its message (done).

Counting (``--count N`` clicks, each followed by a quiet bot): game-state loads (decode or replay of a
game), read and write transactions, and calls into GameService, split into the click itself (until the
prompt is updated) and the announcement that follows. The counters wrap GameService and Storage from the
outside, so the same script measures an older checkout too (``--root``).

    python benchmarks/bench_bot.py [--games 50] [--clicks 300] [--count 30] [--root PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import inspect
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import discord

if "--root" in sys.argv:
    sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--root") + 1]).resolve()))
else:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import ViceroyBot  # noqa: E402  (GameMasterBot; the old name works on every checkout)
from bot.autoplay import SimulatedPlayer, controls, takeable  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.localdiscord import FakeDiscord, close_client, connect_client  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.storage import Storage  # noqa: E402


class Counters:
    """Counts service calls, game-state loads and storage transactions, by wrapping the classes."""

    def __init__(self) -> None:
        self.n = {"service calls": 0, "state loads": 0, "read transactions": 0, "write transactions": 0}
        self._inside = contextvars.ContextVar("inside_service", default=False)  # per task

    def install(self) -> None:
        for name, fn in list(vars(GameService).items()):
            if not inspect.iscoroutinefunction(fn):
                continue
            if name == "_load":
                setattr(GameService, name, self._wrap(fn, "state loads", always=True))
            elif not name.startswith("_"):
                setattr(GameService, name, self._wrap(fn, "service calls"))
        for name, key in (("reading", "read transactions"), ("transaction", "write transactions")):
            original = getattr(Storage, name)

            def counted(st, *a, _original=original, _key=key, **kw):
                self.n[_key] += 1
                return _original(st, *a, **kw)

            setattr(Storage, name, counted)

    def _wrap(self, fn, key: str, always: bool = False):
        counters = self

        async def wrapper(*args, **kwargs):
            if always:
                counters.n[key] += 1
                return await fn(*args, **kwargs)
            if counters._inside.get():  # a service method calling another counts once
                return await fn(*args, **kwargs)
            counters.n[key] += 1
            token = counters._inside.set(True)
            try:
                return await fn(*args, **kwargs)
            finally:
                counters._inside.reset(token)

        wrapper.__name__ = fn.__name__
        return wrapper

    def snap(self) -> dict[str, int]:
        return dict(self.n)


async def _quiet(world: FakeDiscord, bot) -> None:
    await world.idle(quiet=0.05)
    drain = getattr(bot, "drain", None) or getattr(bot.get_cog("Viceroy"), "drain", None)
    if drain is not None:
        await drain()
    await world.idle(quiet=0.05)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] * 1000


async def _timed_click(world: FakeDiscord, user, msg, custom_id: str, values: list[str] | None) -> tuple[float, float]:
    before = world.messages[msg.id].edits
    t0 = time.perf_counter()
    if values is None:
        rec = await user.click(msg, custom_id=custom_id, wait=False)
    else:
        rec = await user.select(msg, custom_id, values, wait=False)
    await rec.wait_response(10)
    ack = time.perf_counter() - t0
    await world.wait_for(lambda: world.messages[msg.id].edits > before, timeout=10, what="the prompt update")
    done = time.perf_counter() - t0
    return ack, done


async def bench_viceroy(games: int, clicks: int, count: int,
                        counters: Counters) -> tuple[list[float], list[float], list[tuple[dict, dict]]]:
    world = FakeDiscord()
    await world.start()
    guild = world.add_guild("Bench")
    tmp = Path(tempfile.mkdtemp())
    settings = Settings(token=world.token, db_path=tmp / "bench.db", dev_guild_id=guild.id, sync_global=False,
                        default_time_limit=None, log_level="WARNING", demo_dir=tmp, fake_discord=None)
    bot = ViceroyBot(settings)
    task = await connect_client(world, bot)
    await world.wait_for(lambda: bool(world.commands(guild)), timeout=10)
    tables = []
    for i in range(games):
        chan = world.add_text_channel(guild, f"game-{i}")
        a, b = world.add_user(f"A{i}", guild), world.add_user(f"B{i}", guild)
        rec = await a.slash(chan, "viceroy new", seats=2)
        await world.idle()
        await b.click(rec.reply, label="Join")
        await world.idle()
        await a.click(rec.reply, label="Start")
        await world.idle()
        sims = [SimulatedPlayer(world, u, chan, seed=i) for u in (a, b)]
        for sim in sims:
            await world.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=30)
            await sim.step()  # setup; B then stays silent so A's sealed bid stays open
        await world.idle()
        await world.wait_for(lambda s=sims[0]: s.current_prompt() is not None and "choose" in controls(s.current_prompt()),
                             timeout=30)
        tables.append((a, sims[0].current_prompt()))
    rng = random.Random(1)
    counted: list[tuple[dict, dict]] = []
    await _quiet(world, bot)
    for _ in range(count):  # counted clicks: each one alone, then the bot goes quiet
        user, msg = rng.choice(tables)
        choose = controls(world.messages[msg.id])["choose"]
        value = rng.choice(takeable(choose))  # a ✖ option is refused in a reply, not a prompt update
        before = counters.snap()
        await _timed_click(world, user, msg, choose["custom_id"], [value])
        clicked = counters.snap()
        await _quiet(world, bot)
        after = counters.snap()
        counted.append(({k: clicked[k] - before[k] for k in before}, {k: after[k] - clicked[k] for k in before}))
    acks, dones = [], []
    for _ in range(clicks):
        user, msg = rng.choice(tables)
        choose = controls(world.messages[msg.id])["choose"]
        value = rng.choice(takeable(choose))  # a ✖ option is refused in a reply, not a prompt update
        ack, done = await _timed_click(world, user, msg, choose["custom_id"], [value])
        acks.append(ack)
        dones.append(done)
    await close_client(bot, task, world)
    await world.stop()
    return acks, dones, counted


class Floor(discord.ui.DynamicItem[discord.ui.Button], template=r"floor:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Press", custom_id=f"floor:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # type: ignore[override]
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"pressed {time.time()}")


async def bench_floor(clicks: int) -> tuple[list[float], list[float]]:
    world = FakeDiscord()
    await world.start()
    guild = world.add_guild("Floor")
    chan = world.add_text_channel(guild, "floor")
    user = world.add_user("U", guild)
    client = discord.Client(intents=discord.Intents.none())
    client.add_dynamic_items(Floor)
    task = await connect_client(world, client)
    view = discord.ui.View(timeout=None)
    view.add_item(Floor(1))
    sent = await client.get_partial_messageable(chan.id).send("floor", view=view)
    msg = world.messages[sent.id]
    acks, dones = [], []
    for _ in range(clicks):
        ack, done = await _timed_click(world, user, msg, "floor:1", None)
        acks.append(ack)
        dones.append(done)
    await close_client(client, task, world)
    await world.stop()
    return acks, dones


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--clicks", type=int, default=300)
    parser.add_argument("--count", type=int, default=30, help="clicks counted one at a time")
    parser.add_argument("--root", help="checkout to measure (default: this one)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    counters = Counters()
    counters.install()
    acks, dones, counted = await bench_viceroy(args.games, args.clicks, args.count, counters)
    f_acks, f_dones = await bench_floor(args.clicks)
    if counted:
        print(f"per click (mean of {len(counted)} sealed-bid amendments; each makes one announcement batch):")
        print(f"{'':22} {'click':>8} {'announce':>9} {'total':>8}")
        for key in counted[0][0]:
            c = statistics.mean(x[0][key] for x in counted)
            a = statistics.mean(x[1][key] for x in counted)
            print(f"{key:22} {c:8.2f} {a:9.2f} {c + a:8.2f}")
        print()
    print(f"{args.games} games in progress, {args.clicks} clicks (sealed bids amended), loopback fake Discord")
    print(f"{'':28} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    rows = [("Viceroy GM: click -> ack", acks), ("Viceroy GM: click -> update", dones),
            ("bare discord.py: click -> ack", f_acks), ("bare discord.py: click -> edit", f_dones)]
    for name, values in rows:
        print(f"{name:28} {pct(values, .5):8.1f} {pct(values, .99):8.1f} {statistics.mean(values) * 1000:8.1f}")
    print(f"ratio p99 update / floor edit: {pct(dones, .99) / pct(f_dones, .99):.2f}x; "
          f"p50: {pct(dones, .5) / pct(f_dones, .5):.2f}x")


if __name__ == "__main__":
    asyncio.run(main())
