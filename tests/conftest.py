"""Shared fixtures: the storage drivers.  `db_target` runs a test on SQLite and on PostgreSQL.  And the order
the tests run in: the longest first."""

from __future__ import annotations

import logging
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


# A stored game that its own bot rejects (a snapshot rebuilt from the action log, an action run a second time
# because its log read looked damaged) loses nothing, so no test would fail on it; it is still a bug unless the
# test damaged the store on purpose. Such tests are marked damages_storage; in any other the warning fails it.
STORAGE_REJECTIONS = ("snapshot rejected", "public log rejected")


class _Rejections(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if any(words in message for words in STORAGE_REJECTIONS):
            self.found.append(message)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "damages_storage: the test damages stored games on purpose, so the bot's"
                                       " warnings that it rejected one are expected")


@pytest.fixture(autouse=True)
def _no_rejected_storage(request: pytest.FixtureRequest):
    handler = _Rejections()
    service_log = logging.getLogger("bot.service")
    service_log.addHandler(handler)
    try:
        yield
    finally:
        service_log.removeHandler(handler)
    if handler.found and request.node.get_closest_marker("damages_storage") is None:
        pytest.fail("the bot rejected its own stored game: " + "; ".join(handler.found[:3]), pytrace=False)


# Workers per core for `-n auto` (pyproject's addopts). The end-to-end tests spend most of their time waiting
# (for a bot process to start, a pause of the bot's, a simulated player's quiet moment): measured per test, the
# bot and service tests used the CPU about 30 % of their wall time, so with one worker per core the cores are
# mostly idle. PYTEST_XDIST_AUTO_NUM_WORKERS still sets the number outright.
WORKERS_PER_CORE = 2


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return WORKERS_PER_CORE * len(os.sched_getaffinity(0))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of LONGEST_FIRST first, in that order; the order within a file and of the rest is kept.

    Under xdist the tests are then dealt out for its scheduler: `--dist worksteal` gives each of the n workers
    one contiguous share of the list to begin with (the first len // n tests to the first, and so on) and an
    idle worker steals from the end of another's share. Kept as one list, every long test would be in the
    first worker's share and run one after another there; so the long ones are dealt round-robin to the n
    shares (each share starts with its long tests) and the rest fill the shares up."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
    workers = getattr(config, "workerinput", {}).get("workercount", 0)
    if workers > 1:
        items[:] = dealt(items, workers, sum(1 for item in items if item.nodeid.split("::", 1)[0] in rank))


def dealt(items: list, workers: int, long: int) -> list:
    """``items`` (their first ``long`` the long ones) in the order that makes worksteal's first shares each
    begin with every ``workers``-th long test, then the rest in order."""
    sizes, left = [], len(items)
    for i in range(workers):  # the share sizes as xdist cuts them (worksteal's check_schedule)
        sizes.append(left // (workers - i))
        left -= sizes[-1]
    shares: list[list] = [[] for _ in range(workers)]
    for i, item in enumerate(items[:long]):
        lane = i % workers
        while len(shares[lane]) >= sizes[lane]:  # (a share full of long tests: the next one)
            lane = (lane + 1) % workers
        shares[lane].append(item)
    rest = iter(items[long:])
    for share, size in zip(shares, sizes, strict=True):
        share.extend(next(rest) for _ in range(size - len(share)))
    return [item for share in shares for item in share]


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
