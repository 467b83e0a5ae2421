"""Storage for games: schema migrations and one transaction per action, on SQLite or PostgreSQL.

``await Storage.open(target)`` opens a SQLite file (the default, ``var/viceroy.db``) or, for a
``postgresql://`` URL, a PostgreSQL database.  Writers use ``async with storage.transaction() as tx``
(committed at the end of the block, rolled back on any exception); readers use ``storage.reading()``.
Every query lives in bot.storage.base.Tx, written once for both drivers.
"""

from bot.storage.base import LOG_KEY, GameBundle, Storage, Tx, is_postgres_url
from bot.storage.schema import (
    DEFAULT_DB_PATH,
    MIGRATIONS,
    SCHEMA_VERSION,
    ActionRow,
    CorruptSnapshot,
    GameRow,
    OutboxRow,
    PromptMessageRow,
    SeatRow,
    TimerRow,
    decode_state,
    encode_state,
)

__all__ = [
    "DEFAULT_DB_PATH", "LOG_KEY", "MIGRATIONS", "SCHEMA_VERSION", "ActionRow", "CorruptSnapshot", "GameBundle",
    "GameRow", "OutboxRow", "PromptMessageRow", "SeatRow", "Storage", "TimerRow", "Tx", "decode_state", "encode_state",
    "is_postgres_url",
]
