"""A submission hands the engine its public log as a PublicLog: what the engine appends becomes new event rows
without the stored entries being read or decoded; an engine that reads the log gets every entry, from the same
transaction; a damaged log found only then is read again with the game (and rebuilt from the action log)."""

from __future__ import annotations

import copy
import itertools
import json
import pickle

import pytest

from bot.clock import ManualClock
from bot.games import register
from bot.service import GameService
from bot.storage import CorruptSnapshot
from bot.storage.base import PublicLog
from bot.storage.schema import json_bytes
from engine import api

SEEN: list = []  # what the engine found in state["log"] at each move (type, loaded, length)


def _new_game(options: dict, seed: int, seats: int) -> dict:
    return {"seed": seed, "moves": 0, "log": []}


def _apply(state: dict, seat: int, action: dict) -> list[dict]:
    log = state["log"]
    SEEN.append((type(log), getattr(log, "loaded", True), len(log)))
    state["moves"] += 1
    if action.get("type") == "recap":  # reads the whole log, as an AI or a view may
        events = [{"type": "recap", "to": "all", "seen": [e["n"] for e in log if "n" in e]}]
    else:
        events = [{"type": "note", "to": "all", "n": state["moves"], "seat": seat},
                  {"type": "secret", "to": seat, "n": state["moves"]},
                  {"type": "note", "to": "all", "n": -state["moves"]}]
    log.extend(e for e in events if e["to"] == "all")
    return events


LOGBOOK = register(api.Game(
    type=api.GameType(name="test_logbook", display_name="Logbook", min_seats=2, max_seats=2, dynamics="sealed",
                      hidden_information=True),
    new_game=_new_game, pending=lambda s: {seat: api.Prompt(kind="move", key=f"m{s['moves']}") for seat in (0, 1)},
    apply=_apply, view=lambda s, seat: {"entries": len(s["log"])},
    default_action=lambda s, seat: {"type": "note"}, outcome=lambda s: None,
))


@pytest.fixture
def logbook(storage):
    seeds = itertools.count(1)
    return GameService(storage, clock=ManualClock(1_800_000_000.0), seed_source=lambda: next(seeds))


async def _started(service: GameService) -> int:
    gid = (await service.create_lobby(1, 10, 100, "a", kind="test_logbook")).id
    await service.join(gid, 101, "b")
    await service.start(gid, 100)
    return gid


def _expected(notes: int) -> list[int]:
    return [n for m in range(1, notes + 1) for n in (m, -m)]


async def test_a_submission_that_only_appends_leaves_the_stored_log_unread(logbook):
    gid = await _started(logbook)
    SEEN.clear()
    for n in range(6):
        await logbook.submit(gid, 100 + n % 2, {"type": "note"}, idempotency_key=f"k{n}")
    assert [(kind, loaded) for kind, loaded, _ in SEEN] == [(PublicLog, False)] * 6
    assert [length for *_, length in SEEN] == [2 * n for n in range(6)]  # its length needs no read
    state = await logbook.full_state(gid)
    assert [e["n"] for e in state["log"]] == _expected(6)
    async with logbook.storage.reading() as tx:
        assert [e["n"] for _, _, e in await tx.events(gid) if e["type"] == "note"] == _expected(6)


async def test_an_engine_that_reads_the_log_sees_every_entry(logbook):
    gid = await _started(logbook)
    for n in range(5):
        await logbook.submit(gid, 100 + n % 2, {"type": "note"}, idempotency_key=f"k{n}")
    result = await logbook.submit(gid, 100, {"type": "recap"}, idempotency_key="recap")
    assert result.public[0]["seen"] == _expected(5)
    await logbook.submit(gid, 101, {"type": "note"}, idempotency_key="after")
    state = await logbook.full_state(gid)
    assert [e.get("n", "recap") for e in state["log"]] == [*_expected(5), "recap", 7, -7]


async def test_a_log_damaged_in_the_middle_is_read_again_with_the_game(logbook, storage):
    gid = await _started(logbook)
    for n in range(5):
        await logbook.submit(gid, 100 + n % 2, {"type": "note"}, idempotency_key=f"k{n}")
    async with storage.transaction() as tx:  # one position twice, one missing: the last one is still right
        await tx.execute("UPDATE game_events SET log_pos=5 WHERE game_id=? AND log_pos=6", (gid,))
    result = await logbook.submit(gid, 100, {"type": "recap"}, idempotency_key="recap")
    assert result.public[0]["seen"] == _expected(5)  # from the state rebuilt out of the action log
    again = await logbook.submit(gid, 100, {"type": "recap"}, idempotency_key="recap")
    assert again.duplicate and again.version == result.version  # applied once


def _log(stored: list, new: list | None = None, reads: list | None = None) -> PublicLog:
    def load() -> list:
        if reads is not None:
            reads.append(1)
        return list(stored)

    log = PublicLog(len(stored), load)
    log.extend(new or [])
    return log


def test_appending_and_counting_need_no_read():
    reads: list = []
    log = _log([1, 2, 3], reads=reads)
    log.append(4)
    log += [5]
    assert len(log) == 5 and log.since(3) == [4, 5] and log.since(4) == [5]
    assert not log.loaded and reads == []


def test_any_other_use_reads_the_stored_entries_once():
    reads: list = []
    log = _log([1, 2, 3], [4], reads)
    assert log[-1] == 4 and list(log) == [1, 2, 3, 4] and log[1:3] == [2, 3] and 2 in log
    assert log == [1, 2, 3, 4] and log.since(1) == [2, 3, 4]
    log.append(5)
    assert log.entries() == [1, 2, 3, 4, 5] and len(log) == 5
    assert reads == [1]


def test_a_short_read_is_a_corrupt_snapshot():
    log = PublicLog(3, lambda: [1, 2])
    with pytest.raises(CorruptSnapshot):
        list(log)


def test_encoders_refuse_it_and_copies_are_plain_lists():
    log = _log([{"a": 1}], [{"b": 2}])
    with pytest.raises(TypeError):
        json_bytes({"log": log})
    with pytest.raises(TypeError):
        json.dumps({"log": log})
    for clone in (pickle.loads(pickle.dumps({"log": log}))["log"], copy.deepcopy(log), copy.copy(log)):
        assert type(clone) is list and clone == [{"a": 1}, {"b": 2}]
    deep = copy.deepcopy(log)
    deep[0]["a"] = 9
    assert log[0] == {"a": 1}
