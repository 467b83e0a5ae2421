"""Slash commands in the reader's language: a discord.py translator backed by the catalogue (bot/i18n.py).

Discord shows each command's localised name and description to users whose client runs in that language;
interactions still carry the English names, so nothing else changes. Game names (the command groups) are
proper names and stay as they are.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, catalogue, command_names, locale_of

Location = app_commands.TranslationContextLocation
NAME_LOCATIONS = (Location.command_name, Location.parameter_name)


class CatalogueTranslator(app_commands.Translator):
    """Names from the catalogue's ``names``, descriptions and choice names from its entries; ``None`` (Discord
    falls back to the English text) for English readers and for anything the catalogue does not know."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        code = locale_of(locale)
        if code == DEFAULT_LOCALE:
            return None
        text = string.message
        if context.location in NAME_LOCATIONS:
            return command_names(code).get(text)
        if context.location is Location.group_name:
            return None
        translated = catalogue(code).text(text)
        return translated if translated != text else None


USER_LOCALE = "locale"  # user_prefs key: the language of a player's client, from their latest interaction
SETTINGS = 0  # user_prefs rows of the bot's own settings (no Discord user has id 0)
REMEMBERED = 10_000  # players and servers whose language is kept in memory


def guild_language_key(guild_id: int) -> str:
    return f"guild.{guild_id}.language"


class Languages:
    """Which language each reader gets: a player's DMs and private replies in their client's language (remembered
    from their latest interaction), a channel in its server's language (set with ``/<game> settings language``,
    else the server's community locale, else English). Kept in two small bounded caches, written through."""

    def __init__(self, bot: discord.Client, service: Any) -> None:
        self.bot, self.service = bot, service
        self._users: OrderedDict[int, str | None] = OrderedDict()
        self._guilds: OrderedDict[int, str | None] = OrderedDict()

    @staticmethod
    def _keep(cache: OrderedDict, key: int, value: str | None) -> None:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > REMEMBERED:
            cache.popitem(last=False)

    async def remember(self, user_id: int, discord_locale: object) -> str:
        """A player's client language, stored when it changed; returns its catalogue code."""
        code = locale_of(discord_locale)
        if user_id not in self._users:
            self._keep(self._users, user_id, await self.service.get_pref(user_id, USER_LOCALE))
        stored = self._users[user_id]
        if stored != code and not (stored is None and code == DEFAULT_LOCALE):  # English players write nothing
            await self.service.set_pref(user_id, USER_LOCALE, code)
            self._keep(self._users, user_id, code)
        return code

    async def of_guild(self, guild_id: int | None) -> str:
        if guild_id is None:
            return DEFAULT_LOCALE
        if guild_id not in self._guilds:
            self._keep(self._guilds, guild_id, await self.service.get_pref(SETTINGS, guild_language_key(guild_id)))
        chosen = self._guilds[guild_id]
        if chosen:
            return chosen
        guild = self.bot.get_guild(guild_id)
        return locale_of(guild.preferred_locale) if guild is not None else DEFAULT_LOCALE

    async def of_user(self, user_id: int | None, guild_id: int | None = None) -> str:
        """A player's language (for DMs), or their game's server language if they never interacted."""
        if user_id is not None:
            if user_id not in self._users:
                self._keep(self._users, user_id, await self.service.get_pref(user_id, USER_LOCALE))
            if self._users[user_id]:
                return self._users[user_id]  # type: ignore[return-value]
        return await self.of_guild(guild_id)

    async def set_guild(self, guild_id: int, code: str | None) -> None:
        """A server's language for channel posts (None: back to the server's own locale)."""
        await self.service.set_pref(SETTINGS, guild_language_key(guild_id), code)
        self._keep(self._guilds, guild_id, code)
