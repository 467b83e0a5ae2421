"""Viceroy's public log lives in game_events only, through play, undo and the end of the game."""

from __future__ import annotations

import random

from bot.check import check_database
from bot.storage import decode_state
from engine.viceroy import ai


async def stored_log_marker(storage, gid: int):
    async with storage.reading() as tx:
        _, _, blob, checksum = await tx.snapshot_raw(gid)
    return decode_state(blob, checksum)["log"]


async def play(service, gid: int, moves: int, rng: random.Random, tag: str) -> None:
    for n in range(moves):
        if (await service.game(gid)).status != "active":
            return
        pend = await service.pending(gid)
        seat = min(s for s, p in pend.items() if p.waiting and not p.is_ai)
        action = ai.choose_action(await service.full_state(gid), seat, rng)
        await service.submit(gid, pend[seat].user_id, action, idempotency_key=f"{tag}-{n}",
                             prompt_key=pend[seat].prompt_key)


async def test_viceroy_log_out_of_the_blob_through_undo_and_the_end(service, storage):
    game = await service.create_lobby(1, 60, 100, "host", kind="viceroy")
    await service.join(game.id, 101, "p1")
    await service.add_ai(game.id, 100)
    gid = game.id
    await service.start(gid, 100, seed=99)
    rng = random.Random(5)
    await play(service, gid, 12, rng, "a")
    state = await service.full_state(gid)
    assert len(state["log"]) > 5 and await stored_log_marker(storage, gid) == len(state["log"])
    assert [r.verdict for r in await check_database(storage)] == ["OK"]
    before = len(state["log"])
    await service.undo(gid, 100)
    undone = await service.full_state(gid)
    assert len(undone["log"]) < before and await stored_log_marker(storage, gid) == len(undone["log"])
    assert [r.verdict for r in await check_database(storage)] == ["OK"]
    await play(service, gid, 3000, rng, "b")
    assert (await service.game(gid)).status == "finished"
    final = await service.full_state(gid)
    assert final["phase"] == "over" and await stored_log_marker(storage, gid) == len(final["log"])
    assert [r.verdict for r in await check_database(storage)] == ["OK"]
