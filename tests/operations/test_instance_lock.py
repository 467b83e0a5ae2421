"""One bot process per database: the lock beside the SQLite file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from bot.instance_lock import InstanceLock, InstanceLockHeld, lock_path_for
from tests.bot.harness import ROOT


def test_lock_file_sits_beside_the_database(tmp_path):
    assert lock_path_for(tmp_path / "var" / "viceroy.db") == tmp_path / "var" / "viceroy.db.lock"


def test_second_holder_is_refused_with_the_first_holders_pid(tmp_path):
    path = lock_path_for(tmp_path / "viceroy.db")
    with InstanceLock(path) as first:
        assert first.held
        with pytest.raises(InstanceLockHeld) as err:
            InstanceLock(path).acquire()
        message = str(err.value)
        assert f"pid {os.getpid()}" in message
        assert str(tmp_path / "viceroy.db") in message and "\n" not in message
    # released: the next process gets it
    with InstanceLock(path) as again:
        assert again.held


def test_lock_creates_the_database_folder(tmp_path):
    path = lock_path_for(tmp_path / "new" / "dir" / "viceroy.db")
    with InstanceLock(path):
        assert path.exists()


def test_a_killed_holder_leaves_no_stale_lock(tmp_path):
    path = lock_path_for(tmp_path / "viceroy.db")
    code = ("import sys, time; from bot.instance_lock import InstanceLock; "
            f"InstanceLock({str(path)!r}).acquire(); print('held', flush=True); time.sleep(120)")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        with pytest.raises(InstanceLockHeld):
            InstanceLock(path).acquire()
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    deadline = time.monotonic() + 30
    while True:  # the kernel drops the lock with the process; poll for it rather than guess a delay
        try:
            lock = InstanceLock(path).acquire()
            break
        except InstanceLockHeld:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    assert lock.held
    lock.release()
