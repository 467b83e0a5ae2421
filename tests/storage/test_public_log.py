"""The state's public log is stored once, in game_events, and put back into the state on load."""

from __future__ import annotations

import random

import pytest

from bot.storage import CorruptSnapshot, decode_state
from tests.storage.conftest import new_game


def ev(n: int, **extra) -> dict:
    return {"type": "e", "to": "all", "n": n, **extra}


async def commit(storage, gid: int, version: int, state: dict, published: list[dict], *, seq: int = 0) -> None:
    async with storage.transaction() as tx:
        await tx.save_snapshot(gid, version, seq, state, float(version))
        await tx.append_events(gid, version, published, float(version))


async def test_log_entries_are_not_in_the_blob(storage):
    gid = await new_game(storage)
    state = {"phase": "a", "log": [ev(0), ev(1)], "after": True}
    await commit(storage, gid, 1, state, [{"type": "game_started", "to": "all"}, *state["log"]])
    async with storage.reading() as tx:
        _, _, blob, checksum = await tx.snapshot_raw(gid)
        stored = decode_state(blob, checksum)
        assert stored["log"] == 2 and list(stored) == ["phase", "log", "after"]  # key order kept
        assert await tx.snapshot(gid) == (1, 0, state)
        bundle = await tx.load_game(gid)
        assert bundle.snapshot == (1, 0, state) and bundle.error is None
        # the public log keeps every published event, log entries included, once
        assert [e for _, _, e in await tx.events(gid)] == [{"type": "game_started", "to": "all"}, ev(0), ev(1)]


async def test_log_grows_over_commits(storage):
    gid = await new_game(storage)
    state = {"log": []}
    for v in range(1, 20):
        new = [ev(v, k=i) for i in range(v % 3)]
        state["log"].extend(new)
        await commit(storage, gid, v, state, [{"type": "service", "to": "all", "v": v}, *new])
    async with storage.reading() as tx:
        _, _, loaded = await tx.snapshot(gid)
    assert loaded == state


async def test_shorter_log_after_an_undo(storage):
    gid = await new_game(storage)
    full = {"log": [ev(i) for i in range(6)]}
    await commit(storage, gid, 1, full, full["log"])
    shorter = {"log": [ev(i) for i in range(3)]}
    await commit(storage, gid, 2, shorter, [{"type": "undo", "to": "all"}])
    async with storage.reading() as tx:
        assert (await tx.snapshot(gid))[2] == shorter
    # and it grows again from there; the undone entries stay in the public log only
    again = {"log": [*shorter["log"], ev(10)]}
    await commit(storage, gid, 3, again, [ev(10)])
    async with storage.reading() as tx:
        assert (await tx.snapshot(gid))[2] == again
        assert len(await tx.events(gid)) == 6 + 1 + 1


async def test_unpublished_log_entries_stay_inside_the_snapshot(storage):
    """An engine whose log holds something it did not publish still gets its exact state back."""
    gid = await new_game(storage)
    state = {"log": [ev(0), {"type": "secret", "to": 1}, ev(2)]}
    await commit(storage, gid, 1, state, [ev(0), ev(2)])
    async with storage.reading() as tx:
        _, _, blob, checksum = await tx.snapshot_raw(gid)
        assert isinstance(decode_state(blob, checksum)["log"], list)
        assert (await tx.snapshot(gid))[2] == state
    state["log"].append(ev(3))
    await commit(storage, gid, 2, state, [ev(3)])
    async with storage.reading() as tx:
        assert (await tx.snapshot(gid))[2] == state


async def test_saving_twice_in_one_transaction(storage):
    gid = await new_game(storage)
    state = {"log": [ev(0)]}
    async with storage.transaction() as tx:
        await tx.save_snapshot(gid, 1, 0, state, 1.0)
        await tx.append_events(gid, 1, [ev(0)], 1.0)
        state["log"].append(ev(1))
        await tx.save_snapshot(gid, 2, 0, state, 2.0)
        await tx.append_events(gid, 2, [ev(1)], 2.0)
    async with storage.reading() as tx:
        assert (await tx.snapshot(gid))[2] == state


async def test_state_without_a_log(storage):
    gid = await new_game(storage)
    await commit(storage, gid, 1, {"board": [1, 2]}, [ev(0)])
    async with storage.reading() as tx:
        assert (await tx.snapshot(gid))[2] == {"board": [1, 2]}


async def test_packed_game_keeps_its_log(storage):
    gid = await new_game(storage)
    state = {"log": [ev(0), ev(1)]}
    await commit(storage, gid, 1, state, [{"type": "game_started", "to": "all"}, *state["log"]])
    async with storage.transaction() as tx:
        await tx.pack_game(gid)
    async with storage.reading() as tx:
        assert (await tx.snapshot(gid))[2] == state
        assert [e for _, _, e in await tx.events(gid)] == [{"type": "game_started", "to": "all"}, ev(0), ev(1)]
        assert [e for _, _, e in await tx.events(gid, limit=1)] == [ev(1)]


async def test_missing_log_rows_make_the_snapshot_corrupt(storage):
    gid = await new_game(storage)
    state = {"log": [ev(0), ev(1)]}
    await commit(storage, gid, 1, state, state["log"])
    async with storage.transaction() as tx:
        await tx.execute("DELETE FROM game_events WHERE game_id=? AND log_pos=1", (gid,))
    async with storage.reading() as tx:
        with pytest.raises(CorruptSnapshot):
            await tx.snapshot(gid)
        bundle = await tx.load_game(gid)
        assert bundle.snapshot is None and isinstance(bundle.error, CorruptSnapshot)


@pytest.mark.parametrize("seed", range(6))
async def test_log_positions_follow_seq_through_undos_and_private_events(storage, seed):
    """The log is read in seq order (there is no index on log_pos): positions must rise with seq whatever a
    game does, growing, undoing to a shorter log and growing again, with private events in between."""
    rng = random.Random(seed)
    gid = await new_game(storage)
    state: dict = {"log": []}
    n = 0
    for v in range(1, 40):
        if state["log"] and rng.random() < 0.25:  # an undo: a replayed, shorter game
            state = {"log": state["log"][:rng.randrange(len(state["log"]))]}
            published = [{"type": "undo", "to": "all"}]
        else:
            new = [ev(n := n + 1) for _ in range(rng.randrange(4))]
            state["log"].extend(new)
            published = [{"type": "mine", "to": 0}, *new] if rng.random() < 0.5 else new
        await commit(storage, gid, v, state, published)
        async with storage.reading() as tx:
            assert (await tx.snapshot(gid))[2] == state
            assert (await tx.load_game(gid)).snapshot[2] == state
    async with storage.reading() as tx:
        rows = await tx._all("SELECT log_pos FROM game_events WHERE game_id=? AND log_pos IS NOT NULL ORDER BY seq",
                             (gid,))
    assert [r[0] for r in rows] == list(range(len(state["log"])))
