"""``python -m bot`` as an operator meets it: one-line errors with exit status 2, the invite link, SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

from bot.instance_lock import InstanceLock, lock_path_for
from bot.localdiscord import FakeDiscord
from bot.permissions import INVITE_PERMISSIONS
from tests.bot.harness import ROOT


def _env(db: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VICEROY_", "DISCORD_"))}
    env.update({"VICEROY_DB": str(db), "VICEROY_LOG_LEVEL": "ERROR", "VICEROY_TIME_LIMIT_HOURS": "0"})
    env.update(extra)
    return env


async def _run(env: dict[str, str], timeout: float = 120) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=ROOT, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    return proc.returncode, out.decode(), err.decode()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once the socket is closed


async def test_rejected_token_is_one_line_and_exit_2(fake_discord: FakeDiscord, tmp_path):
    env = _env(tmp_path / "v.db", **fake_discord.env())
    env["DISCORD_TOKEN"] = "not.the.token"
    code, _, err = await _run(env)
    assert code == 2
    assert err.strip().splitlines() == [err.strip()]
    assert err.startswith("error: Discord rejected the bot token (DISCORD_TOKEN)")


async def test_unreachable_discord_is_one_line_and_exit_2(tmp_path):
    env = _env(tmp_path / "v.db", VICEROY_FAKE_DISCORD=f"127.0.0.1:{_closed_port()}", DISCORD_TOKEN="a.b.c")
    code, _, err = await _run(env)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("error: cannot reach Discord at http://127.0.0.1:")


async def test_database_in_use_is_refused_before_connecting(fake_discord: FakeDiscord, tmp_path):
    db = tmp_path / "v.db"
    before = len(fake_discord.requests)
    with InstanceLock(lock_path_for(db)):
        code, _, err = await _run(_env(db, **fake_discord.env()))
    assert code == 2
    assert err.strip().splitlines() == [f"error: another Viceroy GM process (pid {os.getpid()}) is already using "
                                        f"the database {db} (lock file {db}.lock); stop it first, or give this "
                                        "one its own VICEROY_DB"]
    assert len(fake_discord.requests) == before  # never talked to Discord


async def test_bot_prints_its_invite_link_and_stops_cleanly_on_sigterm(fake_discord: FakeDiscord, tmp_path):
    world = fake_discord
    guild = world.add_guild("Ops")
    db = tmp_path / "v.db"
    env = _env(db, **world.env(), VICEROY_DEV_GUILD=str(guild.id))
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=ROOT, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), 120)).decode()
        assert line.strip() == (f"Invite link: https://discord.com/oauth2/authorize?client_id={world.application_id}"
                                f"&permissions={INVITE_PERMISSIONS}&integration_type=0"
                                "&scope=bot+applications.commands")
        await world.wait_for(lambda: any(s.conn is not None for s in world.sessions.values()), timeout=120,
                             what="the bot's gateway session")
        # A second process on the same database is refused while the first runs.
        code, _, err = await _run(env)
        assert code == 2 and "is already using the database" in err
        proc.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(proc.communicate(), 120)
        assert proc.returncode == 0, err.decode()
        assert "Traceback" not in err.decode()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    # The lock went with the process.
    with InstanceLock(lock_path_for(db)) as lock:
        assert lock.held
