from __future__ import annotations

import json

import pytest

from bot import service as svc_mod
from bot.check import check_database
from bot.service import (
    AlreadyJoined,
    BadOptions,
    ChannelBusy,
    GameFinished,
    GameNotStarted,
    IllegalMove,
    KeyReused,
    LobbyFull,
    NotAllowed,
    NothingToUndo,
    NotInGame,
    StalePrompt,
    StaleVersion,
    UnknownGame,
)
from bot.storage import decode_state
from tests.service import toygame
from tests.service.conftest import started_game
from tests.storage.old_schema import zlib_snapshot


async def count_actions(storage, game_id: int) -> int:
    async with storage.reading() as tx:
        return len(await tx.actions(game_id))


async def play_round(service, game_id: int, key_prefix: str) -> None:
    """Every waiting human seat plays its lowest card; the round winner (if human) takes points."""
    pend = await service.pending(game_id)
    for seat, p in pend.items():
        if p.waiting and not p.is_ai:
            await service.submit(game_id, p.user_id, {"type": "choose", "card": min(p.prompt.choices["options"])},
                                 idempotency_key=f"{key_prefix}-{seat}")
    pend = await service.pending(game_id)
    for seat, p in pend.items():
        if p.prompt.kind == "decide" and not p.is_ai:
            await service.submit(game_id, p.user_id, {"type": "decide", "take": "points"},
                                 idempotency_key=f"{key_prefix}-d{seat}")


async def test_lobby_flow_and_errors(service):
    game = await service.create_lobby(1, 10, 100, "alice", kind="toy")
    assert game.status == "lobby" and [s.user_id for s in game.seats] == [100]
    with pytest.raises(ChannelBusy) as exc:
        await service.create_lobby(1, 10, 200, "eve", kind="toy")
    assert f"#{game.id}" in exc.value.message
    with pytest.raises(AlreadyJoined):
        await service.join(game.id, 100, "alice")
    g = await service.join(game.id, 101, "bob")
    assert [s.seat for s in g.seats] == [0, 1]
    with pytest.raises(NotAllowed):
        await service.add_ai(game.id, 101)
    with pytest.raises(NotAllowed):
        await service.start(game.id, 101)
    for _ in range(4):
        await service.add_ai(game.id, 100)
    with pytest.raises(LobbyFull):
        await service.join(game.id, 102, "carol")
    # the host leaves: seats are renumbered and bob becomes host
    g = await service.leave(game.id, 100)
    assert g.host_user_id == 101 and [s.seat for s in g.seats] == list(range(5))
    assert g.seats[0].user_id == 101
    with pytest.raises(UnknownGame):
        await service.join(9999, 1, "x")
    with pytest.raises(GameNotStarted):
        await service.submit(game.id, 101, {"type": "choose", "card": 1}, idempotency_key="k")
    # a different channel may have its own game
    other = await service.create_lobby(1, 11, 200, "eve", kind="toy")
    assert other.id != game.id


async def test_last_human_leaving_abandons_lobby_and_frees_channel(service):
    game = await service.create_lobby(1, 10, 100, "alice", kind="toy")
    await service.add_ai(game.id, 100)
    g = await service.leave(game.id, 100)
    assert g.status == "abandoned"
    assert await service.game_in_channel(10) is None
    await service.create_lobby(1, 10, 100, "alice", kind="toy")


async def test_submit_applies_and_splits_events(service, storage):
    gid, start = await started_game(service, humans=2)
    assert start.status == "active" and set(start.pending) == {0, 1}
    hand0 = start.pending[0].prompt.choices["options"]
    r = await service.submit(gid, 100, {"type": "choose", "card": hand0[0]}, idempotency_key="a")
    assert r.version == start.version + 1
    assert [e["type"] for e in r.public] == ["has_chosen"]
    assert "card" not in r.public[0]  # the sealed choice stays private
    assert r.private == {0: [{"type": "chose", "to": 0, "card": hand0[0], "amended": False}]}
    assert r.pending[0].waiting is False and r.pending[1].waiting is True
    view0 = await service.view(gid, 100)
    view1 = await service.view(gid, 101)
    public = await service.view(gid, None)
    assert view0["choice"] == hand0[0] and view1["choice"] is None and "hand" not in public
    assert await count_actions(storage, gid) == 1


async def test_idempotent_retry_applies_once(service, storage):
    gid, start = await started_game(service, humans=2)
    card = start.pending[0].prompt.choices["options"][0]
    first = await service.submit(gid, 100, {"type": "choose", "card": card}, idempotency_key="inter-1")
    again = await service.submit(gid, 100, {"type": "choose", "card": card}, idempotency_key="inter-1")
    assert again.duplicate and not first.duplicate
    assert again.version == first.version and again.public == first.public and again.private == first.private
    assert await count_actions(storage, gid) == 1
    assert (await service.game(gid)).version == first.version
    # the same key on another game is refused, not silently mixed up
    gid2, _ = await started_game(service, humans=1, channel=11)
    with pytest.raises(KeyReused):
        await service.submit(gid2, 100, {"type": "choose", "card": 1}, idempotency_key="inter-1")


async def test_illegal_action_is_refused_and_nothing_stored(service, storage):
    gid, start = await started_game(service, humans=2)
    version = start.version
    with pytest.raises(IllegalMove) as exc:
        await service.submit(gid, 100, {"type": "choose", "card": 99}, idempotency_key="bad")
    assert exc.value.message == "You do not hold a 99." and exc.value.engine_code == "not_in_hand"
    assert await count_actions(storage, gid) == 0
    assert (await service.game(gid)).version == version
    # the key of a refused action is free to use for the corrected action
    card = start.pending[0].prompt.choices["options"][0]
    r = await service.submit(gid, 100, {"type": "choose", "card": card}, idempotency_key="bad")
    assert not r.duplicate and r.version == version + 1


async def test_wrong_user_and_unknown_game(service):
    gid, _ = await started_game(service, humans=2)
    with pytest.raises(NotInGame):
        await service.submit(gid, 555, {"type": "choose", "card": 1}, idempotency_key="x")
    with pytest.raises(UnknownGame):
        await service.submit(4242, 100, {"type": "choose", "card": 1}, idempotency_key="y")
    with pytest.raises(UnknownGame):
        await service.pending(4242)


async def test_amend_before_reveal(service):
    gid, start = await started_game(service, humans=2)
    p0 = start.pending[0]
    lo, hi = min(p0.prompt.choices["options"]), max(p0.prompt.choices["options"])
    await service.submit(gid, 100, {"type": "choose", "card": lo}, idempotency_key="c1", prompt_key=p0.prompt_key)
    # the prompt key is still valid for an amendment
    r = await service.submit(gid, 100, {"type": "choose", "card": hi}, idempotency_key="c2",
                             prompt_key=p0.prompt_key)
    assert r.private[0][0]["amended"] is True
    assert (await service.view(gid, 100))["choice"] == hi
    p1 = r.pending[1]
    r = await service.submit(gid, 101, {"type": "choose", "card": min(p1.prompt.choices["options"])},
                             idempotency_key="c3")
    reveal = next(e for e in r.public if e["type"] == "reveal")
    assert reveal["choices"][0] == hi
    # after the reveal the old prompt is stale
    with pytest.raises(StalePrompt):
        await service.submit(gid, 100, {"type": "choose", "card": lo}, idempotency_key="c4",
                             prompt_key=p0.prompt_key)


async def test_stale_version_and_prompt(service):
    gid, start = await started_game(service, humans=2)
    card = start.pending[1].prompt.choices["options"][0]
    await service.submit(gid, 100, {"type": "choose", "card": start.pending[0].prompt.choices["options"][0]},
                         idempotency_key="v1")
    with pytest.raises(StaleVersion):
        await service.submit(gid, 101, {"type": "choose", "card": card}, idempotency_key="v2",
                             expected_version=start.version)
    with pytest.raises(StalePrompt):
        await service.submit(gid, 101, {"type": "choose", "card": card}, idempotency_key="v3",
                             prompt_key="not-the-key")
    r = await service.submit(gid, 101, {"type": "choose", "card": card}, idempotency_key="v4",
                             expected_version=start.version + 1, prompt_key=start.pending[1].prompt_key)
    assert r.version == start.version + 2


async def test_ai_seats_play_automatically_and_game_finishes(service, storage):
    gid, start = await started_game(service, humans=1, ais=2, rounds=4)
    assert {a.seat for a in start.applied} == {1, 2}  # both AIs chose at once
    assert all(a.kind == "ai" for a in start.applied)
    for i in range(10):
        if (await service.game(gid)).status == "finished":
            break
        await play_round(service, gid, f"r{i}")
    info = await service.game(gid)
    assert info.status == "finished"
    scores = await service.final_scores(gid)
    assert [s["seat"] for s in scores] == [0, 1, 2] and any(s["winner"] for s in scores)
    with pytest.raises(GameFinished):
        await service.submit(gid, 100, {"type": "choose", "card": 1}, idempotency_key="late")
    log = await service.public_log(gid)
    assert log[0].event["type"] == "game_started" and log[-1].event["type"] == "final_scores"
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    assert len(await service.public_log(gid, limit=3)) == 3
    assert await service.game_in_channel(10) is None
    # the whole history replays to the stored snapshot
    assert [r.verdict for r in await check_database(storage)] == ["OK"]


async def test_ai_runs_identically_on_replay(service, storage):
    gid, _ = await started_game(service, humans=1, ais=3, rounds=5)
    for i in range(8):
        await play_round(service, gid, f"r{i}")
    async with storage.reading() as tx:
        game = await tx.game(gid)
        rebuilt = await service.rebuild_state(tx, game)
    assert toygame.view(rebuilt, None) == await service.view(gid, None)


async def test_undo_last_step(service, storage):
    gid, start = await started_game(service, humans=2, rounds=3)
    before = await service.view(gid, None)
    with pytest.raises(NothingToUndo):
        await service.undo(gid, 100)
    await play_round(service, gid, "r1")
    mid = await service.view(gid, None)
    assert mid["round"] == 2
    with pytest.raises(NotAllowed):
        await service.undo(gid, 101)
    # seat 0 has already chosen in round 2; undo removes that and the last step of round 1
    p = await service.pending(gid)
    await service.submit(gid, 100, {"type": "choose", "card": p[0].prompt.choices["options"][0]}, idempotency_key="x")
    r = await service.undo(gid, 101, admin=True)
    assert r.public[0]["type"] == "undo"
    after = await service.view(gid, None)
    assert after["round"] <= 2 and after != mid
    # the log keeps everything: an undo entry, and the replay still matches the snapshot
    async with storage.reading() as tx:
        kinds = [a.kind for a in await tx.actions(gid)]
    assert kinds[-1] == "undo"
    assert [c.verdict for c in await check_database(storage)] == ["OK"]
    # undo all the way back to the start
    while True:
        try:
            await service.undo(gid, 100)
        except NothingToUndo:
            break
    assert await service.view(gid, None) == before


async def test_undo_step_boundary_is_the_reveal(service):
    gid, start = await started_game(service, humans=2, rounds=3)
    hands = {s: p.prompt.choices["options"] for s, p in start.pending.items()}
    # equal cards: no unique winner -> the round resolves straight into round 2
    common = sorted(set(hands[0]) & set(hands[1]))
    if not common:
        pytest.fail("seed 7 should deal a common card")  # keeps the test honest if the toy deal changes
    for seat in (0, 1):
        await service.submit(gid, 100 + seat, {"type": "choose", "card": common[0]}, idempotency_key=f"k{seat}")
    assert (await service.view(gid, None))["round"] == 2
    await service.undo(gid, 100)
    v = await service.view(gid, None)
    # both sealed choices of round 1 are gone, not only the last one
    assert v["round"] == 1 and v["chosen"] == [False, False]


async def test_replace_seat_with_ai_and_user(service):
    gid, start = await started_game(service, humans=2)
    with pytest.raises(NotAllowed):
        await service.replace_seat(gid, 1, None, "bot", by_user_id=101)
    r = await service.replace_seat(gid, 1, None, "AI for bob", by_user_id=100)
    assert r.seats[1].is_ai and any(a.seat == 1 and a.kind == "ai" for a in r.applied)
    with pytest.raises(NotInGame):
        await service.submit(gid, 101, {"type": "choose", "card": 1}, idempotency_key="z")
    with pytest.raises(AlreadyJoined):
        await service.replace_seat(gid, 1, 100, "alice again", by_user_id=100)
    r = await service.replace_seat(gid, 1, 300, "carol", by_user_id=100)
    assert r.seats[1].user_id == 300 and not r.seats[1].is_ai
    assert await service.seat_of(gid, 300) == 1


async def test_leave_running_game_hands_seat_to_ai(service):
    gid, _ = await started_game(service, humans=2)
    r = await service.leave(gid, 101)
    assert r.seats[1].is_ai and r.seats[1].display_name == "AI (was u101, normal)" and r.seats[1].ai_level == "normal"


async def test_abandon(service):
    gid, _ = await started_game(service, humans=2)
    with pytest.raises(NotAllowed):
        await service.abandon(gid, 101)
    info = await service.abandon(gid, 101, admin=True)
    assert info.status == "abandoned"
    with pytest.raises(GameFinished):
        await service.submit(gid, 100, {"type": "choose", "card": 1}, idempotency_key="q")
    assert await service.next_timer_due() is None


@pytest.mark.damages_storage
async def test_corrupt_snapshot_is_rebuilt_from_log(service, storage):
    gid, start = await started_game(service, humans=2)
    await play_round(service, gid, "r1")
    good = await service.view(gid, None)
    version = (await service.game(gid)).version
    for bad in (b"not zlib at all", None):
        async with storage.transaction() as tx:
            if bad is None:  # decodable but wrong: checksum catches it
                await tx.execute("UPDATE snapshots SET checksum='0000' WHERE game_id=?", (gid,))
            else:
                await tx.execute("UPDATE snapshots SET state=? WHERE game_id=?", (bad, gid))
        verdicts = [r.verdict for r in await check_database(storage)]
        assert verdicts == ["CORRUPT"]
        assert await service.view(gid, None) == good  # detected and rebuilt from the log
        assert [r.verdict for r in await check_database(storage)] == ["OK"]  # and repaired
    assert (await service.game(gid)).version == version


async def test_a_snapshot_stored_as_zlib_before_lz4_loads_and_the_next_commit_writes_lz4(service, storage):
    gid, start = await started_game(service, humans=2)
    await play_round(service, gid, "r1")
    good = await service.view(gid, None)
    async with storage.reading() as tx:
        _, _, blob, checksum = await tx.snapshot_raw(gid)
    old, old_checksum = zlib_snapshot(decode_state(blob, checksum))  # as the storage wrote snapshots before
    async with storage.transaction() as tx:
        await tx.execute("UPDATE snapshots SET state=?, checksum=? WHERE game_id=?", (old, old_checksum, gid))
    assert [r.verdict for r in await check_database(storage)] == ["OK"]  # read as it is, not rebuilt
    assert await service.view(gid, None) == good
    async with storage.reading() as tx:
        assert (await tx.snapshot_raw(gid))[3][0] == "z"
    seat = next(p for p in (await service.pending(gid)).values() if p.waiting and p.prompt.kind == "choose")
    await service.submit(gid, seat.user_id, {"type": "choose", "card": seat.prompt.choices["options"][0]},
                         idempotency_key="after-upgrade")
    async with storage.reading() as tx:
        _, _, blob, checksum = await tx.snapshot_raw(gid)
    assert checksum[0] == "x" and blob[:4] == bytes.fromhex("04224d18")  # an LZ4 frame's magic number
    assert [r.verdict for r in await check_database(storage)] == ["OK"]


@pytest.mark.damages_storage
async def test_snapshot_ahead_of_log_is_rejected_and_submit_repairs(service, storage):
    gid, start = await started_game(service, humans=2)
    async with storage.transaction() as tx:
        await tx.execute("UPDATE snapshots SET seq=seq+5 WHERE game_id=?", (gid,))
    card = start.pending[0].prompt.choices["options"][0]
    await service.submit(gid, 100, {"type": "choose", "card": card}, idempotency_key="s")
    assert [r.verdict for r in await check_database(storage)] == ["OK"]


async def test_check_reports_mismatch_and_repairs(service, storage):
    gid, start = await started_game(service, humans=2)
    await play_round(service, gid, "r1")
    async with storage.transaction() as tx:
        state = await service.rebuild_state(tx, await tx.game(gid))
        state["scores"][0] += 100  # a snapshot that decodes fine but disagrees with the log
        game = await tx.game(gid)
        await tx.save_snapshot(gid, game.version, await tx.last_seq(gid), state, 0.0)
    results = await check_database(storage)
    assert [r.verdict for r in results] == ["MISMATCH"]
    results = await check_database(storage, repair=True)
    assert results[0].repaired
    assert [r.verdict for r in await check_database(storage)] == ["OK"]


async def test_check_cli(tmp_path, capsys):
    from bot.check import main
    from bot.clock import ManualClock
    from bot.service import GameService
    from bot.storage import Storage

    db = tmp_path / "cli.db"
    st = await Storage.open(db)
    service = GameService(st, clock=ManualClock())
    await started_game(service, humans=2)
    await st.close()
    # main() runs its own event loop, so run it in a thread
    import asyncio
    code = await asyncio.to_thread(main, ["--db", str(db), "--plugin", "tests.service.toygame"])
    out = capsys.readouterr().out
    assert code == 0 and "game 1 toy active" in out and ": OK" in out
    code = await asyncio.to_thread(main, ["--db", str(tmp_path / "missing.db")])
    assert code == 2


async def test_prefs_and_prompt_messages(service):
    await service.set_pref(100, "lang", "en")
    await service.set_pref(100, "dm", "off")
    assert await service.prefs(100) == {"lang": "en", "dm": "off"}
    await service.set_pref(100, "dm", None)
    assert await service.get_pref(100, "dm") is None
    gid, start = await started_game(service, humans=2)
    p0 = start.pending[0]
    mid = await service.record_prompt_message(gid, 0, 555, 777, "choose", prompt_key=p0.prompt_key,
                                              version=start.version)
    await service.record_prompt_message(gid, None, 556, 10, "board")
    assert await service.stale_prompt_messages(gid) == []
    await play_round(service, gid, "r1")
    stale = await service.stale_prompt_messages(gid)
    assert [m.id for m in stale] == [mid] and stale[0].message_id == 555
    await service.retire_prompt_messages([mid])
    assert [m.message_id for m in await service.prompt_messages(gid)] == [556]


async def test_dm_status_and_user_games(service):
    gid, _ = await started_game(service, humans=2)
    await service.set_dm_status(101, "closed")
    info = await service.game(gid)
    assert info.seats[1].dm_status == "closed" and info.seats[0].dm_status == "unknown"
    assert [g.id for g in await service.games_for_user(101)] == [gid]
    assert [g.id for g in await service.list_games()] == [gid]


def test_reminder_offsets():
    assert svc_mod.reminder_offsets(24 * 3600) == [12 * 3600, 23 * 3600]
    assert svc_mod.reminder_offsets(3600) == [1800]  # one hour before would be at the start
    assert svc_mod.reminder_offsets(7200) == [3600]  # both fall together: one reminder


async def test_retry_after_game_finished_is_still_a_duplicate(service, storage):
    gid, start = await started_game(service, humans=1, ais=1, rounds=1)
    p = start.pending[0]
    r = await service.submit(gid, 100, {"type": "choose", "card": p.prompt.choices["options"][0]}, idempotency_key="only")
    while r.status == "active":  # a decision for the human if it won the round
        r = await service.submit(gid, 100, {"type": "decide", "take": "points"}, idempotency_key="dec")
    again = await service.submit(gid, 100, {"type": "choose", "card": p.prompt.choices["options"][0]},
                                 idempotency_key="only")
    assert again.duplicate and again.status == "finished" and again.version == r.version
    async with storage.reading() as tx:
        assert len(await tx.actions(gid)) == len(r.applied) + (0 if r.applied[0].seq == 1 else r.applied[0].seq - 1)
        # a finished game keeps no stored results (packed), only its actions
        assert (await tx._one("SELECT COUNT(*) FROM actions WHERE game_id=? AND result IS NOT NULL", (gid,)))[0] == 0
    # the packed public log still reads as before
    log = await service.public_log(gid)
    assert log[-1].event["type"] == "final_scores" and [e.seq for e in log] == list(range(1, len(log) + 1))
    assert [e.seq for e in await service.public_log(gid, after_seq=len(log) - 2)] == [len(log) - 1, len(log)]


async def test_a_lobby_holds_the_seat_count_it_was_opened_for(service):
    game = await service.create_lobby(1, 10, 100, "alice", kind="toy", options={"seats": 2})
    await service.join(game.id, 101, "bob")
    with pytest.raises(LobbyFull, match="2 seats"):
        await service.join(game.id, 102, "carol")
    with pytest.raises(LobbyFull, match="2 seats"):
        await service.add_ai(game.id, 100)


async def test_seats_are_named_as_players_count_them_and_time_limits_have_a_floor(service):
    gid, _ = await started_game(service, humans=2)
    with pytest.raises(NotInGame, match="There is no seat 9"):
        await service.replace_seat(gid, 8, None, "AI", by_user_id=100)
    with pytest.raises(BadOptions, match="at least 1 minute"):
        await service.set_time_limit(gid, 59, 100)
    with pytest.raises(BadOptions, match="at least 1 minute"):
        await service.create_lobby(1, 99, 100, "alice", kind="toy", time_limit=1)
    assert (await service.set_time_limit(gid, 60, 100)).time_limit == 60


async def test_a_retry_reads_back_the_public_events_and_seats_it_does_not_store(service, storage):
    """A stored result leaves out what the database holds already (its commit's public events, the seats):
    a retry still answers with the same result."""
    gid, start = await started_game(service, humans=2)
    card = start.pending[0].prompt.choices["options"][0]
    first = await service.submit(gid, 100, {"type": "choose", "card": card}, idempotency_key="lean-1")
    # a later commit's events must not leak into the first one's retry
    card1 = first.pending[1].prompt.choices["options"][0]
    await service.submit(gid, 101, {"type": "choose", "card": card1}, idempotency_key="lean-2")
    async with storage.reading() as tx:
        stored = json.loads((await tx.action_by_key("lean-1")).result)
    assert "public" not in stored and "seats" not in stored and first.public
    again = await service.submit(gid, 100, {"type": "choose", "card": card}, idempotency_key="lean-1")
    assert again.duplicate
    assert (again.public, again.seats, again.private, again.applied) == (first.public, first.seats, first.private,
                                                                         first.applied)


async def test_outbox_entries_take_their_public_events_from_the_log_up_to_the_finished_game(service, storage):
    """An outbox entry stores what only it knows; its commit's public events are read back from game_events,
    from the packed log once the game is over, and are the ones the submission returned."""
    gid, result = await started_game(service, humans=2, rounds=1)
    published = {result.version: result.public}
    n = 0
    while not result.finished:
        seat, p = next((s, p) for s, p in sorted(result.pending.items()) if p.waiting)
        action = {"type": "decide", "take": "points"} if p.prompt.kind == "decide" else \
            {"type": "choose", "card": p.prompt.choices["options"][0]}
        result = await service.submit(gid, 100 + seat, action, idempotency_key=f"ob{n}")
        published[result.version] = result.public
        n += 1
    assert any(e["type"] == "final_scores" for e in result.public)
    async with storage.reading() as tx:
        stored = [json.loads(r[0]) for r in await tx._all("SELECT payload FROM outbox WHERE game_id=?", (gid,))]
        packed = await tx._all("SELECT COUNT(*) FROM game_events WHERE game_id=? AND packed=1", (gid,))
    assert stored and not any("public" in p for p in stored)
    assert packed[0][0] == 1  # the finished game's log is one packed row
    rows = await service.outbox(gid)
    assert {r.version: r.payload["public"] for r in rows} == {r.version: published[r.version] for r in rows}
    assert rows[-1].version == result.version and rows[-1].payload["public"] == result.public
