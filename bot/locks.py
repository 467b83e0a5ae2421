"""Per-key asyncio locks that exist only while someone holds or waits for them.

A dict of one lock per game, filled with setdefault, keeps a lock for every game the process ever touched;
with thousands of idle games that is memory held for nothing.  `async with locks.hold(game_id):` gives
the same mutual exclusion and forgets the key as soon as the last holder or waiter leaves.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Any


class KeyedLocks:
    def __init__(self) -> None:
        self._entries: dict[Hashable, list] = {}  # key -> [lock, holders and waiters]

    def __len__(self) -> int:
        """Keys with a holder or a waiter right now."""
        return len(self._entries)

    def locked(self, key: Hashable) -> bool:
        entry = self._entries.get(key)
        return entry is not None and entry[0].locked()

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._entries[key]


class Recent(OrderedDict):
    """A dict that keeps only the `size` keys set most recently: a per-game memo (what was last announced,
    which picture a message shows) that must not grow with every game the process ever touched."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: Hashable, value: Any) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
