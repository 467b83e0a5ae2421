"""Slash commands in the reader's language: a discord.py translator backed by the catalogue (bot/i18n.py).

Discord shows each command's localised name and description to users whose client runs in that language;
interactions still carry the English names, so nothing else changes. Game names (the command groups) are
proper names and stay as they are.
"""

from __future__ import annotations

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
