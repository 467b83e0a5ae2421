"""Pictures drawn once: PNG bytes (and the parts of a table) kept by what they were drawn from.

Every ``render_*`` function is a pure function of its arguments (views are plain data), and the bot asks for
the same picture more than once (a prompt redrawn for an edit, the table after a move that did not change
it): about a quarter of the pictures of a game are the same bytes again. ``cached_png`` keeps the newest
pictures, up to ``MAX_BYTES``, keyed by the function, the language of its words and a digest of its pickled arguments: equal
pickles unpickle to equal arguments (same types, same values, same order), so a hit is the picture the
function would draw; arguments that do not pickle are drawn every time.

``cached_image`` does the same for parts composed into bigger pictures (a table's pyramids: after a move
most of them are as they were). Those images are shared: callers paste them and never draw on them.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from PIL import Image

from .words import language

P = ParamSpec("P")
T = TypeVar("T")

# About a hundred big pictures (a table is 100-400 KB): what a bot redraws soon after drawing it.
MAX_BYTES = 48 * 1024 * 1024
# Composed parts, by their pixels' size: about thirty 900 x 850 pyramids, seven tables of four.
MAX_IMAGE_BYTES = 64 * 1024 * 1024


class LruCache:
    """Least recently used values by key (PNG bytes, or images), at most ``max_bytes`` of them as ``size_of``
    counts them; safe to share between threads."""

    def __init__(self, max_bytes: int = MAX_BYTES, size_of: Callable[[Any], int] = len) -> None:
        self.size_of = size_of
        self.max_bytes = max_bytes
        self.size = 0
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[bytes, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: bytes) -> Any:
        with self._lock:
            data = self._items.get(key)
            if data is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return data

    def put(self, key: bytes, data: Any) -> None:
        size = self.size_of(data)
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.size -= self.size_of(old)
            self._items[key] = data
            self.size += size
            while self.size > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self.size -= self.size_of(dropped)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.size = self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)


def _pixel_bytes(img: Image.Image) -> int:
    return img.width * img.height * len(img.getbands())


PICTURES = LruCache()
PARTS = LruCache(MAX_IMAGE_BYTES, _pixel_bytes)


_functions = itertools.count()


def _key(prefix: bytes, args: tuple, kwargs: dict) -> bytes | None:
    try:
        # The language of the drawn words is an argument too (see rendering/words.py).
        data = pickle.dumps((language(), args, sorted(kwargs.items())), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return None
    return prefix + hashlib.blake2b(data, digest_size=20).digest()


def _cached(cache: LruCache, fn: Callable[P, T]) -> Callable[P, T]:
    # Each decorated function has a prefix of its own: two functions never share a value.
    prefix = f"{next(_functions)}:{fn.__module__}.{fn.__qualname__}:".encode()

    @functools.wraps(fn)
    def draw(*args: P.args, **kwargs: P.kwargs) -> T:
        key = _key(prefix, args, kwargs)
        if key is None:
            return fn(*args, **kwargs)
        value = cache.get(key)
        if value is None:
            value = fn(*args, **kwargs)
            cache.put(key, value)
        return value

    return draw


def cached_png(fn: Callable[P, bytes]) -> Callable[P, bytes]:
    """``fn`` (a pure function returning PNG bytes) through the shared picture cache ``PICTURES``."""
    return _cached(PICTURES, fn)


def cached_image(fn: Callable[P, Image.Image]) -> Callable[P, Image.Image]:
    """``fn`` (a pure function returning an image that callers only read) through the cache ``PARTS``."""
    return _cached(PARTS, fn)
