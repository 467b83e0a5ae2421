"""VICEROY_DB: a SQLite path or a PostgreSQL URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from bot.storage import is_postgres_url


def settings(db: str):
    return load_settings({"VICEROY_DB": db}, dotenv=False)


def test_default_is_the_sqlite_file():
    assert load_settings({}, dotenv=False).db_path == Path("var/viceroy.db")


def test_a_path_is_a_sqlite_file():
    assert settings("data/games.db").db_path == Path("data/games.db")


@pytest.mark.parametrize("url", ["postgresql://bot:secret@db.example:5432/viceroy",
                                 "postgres://bot@localhost/viceroy",
                                 "postgresql://postgres:@/viceroy?host=/run/postgresql"])
def test_a_postgres_url_is_kept_as_text(url):
    db = settings(url).db_path
    assert db == url and is_postgres_url(db)


@pytest.mark.parametrize("bad", ["postgresql://host-without-database", "postgresql:viceroy", "mysql://x/y"])
def test_bad_database_settings_are_refused_with_their_name(bad):
    with pytest.raises(ConfigError, match="VICEROY_DB"):
        settings(bad)
