"""Databases as an older version of the bot left them, for the migration tests."""

from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path

from bot.storage import MIGRATIONS
from bot.storage.schema import json_bytes, sqlite_statements


def old_sqlite_database(path: Path | str, version: int) -> None:
    """A SQLite database at `path` with the first `version` migrations applied, as that version made it."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at REAL NOT NULL)")
    for number, statements in enumerate(MIGRATIONS[:version], start=1):
        for sql in sqlite_statements(statements):
            conn.execute(sql)
        conn.execute("INSERT INTO schema_version VALUES (?, 0)", (number,))
    conn.commit()
    conn.close()


def zlib_snapshot(state: dict) -> tuple[bytes, str]:
    """(blob, checksum) of a snapshot as the storage wrote it before LZ4: zlib level 1 (memLevel 5), the
    zlib stream's own adler32 as the checksum."""
    c = zlib.compressobj(1, zlib.DEFLATED, zlib.MAX_WBITS, 5)
    blob = c.compress(json_bytes(state)) + c.flush()
    return blob, "z" + blob[-4:].hex()
