"""How long the bot's event loop waits while AI seats think: on the loop (the floor) beside the worker thread.

Run: python3 benchmarks/bench_ai_worker.py [--game viceroy] [--seats 4] [--level hard] [--positions 6]

A ticker task on the event loop asks to wake every 10 ms and records how late each wake-up is (the time a
click would wait before the bot even reads it) while the AI decides at `positions` positions, first by
calling the decision on the loop, then through bot.ai_runner's way (`run_in_executor` on a worker thread).
Reported: the worst and p99 lateness of the ticker, and the decisions' wall-clock total. The worker shares
the interpreter lock with the loop, so lateness is not zero, but it is bounded by the interpreter's switch
interval instead of by a whole search.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_ai import positions  # noqa: E402
from bot import ai  # noqa: E402
from bot.games import get_kind  # noqa: E402
from engine.tournament import percentile  # noqa: E402

TICK = 0.01


async def _measure(decide, points: list[tuple[dict, int]]) -> dict:  # noqa: ANN001
    late: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            await asyncio.sleep(TICK)
            late.append(time.perf_counter() - start - TICK)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)
    started = time.perf_counter()
    for state, seat in points:
        await decide(state, seat)
    total = time.perf_counter() - started
    stop.set()
    await task
    return {"worst": max(late), "p99": percentile(late, 0.99), "p50": percentile(late, 0.5), "total": total,
            "ticks": len(late)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="viceroy")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--positions", type=int, default=6)
    args = parser.parse_args()
    kind = get_kind(args.game)
    points = positions(kind.game, args.seats, args.positions, seed=7)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def one(state: dict, seat: int) -> dict | None:
        return ai.decide(kind, args.level, state, seat, f"bench:{seat}:{random.random()}")

    async def on_loop(state: dict, seat: int) -> None:
        one(state, seat)  # what a bot that called the AI directly would do

    async def in_worker(state: dict, seat: int) -> None:
        await asyncio.get_running_loop().run_in_executor(pool, one, state, seat)

    for name, decide in (("on the event loop (floor)", on_loop), ("in the worker thread", in_worker)):
        r = asyncio.run(_measure(decide, points))
        print(f"{args.game} {args.seats}p {args.level}, {len(points)} decisions {name}: event loop late by "
              f"median {r['p50'] * 1000:.0f} ms, p99 {r['p99'] * 1000:.0f} ms, worst {r['worst'] * 1000:.0f} ms "
              f"over {r['ticks']} ticks; "
              f"decisions took {r['total']:.1f} s")
    pool.shutdown()


if __name__ == "__main__":
    main()
