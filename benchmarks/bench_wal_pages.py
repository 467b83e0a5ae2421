"""Pages a SQLite submission writes, per b-tree: what its COMMIT appends to the WAL.

    python -m benchmarks.bench_wal_pages [--games 100] [--submissions 300]

The games of benchmarks.bench_storage (the ledger: a real mid-game Viceroy state, three public events and
one private per move, a 24-hour limit so each prompt has a deadline and two reminders) are played to random
points; then, with the background checkpoint held off and the WAL emptied, `--submissions` submissions to
random games.  Each frame of the WAL is one page written by a COMMIT; the page's owner (a table or an index)
is read from SQLite's dbstat table.  Also the average stored sizes of a submission's rows.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import shutil
import sqlite3
import struct
import tempfile
from pathlib import Path

import bot.storage.sqlite as sqlite_driver
from benchmarks.bench_storage import play_templates, settle  # (and registers the ledger game)
from bot.clock import ManualClock
from bot.service import GameService
from bot.storage import Storage


def _wal_pages(wal: bytes) -> list[int]:
    """The page number of every frame in a WAL file (32-byte header, then 24-byte frame headers + pages)."""
    page_size = struct.unpack(">I", wal[8:12])[0]
    out, off = [], 32
    while off + 24 + page_size <= len(wal):
        out.append(struct.unpack(">I", wal[off:off + 4])[0])
        off += 24 + page_size
    return out


async def main(games: int, submissions: int) -> None:
    sqlite_driver.CHECKPOINT_EVERY = 10 ** 9  # every commit's pages stay in the WAL to be counted
    base = Path(tempfile.mkdtemp(prefix="bench_wal_"))
    try:
        await _run(base / "pages.db", games, submissions)
    finally:
        shutil.rmtree(base, ignore_errors=True)


async def _run(db: Path, games: int, submissions: int) -> None:
    storage = await Storage.open(str(db))
    clock = ManualClock(1_800_000_000.0)
    service = GameService(storage, clock=clock, default_time_limit=24 * 3600)
    rng = random.Random(1)
    ids = await play_templates(service, games, lambda: rng.randrange(20, 120))
    users = {gid: [s.user_id for s in (await service.game(gid)).seats] for gid in ids}
    await settle(storage)  # the WAL emptied: what is counted below is the timed submissions' pages
    for n in range(submissions):
        gid = rng.choice(ids)
        clock.advance(1.0)
        await service.submit(gid, users[gid][rng.randrange(2)], {"type": "move"}, idempotency_key=f"x{n}")
    pages = _wal_pages(Path(str(db) + "-wal").read_bytes())
    conn = sqlite3.connect(str(db))
    try:
        owner = {p: name for name, p in conn.execute("SELECT name, pageno FROM dbstat")}
    except sqlite3.OperationalError:  # a SQLite built without dbstat: totals only
        owner = {}
    print(f"{len(pages) / submissions:.2f} pages written per submission ({games} games, {submissions} submissions)")
    for name, count in collections.Counter(owner.get(p, "?") for p in pages).most_common():
        print(f"  {count / submissions:5.2f}  {'database header (page 1)' if name == 'sqlite_schema' else name}")
    for label, sql in (("stored result", "SELECT avg(length(result)) FROM actions WHERE result IS NOT NULL"),
                       ("outbox entry", "SELECT avg(length(payload)) FROM outbox"),
                       ("event", "SELECT avg(length(event)) FROM game_events"),
                       ("snapshot", "SELECT avg(length(state)) FROM snapshots")):
        print(f"  average {label}: {conn.execute(sql).fetchone()[0]:.0f} bytes")
    conn.close()
    await storage.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--submissions", type=int, default=300)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.submissions))
