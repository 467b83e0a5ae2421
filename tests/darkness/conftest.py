"""The fake Discord fixture for the Times of Darkness end-to-end games."""

from bot.localdiscord.pytest_plugin import fake_discord  # noqa: F401  (fixture)
