"""Packing a finished game drops its actions' stored results (they only serve retries of a live interaction)
and keeps every action as it was; on SQLite the space the results took is freed for later rows, so a
database grows by what a finished game keeps, not by what its live interactions needed."""

from __future__ import annotations

import sqlite3

from bot.storage import Storage
from tests.storage.conftest import new_game

RESULT = bytes(range(256)) * 3  # about the size of a stored submission result


async def play(storage, gid: int, actions: int, first: int = 1) -> None:
    for seq in range(first, first + actions):
        async with storage.transaction() as tx:
            await tx.append_action(gid, seq, seq % 2, {"type": "move", "n": seq}, kind="action",
                                   key=f"k-{gid}-{seq}", now=float(seq), result=RESULT)


async def test_packing_keeps_every_action_and_drops_the_stored_results(storage):
    gid = await new_game(storage)
    other = await new_game(storage, channel=2)
    await play(storage, gid, 12)
    await play(storage, other, 3)
    async with storage.reading() as tx:
        before = await tx.actions(gid)
        keyed = await tx.action_by_key(f"k-{gid}-5")
    assert keyed is not None and keyed.result == RESULT
    async with storage.transaction() as tx:
        await tx.pack_game(gid)
    async with storage.reading() as tx:
        assert await tx.actions(gid) == before  # seq, seat, action, key, kind and time, in order
        again = await tx.action_by_key(f"k-{gid}-5")
        assert again is not None and again.seq == 5 and again.result is None
        assert (await tx.action_by_key(f"k-{other}-2")).result == RESULT  # another game's stay
        ids = [r[0] for r in await tx._all("SELECT id FROM actions WHERE game_id=? ORDER BY seq", (gid,))]
    assert ids == sorted(ids) and len(set(ids)) == 12
    # new actions of other games still get ids never given before
    await play(storage, other, 4, first=4)
    async with storage.reading() as tx:
        newest = await tx._one("SELECT MAX(id) FROM actions WHERE game_id=?", (other,))
    assert newest[0] > max(ids)


def _pages(path: str, table: str) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT COUNT(*) FROM dbstat WHERE name=?", (table,)).fetchone()[0]


async def test_a_packed_game_frees_the_pages_its_results_took_for_the_next_games(tmp_path):
    path = tmp_path / "grow.db"
    storage = await Storage.open(path)
    try:
        for n in range(6):
            gid = await new_game(storage, channel=n)
            await play(storage, gid, 40)
            async with storage.transaction() as tx:
                await tx.pack_game(gid)
    finally:
        await storage.close()
    pages = _pages(str(path), "actions")
    # 240 actions of about 100 bytes each once packed: a few dozen 2 KiB pages.  With the results kept in
    # place (set to NULL) they took one page per one or two actions, some 130 pages or more.
    assert pages < 60, f"{pages} pages of actions for 240 packed actions"
