"""Shared fixtures: the storage drivers.  `db_target` runs a test on SQLite and on PostgreSQL."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.pg import PostgresCluster, PostgresUnavailable, run_sync


@pytest.fixture(scope="session")
def pg_cluster():
    """One throw-away PostgreSQL cluster for the whole run, with a migrated template database."""
    # Not under pytest's basetemp: another pytest run on the machine prunes old basetemps, server and all.
    base = Path(tempfile.mkdtemp(prefix="viceroy-pg-"))
    cluster = PostgresCluster(base / "data")
    try:
        cluster.start()
    except PostgresUnavailable as exc:
        shutil.rmtree(base, ignore_errors=True)
        pytest.fail(f"PostgreSQL tests cannot run: {exc}", pytrace=False)
    try:
        run_sync(_make_template(cluster))
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)


async def _make_template(cluster: PostgresCluster) -> None:
    from bot.storage import Storage

    name = await cluster.create_database()
    storage = await Storage.open(cluster.database_url(name))  # migrates
    await storage.close()
    cluster.template = name


@pytest.fixture(params=["sqlite", "postgres"])
async def db_target(request, tmp_path):
    """Where a test's database lives: a SQLite file, or a fresh database on the test cluster."""
    if request.param == "sqlite":
        yield str(tmp_path / "var" / "test.db")
        return
    cluster: PostgresCluster = request.getfixturevalue("pg_cluster")
    name = await cluster.create_database(template=cluster.template)
    yield cluster.database_url(name)
    await cluster.drop_database(name)
