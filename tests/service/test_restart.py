"""Kill the service with SIGKILL at random points; every acknowledged action must survive, none half-applied."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import tests.service.toygame  # noqa: F401
from bot.check import check_database
from bot.storage import Storage

ROOT = Path(__file__).resolve().parents[2]


def run_driver(db: Path, kill_after: float | None) -> tuple[list[str], bool]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "tests.service.driver", str(db), "--pause", "0.04"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = False
    if kill_after is not None:
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            killed = True
    out, err = proc.communicate(timeout=60)
    if not killed:
        assert proc.returncode == 0, err
    return out.splitlines(), killed


async def verify(db: Path, acked: list[str]) -> tuple[str, int]:
    st = await Storage.open(db)
    try:
        async with st.reading() as tx:
            games = await tx.games()
            if not games:
                assert not acked
                return "none", 0
            assert len(games) == 1
            game = games[0]
            rows = await tx.actions(game.id)
            keys = {r.idempotency_key for r in rows}
            snap = await tx.snapshot_raw(game.id)
        missing = [k for k in acked if k not in keys]
        assert not missing, f"acknowledged but lost: {missing}"
        assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
        if game.status != "lobby":
            # the snapshot, the version and the log move together or not at all
            assert snap is not None and snap[1] == len(rows)
            assert [r.verdict for r in await check_database(st)] == ["OK"]
        return game.status, game.version
    finally:
        await st.close()


async def test_sigkill_at_random_points(tmp_path):
    db = tmp_path / "crash.db"
    rng = random.Random(20260101)
    acked: list[str] = []
    kills = 0
    deadline = time.monotonic() + 35
    last_version = -1
    while time.monotonic() < deadline:
        lines, killed = run_driver(db, kill_after=rng.uniform(0.05, 0.9))
        acked += [line.split()[1] for line in lines if line.startswith("ACK ")]
        kills += killed
        status, version = await verify(db, acked)
        assert version >= last_version  # never goes backwards
        last_version = version
        if not killed:
            break
    # finish the game without interruption; it continues from where it stopped
    lines, _ = run_driver(db, kill_after=None)
    acked += [line.split()[1] for line in lines if line.startswith("ACK ")]
    assert lines[-1].startswith("DONE")
    status, version = await verify(db, acked)
    assert status == "finished"
    assert kills >= 15, "the game finished before the driver was killed often enough"
    assert len(acked) == len(set(acked))  # no acknowledged key was applied twice
    print(f"kills={kills} acked={len(acked)} version={version}")
