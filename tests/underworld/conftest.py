"""The fake Discord fixture for the Underworld end-to-end game."""

from bot.localdiscord.pytest_plugin import fake_discord  # noqa: F401  (fixture)
