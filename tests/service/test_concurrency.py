from __future__ import annotations

import asyncio

from bot.check import check_database
from bot.service import ServiceError
from tests.service.conftest import started_game


async def test_many_simultaneous_submissions_to_one_game(service, storage):
    gid, start = await started_game(service, humans=6, rounds=1)
    # every seat submits, each several times with the same key and with amend keys, all at once
    calls = []
    for seat, p in start.pending.items():
        for _attempt in range(3):
            calls.append(service.submit(gid, 100 + seat, {"type": "choose", "card": min(p.prompt.choices["options"])},
                                        idempotency_key=f"s{seat}"))
        calls.append(service.submit(gid, 100 + seat, {"type": "choose", "card": max(p.prompt.choices["options"])},
                                    idempotency_key=f"s{seat}-amend"))
    results = await asyncio.gather(*calls, return_exceptions=True)
    ok = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    # refusals may happen (amend after the reveal) but only as service errors, never lost writes
    assert all(isinstance(e, ServiceError) for e in errors)
    async with storage.reading() as tx:
        rows = await tx.actions(gid)
    keys = [r.idempotency_key for r in rows]
    assert len(keys) == len(set(keys))  # nothing doubled
    applied_keys = {r.applied[0].seq for r in ok if not r.duplicate}
    assert len(applied_keys) == len(rows)  # each stored row belongs to exactly one non-duplicate result
    versions = sorted(r.version for r in ok if not r.duplicate)
    assert versions == list(range(start.version + 1, start.version + 1 + len(rows)))
    # exactly one reveal, with every seat's card in it
    reveals = [e.event for e in await service.public_log(gid) if e.event["type"] == "reveal"]
    assert len(reveals) == 1 and len(reveals[0]["choices"]) == 6
    for seat, p in start.pending.items():
        assert reveals[0]["choices"][seat] in (min(p.prompt.choices["options"]), max(p.prompt.choices["options"]))
    assert [c.verdict for c in await check_database(storage)] == ["OK"]


async def test_many_games_in_parallel(service, storage):
    games = []
    for ch in range(20):
        gid, start = await started_game(service, humans=3, rounds=2, channel=1000 + ch, seed=ch)
        games.append((gid, start))

    async def play(gid: int, start) -> int:
        n = 0
        while (await service.game(gid)).status == "active":
            pend = await service.pending(gid)
            todo = [(s, p) for s, p in pend.items() if p.waiting]
            await asyncio.gather(*[
                service.submit(gid, p.user_id,
                               {"type": "choose", "card": min(p.prompt.choices["options"])} if p.prompt.kind == "choose"
                               else {"type": "decide", "take": "draw"},
                               idempotency_key=f"{gid}-{n}-{s}", prompt_key=p.prompt_key)
                for s, p in todo])
            n += 1
        return n

    rounds = await asyncio.gather(*[play(gid, start) for gid, start in games])
    assert all(r >= 2 for r in rounds)
    infos = [await service.game(gid) for gid, _ in games]
    assert {i.status for i in infos} == {"finished"}
    verdicts = await check_database(storage)
    assert len(verdicts) == 20 and {v.verdict for v in verdicts} == {"OK"}
    async with storage.reading() as tx:
        for gid, _ in games:
            rows = await tx.actions(gid)
            assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
