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
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from PIL import ImageDraw

import cogs.discord_ui
from bot.i18n import catalogue
from rendering.cache import PARTS, PICTURES
from rendering.words import clear_caches

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
