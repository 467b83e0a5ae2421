"""Copy a SQLite database into PostgreSQL (moving a bot to several processes).

    python -m bot.storage_copy var/viceroy.db postgresql://viceroy:secret@db.example/viceroy

Stop the bot first.  The SQLite file is migrated to the current schema if needed (as the bot would at
start-up), the PostgreSQL database is migrated and must hold no games yet; every table is then copied in one
PostgreSQL transaction (nothing is left half-copied), the id sequences are moved past the copied ids, and the
row counts are compared.  Exit status 0 on success, 1 on a refusal or an error (the message says why).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage import Storage, is_postgres_url
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage

# Parents before children (foreign keys); schema_version is written by the migrations themselves.
TABLES = ("games", "seats", "actions", "snapshots", "timers", "game_events", "user_prefs",
          "prompt_messages", "drafts", "outbox", "outbox_packed")
CHUNK = 5000


class CopyRefused(Exception):
    pass


def _convert(value: Any, pg_type: str) -> Any:
    """SQLite keeps whatever it was given; PostgreSQL wants the declared type."""
    if value is None:
        return None
    if pg_type == "bigint":
        return int(value)
    if pg_type == "double precision":
        return float(value)
    if pg_type == "bytea":
        return bytes(value)
    if pg_type == "text" and isinstance(value, bytes):
        return value.decode()
    return value


async def copy_database(source: Path | str, target: str, *, progress=print) -> dict[str, int]:
    """Copy every row of the SQLite database `source` into the PostgreSQL database `target`."""
    if not is_postgres_url(target):
        raise CopyRefused(f"the target must be a postgresql:// URL, got {target!r}")
    if is_postgres_url(str(source)) or not Path(source).exists():
        raise CopyRefused(f"no SQLite database at {source}")
    src = await Storage.open(source)
    dst = await Storage.open(target)
    assert isinstance(src, SqliteStorage) and isinstance(dst, PostgresStorage)
    counts: dict[str, int] = {}
    try:
        async with dst._pool.acquire() as conn, conn.transaction():
            if await conn.fetchval("SELECT COUNT(*) FROM games"):
                raise CopyRefused("the PostgreSQL database already holds games; copy into an empty database")
            for table in TABLES:
                counts[table] = await _copy_table(src, conn, table)
                progress(f"{table}: {counts[table]} rows")
            for table in TABLES:
                has_id = await conn.fetchval("SELECT COUNT(*) FROM information_schema.columns WHERE table_name=$1"
                                             " AND column_name='id' AND table_schema=current_schema()", table)
                if has_id:
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
                copied = await conn.fetchval(f"SELECT COUNT(*) FROM {table}")
                if copied != counts[table]:
                    raise RuntimeError(f"{table}: {counts[table]} rows read but {copied} in PostgreSQL")
    finally:
        await src.close()
        await dst.close()
    return counts


async def _copy_table(src: SqliteStorage, conn: asyncpg.Connection, table: str) -> int:
    pg_cols = {r["column_name"]: r["data_type"] for r in await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name=$1 AND"
        " table_schema=current_schema()", table)}
    async with src.reading() as tx:
        sqlite_cols = [r[1] for r in await tx._all(f"PRAGMA table_info({table})")]
    missing = [c for c in sqlite_cols if c not in pg_cols]
    if missing:
        raise RuntimeError(f"{table}: columns {missing} are not in the PostgreSQL schema")
    types = [pg_cols[c] for c in sqlite_cols]
    packed_data = sqlite_cols.index("packed_data") if "packed_data" in sqlite_cols else None
    event = sqlite_cols.index("event") if "event" in sqlite_cols else None
    total, last = 0, 0
    while True:
        async with src.reading() as tx:
            rows = await tx._all(f"SELECT rowid, {', '.join(sqlite_cols)} FROM {table} WHERE rowid>?"
                                 f" ORDER BY rowid LIMIT {CHUNK}", (last,))
        if not rows:
            return total
        last = rows[-1][0]
        records = []
        for row in rows:
            values = list(row[1:])
            if table == "game_events" and isinstance(values[event], bytes):
                # packed before packed_data existed: the compressed list sat in the text column
                values[packed_data], values[event] = values[event], ""
            records.append(tuple(_convert(v, t) for v, t in zip(values, types, strict=True)))
        await conn.copy_records_to_table(table, records=records, columns=sqlite_cols)
        total += len(records)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="the SQLite database file (stop the bot first)")
    parser.add_argument("target", help="postgresql://user:password@host:port/database (no games in it yet)")
    args = parser.parse_args(argv)
    try:
        counts = asyncio.run(copy_database(args.source, args.target))
    except CopyRefused as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return 1
    except (OSError, asyncpg.PostgresError, RuntimeError) as exc:
        print(f"copy failed, no rows were copied: {exc}", file=sys.stderr)
        return 1
    print(f"copied {counts['games']} games ({sum(counts.values())} rows); point VICEROY_DB at the new database")
    return 0


if __name__ == "__main__":
    sys.exit(main())
