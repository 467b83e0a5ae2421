"""The submission path at the floor: a whole write transaction in one Storage.run call (on SQLite one call on
the database thread), timers re-armed in place, the public log read as one row, stored results as plain JSON,
and checkpoints beside the writer instead of inside a COMMIT."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import zlib

import pytest

from bot.service import ActionResult, Applied
from bot.storage import CorruptSnapshot, Storage
from tests.storage.conftest import new_game


async def test_run_commits_the_body_and_returns_its_result(storage):
    gid = await new_game(storage)

    async def body(tx):
        await tx.update_game(gid, 2.0, version=5)
        return (await tx.game(gid)).version

    assert await storage.run(body) == 5
    async with storage.reading() as tx:
        assert (await tx.game(gid)).version == 5


async def test_run_rolls_back_everything_when_the_body_raises(storage):
    gid = await new_game(storage)

    async def body(tx):
        await tx.update_game(gid, 2.0, version=9)
        await tx.append_action(gid, 1, 0, {"type": "x"}, kind="action", key="k1", now=2.0)
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        await storage.run(body)
    async with storage.reading() as tx:
        assert (await tx.game(gid)).version == 0
        assert await tx.action_by_key("k1") is None


async def test_a_sqlite_body_that_waits_for_the_event_loop_is_refused_and_rolled_back(tmp_path):
    storage = await Storage.open(tmp_path / "run.db")
    try:
        gid = await new_game(storage)

        async def body(tx):
            await tx.update_game(gid, 2.0, version=3)
            await asyncio.sleep(0)  # not the storage: the database thread cannot wait for the loop

        with pytest.raises(RuntimeError, match="waited for the event loop"):
            await storage.run(body)
        async with storage.reading() as tx:
            assert (await tx.game(gid)).version == 0
        assert await storage.run(lambda tx: tx.game(gid)) is not None  # the connection is still usable
    finally:
        await storage.close()


async def test_replace_timers_re_arms_rows_in_place(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.add_timer(gid, 0, "deadline", 100.0, "p1", 0.0)
        await tx.add_timer(gid, 0, "reminder", 50.0, "p1", 0.0)
        await tx.add_timer(gid, 1, "deadline", 100.0, "p1", 0.0)
    async with storage.reading() as tx:
        before = {t.seat: t for t in await tx.timers(gid) if t.kind == "deadline"}
        seat0 = [t for t in await tx.timers(gid) if t.seat == 0]
    async with storage.transaction() as tx:
        await tx.replace_timers(gid, 0, seat0, [("deadline", 300.0), ("reminder", 200.0)], "p2", 10.0)
    async with storage.reading() as tx:
        after = await tx.timers(gid)
    zero = sorted((t.kind, t.due_at, t.prompt_key) for t in after if t.seat == 0)
    assert zero == [("deadline", 300.0, "p2"), ("reminder", 200.0, "p2")]
    assert {t.id for t in after if t.seat == 0} == {t.id for t in seat0}  # the same rows
    assert [t for t in after if t.seat == 1] == [before[1]]  # another seat's timers untouched


async def test_replace_timers_adds_and_drops_rows_when_the_schedule_changes_length(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.add_timer(gid, 0, "deadline", 100.0, "p1", 0.0)
    async with storage.reading() as tx:
        old = await tx.timers(gid)
    async with storage.transaction() as tx:
        await tx.replace_timers(gid, 0, old, [("deadline", 300.0), ("reminder", 100.0), ("reminder", 200.0)],
                                "p2", 10.0)
    async with storage.reading() as tx:
        grown = await tx.timers(gid)
    assert [(t.kind, t.due_at) for t in grown] == [("reminder", 100.0), ("reminder", 200.0), ("deadline", 300.0)]
    async with storage.transaction() as tx:
        await tx.replace_timers(gid, 0, grown, [("deadline", 900.0)], "p3", 20.0)
    async with storage.reading() as tx:
        shrunk = await tx.timers(gid, unfired_only=False)
    assert [(t.kind, t.due_at, t.prompt_key) for t in shrunk] == [("deadline", 900.0, "p3")]


async def test_replace_timers_leaves_a_fired_reminder_alone(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.add_timer(gid, 0, "reminder", 50.0, "p1", 0.0)
        await tx.add_timer(gid, 0, "deadline", 100.0, "p1", 0.0)
    async with storage.reading() as tx:
        rows = await tx.timers(gid)
    async with storage.transaction() as tx:
        await tx.mark_fired(rows[0].id)
    async with storage.transaction() as tx:
        await tx.replace_timers(gid, 0, await tx.timers(gid), [("deadline", 400.0)], "p2", 60.0)
    async with storage.reading() as tx:
        every = await tx.timers(gid, unfired_only=False)
    assert sorted((t.kind, t.fired, t.prompt_key) for t in every) == [("deadline", False, "p2"),
                                                                      ("reminder", True, "p1")]


async def test_rearm_timers_re_arms_every_seat_in_one_call(storage):
    gid = await new_game(storage, seats=3)
    async with storage.transaction() as tx:
        for seat in range(3):
            await tx.add_timer(gid, seat, "deadline", 100.0, "p1", 0.0)
        await tx.add_timer(gid, 0, "reminder", 50.0, "p1", 0.0)
    async with storage.reading() as tx:
        old = await tx.timers(gid)
    by_seat = {seat: [t for t in old if t.seat == seat] for seat in range(3)}
    schedule = [("deadline", 300.0), ("reminder", 200.0)]
    async with storage.transaction() as tx:
        await tx.rearm_timers(gid, [(0, by_seat[0], schedule, "p2"), (1, by_seat[1], schedule, "q2")], 10.0)
    async with storage.reading() as tx:
        after = await tx.timers(gid, unfired_only=False)
    got = sorted((t.seat, t.kind, t.due_at, t.prompt_key) for t in after)
    assert got == [(0, "deadline", 300.0, "p2"), (0, "reminder", 200.0, "p2"),
                   (1, "deadline", 300.0, "q2"), (1, "reminder", 200.0, "q2"), (2, "deadline", 100.0, "p1")]
    assert {t.id for t in after if t.seat == 0} == {t.id for t in by_seat[0]}  # re-armed in place
    assert [t for t in after if t.seat == 2] == by_seat[2]


async def test_a_loaded_game_keeps_its_ai_seats_levels(storage):
    from bot.storage import SeatRow

    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.replace_seats(gid, [SeatRow(gid, 0, 100, "u0", False, "open"),
                                     SeatRow(gid, 1, None, "AI 1 (hard)", True, "unknown", "hard")])
    for write in (False, True):
        async with storage.transaction() if write else storage.reading() as tx:
            bundle = await tx.load_game(gid)
        assert [(s.seat, s.is_ai, s.ai_level) for s in bundle.seats] == [(0, False, None), (1, True, "hard")]


def _event(n: int) -> dict:
    return {"type": "placed", "to": "all", "n": n, "text": f"entry, {n}"}  # a comma inside the text


async def _game_with_log(storage, entries: int) -> int:
    gid = await new_game(storage)
    state = {"board": [1], "log": [_event(n) for n in range(entries)]}
    async with storage.transaction() as tx:
        await tx.save_snapshot(gid, 1, 0, state, 1.0)
        await tx.append_events(gid, 1, state["log"], 1.0)
    return gid


async def test_the_log_comes_back_whole_and_in_order(storage):
    gid = await _game_with_log(storage, 40)
    async with storage.reading() as tx:
        assert (await tx.snapshot(gid))[2]["log"] == [_event(n) for n in range(40)]


@pytest.mark.parametrize("damage", [
    "UPDATE game_events SET log_pos=5 WHERE game_id=? AND log_pos=6",  # a position twice, one missing
    "UPDATE game_events SET log_pos=log_pos+1 WHERE game_id=? AND log_pos>=3",  # a gap at 3
])
async def test_a_log_out_of_place_makes_the_snapshot_corrupt(storage, damage):
    gid = await _game_with_log(storage, 10)
    async with storage.transaction() as tx:
        await tx.execute(damage, (gid,))
    async with storage.reading() as tx:
        with pytest.raises(CorruptSnapshot):
            await tx.snapshot(gid)


def test_stored_results_are_plain_json_and_compressed_ones_still_read():
    result = ActionResult(7, 3, "active", [Applied(3, 1, {"type": "x"}, "action")], [{"to": "all", "t": "é"}],
                          {1: [{"to": 1, "t": "secret"}]})
    blob = result.to_blob()
    assert json.loads(blob)["game_id"] == 7
    assert "public" not in json.loads(blob) and "seats" not in json.loads(blob)  # read back on a retry
    back, lean = ActionResult.from_blob(blob)
    assert lean and back.private == {1: [{"to": 1, "t": "secret"}]} and back.applied == result.applied
    older = zlib.compress(json.dumps(json.loads(blob)).encode(), 1)  # how results were stored before
    assert ActionResult.from_blob(older) == (back, True)
    # a result stored with its public events and seats (before they were left out) reads as it was
    full = {**json.loads(blob), "public": result.public, "seats": []}
    assert ActionResult.from_blob(json.dumps(full).encode()) == (ActionResult(**{**vars(back), "public": result.public}),
                                                                 False)


async def test_sqlite_checkpoints_beside_the_writer(tmp_path, monkeypatch):
    import bot.storage.sqlite as sqlite_driver

    monkeypatch.setattr(sqlite_driver, "CHECKPOINT_EVERY", 5)
    path = tmp_path / "cp.db"
    storage = await Storage.open(path)
    try:
        gid = await new_game(storage)
        for v in range(12):
            await storage.run(lambda tx, v=v: tx.update_game(gid, 2.0, version=v + 1))
            if storage._checkpoint_running is not None:
                await storage._checkpoint_running
        assert storage.checkpoints >= 2
        # COMMIT never checkpoints by itself: SQLite's automatic checkpoint is off on the writer
        async with storage.reading() as tx:
            assert (await tx._one("PRAGMA wal_autocheckpoint"))[0] == 0
            assert (await tx._one("PRAGMA cache_size"))[0] == -sqlite_driver.CACHE_KIB
    finally:
        await storage.close()
    conn = sqlite3.connect(path)  # everything committed is there after close
    assert conn.execute("SELECT version FROM games WHERE id=?", (gid,)).fetchone()[0] == 12
    conn.close()


async def test_events_are_numbered_from_the_seq_read_with_the_game(storage):
    gid = await new_game(storage)
    async with storage.transaction() as tx:  # no load: the database numbers them
        await tx.append_events(gid, 1, [{"type": "a", "to": "all"}], 1.0)

    async def body(tx):  # as a submission: locked, key checked, loaded, then events in two calls
        await tx.lock_game(gid)
        assert await tx.action_by_key("fresh") is None
        assert (await tx.load_game(gid)).game.id == gid
        await tx.append_events(gid, 2, [{"type": "b", "to": "all"}, {"type": "c", "to": "all"}], 2.0)
        await tx.append_events(gid, 2, [{"type": "d", "to": "all"}], 2.0)

    await storage.run(body)
    async with storage.transaction() as tx:
        await tx.append_events(gid, 3, [{"type": "e", "to": "all"}], 3.0)
    async with storage.reading() as tx:
        events = await tx.events(gid)
    assert [(seq, e["type"]) for seq, _, e in events] == [(1, "a"), (2, "b"), (3, "c"), (4, "d"), (5, "e")]


async def test_a_new_sqlite_database_has_small_pages_and_an_older_one_keeps_its_own(tmp_path):
    from bot.storage.sqlite import PAGE_SIZE

    older = tmp_path / "older.db"
    conn = sqlite3.connect(older)
    conn.execute("PRAGMA page_size=4096")
    conn.execute("CREATE TABLE made_before (x INTEGER)")  # the file exists with its page size
    conn.commit()
    conn.close()
    for path, size in ((tmp_path / "new.db", PAGE_SIZE), (older, 4096)):
        storage = await Storage.open(path)
        try:
            gid = await new_game(storage)
            async with storage.transaction() as tx:
                await tx.append_action(gid, 1, 0, {"type": "x"}, kind="action", key=f"k{size}", now=2.0,
                                       result=b"{}" * 3000)  # longer than a page: continues on overflow pages
            async with storage.reading() as tx:
                assert (await tx._one("PRAGMA page_size"))[0] == size
                assert (await tx.action_by_key(f"k{size}")).result == b"{}" * 3000
        finally:
            await storage.close()


async def test_other_schedulers_are_told_only_of_a_timer_that_wakes_earlier_or_is_new(storage):
    """A row re-armed to a later due time keeps its wake time, so the earliest wake time every scheduler sleeps
    until is unchanged: no notification (PostgreSQL: no NOTIFY at COMMIT). A new row, or one due before its
    wake time, is told."""
    gid = await new_game(storage)
    async with storage.transaction() as tx:
        await tx.add_timer(gid, 0, "reminder", 50.0, "p1", 0.0)
        await tx.add_timer(gid, 0, "deadline", 100.0, "p1", 0.0)
        assert tx._timers_added
    cases = [([("reminder", 150.0), ("deadline", 200.0)], False),  # later: in place, wake times kept
             ([("reminder", 160.0), ("deadline", 210.0), ("reminder", 180.0)], True),  # one row more
             ([("reminder", 10.0), ("deadline", 20.0), ("reminder", 15.0)], True)]  # earlier than the wake times
    for schedule, told in cases:
        async with storage.transaction() as tx:
            await tx.replace_timers(gid, 0, await tx.timers(gid), schedule, "p", 1.0)
            assert tx._timers_added is told
        async with storage.reading() as tx:
            rows = await tx.timers(gid)
        assert sorted(t.due_at for t in rows) == sorted(due for _, due in schedule)
        assert all(t.wake_at <= t.due_at for t in rows)
        async with storage.reading() as tx:
            assert await tx.next_due() == min(t.wake_at for t in rows)
