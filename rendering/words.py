"""The language of the words drawn in pictures.

Renderers are written in English and pass every word they draw through ``say`` (numbers, letters on a
slot, card names and player names need not). The bot draws a picture for a reader inside ``drawing_in``
with the catalogue's translation of its language (bot.i18n.drawing); outside it ``say`` returns the English.
The rendering layer knows nothing of catalogues: a language is a key (for the caches) and a function from an
English text to the reader's.

A context variable, not a parameter: the words sit deep inside the drawing of a picture, and a picture's
arguments stay plain views. Anything that keeps drawn pictures (``cached_png``, ``cached_image``,
``per_language``) keeps them per language (``language()``), so a picture drawn for one reader is never shown
to a reader of another language.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

Translate = Callable[[str], str]

# (key, translate): the key names the language for caches ("" is English, the words as written).
_DRAWN: ContextVar[tuple[str, Translate | None]] = ContextVar("drawn_words", default=("", None))


def say(text: str) -> str:
    """``text`` (English, as the renderer writes it) in the language being drawn."""
    translate = _DRAWN.get()[1]
    if translate is None or not text:
        return text
    return translate(text)


def language() -> str:
    """The key of the language being drawn ("" for English)."""
    return _DRAWN.get()[0]


@contextmanager
def drawing_in(key: str, translate: Translate | None) -> Iterator[None]:
    """Draw pictures in the language ``key`` inside this block: ``say`` answers with ``translate``."""
    token = _DRAWN.set((key, translate) if translate is not None and key else ("", None))
    try:
        yield
    finally:
        _DRAWN.reset(token)


def drawn_in(key: str, translate: Translate | None, draw: Callable[[], T]) -> Callable[[], T]:
    """``draw`` as a function drawing in the language ``key``, to hand to another thread (a thread does not
    share the caller's context)."""

    def run() -> T:
        with drawing_in(key, translate):
            return draw()

    return run


_PER_LANGUAGE: list[Callable[[], None]] = []


def clear_caches() -> None:
    """Forget every picture part kept by ``per_language`` (tests that watch what is drawn)."""
    for clear in _PER_LANGUAGE:
        clear()


def per_language(maxsize: int) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """``functools.lru_cache`` for a drawing function that draws words: one entry per language."""

    def decorate(fn: Callable[P, T]) -> Callable[P, T]:
        @functools.lru_cache(maxsize=maxsize)
        def keyed(lang: str, *args: object, **kwargs: object) -> T:
            return fn(*args, **kwargs)  # type: ignore[arg-type]

        @functools.wraps(fn)
        def draw(*args: P.args, **kwargs: P.kwargs) -> T:
            return keyed(language(), *args, **kwargs)

        _PER_LANGUAGE.append(keyed.cache_clear)
        draw.cache_clear = keyed.cache_clear  # type: ignore[attr-defined]
        draw.cache_info = keyed.cache_info  # type: ignore[attr-defined]
        return draw

    return decorate
