"""Start-up catch-up: time and Discord requests after a restart with many active games.

Run: python3 benchmarks/bench_catch_up.py [--games 1000]

The games are started through the service only (as if the bot crashed after every start, before announcing
anything), so the first start of the bot must send every prompt, screen and table message; a second start,
with every message intact, should send nothing. The real bot runs against the fake Discord on loopback
(the fake does not pace requests the way Discord's rate limits would; discord.py follows the limits it
is told).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import GameMasterBot  # noqa: E402
from bot.localdiscord import FakeDiscord, close_client, connect_client, point_discord_py_at  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.storage import Storage  # noqa: E402
from tests.bot.harness import settings_for  # noqa: E402


async def started_games(db: Path, world: FakeDiscord, games: int) -> None:
    guild = world.add_guild("club")
    storage = await Storage.open(db)
    service = GameService(storage)
    for g in range(games):
        channel = world.add_text_channel(guild, f"table-{g}")
        a, b = (world.add_user(f"p{g}a", guild), world.add_user(f"p{g}b", guild))
        info = await service.create_lobby(guild.id, channel.id, a.id, a.name, kind="viceroy", options={"seats": 2})
        await service.join(info.id, b.id, b.name)
        await service.start(info.id, a.id, seed=g)
    await storage.close()
    world.extra_guild = guild  # type: ignore[attr-defined]


async def one_start(world: FakeDiscord, db: Path) -> tuple[float, collections.Counter]:
    guild = world.extra_guild  # type: ignore[attr-defined]
    before = len(world.requests)
    bot = GameMasterBot(settings_for(world, guild, db), poll_interval=60)
    started = time.perf_counter()
    task = await connect_client(world, bot, timeout=120)
    await asyncio.sleep(0.5)
    while bot.busy() or world.in_flight:
        await asyncio.sleep(0.05)
    elapsed = time.perf_counter() - started
    await close_client(bot, task, world)
    writes = collections.Counter(f"{r.method} {'/'.join('{id}' if p.isdigit() else p for p in r.path.split('/'))}"
                                 for r in world.requests[before:] if r.method in ("POST", "PATCH", "PUT", "DELETE"))
    return elapsed, writes


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    world = FakeDiscord()
    await world.start()
    point_discord_py_at(world.host, world.port)
    db = Path(tempfile.mkdtemp()) / "catchup.db"
    await started_games(db, world, args.games)
    for label in ("first start (nothing announced yet)", "restart (every message intact)"):
        elapsed, writes = await one_start(world, db)
        total = sum(v for k, v in writes.items() if "/commands" not in k)
        print(f"{label}: {args.games} active games, {elapsed:.1f} s, {total} message requests "
              f"({', '.join(f'{k}: {v}' for k, v in sorted(writes.items()) if '/commands' not in k) or 'none'})")
    await world.stop()


if __name__ == "__main__":
    asyncio.run(main())
