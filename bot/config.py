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
    return Settings(
        token=token,
        db_path=_database(env.get("VICEROY_DB", DEFAULT_DB).strip() or DEFAULT_DB),
        dev_guild_id=_int(env, "VICEROY_DEV_GUILD"),
        sync_global=env.get("VICEROY_SYNC_GLOBAL", "").strip().lower() in ("1", "true", "yes"),
        default_time_limit=int(hours * 3600) if hours > 0 else None,
        log_level=level,
        demo_dir=Path(env.get("VICEROY_DEMO_DIR", "demo-output").strip() or "demo-output"),
        fake_discord=env.get("VICEROY_FAKE_DISCORD", "").strip() or None,
        db_sync=db_sync,
        ai_workers=ai_workers or 1,
    )
