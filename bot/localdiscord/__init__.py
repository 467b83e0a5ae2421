"""A local fake Discord (REST v10 + gateway) for end-to-end tests and the offline demo.

See docs/fake-discord.md.
"""

from .client import (
    ENV_VAR,
    close_client,
    configure_from_env,
    connect_client,
    point_discord_py_at,
    restore_discord_py,
)
from .model import FakeAttachment, FakeChannel, FakeGuild, FakeMessage, InteractionRecord, WaitTimeout
from .server import FakeDiscord, Fault
from .users import FakeUser

__all__ = [
    "ENV_VAR",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMessage",
    "FakeUser",
    "Fault",
    "InteractionRecord",
    "WaitTimeout",
    "close_client",
    "configure_from_env",
    "connect_client",
    "point_discord_py_at",
    "restore_discord_py",
]
