"""``python -m bot``: run the bot, or, with no Discord token configured, an offline demo game.

``python -m bot --demo [GAME]`` plays the offline demo of GAME (viceroy, splendorduel, pyramido) whatever is
configured.

Exit status: 0 after a normal stop (SIGINT, SIGTERM), 2 when the bot cannot start (bad configuration, a
token Discord rejects, Discord unreachable, the database in use by another process); the reason is one line
on standard error.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from typing import TYPE_CHECKING

from bot.config import ConfigError, Settings, load_settings

if TYPE_CHECKING:
    from bot.app import GameMasterBot

log = logging.getLogger("bot")


class StartupError(Exception):
    """Why the bot could not start, in one line for the operator."""


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


async def _run(bot: GameMasterBot, token: str) -> None:
    """``Client.start`` in two steps, so that start-up failures are told apart from later ones."""
    import aiohttp
    import discord

    from bot.permissions import invite_url

    loop = asyncio.get_running_loop()
    # systemd and docker stop a service with SIGTERM: close like on Ctrl-C (gateway, announcements, database).
    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
    async with bot:
        try:
            await bot.login(token)
        except discord.LoginFailure:
            raise StartupError("Discord rejected the bot token (DISCORD_TOKEN): copy it again from the "
                               "developer portal (Bot > Reset Token)") from None
        except (aiohttp.ClientConnectionError, TimeoutError) as exc:
            raise StartupError(f"cannot reach Discord at {discord.http.Route.BASE}: {_one_line(exc)}") from None
        except discord.DiscordServerError as exc:
            raise StartupError(f"Discord answered {exc.status} at start-up; try again later") from None
        if bot.application_id is not None:
            print(f"Invite link: {invite_url(bot.application_id)}", flush=True)
        await bot.connect(reconnect=True)


def run_bot(settings: Settings, token: str) -> int:
    from bot.app import make_bot
    from bot.instance_lock import InstanceLock, InstanceLockHeld, lock_path_for
    from bot.storage.base import is_postgres_url

    # One process per SQLite file; processes sharing a PostgreSQL database coordinate through it.
    lock = InstanceLock(lock_path_for(settings.db_path))
    try:
        if not is_postgres_url(str(settings.db_path)):
            lock.acquire()
    except InstanceLockHeld as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        bot = make_bot(settings)
        try:
            asyncio.run(_run(bot, token))
        except StartupError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            pass
        return 0
    finally:
        lock.release()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the bot; with no DISCORD_TOKEN, "
                                     "play an offline demo game on a local fake Discord.")
    parser.add_argument("--demo", nargs="?", const="viceroy", metavar="GAME",
                        help="play the offline demo of GAME (viceroy, the default; splendorduel; pyramido), "
                             "whatever is configured")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.localdiscord import configure_from_env

    if args.demo is not None or (configure_from_env() is None and not settings.token):
        from bot.demo import UnknownDemoGame, run_demo

        try:
            return asyncio.run(run_demo(settings, game=args.demo or "viceroy"))
        except UnknownDemoGame as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if not settings.token:
        print("error: DISCORD_TOKEN is not set.", file=sys.stderr)
        return 2
    return run_bot(settings, settings.token)


if __name__ == "__main__":
    sys.exit(main())
