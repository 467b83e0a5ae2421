"""Service benchmark: latency of one submission (load, apply, store) and database size per finished game.

    python -m benchmarks.bench_service [--games 100] [--submissions 2000] [--finished 20] [--db-dir DIR]

Uses the Viceroy engine: `--games` active 3-seat games (2 humans + 1 AI) are created and advanced, then
random submissions are timed one at a time.  The AI seat moves as it does in the bot: not inside the
submission that makes it due (the service's ``ai_inline=False``) but through ``ai_work`` / ``commit_ai``,
outside the timed part, as the bot's AI worker does; the simulated humans' move choice is made outside it
too.  Then `--finished` games are played to the end in a fresh database and its growth per game is reported; their
announcements are marked delivered after each move, with the message ids they record, as the announcer does.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.ai_runner import think_work
from bot.clock import ManualClock
from bot.service import GameService
from bot.storage import Storage
from engine.viceroy import ai


async def new_game(service: GameService, channel: int, seed: int) -> int:
    game = await service.create_lobby(1, channel, 1000 + channel * 10, "a", kind="viceroy")
    await service.join(game.id, 1001 + channel * 10, "b")
    await service.add_ai(game.id, 1000 + channel * 10)
    await service.start(game.id, 1000 + channel * 10, seed=seed)
    await ai_moves(service, game.id)
    return game.id


async def next_move(service: GameService, gid: int, rng: random.Random):
    pend = await service.pending(gid)
    waiting = [s for s, p in pend.items() if p.waiting and not p.is_ai]
    if not waiting:
        return None
    seat = rng.choice(waiting)
    state = await service.full_state(gid)
    return pend[seat].user_id, ai.choose_action(state, seat, rng), pend[seat].prompt_key


async def ai_moves(service: GameService, gid: int) -> None:
    """The AI seats' moves, as the bot's AI worker makes them: read, think, commit (never timed)."""
    while (work := await service.ai_work(gid)) is not None:
        if await service.commit_ai(gid, think_work(work)) is None:
            return


async def deliver(service: GameService, gid: int, snowflakes: itertools.count) -> None:
    """Mark the game's announcements delivered, as the announcer does once Discord has them: each records
    the message ids of its parts (its channel line, each seat's private lines)."""
    for row in await service.outbox(gid):
        sent = {"c0": next(snowflakes), **{f"p{seat}": next(snowflakes) for seat in row.payload.get("private", {})}}
        await service.outbox_progress(row.id, sent, delivered=True)


def db_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


async def bench_latency(db: Path, games: int, submissions: int) -> dict:
    storage = await Storage.open(db)
    service = GameService(storage, clock=ManualClock(), ai_inline=False)
    rng = random.Random(7)
    ids = [await new_game(service, ch, seed=ch) for ch in range(games)]
    # advance every game a little so snapshots are realistic, not fresh deals
    for gid in ids:
        for i in range(rng.randrange(5, 25)):
            move = await next_move(service, gid, rng)
            if move is None:
                break
            user, action, key = move
            await service.submit(gid, user, action, idempotency_key=f"warm-{gid}-{i}", prompt_key=key)
            await ai_moves(service, gid)
    latencies: list[float] = []
    replaced = 0
    for n in range(submissions):
        gid = rng.choice(ids)
        move = await next_move(service, gid, rng)
        if move is None:  # finished: replace it so there are always `games` active games
            ids.remove(gid)
            ids.append(await new_game(service, 10_000 + n, seed=n))
            replaced += 1
            continue
        user, action, key = move
        t0 = time.perf_counter()
        await service.submit(gid, user, action, idempotency_key=f"b-{n}", prompt_key=key)
        latencies.append(time.perf_counter() - t0)
        await ai_moves(service, gid)
    await storage.close()
    latencies.sort()
    return {
        "submissions": len(latencies),
        "per_second": len(latencies) / sum(latencies),
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
        "max_ms": 1000 * latencies[-1],
        "games_replaced": replaced,
    }


async def bench_size(db: Path, finished: int) -> dict:
    storage = await Storage.open(db)
    service = GameService(storage, clock=ManualClock(), ai_inline=False)
    await storage.close()
    empty = db_bytes(db)
    storage = await Storage.open(db)
    service = GameService(storage, clock=ManualClock(), ai_inline=False)
    rng = random.Random(3)
    actions = 0
    snowflakes = itertools.count(1_312_000_000_000_000_000)  # Discord message ids of late 2024 on
    for g in range(finished):
        gid = await new_game(service, g, seed=100 + g)
        await deliver(service, gid, snowflakes)
        for i in range(5000):
            move = await next_move(service, gid, rng)
            if move is None:
                break
            user, action, key = move
            await service.submit(gid, user, action, idempotency_key=f"s-{gid}-{i}", prompt_key=key)
            await ai_moves(service, gid)
            await deliver(service, gid, snowflakes)
        assert (await service.game(gid)).status == "finished"
    async with storage.reading() as tx:
        actions = (await tx._one("SELECT COUNT(*) FROM actions"))[0]
    await storage.close()  # checkpoints the WAL into the main file
    full = db_bytes(db)
    return {"finished_games": finished, "bytes_per_game": (full - empty) / finished,
            "actions_per_game": actions / finished}


async def main(args: argparse.Namespace) -> None:
    base = Path(args.db_dir or tempfile.mkdtemp(prefix="bench_service_"))
    lat = await bench_latency(base / "latency.db", args.games, args.submissions)
    size = await bench_size(base / "size.db", args.finished)
    print(f"active games: {args.games}, timed submissions: {lat['submissions']} "
          f"(finished games replaced: {lat['games_replaced']})")
    print(f"submissions/s (serial): {lat['per_second']:.0f}")
    print(f"latency p50: {lat['p50_ms']:.2f} ms  p99: {lat['p99_ms']:.2f} ms  max: {lat['max_ms']:.2f} ms")
    print(f"database size per finished game: {size['bytes_per_game'] / 1024:.1f} KB "
          f"({size['actions_per_game']:.0f} logged actions per game, {size['finished_games']} games)")
    if not args.db_dir:
        for p in base.iterdir():
            os.unlink(p)
        base.rmdir()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--submissions", type=int, default=2000)
    parser.add_argument("--finished", type=int, default=20)
    parser.add_argument("--db-dir", default=None)
    asyncio.run(main(parser.parse_args()))
