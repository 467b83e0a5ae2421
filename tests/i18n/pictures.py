"""What the pictures of a game say, and whether a reader of another language can read all of it.

``watch_pictures`` records, while the bot runs, every English text a renderer passed to ``say`` (with what
the reader's catalogue made of it) and every string drawn on a picture (``ImageDraw.text``). Two checks:

- ``untranslated``: a text given to ``say`` that the catalogue leaves (partly) in English;
- ``drawn_unsaid``: a string drawn with words in it that did not come through ``say`` at all (a renderer
  forgot to ask), once names (players, cards as printed) are taken out.
"""

from __future__ import annotations

import re
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PIL import ImageDraw

import cogs.discord_ui
from bot.i18n import catalogue
from bot.localdiscord import FakeDiscord
from bot.localdiscord.model import FakeChannel
from rendering.cache import PARTS, PICTURES
from rendering.words import clear_caches
from tests.bot.harness import Table

_WORD = re.compile(r"[^\W\d_]{2,}")
_ROMAN = re.compile(r"[IVX]+")  # a monster's tier (I, II, III): a number


@dataclass
class Pictures:
    said: list[tuple[str, str | None, str, str]] = field(default_factory=list)  # locale, game, English, drawn
    drawn: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def untranslated(self, known: Iterable[str] = ()) -> dict[str, list[str]]:
        """English texts given to ``say`` and the parts of each the reader's catalogue cannot translate."""
        names = set(known)
        out: dict[str, list[str]] = {}
        for locale, game, english, _ in self.said:
            missing = catalogue(locale, game).missing(english, known=names)
            if missing:
                out[english] = missing
        return out

    def drawn_unsaid(self, known: Iterable[str] = ()) -> list[str]:
        """Strings drawn with words in them that no text given to ``say`` accounts for."""
        said = {t for *_, t in self.said if t}
        parts = sorted(said | set(known), key=len, reverse=True)
        # Whole words only: a short said text ("bas") must not eat part of a name ("Ambassador").
        found = re.compile("|".join(rf"(?<!\w){re.escape(p)}(?!\w)" for p in parts)) if parts else None
        out = []
        for text in dict.fromkeys(self.drawn):
            if any(text in s for s in said):  # the whole text, or one line of it wrapped
                continue
            rest = found.sub(" ", text) if found is not None else text
            if any(not _ROMAN.fullmatch(w) for w in _WORD.findall(rest)):
                out.append(text)
        return out


@contextmanager
def watch_pictures(monkeypatch: pytest.MonkeyPatch) -> Iterator[Pictures]:
    """Record what the pictures the bot draws say (see the module's docstring). Every picture cache is
    emptied first, so each picture is drawn while watched."""
    seen = Pictures()
    PICTURES.clear()
    PARTS.clear()
    clear_caches()
    drawing = cogs.discord_ui.drawing

    def watched_drawing(locale: str, game: str | None):
        key, translate = drawing(locale, game)
        if translate is None:
            return key, None

        def said(text: str) -> str:
            out = translate(text)
            with seen._lock:
                seen.said.append((locale, game, text, out))
            return out

        return key, said

    text = ImageDraw.ImageDraw.text

    def watched_text(self, xy, string, *args, **kwargs):
        if isinstance(string, str):
            with seen._lock:
                seen.drawn.append(string)
        return text(self, xy, string, *args, **kwargs)

    monkeypatch.setattr(cogs.discord_ui, "drawing", watched_drawing)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", watched_text)
    try:
        yield seen
    finally:
        PICTURES.clear()
        PARTS.clear()
        clear_caches()


@asynccontextmanager
async def swedish_game(world: FakeDiscord, tmp_path: Path, command: str, names: Sequence[str],
                       monkeypatch: pytest.MonkeyPatch, *, guild_name: str = "Spelklubben",
                       watch: Callable[[FakeChannel], None] | None = None,
                       **options: object) -> AsyncIterator[tuple[Table, Pictures]]:
    """A game of ``command`` started on a Swedish server by Swedish players (``names``, the first one hosts,
    the others join), on one fixed deal, with its pictures watched; the bot stops at the end of the block.
    ``watch`` sees the channel before anything is posted in it (to record the messages too)."""
    guild = world.add_guild(guild_name)
    guild.preferred_locale = "sv-SE"
    channel = world.add_text_channel(guild, command)
    users = [world.add_user(name, guild) for name in names]
    for user in users:
        user.locale = "sv-SE"
    if watch is not None:
        watch(channel)
    table = Table(world, guild, channel, users, tmp_path / "sv.db")
    with watch_pictures(monkeypatch) as pictures:
        await table.start_bot()
        table.bot.service._seed_source = lambda: 20261201  # one fixed deal: the same texts on every run
        try:
            host, *others = users
            rec = await host.slash(channel, f"{command} new", **options)
            await table.settle()
            assert rec.reply is not None and rec.reply.embeds
            for user in others:
                await user.click(rec.reply, label="Gå med")
                await table.settle()
            await host.click(rec.reply, label="Starta")
            yield table, pictures
        finally:
            await table.stop_bot()
