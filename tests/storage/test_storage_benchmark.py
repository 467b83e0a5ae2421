"""The storage benchmark still runs against both drivers, and its rows take turns (benchmarks/bench_storage.py).

It times nothing here: the figures it prints are not asserted, only that every row is there and measured.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import pytest

import benchmarks.bench_storage as bench_storage
from bot import games

# Importing the benchmark hosts its ledger game; the other tests of this worker must not see it offered.
games._EXTRA.pop(bench_storage.LEDGER.type.name, None)

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^(sqlite|postgres)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)",
                 re.MULTILINE)


class _FakeRow:
    def __init__(self, name: str, log: list) -> None:
        self.name, self.log, self.timed = name, log, []

    async def setup(self) -> None:
        self.log.append((self.name, "setup"))

    async def step(self, n: int) -> None:
        self.log.append((self.name, n))
        self.timed.append(n)

    def clear(self) -> None:
        self.timed.clear()

    async def close(self) -> None:
        self.log.append((self.name, "close"))

    def result(self) -> dict:
        return {"row": self.name, "timed": list(self.timed)}


def test_rows_are_set_up_first_then_take_turns_and_only_timed_turns_count() -> None:
    log: list = []
    rows = [_FakeRow("a", log), _FakeRow("b", log)]
    results = asyncio.run(bench_storage.bench(rows, 3))  # type: ignore[arg-type]
    assert log[:2] == [("a", "setup"), ("b", "setup")]
    turns = [entry for entry in log if isinstance(entry[1], int)]
    assert [name for name, _ in turns] == ["a", "b"] * (bench_storage.WARM_UP + 3)
    assert all(n < 0 for _, n in turns[:2 * bench_storage.WARM_UP])  # the untimed turns come first
    assert log[-2:] == [("a", "close"), ("b", "close")]
    assert results == [{"row": "a", "timed": [0, 1, 2]}, {"row": "b", "timed": [0, 1, 2]}]


def test_a_failed_set_up_still_closes_every_row() -> None:
    log: list = []

    class Broken(_FakeRow):
        async def setup(self) -> None:
            raise RuntimeError("no database")

    rows = [_FakeRow("a", log), Broken("b", log)]
    try:
        asyncio.run(bench_storage.bench(rows, 3))  # type: ignore[arg-type]
    except RuntimeError:
        pass
    else:
        raise AssertionError("the failure was swallowed")
    assert log == [("a", "setup"), ("a", "close"), ("b", "close")]  # (a Row closes what its set-up opened)


@pytest.fixture
def ledger():
    """The benchmark's game hosted for one test."""
    games._EXTRA[bench_storage.LEDGER.type.name] = bench_storage.LEDGER
    yield
    games._EXTRA.pop(bench_storage.LEDGER.type.name, None)


def test_a_row_whose_floor_fails_closes_its_storage_and_shows_the_floors_error(tmp_path, ledger) -> None:
    class NoFloor:
        async def setup(self, games: int, size: int) -> None:
            raise OSError("no room for the floor")

        async def close(self) -> None:
            raise AssertionError("a floor that was never set up is not closed")

    row = bench_storage.Row(str(tmp_path / "bench.db"), 4, NoFloor())
    with pytest.raises(OSError, match="no room for the floor"):
        asyncio.run(bench_storage.bench([row], 1))

    async def read() -> None:
        async with row.storage.reading() as tx:
            await tx.games()

    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(read())


def test_the_benchmark_measures_every_row_on_both_drivers(pg_cluster) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_storage", "--games", "4,8", "--submissions", "5", "--idle", "0",
         "--postgres", pg_cluster.url],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = ROW.findall(done.stdout)
    assert [(r[0], int(r[1])) for r in rows] == [("sqlite", 4), ("sqlite", 8), ("postgres", 4), ("postgres", 8)]
    for row in rows:
        blob, p50, floor, ratio = int(row[2]), float(row[3]), float(row[4]), float(row[5])
        assert blob > 500  # a mid-game Viceroy state, compressed
        assert p50 > 0 and floor > 0 and ratio > 0
    assert "memory:" not in done.stdout  # --idle 0
