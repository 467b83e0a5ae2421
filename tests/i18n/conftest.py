from bot.localdiscord.pytest_plugin import fake_discord  # noqa: F401  (fixture)
