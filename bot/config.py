"""Configuration from the environment and an optional ``.env`` file (see .env.example)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "var/viceroy.db"
DB_SYNC_MODES = ("NORMAL", "FULL")


class ConfigError(ValueError):
    """A setting has a value the bot cannot use; the message names it."""


@dataclass
class Settings:
    token: str | None
    db_path: Path | str  # a SQLite file, or a PostgreSQL URL (postgresql://...) kept as text
    dev_guild_id: int | None
    sync_global: bool
    default_time_limit: int | None  # seconds; None = no limit
    log_level: str
    demo_dir: Path
    fake_discord: str | None
    # SQLite's synchronous pragma: NORMAL survives a killed process, FULL also a power cut.
    db_sync: str = "NORMAL"
    ai_workers: int = 1  # worker threads for AI seats' decisions (VICEROY_AI_WORKERS)
    # Sharding (VICEROY_SHARDS / VICEROY_SHARD_IDS): off by default (one plain gateway connection).  When on,
    # the process runs as an AutoShardedBot: shard_count None = the count Discord recommends, shard_ids None =
    # every shard of the count.
    sharded: bool = False
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process's shards receive the events of `guild_id` (None: DMs, which go to shard 0).
        Unsharded, or sharded over every shard, a process receives everything."""
        if not self.sharded or self.shard_ids is None or self.shard_count is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        return shard in self.shard_ids


def _int(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None


def _database(raw: str) -> Path | str:
    """VICEROY_DB: a SQLite path, or a PostgreSQL URL (postgresql://user:password@host:port/database)."""
    if raw.startswith(("postgresql:", "postgres:")):
        from urllib.parse import urlsplit

        url = urlsplit(raw)
        if not raw.startswith(("postgresql://", "postgres://")) or not url.path.strip("/"):
            raise ConfigError(f"VICEROY_DB must be postgresql://user:password@host:port/database, got {raw!r}")
        return raw
    if "://" in raw:
        raise ConfigError(f"VICEROY_DB must be a file path or a postgresql:// URL, got {raw!r}")
    return Path(raw)


def _shard_ids(raw: str, count: int) -> tuple[int, ...]:
    """VICEROY_SHARD_IDS: ids and ranges, "0-3", "4,5,6" or "0-1,7"; each below the shard count."""
    ids: list[int] = []
    for part in raw.replace(" ", "").split(","):
        lo, dash, hi = part.partition("-")
        try:
            first, last = int(lo), int(hi) if dash else int(lo)
        except ValueError:
            raise ConfigError(f"VICEROY_SHARD_IDS must be shard ids or ranges like 0-3,5, got {raw!r}") from None
        if first > last:
            raise ConfigError(f"VICEROY_SHARD_IDS: the range {part} runs backwards")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ConfigError(f"VICEROY_SHARD_IDS names a shard twice: {raw!r}")
    if any(i < 0 or i >= count for i in ids):
        raise ConfigError(f"VICEROY_SHARD_IDS: shard ids run from 0 to {count - 1} with VICEROY_SHARDS={count}, "
                          f"got {raw!r}")
    return tuple(sorted(ids))


def _shards(env: Mapping[str, str]) -> tuple[bool, int | None, tuple[int, ...] | None]:
    """(sharded, shard count, shard ids) from VICEROY_SHARDS ("auto" or a count) and VICEROY_SHARD_IDS."""
    raw = env.get("VICEROY_SHARDS", "").strip().lower()
    ids_raw = env.get("VICEROY_SHARD_IDS", "").strip()
    if not raw:
        if ids_raw:
            raise ConfigError("VICEROY_SHARD_IDS needs VICEROY_SHARDS (the total number of shards) as well")
        return False, None, None
    if raw == "auto":
        if ids_raw:
            raise ConfigError("VICEROY_SHARD_IDS needs a fixed VICEROY_SHARDS count, not auto: every process "
                              "must agree on the count")
        return True, None, None
    count = _int(env, "VICEROY_SHARDS")
    if count is None or count < 1:
        raise ConfigError(f"VICEROY_SHARDS must be auto or a number of shards (1 or more), got {raw!r}")
    return True, count, _shard_ids(ids_raw, count) if ids_raw else None


def load_settings(env: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
    """Read settings; a ``.env`` file in the working directory fills in what the environment lacks."""
    if env is None:
        if dotenv:
            from dotenv import load_dotenv

            load_dotenv(override=False)
        env = os.environ
    hours_raw = env.get("VICEROY_TIME_LIMIT_HOURS", "24").strip()
    try:
        hours = float(hours_raw) if hours_raw else 24.0
    except ValueError:
        raise ConfigError(f"VICEROY_TIME_LIMIT_HOURS must be a number of hours, got {hours_raw!r}") from None
    if hours < 0:
        raise ConfigError("VICEROY_TIME_LIMIT_HOURS cannot be negative (0 means no limit)")
    level = env.get("VICEROY_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"VICEROY_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level!r}")
    token = env.get("DISCORD_TOKEN", "").strip() or None
    db_sync = env.get("VICEROY_DB_SYNC", "").strip().upper() or "NORMAL"
    if db_sync not in DB_SYNC_MODES:
        raise ConfigError(f"VICEROY_DB_SYNC must be FULL or NORMAL, got {env.get('VICEROY_DB_SYNC', '').strip()!r}")
    ai_workers = _int(env, "VICEROY_AI_WORKERS")
    if ai_workers is not None and not 1 <= ai_workers <= 16:
        raise ConfigError(f"VICEROY_AI_WORKERS must be between 1 and 16, got {ai_workers}")
    sharded, shard_count, shard_ids = _shards(env)
    database = _database(env.get("VICEROY_DB", DEFAULT_DB).strip() or DEFAULT_DB)
    if shard_ids is not None and shard_count is not None and len(shard_ids) < shard_count \
            and not isinstance(database, str):
        raise ConfigError("VICEROY_SHARD_IDS runs only some of the shards, so other processes run the rest: they "
                          "must share the games through PostgreSQL (VICEROY_DB=postgresql://...), not a SQLite file")
    return Settings(
        token=token,
        db_path=database,
        dev_guild_id=_int(env, "VICEROY_DEV_GUILD"),
        sync_global=env.get("VICEROY_SYNC_GLOBAL", "").strip().lower() in ("1", "true", "yes"),
        default_time_limit=int(hours * 3600) if hours > 0 else None,
        log_level=level,
        demo_dir=Path(env.get("VICEROY_DEMO_DIR", "demo-output").strip() or "demo-output"),
        fake_discord=env.get("VICEROY_FAKE_DISCORD", "").strip() or None,
        db_sync=db_sync,
        ai_workers=ai_workers or 1,
        sharded=sharded,
        shard_count=shard_count,
        shard_ids=shard_ids,
    )
