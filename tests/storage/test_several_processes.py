"""Several bot processes on one database: each has its own Storage (its own connections) and GameService.

On PostgreSQL these run truly in parallel (row locks serialise one game's writers); on SQLite the second
connection waits for the first writer (BEGIN IMMEDIATE with a busy timeout).  Either way an action is
applied once, a retried key answers with the stored result and a deadline fires exactly once."""

from __future__ import annotations

import asyncio
import itertools

import pytest

import tests.service.toygame  # noqa: F401  (registers "toy")
from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.service import ActionResult, GameService, IllegalMove, StalePrompt
from bot.storage import Storage
from tests.service.conftest import started_game

DAY = 24 * 3600.0


@pytest.fixture
async def processes(db_target):
    clock = ManualClock(1_800_000_000.0)
    seeds = itertools.count(1)
    storages = [await Storage.open(db_target) for _ in range(3)]
    services = [GameService(st, clock=clock, seed_source=lambda: next(seeds)) for st in storages]
    yield clock, services
    for st in storages:
        await st.close()


async def test_same_key_from_every_process_is_applied_once(processes):
    _, services = processes
    gid, start = await started_game(services[0], humans=2, time_limit=DAY)
    card = start.pending[0].prompt.choices["options"][0]
    results = await asyncio.gather(*(s.submit(gid, 100, {"type": "choose", "card": card}, idempotency_key="k1")
                                     for s in services))
    assert sorted(r.duplicate for r in results) == [False, True, True]
    assert len({r.version for r in results}) == 1
    async with services[1].storage.reading() as tx:
        keys = [a.idempotency_key for a in await tx.actions(gid)]
    assert keys.count("k1") == 1


async def test_racing_answers_to_one_prompt_apply_in_one_order(processes):
    """Both seats answer at once through different processes; each answer applies exactly once and the
    stored snapshot equals the replayed log."""
    _, services = processes
    from bot.check import check_database

    gid, start = await started_game(services[0], humans=2, rounds=20)
    for rnd in range(5):
        pend = await services[0].pending(gid)
        moves = [(100 + seat, p) for seat, p in pend.items() if p.waiting and p.prompt.kind == "choose"]
        if not moves:
            p = next(p for p in pend.values() if p.waiting)
            await services[rnd % 3].submit(gid, p.user_id, {"type": "decide", "take": "points"},
                                           idempotency_key=f"d{rnd}", prompt_key=p.prompt_key)
            continue
        outcomes = await asyncio.gather(*(
            services[(i + rnd) % 3].submit(gid, user, {"type": "choose", "card": p.prompt.choices["options"][0]},
                                           idempotency_key=f"r{rnd}-{user}", prompt_key=p.prompt_key)
            for i, (user, p) in enumerate(moves)), return_exceptions=True)
        assert all(isinstance(o, ActionResult | StalePrompt | IllegalMove) for o in outcomes), outcomes
    async with services[2].storage.reading() as tx:
        rows = await tx.actions(gid)
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert len({r.idempotency_key for r in rows}) == len(rows)
    assert [r.verdict for r in await check_database(services[1].storage)] == ["OK"]


async def test_a_deadline_fires_exactly_once_across_processes(processes):
    clock, services = processes
    gid, start = await started_game(services[0], humans=2, time_limit=DAY)
    clock.advance(DAY + 1)
    fired = []

    async def collect(outcome):
        fired.append(outcome)

    schedulers = [Scheduler(s, collect, clock=clock) for s in services]
    # every process wakes at the same moment for the same deadlines
    await asyncio.gather(*(sched.run_due() for sched in schedulers))
    timeouts = [o for o in fired if isinstance(o, ActionResult)]
    assert sorted(seat for o in timeouts for seat in o.timed_out) == [0, 1]
    async with services[0].storage.reading() as tx:
        kinds = [a.kind for a in await tx.actions(gid)]
    assert kinds.count("timeout") == 2
    # and nothing fires twice afterwards
    fired.clear()
    await asyncio.gather(*(sched.run_due() for sched in schedulers))
    assert not [o for o in fired if isinstance(o, ActionResult) and o.timed_out]


async def test_a_process_dying_mid_claim_leaves_the_deadline_to_another(processes):
    clock, services = processes
    gid, start = await started_game(services[0], humans=2, time_limit=DAY)
    clock.advance(DAY + 1)
    timer_id = next(t for t, kind, _ in await services[0].due_timer_ids() if kind == "deadline")

    class Died(Exception):
        pass

    with pytest.raises(Died):  # claimed and marked fired, then the process dies before COMMIT
        async with services[0].storage.transaction() as tx:
            timer = await tx.timer(timer_id)
            await tx.lock_game(timer.game_id)
            assert await tx.claim_timer(timer_id, clock.now()) is not None
            await tx.mark_fired(timer_id)
            raise Died
    result = await services[1].fire_timer(timer_id)
    assert isinstance(result, ActionResult) and len(result.timed_out) == 1
    assert await services[2].fire_timer(timer_id) is None


async def test_games_in_parallel_from_several_processes(processes):
    _, services = processes
    games = [await started_game(services[0], humans=2, channel=200 + i) for i in range(6)]

    async def play(i: int, gid: int, start) -> None:
        for seat in (0, 1):
            card = start.pending[seat].prompt.choices["options"][0]
            await services[(i + seat) % 3].submit(gid, 100 + seat, {"type": "choose", "card": card},
                                                  idempotency_key=f"g{gid}s{seat}")

    await asyncio.gather(*(play(i, gid, start) for i, (gid, start) in enumerate(games)))
    for gid, _ in games:
        async with services[2].storage.reading() as tx:
            assert len(await tx.actions(gid)) == 2


async def test_a_starting_process_leaves_a_reminder_just_due_to_be_sent(processes):
    """Start-up skips only reminders past the grace: one that fell due a moment ago (another process may be
    sending it now) is sent, once."""
    clock, services = processes
    gid, start = await started_game(services[0], humans=2, time_limit=DAY)
    clock.advance(DAY / 2 + 10)  # the half-time reminders fell due ten seconds ago
    sent = []

    async def collect(outcome):
        sent.append(outcome)

    starting = Scheduler(services[1], collect, clock=clock, late_grace=300)
    await starting.start()
    await starting.stop()
    await Scheduler(services[2], collect, clock=clock, late_grace=300).run_due()
    reminders = [o for o in sent if not isinstance(o, ActionResult)]
    assert sorted(r.seat for r in reminders) == [0, 1]
