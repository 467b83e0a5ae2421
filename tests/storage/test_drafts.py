"""Drafts: one half-built answer per seat, tied to the prompt it was started for."""

from __future__ import annotations

from bot.storage import MIGRATIONS, Storage
from tests.storage.conftest import new_game
from tests.storage.old_schema import old_sqlite_database


async def test_draft_round_trip(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        assert await tx.get_draft(gid, 0) is None
        await tx.put_draft(gid, 0, "bid:r1", {"card": 21, "gems": ["red", "blue"]})
    async with storage.reading() as tx:
        assert await tx.get_draft(gid, 0) == ("bid:r1", {"card": 21, "gems": ["red", "blue"]})


async def test_draft_is_replaced_with_its_prompt_key(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.put_draft(gid, 0, "bid:r1", {"card": 21})
        await tx.put_draft(gid, 0, "bid:r2", {"card": 7})
    async with storage.reading() as tx:
        assert await tx.get_draft(gid, 0) == ("bid:r2", {"card": 7})


async def test_draft_none_deletes(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.put_draft(gid, 0, "bid:r1", {"card": 21})
        await tx.put_draft(gid, 0, "bid:r1", None)
        assert await tx.get_draft(gid, 0) is None
        await tx.put_draft(gid, 1, "bid:r1", None)  # deleting nothing is fine
        assert await tx.get_draft(gid, 1) is None


async def test_drafts_are_per_seat_and_per_game(storage):
    a = await new_game(storage, channel=1)
    b = await new_game(storage, channel=2)
    async with storage.transaction() as tx:
        await tx.put_draft(a, 0, "k", {"who": "a0"})
        await tx.put_draft(a, 1, "k", {"who": "a1"})
        await tx.put_draft(b, 0, "k", {"who": "b0"})
        await tx.put_draft(a, 1, "k", None)
    async with storage.reading() as tx:
        assert await tx.get_draft(a, 0) == ("k", {"who": "a0"})
        assert await tx.get_draft(a, 1) is None
        assert await tx.get_draft(b, 0) == ("k", {"who": "b0"})


async def test_draft_rolls_back_with_its_transaction(storage):
    gid = await new_game(storage)
    try:
        async with storage.transaction() as tx:
            await tx.put_draft(gid, 0, "k", {"card": 3})
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    async with storage.reading() as tx:
        assert await tx.get_draft(gid, 0) is None


async def test_pack_game_drops_drafts(storage):
    gid = await new_game(storage, channel=1)
    other = await new_game(storage, channel=2)
    async with storage.transaction() as tx:
        await tx.put_draft(gid, 0, "k", {"card": 3})
        await tx.put_draft(gid, 1, "k", {"card": 4})
        await tx.put_draft(other, 0, "k", {"card": 5})
        await tx.pack_game(gid)
    async with storage.reading() as tx:
        assert await tx.get_draft(gid, 0) is None and await tx.get_draft(gid, 1) is None
        assert await tx.get_draft(other, 0) == ("k", {"card": 5})


async def test_drafts_survive_a_restart(tmp_path):
    path = tmp_path / "d.db"
    st = await Storage.open(path)
    gid = await new_game(st)
    async with st.transaction() as tx:
        await tx.put_draft(gid, 1, "k", {"nested": {"list": [1, 2, 3]}, "text": "é"})
    await st.close()
    st = await Storage.open(path)
    try:
        async with st.reading() as tx:
            assert await tx.get_draft(gid, 1) == ("k", {"nested": {"list": [1, 2, 3]}, "text": "é"})
    finally:
        await st.close()


async def test_older_database_gains_the_drafts_table(tmp_path):
    """A database at the schema before drafts is migrated in place and keeps its games."""
    path = tmp_path / "old.db"
    before = next(i for i, m in enumerate(MIGRATIONS) if any("CREATE TABLE drafts" in sql for sql in m))
    old_sqlite_database(path, before)
    st = await Storage.open(path)
    try:
        assert await st.schema_version() == len(MIGRATIONS)
        gid = await new_game(st)
        async with st.transaction() as tx:
            await tx.put_draft(gid, 0, "k", {"x": 1})
        async with st.reading() as tx:
            assert await tx.get_draft(gid, 0) == ("k", {"x": 1})
    finally:
        await st.close()


async def test_drafts_read_with_the_game_follow_writes_in_the_transaction(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.put_draft(gid, 0, "k", {"card": 1})
    async with storage.transaction() as tx:
        await tx.load_game(gid)  # reads the drafts along
        draft = await tx.get_draft(gid, 0)
        assert draft == ("k", {"card": 1})
        draft[1]["card"] = 99  # a copy: editing it changes nothing stored
        assert await tx.get_draft(gid, 0) == ("k", {"card": 1})
        await tx.put_draft(gid, 1, "k", {"card": 2})
        assert await tx.get_draft(gid, 1) == ("k", {"card": 2})
        await tx.put_draft(gid, 0, "k", None)
        assert await tx.get_draft(gid, 0) is None
