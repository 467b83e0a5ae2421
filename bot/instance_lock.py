"""One bot process per database: an exclusive ``flock`` on a lock file beside the SQLite file.

Two processes on one database would both answer every click and both fire every deadline. The lock is
held for the life of the process; the kernel releases it when the process ends, however it ends (even
``kill -9``), so a stale lock file never blocks a restart. The file keeps the holder's pid for the message.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType


class InstanceLockHeld(RuntimeError):
    """Another process holds the database's lock; the message says which and what to do."""


def lock_path_for(db_path: str | Path) -> Path:
    """``var/viceroy.db`` -> ``var/viceroy.db.lock``."""
    p = Path(db_path)
    return p.with_name(p.name + ".lock")


class InstanceLock:
    """``with InstanceLock(lock_path_for(db)):`` ... raises :class:`InstanceLockHeld` if already held."""

    def __init__(self, path: str | Path, *, what: str | None = None) -> None:
        self.path = Path(path)
        self.what = what or str(self.path.with_suffix("") if self.path.suffix == ".lock" else self.path)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> InstanceLock:
        if self._fd is not None:
            return self
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise InstanceLockHeld(
                f"another Viceroy GM process{who} is already using the database {self.what} "
                f"(lock file {self.path}); stop it first, or give this one its own VICEROY_DB") from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        # The file stays: deleting it would let a third process lock a new file while a second one waits
        # on the old one.
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def __enter__(self) -> InstanceLock:
        return self.acquire()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
