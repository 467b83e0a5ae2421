"""The service with the real Viceroy engine."""

from __future__ import annotations

import random

import pytest

from bot.check import check_database
from bot.games import get_kind
from bot.scheduler import Scheduler
from bot.service import BadOptions, IllegalMove, StalePrompt
from engine.viceroy import ai


async def viceroy_game(service, humans: int, ais: int, channel: int = 50, **opts):
    game = await service.create_lobby(1, channel, 100, "host", kind="viceroy", options=opts)
    for i in range(1, humans):
        await service.join(game.id, 100 + i, f"p{i}")
    for _ in range(ais):
        await service.add_ai(game.id, 100)
    return game.id, await service.start(game.id, 100, seed=20260101)


async def play_to_end(service, gid: int, limit: int = 2000):
    rng = random.Random(1)
    result = None
    for n in range(limit):
        info = await service.game(gid)
        if info.status != "active":
            return result, n
        pend = await service.pending(gid)
        seat = min(s for s, p in pend.items() if p.waiting and not p.is_ai)
        state = await service.full_state(gid)
        action = ai.choose_action(state, seat, rng)
        result = await service.submit(gid, pend[seat].user_id, action, idempotency_key=f"g{gid}-{n}",
                                      prompt_key=pend[seat].prompt_key)
    raise AssertionError("the game did not end")


def test_viceroy_is_registered():
    kind = get_kind("viceroy")
    assert kind.choose_action is not None and kind.max_seats == 4


async def test_full_game_two_humans_one_ai(service, storage):
    gid, start = await viceroy_game(service, humans=2, ais=1)
    assert set(start.pending) == {0, 1, 2} and start.pending[2].waiting is False  # the AI has chosen
    result, n = await play_to_end(service, gid)
    assert result.finished and len(result.scores) == 3 and n > 10
    assert sum(s["winner"] for s in result.scores) >= 1
    assert [r.verdict for r in await check_database(storage)] == ["OK"]
    assert (await service.view(gid, None))["phase"] == "over"


async def test_solo_game(service, storage):
    gid, start = await viceroy_game(service, humans=1, ais=0, channel=51)
    assert (await service.game(gid)).options["players"] == 1
    result, _ = await play_to_end(service, gid)
    assert result.finished
    assert [r.verdict for r in await check_database(storage)] == ["OK"]


async def test_illegal_and_stale_with_viceroy(service):
    gid, start = await viceroy_game(service, humans=2, ais=0, channel=52)
    with pytest.raises(IllegalMove) as exc:
        await service.submit(gid, 100, {"type": "bid", "color": "red"}, idempotency_key="early")
    assert exc.value.message  # the engine's own sentence
    old_key = start.pending[0].prompt_key
    state = await service.full_state(gid)
    for seat in (0, 1):
        await service.submit(gid, 100 + seat, ai.choose_action(state, seat, random.Random(seat)),
                             idempotency_key=f"setup{seat}", prompt_key=old_key if seat == 0 else None)
    # setup resolved: a prompt from the setup phase is now stale
    with pytest.raises(StalePrompt):
        await service.submit(gid, 100, {"type": "pass", "gems": {}}, idempotency_key="stale", prompt_key=old_key)


async def test_bad_options_refused(service):
    game = await service.create_lobby(1, 53, 100, "host", kind="viceroy", options={"deal": 3})
    with pytest.raises(BadOptions):
        await service.start(game.id, 100)
    assert (await service.game(game.id)).status == "lobby"


async def test_viceroy_deadline_uses_default_action(service, clock):
    gid, start = await viceroy_game(service, humans=2, ais=1, channel=54)
    sched = Scheduler(service, _noop, clock=clock)
    clock.advance(24 * 3600)
    outcomes = await sched.run_due()
    timed = sorted(s for o in outcomes for s in getattr(o, "timed_out", []))
    assert timed == [0, 1]
    view = await service.view(gid, None)
    assert view["phase"] != "setup"
    state = await service.full_state(gid)
    assert state["turn"] >= 1


async def _noop(outcome) -> None:
    return None
