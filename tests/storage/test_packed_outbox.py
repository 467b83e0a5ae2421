"""A finished game's outbox is packed once its last entry is delivered: every entry but the newest goes into
one compressed row, and the game's record of what it posted (Tx.outbox_record, Tx.outbox_recorded) reads the
same before and after.  Nothing is packed while an entry is still to deliver or while the game goes on."""

from __future__ import annotations

import asyncio
import sqlite3
import zlib

import pytest

from bot.storage import Storage
from bot.storage.schema import CorruptSnapshot
from tests.storage.conftest import new_game


async def commit(storage, gid: int, version: int) -> int:
    """One commit's public events and outbox entry; returns the entry's id."""
    async with storage.transaction() as tx:
        await tx.append_events(gid, version, [{"type": "said", "to": "all", "n": version}], float(version))
        await tx.add_outbox(gid, version, {"kind": "toy", "private": {"0": [{"type": "secret", "v": version}]},
                                           "finished": False}, float(version))
    async with storage.reading() as tx:
        return (await tx._one("SELECT MAX(id) FROM outbox WHERE game_id=?", (gid,)))[0]


async def deliver(storage, outbox_id: int, n: int) -> None:
    async with storage.transaction() as tx:
        await tx.outbox_progress(outbox_id, {"c0": 1000 + n, f"p{n % 2}": 2000 + n}, float(100 + n))


async def finish(storage, gid: int) -> None:
    async with storage.transaction() as tx:
        await tx.update_game(gid, 50.0, status="finished")


async def finished_and_delivered(storage, entries: int, channel: int = 1) -> tuple[int, list[int]]:
    """A finished game with `entries` announcements, all delivered (so packed): (game, entry ids)."""
    gid = await new_game(storage, channel=channel)
    ids = [await commit(storage, gid, v) for v in range(1, entries + 1)]
    await finish(storage, gid)
    for n, oid in enumerate(ids):
        await deliver(storage, oid, n)
    return gid, ids


async def rows(storage, gid: int) -> list[int]:
    async with storage.reading() as tx:
        return [r[0] for r in await tx._all("SELECT id FROM outbox WHERE game_id=? ORDER BY id", (gid,))]


async def packed(storage, gid: int) -> bool:
    async with storage.reading() as tx:
        return await tx._one("SELECT 1 FROM outbox_packed WHERE game_id=?", (gid,)) is not None


async def record(storage, gid: int):
    async with storage.reading() as tx:
        return await tx.outbox_record(gid)


async def test_the_last_delivery_of_a_finished_game_packs_its_outbox_and_keeps_its_record(storage):
    gid = await new_game(storage)
    ids = [await commit(storage, gid, v) for v in range(1, 7)]
    for n, oid in enumerate(ids[:-1]):
        await deliver(storage, oid, n)
    await finish(storage, gid)
    before = await record(storage, gid)
    async with storage.reading() as tx:
        recorded = await tx.outbox_recorded(gid, ids[-1])
    assert [o.id for o in before] == ids and before[0].payload["public"] == [{"type": "said", "to": "all", "n": 1}]
    assert not await packed(storage, gid)
    await deliver(storage, ids[-1], 5)
    assert await rows(storage, gid) == ids[-1:], "only the newest entry stays a row"
    assert await packed(storage, gid)
    after = await record(storage, gid)
    assert [o.delivered_at for o in after] == [100.0 + n for n in range(6)]
    assert [(o.id, o.version, o.payload, o.created_at) for o in after] == \
        [(o.id, o.version, o.payload, o.created_at) for o in before]
    assert [o.sent for o in after[:-1]] == [o.sent for o in before[:-1]]
    async with storage.reading() as tx:
        assert await tx.outbox_recorded(gid, ids[-1]) == recorded  # what a redelivery of the end reads
        assert await tx.outbox_recorded(gid, ids[3], limit=2) == recorded[2:4]
        assert await tx.outbox(gid) == []


async def test_nothing_is_packed_while_an_entry_is_undelivered_or_the_game_goes_on(storage):
    going = await new_game(storage)
    ids = [await commit(storage, going, v) for v in range(1, 4)]
    for n, oid in enumerate(ids):
        await deliver(storage, oid, n)
    assert await rows(storage, going) == ids and not await packed(storage, going)
    over = await new_game(storage, channel=2)
    ids = [await commit(storage, over, v) for v in range(1, 4)]
    await finish(storage, over)
    for n, oid in enumerate(ids[1:]):
        await deliver(storage, oid, n)
    assert await rows(storage, over) == ids and not await packed(storage, over), "its first entry is still owed"
    await deliver(storage, ids[0], 9)
    assert await rows(storage, over) == ids[-1:]


async def test_entries_after_a_packing_are_packed_with_the_earlier_ones(storage):
    gid, ids = await finished_and_delivered(storage, 3)
    ids += [await commit(storage, gid, v) for v in range(4, 6)]
    for n, oid in enumerate(ids[3:], start=3):
        await deliver(storage, oid, n)
    assert await rows(storage, gid) == ids[-1:]
    assert [o.id for o in await record(storage, gid)] == ids
    assert [o.payload["public"][0]["n"] for o in await record(storage, gid)] == [1, 2, 3, 4, 5]


async def test_new_entries_never_get_the_id_of_a_packed_one(storage):
    _, ids = await finished_and_delivered(storage, 4)
    other = await new_game(storage, channel=2)
    fresh = await commit(storage, other, 1)
    assert fresh > max(ids)


async def test_a_damaged_packed_outbox_is_reported_not_misread(storage):
    gid, _ = await finished_and_delivered(storage, 2)
    async with storage.transaction() as tx:
        await tx.execute("UPDATE outbox_packed SET entries=? WHERE game_id=?", (zlib.compress(b"[")[:-2], gid))
    with pytest.raises(CorruptSnapshot, match="packed outbox"):
        await record(storage, gid)


async def test_packed_games_leave_their_outbox_pages_to_the_next_games(tmp_path):
    path = tmp_path / "grow.db"
    storage = await Storage.open(path)
    try:
        for g in range(6):
            await finished_and_delivered(storage, 40, channel=g)
    finally:
        await storage.close()
    with sqlite3.connect(path) as conn:
        pages = conn.execute("SELECT COUNT(*) FROM dbstat WHERE name IN ('outbox', 'outbox_packed')").fetchone()[0]
    # 240 entries of some 150 bytes with their records: about 20 pages of 2 KiB as rows; packed, 6 rows
    # of about 1 kB and 6 entries kept as rows.
    assert pages < 10, f"{pages} pages for the outbox of 6 packed games"


async def test_the_check_command_packs_games_that_ended_before_packing_existed(tmp_path, capsys):
    from bot.check import main, pack_outboxes

    path = tmp_path / "old.db"
    storage = await Storage.open(path)
    try:
        old = await new_game(storage)  # delivered while it went on, then ended: as an older version left it
        ids = [await commit(storage, old, v) for v in range(1, 5)]
        for n, oid in enumerate(ids):
            await deliver(storage, oid, n)
        await finish(storage, old)
        owed = await new_game(storage, channel=2)  # over, one entry still to deliver: left as it is
        await commit(storage, owed, 1)
        await commit(storage, owed, 2)
        await finish(storage, owed)
        going = await new_game(storage, channel=3)
        await deliver(storage, await commit(storage, going, 1), 0)
        await deliver(storage, await commit(storage, going, 2), 1)
        before = await record(storage, old)
        assert not await packed(storage, old)
        async with storage.transaction() as tx:  # storage-only games, with no log to replay: the audit skips them
            await tx.execute("UPDATE games SET seed=NULL")
    finally:
        await storage.close()
    assert await asyncio.to_thread(main, ["--db", str(path), "--pack"]) == 0  # the command runs its own loop
    assert "outboxes packed: 1 games, 3 entries" in capsys.readouterr().out
    storage = await Storage.open(path)
    try:
        assert await rows(storage, old) == ids[-1:] and await record(storage, old) == before
        assert len(await rows(storage, owed)) == 2 and len(await rows(storage, going)) == 2
        assert await pack_outboxes(storage) == (0, 0), "a second run finds nothing to pack"
    finally:
        await storage.close()
