"""Shared fixtures: the storage drivers.  `db_target` runs a test on SQLite and on PostgreSQL.  And the order
the tests run in: the longest first."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from tests.pg import PostgresCluster, PostgresUnavailable, run_sync

# The run writes bytecode (the usual __pycache__ directories, ignored by git), also when the environment says
# not to (PYTHONDONTWRITEBYTECODE): without it each xdist worker compiles and assertion-rewrites every module
# it imports (about 5 s of CPU per worker) and every bot process the tests start compiles the bot again. This
# module is loaded before the workers start, so they and the processes they start inherit the setting.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# The files with the longest tests (whole games through the bot, kills and restarts, long property runs),
# longest first, by `--durations`: they run before everything else. With `--dist worksteal` (pyproject) a
# worker that runs out of tests takes queued ones from another; a long game started last would still run
# alone at the end while the other core has nothing left to do. Started first, the end is short tests.
LONGEST_FIRST = (
    "tests/invasion/test_e2e_discord.py",
    "tests/splendor_duel/test_e2e.py",
    "tests/bot/test_e2e_games.py",
    "tests/i18n/test_swedish_game.py",
    "tests/engine/test_properties.py",
    "tests/darkness/test_e2e_discord.py",
    "tests/underworld/test_e2e_discord.py",
    "tests/pyramido/test_e2e.py",
    "tests/bot/test_catch_up.py",
    "tests/bot/test_kill.py",
    "tests/bot/test_e2e_restart.py",
    "tests/bot/test_ux_informed.py",
    "tests/storage/test_viceroy_log.py",
    "tests/bot/test_traffic.py",
    "tests/service/test_restart.py",
    "tests/bot/test_e2e_shards.py",
    "tests/splendor_duel/test_e2e_restart.py",
    "tests/service/test_viceroy.py",
    "tests/darkness/test_properties.py",
    "tests/engine/test_illegal.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of LONGEST_FIRST first, in that order; the order within a file and of the rest is kept."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


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
