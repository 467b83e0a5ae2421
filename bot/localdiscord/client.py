"""Pointing discord.py at the fake, and running a client against it."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
import discord.gateway
import discord.http
import yarl

if TYPE_CHECKING:
    from .server import FakeDiscord

ENV_VAR = "VICEROY_FAKE_DISCORD"

_ORIGINAL_BASE: str = discord.http.Route.BASE
_ORIGINAL_GATEWAY: yarl.URL = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


def point_discord_py_at(host: str, port: int) -> None:
    """Send every discord.py REST call and gateway connection in this process to the fake."""
    discord.http.Route.BASE = f"http://{host}:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://{host}:{port}/")


def restore_discord_py() -> None:
    """Undo :func:`point_discord_py_at`: discord.py talks to the real Discord again."""
    discord.http.Route.BASE = _ORIGINAL_BASE
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = _ORIGINAL_GATEWAY


def configure_from_env(environ: Mapping[str, str] | None = None) -> tuple[str, int] | None:
    """If ``VICEROY_FAKE_DISCORD=host:port`` is set, point discord.py there and return (host, port).

    The bot's entry point calls this before connecting, so a bot started as a subprocess by a test (or
    the offline demo) talks to the fake instead of Discord.
    """
    value = (environ if environ is not None else os.environ).get(ENV_VAR, "").strip()
    if not value:
        return None
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"{ENV_VAR} must look like 127.0.0.1:PORT, got {value!r}")
    point_discord_py_at(host, int(port))
    return host, int(port)


async def connect_client(world: FakeDiscord, client: discord.Client, token: str | None = None, *,
                         timeout: float = 10.0, fast_ready: bool = True) -> asyncio.Task[None]:
    """Start ``client`` against ``world`` in a background task and wait until it is READY.

    ``fast_ready`` lowers discord.py's ``guild_ready_timeout`` (2 s of quiet after the last GUILD_CREATE)
    to 0.1 s: the fake sends every GUILD_CREATE right after READY, so waiting longer only slows tests.
    Returns the task running ``client.start``; pass it to :func:`close_client`.
    """
    point_discord_py_at(world.host, world.port)
    if fast_ready:
        client._connection.guild_ready_timeout = 0.1
    task = asyncio.create_task(client.start(token or world.token), name="fake-discord-client")
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()  # re-raise why the client stopped
            raise RuntimeError("the client stopped before it became ready")
        await close_client(client, task)
        raise TimeoutError(f"client not ready after {timeout}s")
    count = _shard_count(client, world)
    shards = _shards_of(client, world)
    want = {g for g in world.guilds if world.shard_of(g, count) in shards}  # the guilds of its shards
    await world.wait_for(lambda: want <= {g.id for g in client.guilds}, timeout=timeout,
                         what="the client to know every guild")
    return task


def _shard_count(client: discord.Client, world: FakeDiscord) -> int:
    return client.shard_count or (world.shard_count if isinstance(client, discord.AutoShardedClient) else 1)


def _shards_of(client: discord.Client, world: FakeDiscord) -> set[int]:
    """The shard ids a client runs (an AutoShardedClient without shard_ids runs all of them)."""
    if isinstance(client, discord.AutoShardedClient):
        return set(client.shard_ids or range(_shard_count(client, world)))
    return {client.shard_id or 0}


async def close_client(client: discord.Client, task: asyncio.Task[Any] | None = None,
                       world: FakeDiscord | None = None, timeout: float = 5.0) -> None:
    """Close ``client`` cleanly; wait for its task and (with ``world``) until the fake saw the socket close."""
    session_id = client.ws.session_id if client.ws is not None else None
    await client.close()
    if task is not None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout)
    if world is not None and session_id is not None:
        def gone() -> bool:
            session = world.sessions.get(session_id)
            return session is None or not session.connected

        await world.wait_for(gone, timeout=timeout, what="the fake to see the client's gateway close")
