"""python -m bot.storage_copy: a SQLite database copied into PostgreSQL plays on as if nothing happened."""

from __future__ import annotations

import itertools
import sqlite3
import zlib

import pytest

import tests.service.toygame  # noqa: F401  (registers "toy")
from bot.check import check_database
from bot.clock import ManualClock
from bot.games import compact_json
from bot.service import GameService
from bot.storage import Storage
from bot.storage_copy import CopyRefused, copy_database, main
from tests.service.conftest import started_game

DAY = 24 * 3600.0


async def pg_url(pg_cluster) -> str:
    return pg_cluster.database_url(await pg_cluster.create_database())


def service_on(storage, clock) -> GameService:
    seeds = itertools.count(500)
    return GameService(storage, clock=clock, seed_source=lambda: next(seeds))


async def everything(service: GameService) -> dict:
    """What players and operators can see of every game, for comparing two databases."""
    out = {}
    for g in await service.list_games(("lobby", "active", "finished", "abandoned")):
        entry = {"info": g, "log": await service.public_log(g.id)}
        if g.status != "lobby":
            entry["state"] = await service.full_state(g.id)
            entry["pending"] = await service.pending(g.id)
        async with service.storage.reading() as tx:
            entry["actions"] = await tx.actions(g.id)
            entry["timers"] = await tx.timers(g.id, unfired_only=False)
            entry["draft"] = await tx.get_draft(g.id, 0)
            entry["messages"] = await tx.prompt_messages(g.id, active_only=False)
        entry["announced"] = await service.outbox_record(g.id)
        out[g.id] = entry
    out["prefs"] = await service.prefs(100)
    return out


async def test_copy_keeps_every_game_and_play_continues(tmp_path, pg_cluster):
    clock = ManualClock(1_800_000_000.0)
    src = await Storage.open(tmp_path / "bot.db")
    service = service_on(src, clock)
    live, start = await started_game(service, humans=2, time_limit=DAY, channel=1)
    card = start.pending[0].prompt.choices["options"][0]
    await service.submit(live, 100, {"type": "choose", "card": card}, idempotency_key="x1")
    done, _ = await started_game(service, humans=1, ais=1, rounds=1, channel=2, time_limit=None)
    while (await service.game(done)).status == "active":
        p = next(p for p in (await service.pending(done)).values() if p.waiting and not p.is_ai)
        action = ({"type": "choose", "card": p.prompt.choices["options"][0]} if p.prompt.kind == "choose"
                  else {"type": "decide", "take": "points"})
        await service.submit(done, 100, action, idempotency_key=f"d{clock.now()}", prompt_key=p.prompt_key)
        clock.advance(1)
    for n, row in enumerate(await service.outbox(done)):  # the finished game's announcements delivered: packed
        await service.outbox_progress(row.id, {"c0": 9000 + n}, delivered=True)
    await service.create_lobby(1, 3, 100, "host", kind="toy")
    await service.set_pref(100, "lang", "fr")
    await service.record_prompt_message(live, 0, 555, 777, "prompt", prompt_key="k")
    async with src.transaction() as tx:
        await tx.put_draft(live, 0, "k", {"card": card})
    before = await everything(service)
    await src.close()

    url = await pg_url(pg_cluster)
    counts = await copy_database(tmp_path / "bot.db", url, progress=lambda line: None)
    assert counts["games"] == 3 and counts["actions"] == len(before[live]["actions"]) + len(before[done]["actions"])
    assert counts["outbox_packed"] == 1 and len(before[done]["announced"]) == 2

    dst = await Storage.open(url)
    try:
        copied = service_on(dst, clock)
        assert await everything(copied) == before
        assert [r.verdict for r in await check_database(dst)] == ["OK", "OK"]
        # the retry of an old button still answers from the stored result
        again = await copied.submit(live, 100, {"type": "choose", "card": card}, idempotency_key="x1")
        assert again.duplicate
        # new rows get new ids, past the copied ones
        new = await copied.create_lobby(1, 9, 200, "new", kind="toy")
        assert new.id == 4
        mid = await copied.record_prompt_message(new.id, None, 1, 9, "lobby")
        assert mid == 2
        # and the running game plays on, deadlines included
        p1 = before[live]["pending"][1]
        result = await copied.submit(live, 101, {"type": "choose", "card": p1.prompt.choices["options"][0]},
                                     idempotency_key="x2", prompt_key=p1.prompt_key)
        assert result.version == before[live]["info"].version + 1
        assert await copied.next_timer_due() is not None
    finally:
        await dst.close()


async def test_a_game_packed_before_packed_data_existed_is_copied(tmp_path, pg_cluster):
    src = await Storage.open(tmp_path / "old.db")
    async with src.transaction() as tx:
        gid = await tx.insert_game(guild_id=1, channel_id=1, kind="toy", options={}, host_user_id=1,
                                   time_limit=None, now=1.0)
        await tx.update_game(gid, 1.0, status="finished")
    await src.close()
    old = zlib.compress(compact_json([[1, 1, {"type": "a", "to": "all"}], [2, 2, {"type": "b", "to": "all"}]]).encode())
    conn = sqlite3.connect(tmp_path / "old.db")
    conn.execute("INSERT INTO game_events (game_id, seq, version, event, created_at, packed) VALUES (?,2,2,?,1,1)",
                 (gid, old))
    conn.commit()
    conn.close()
    url = await pg_url(pg_cluster)
    await copy_database(tmp_path / "old.db", url, progress=lambda line: None)
    dst = await Storage.open(url)
    try:
        async with dst.reading() as tx:
            assert [e["type"] for _, _, e in await tx.events(gid)] == ["a", "b"]
    finally:
        await dst.close()


async def test_copy_refuses_a_target_with_games(tmp_path, pg_cluster):
    src = await Storage.open(tmp_path / "a.db")
    await service_on(src, ManualClock()).create_lobby(1, 1, 1, "a", kind="toy")
    await src.close()
    url = await pg_url(pg_cluster)
    await copy_database(tmp_path / "a.db", url, progress=lambda line: None)
    with pytest.raises(CopyRefused, match="already holds games"):
        await copy_database(tmp_path / "a.db", url, progress=lambda line: None)


def test_copy_command_refuses_bad_arguments(tmp_path, capsys):
    assert main([str(tmp_path / "missing.db"), "postgresql://x@localhost/y"]) == 1
    assert "no SQLite database" in capsys.readouterr().err
    (tmp_path / "a.db").write_bytes(b"")
    assert main([str(tmp_path / "a.db"), str(tmp_path / "b.db")]) == 1
    assert "postgresql:// URL" in capsys.readouterr().err
