"""``python -m bot``: run the bot, or, with no Discord token configured, an offline demo game."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.config import ConfigError, load_settings


def main(argv: list[str] | None = None) -> int:
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.localdiscord import configure_from_env

    if configure_from_env() is None and not settings.token:
        from bot.demo import run_demo

        return asyncio.run(run_demo(settings))
    from bot.app import ViceroyBot

    bot = ViceroyBot(settings)
    token = settings.token
    if not token:
        print("DISCORD_TOKEN is not set.", file=sys.stderr)
        return 2
    bot.run(token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
