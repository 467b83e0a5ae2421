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
    elif action.get("type") == "last":  # reads the last lines only, as a view of the recent play does
        events = [{"type": "last", "to": "all", "seen": [e.get("n") for e in log[-6:]], "end": log[-1].get("n")}]
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


@pytest.mark.damages_storage
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


async def _inline_ai_game(service: GameService) -> int:
    """A toy game, one person (always the first card, always points) and two easy AI seats, played to the
    end through submissions (so the AI seats move inside the submissions' transactions)."""
    game = await service.create_lobby(1, 20, 100, "Ann", kind="toy", options={"rounds": 6})
    await service.add_ai(game.id, 100, level="easy")
    await service.add_ai(game.id, 100, level="easy")
    await service.start(game.id, 100, seed=4321)
    for n in range(50):
        mine = (await service.pending(game.id)).get(0)
        if mine is None:
            break
        view = await service.view(game.id, 100)
        action = ({"type": "decide", "take": "points"} if mine.prompt.kind == "decide"
                  else {"type": "choose", "card": view["hand"][0]})
        await service.submit(game.id, 100, action, idempotency_key=f"k{n}", prompt_key=mine.prompt_key)
    assert (await service.game(game.id)).status == "finished"
    return game.id


async def test_an_inline_ai_seat_plays_its_own_move_when_the_log_is_deferred(service, monkeypatch, caplog):
    """The inline AI copies the state through JSON inside the submission's transaction: a deferred log must
    be copied whole there, not make every AI seat fall back to its default action (as it once did)."""
    from bot import ai
    from bot.games import get_kind

    logs: list[type] = []
    decide = ai.decide

    def recording(kind, level, state, seat, seed):  # noqa: ANN001, ANN202
        logs.append(type(state["log"]))
        return decide(kind, level, state, seat, seed)

    monkeypatch.setattr(ai, "decide", recording)
    gid = await _inline_ai_game(service)
    assert PublicLog in logs  # the path under test: a state loaded by a submission
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    # Every AI move is what its chooser picks from the state before it (replayed from the record, plain lists).
    kind, game = get_kind("toy"), await service.game(gid)
    async with service.storage.reading() as tx:
        record = [(a.seat, a.action) for a in await tx.actions(gid)]
        seed = (await tx.game(gid)).seed
    chose_otherwise = 0
    for n, (seat, action) in enumerate(record):
        if seat == 0:
            continue
        state = kind.rebuild(game.options, seed, 3, record[:n])
        key = kind.pending(state)[seat].key
        assert action == decide(kind, "easy", state, seat, ai.decision_seed(seed, seat, key))
        chose_otherwise += action != kind.default_action(state, seat)
    assert chose_otherwise >= 3  # the record tells the AI's own moves from default ones


def test_the_ai_copy_of_a_state_holds_every_entry_of_a_deferred_log():
    from bot import ai

    state = {"seed": 1, "log": _log([{"a": 1}], [{"b": 2}])}
    copy_ = ai._plain(state)
    assert copy_ == {"seed": 1, "log": [{"a": 1}, {"b": 2}]} and type(copy_["log"]) is list
    with pytest.raises(TypeError):
        ai._plain({"x": object()})  # anything else JSON cannot encode is still refused


def _apply_and_count(state: dict, seat: int, action: dict) -> list[dict]:
    SEEN.append("apply")
    return _apply(state, seat, action)


# A game whose views read the whole log (a "last moves" line, as Splendor Duel shows): the service builds them
# after the new entries were written as event rows, in the same transaction.
RECAPPER = register(api.Game(
    type=api.GameType(name="test_recapper", display_name="Recapper", min_seats=2, max_seats=2, dynamics="sealed",
                      hidden_information=True),
    new_game=_new_game, pending=lambda s: {seat: api.Prompt(kind="move", key=f"m{s['moves']}") for seat in (0, 1)},
    apply=_apply_and_count, view=lambda s, seat: {"notes": [e.get("n") for e in s["log"]]},
    default_action=lambda s, seat: {"type": "note"}, outcome=lambda s: None,
))


async def test_a_log_read_after_its_new_entries_were_written_is_not_taken_for_damage(logbook, caplog):
    """The stored part of a deferred log is what was stored when the game was loaded: entries this
    transaction wrote are not counted again, so the action is applied once, not rolled back and run again."""
    gid = (await logbook.create_lobby(1, 10, 100, "a", kind="test_recapper")).id
    await logbook.join(gid, 101, "b")
    await logbook.start(gid, 100)
    for n in range(4):
        SEEN.clear()
        await logbook.submit(gid, 100 + n % 2, {"type": "note"}, idempotency_key=f"k{n}")
        assert SEEN.count("apply") == 1, f"submission {n} applied {SEEN.count('apply')} times"
        view = await logbook.view_seat(gid, 0)
        assert view["notes"] == _expected(n + 1)
    assert "public log rejected" not in caplog.text
    state = await logbook.full_state(gid)
    assert [e["n"] for e in state["log"]] == _expected(4)


async def _notes(service: GameService, gid: int, count: int) -> None:
    for n in range(count):
        await service.submit(gid, 100 + n % 2, {"type": "note"}, idempotency_key=f"k{n}")


async def test_an_engine_that_reads_the_last_lines_needs_no_second_attempt(logbook):
    """PostgreSQL fetches the log's tail with the game; SQLite reads the log beside the engine: on both the
    last lines come in the one attempt."""
    gid = await _started(logbook)
    await _notes(logbook, gid, 12)  # 24 entries, more than the tail PostgreSQL fetches
    SEEN.clear()
    result = await logbook.submit(gid, 100, {"type": "last"}, idempotency_key="last")
    assert result.public[0]["seen"] == _expected(12)[-6:] and result.public[0]["end"] == -12
    assert len(SEEN) == 1 and SEEN[0][0] is PublicLog
    state = await logbook.full_state(gid)
    assert [e.get("n", "last") for e in state["log"]] == [*_expected(12), "last"]


async def test_an_engine_that_reads_the_whole_of_a_long_log_gets_it_and_is_applied_once(logbook):
    gid = await _started(logbook)
    await _notes(logbook, gid, 12)
    SEEN.clear()
    result = await logbook.submit(gid, 101, {"type": "recap"}, idempotency_key="recap")
    assert result.public[0]["seen"] == _expected(12)
    # PostgreSQL: a first attempt with the tail only, rolled back at the engine's read, then one with the log.
    assert len(SEEN) == (2 if logbook.storage.driver == "postgres" else 1)
    assert SEEN[-1][2] == 24
    async with logbook.storage.reading() as tx:
        recorded = [a.idempotency_key for a in await tx.actions(gid)]
        recaps = [e for _, _, e in await tx.events(gid) if e["type"] == "recap"]
    assert recorded.count("recap") == 1 and len(recaps) == 1
    again = await logbook.submit(gid, 101, {"type": "recap"}, idempotency_key="recap")
    assert again.duplicate and again.version == result.version


@pytest.mark.damages_storage
async def test_a_gap_in_the_tail_of_a_long_log_is_found_at_the_load(logbook, storage):
    gid = await _started(logbook)
    await _notes(logbook, gid, 12)
    async with storage.transaction() as tx:  # positions 20, 20, 22, 23: one twice, one missing
        await tx.execute("UPDATE game_events SET log_pos=20 WHERE game_id=? AND log_pos=21", (gid,))
    result = await logbook.submit(gid, 100, {"type": "last"}, idempotency_key="last")
    assert result.public[0]["seen"] == _expected(12)[-6:]  # from the state rebuilt out of the action log
    await logbook.submit(gid, 101, {"type": "recap"}, idempotency_key="recap")
    state = await logbook.full_state(gid)
    assert [e.get("n", "x") for e in state["log"]] == [*_expected(12), "x", "x"]


@pytest.mark.damages_storage
async def test_a_gap_before_the_tail_is_found_when_the_engine_reads_that_far(logbook, storage):
    gid = await _started(logbook)
    await _notes(logbook, gid, 12)
    async with storage.transaction() as tx:
        await tx.execute("UPDATE game_events SET log_pos=2 WHERE game_id=? AND log_pos=3", (gid,))
    await logbook.submit(gid, 100, {"type": "last"}, idempotency_key="last")  # reads the tail only
    result = await logbook.submit(gid, 101, {"type": "recap"}, idempotency_key="recap")
    assert result.public[0]["seen"] == _expected(12)


def test_reads_within_the_tail_and_the_new_entries_need_no_load():
    reads: list = []
    log = PublicLog(10, lambda: reads.append(1) or list(range(10)), tail=[7, 8, 9])
    log.extend([10, 11])
    assert log[-5:] == [7, 8, 9, 10, 11] and log[-1] == 11 and log[7] == 7 and log[9:11] == [9, 10]
    assert not log.loaded and reads == []
    assert log[-2::-2] == [10, 8, 6, 4, 2, 0]  # a slice reaching before the tail loads
    assert log.loaded and reads == [1]
    fresh = PublicLog(10, lambda: reads.append(1) or list(range(10)), tail=[7, 8, 9])
    assert fresh.since(7) == [7, 8, 9] and fresh[8:] == [8, 9] and fresh[20:] == [] and len(fresh) == 10
    assert not fresh.loaded and reads == [1]
    assert fresh[6] == 6 and fresh.loaded and reads == [1, 1]


def _apply_until_done(state: dict, seat: int, action: dict) -> list[dict]:
    if action.get("type") == "finish":
        state["done"] = True
    return _apply_and_count(state, seat, action)


# A game whose views show the last lines of the log (as Splendor Duel's does), and that a "finish" move ends: the
# final commit packs the game's events into one row before the service builds the views of the end.
FINISHER = register(api.Game(
    type=api.GameType(name="test_finisher", display_name="Finisher", min_seats=2, max_seats=2, dynamics="sealed",
                      hidden_information=True),
    new_game=_new_game, pending=lambda s: {} if s.get("done") else {
        seat: api.Prompt(kind="move", key=f"m{s['moves']}") for seat in (0, 1)},
    apply=_apply_until_done, view=lambda s, seat: {"last": [e.get("n") for e in s["log"][-3:]]},
    default_action=lambda s, seat: {"type": "note"},
    outcome=lambda s: api.Outcome((api.SeatResult(0, 1, True, rank=1), api.SeatResult(1, 0, False, rank=2)),
                                   "done") if s.get("done") else None,
))


async def test_the_move_that_ends_a_game_is_applied_once_although_its_views_read_the_packed_log(logbook, caplog):
    """The end's views read the log after the commit packed the game's events: the stored part is still only
    the entries stored when the game was loaded, not the packed row's whole log, so it is not taken for damage
    (which rolled the last move back and applied it a second time)."""
    gid = (await logbook.create_lobby(1, 10, 100, "a", kind="test_finisher")).id
    await logbook.join(gid, 101, "b")
    await logbook.start(gid, 100)
    await _notes(logbook, gid, 3)
    SEEN.clear()
    result = await logbook.submit(gid, 100, {"type": "finish"}, idempotency_key="finish")
    assert SEEN.count("apply") == 1
    assert "public log rejected" not in caplog.text
    assert result.public_view == {"last": [-3, 4, -4]}
    state = await logbook.full_state(gid)
    assert [e["n"] for e in state["log"]] == _expected(4)
