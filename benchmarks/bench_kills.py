"""Announcements survive SIGKILLs: games played through the bot process while it is killed at random moments.

Run: python3 benchmarks/bench_kills.py [--kills 100] [--seed 1] [--per-game 25]

Two simulated players play Viceroy games one after another through the real bot process (python -m bot)
against the fake Discord; after a random pause (0.3-4 s, seeded) the process gets SIGKILL and is started
again, until --kills kills have happened. Each finished game's channel is compared with its stored public
log: every line must be shown exactly once, in order, and the score sheet posted once.
Target: 100 random SIGKILLs, 0 lines lost or doubled.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.localdiscord import FakeDiscord, point_discord_py_at  # noqa: E402
from tests.bot.harness import new_table  # noqa: E402
from tests.bot.killing import kill_games  # noqa: E402


async def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-game", type=int, default=25)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    world = FakeDiscord()
    await world.start()
    point_discord_py_at(world.host, world.port)
    table = await new_table(world, Path(tempfile.mkdtemp()), ["Ann", "Bo"])
    try:
        report = await kill_games(world, table, kills=args.kills, seed=args.seed, per_game=args.per_game)
    finally:
        await world.stop()
    print(f"{report.kills} SIGKILLs over {report.games} games ({report.seconds:.0f} s): {report.lines} public lines "
          f"expected, {report.shown} shown, {report.lost} lost, {report.doubled} doubled, {report.out_of_order} games "
          f"out of order; score sheets per game: {report.sheets}")
    return 0 if report.ok() else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
