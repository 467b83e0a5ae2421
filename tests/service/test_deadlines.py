from __future__ import annotations

import asyncio

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.service import ActionResult, GameService, Reminder
from bot.storage import Storage
from tests.service.conftest import started_game

HOUR = 3600.0
DAY = 24 * HOUR


class Collector:
    def __init__(self) -> None:
        self.outcomes: list = []

    async def __call__(self, outcome) -> None:
        self.outcomes.append(outcome)


async def test_pending_has_deadlines_from_time_limit(service, clock):
    gid, start = await started_game(service, humans=2)
    assert {p.deadline for p in start.pending.values()} == {clock.now() + DAY}
    pend = await service.pending(gid)
    assert pend[0].deadline == clock.now() + DAY


async def test_no_time_limit_means_no_timers(service):
    game = await service.create_lobby(1, 10, 100, "a", kind="toy", time_limit=None)
    await service.join(game.id, 101, "b")
    r = await service.start(game.id, 100)
    assert all(p.deadline is None for p in r.pending.values())
    assert await service.next_timer_due() is None


async def test_reminders_then_expiry_applies_default_action(service, clock):
    gid, start = await started_game(service, humans=2)
    hand0 = start.pending[0].prompt.choices["options"]
    # seat 0 answers; seat 1 stays silent
    await service.submit(gid, 100, {"type": "choose", "card": max(hand0)}, idempotency_key="a")
    got = Collector()
    sched = Scheduler(service, got, clock=clock)
    clock.advance(11 * HOUR)
    assert await sched.run_due() == []
    clock.advance(1 * HOUR)
    out = await sched.run_due()
    assert len(out) == 1 and isinstance(out[0], Reminder)
    assert out[0].seat == 1 and out[0].user_id == 101 and out[0].deadline == start.pending[1].deadline
    clock.advance(11 * HOUR)
    out = await sched.run_due()
    assert [type(o) for o in out] == [Reminder]  # one hour before the deadline
    clock.advance(HOUR)
    out = await sched.run_due()
    assert len(out) == 1 and isinstance(out[0], ActionResult)
    res = out[0]
    assert res.timed_out == [1]
    assert res.public[0] == {"type": "timeout", "to": "all", "seat": 1}
    hand1 = start.pending[1].prompt.choices["options"]
    reveal = next(e for e in res.public if e["type"] == "reveal")
    assert reveal["choices"] == [max(hand0), min(hand1)]  # the toy default: lowest card
    assert got.outcomes == [*got.outcomes[:2], res] and len(got.outcomes) == 3
    # firing again does nothing: each timer fires once
    assert await sched.run_due() == []


async def test_answer_cancels_timers_and_new_prompt_gets_new_deadline(service, clock):
    gid, start = await started_game(service, humans=2)
    clock.advance(5 * HOUR)
    for seat in (0, 1):
        p = start.pending[seat]
        await service.submit(gid, 100 + seat, {"type": "choose", "card": max(p.prompt.choices["options"]) if seat == 0
                                               else min(p.prompt.choices["options"])}, idempotency_key=f"k{seat}")
    pend = await service.pending(gid)
    # the round resolved: whoever must act now has a full fresh day
    assert pend and all(p.deadline == clock.now() + DAY for p in pend.values() if p.waiting)
    sched = Scheduler(service, Collector(), clock=clock)
    clock.advance(DAY - 5 * HOUR + 1)  # the first round's deadline passes: nothing happens
    out = await sched.run_due()
    assert all(isinstance(o, Reminder) for o in out)


async def test_amend_keeps_the_deadline(service, clock):
    gid, start = await started_game(service, humans=2)
    deadline = start.pending[1].deadline
    p1 = start.pending[1]
    await service.submit(gid, 101, {"type": "choose", "card": p1.prompt.choices["options"][0]}, idempotency_key="x")
    assert (await service.pending(gid))[1].deadline is None  # chosen: no deadline for seat 1
    assert (await service.pending(gid))[0].deadline == deadline


async def test_expiry_while_down_applied_once_and_stale_reminders_skipped(tmp_path):
    db = tmp_path / "down.db"
    clock = ManualClock(1_800_000_000.0)
    st = await Storage.open(db)
    service = GameService(st, clock=clock)
    gid, start = await started_game(service, humans=2)
    await st.close()  # the bot goes down

    clock.advance(2 * DAY)  # ... for two days
    st = await Storage.open(db)
    service = GameService(st, clock=clock)
    got = Collector()
    sched = Scheduler(service, got, clock=clock)
    await sched.start()
    await until(lambda: sorted(s for o in got.outcomes for s in getattr(o, "timed_out", [])) == [0, 1])
    await asyncio.sleep(0.05)
    await sched.stop()
    # both seats timed out exactly once, no reminder was sent
    assert not any(isinstance(o, Reminder) for o in got.outcomes)
    timed = sorted(s for o in got.outcomes for s in o.timed_out)
    assert timed == [0, 1]
    async with st.reading() as tx:
        rows = [a for a in await tx.actions(gid) if a.kind == "timeout"]
    assert len(rows) == 2
    # a second restart finds nothing more to do for the first round
    await st.close()
    st = await Storage.open(db)
    service = GameService(st, clock=clock)
    sched = Scheduler(service, Collector(), clock=clock)
    await sched.start()
    await asyncio.sleep(0.05)
    await sched.stop()
    async with st.reading() as tx:
        assert len([a for a in await tx.actions(gid) if a.kind == "timeout"]) == 2
    await st.close()


async def until(condition, timeout: float = 20.0) -> None:
    """Wait for the background loop to have done something (the machine may be busy: no fixed count)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition() and loop.time() < deadline:
        await asyncio.sleep(0.005)


async def test_background_loop_wakes_on_fake_clock(service, clock):
    got = Collector()
    sched = Scheduler(service, got, clock=clock, poll_interval=10 * DAY)
    await sched.start()
    gid, start = await started_game(service, humans=1, time_limit=600)
    await asyncio.sleep(0.01)
    assert got.outcomes == []
    clock.advance(300)  # half time reminder
    await until(lambda: got.outcomes)
    assert len(got.outcomes) == 1 and isinstance(got.outcomes[0], Reminder)
    clock.advance(300)
    await until(lambda: len(got.outcomes) == 2)
    await sched.stop()
    assert isinstance(got.outcomes[1], ActionResult) and got.outcomes[1].timed_out == [0]


async def test_late_reminder_dropped_but_deadline_applied(service, clock):
    gid, start = await started_game(service, humans=1, time_limit=4 * HOUR)
    sched = Scheduler(service, Collector(), clock=clock, late_grace=60)
    clock.advance(2.5 * HOUR)  # the half-time reminder is 30 minutes late: dropped
    assert await sched.run_due() == []
    clock.advance(0.5 * HOUR)  # one hour before: on time
    assert [type(o) for o in await sched.run_due()] == [Reminder]


async def test_changing_time_limit(service, clock):
    gid, start = await started_game(service, humans=2, time_limit=HOUR)
    info = await service.set_time_limit(gid, None, 100)
    assert info.time_limit is None
    assert all(p.deadline is None for p in (await service.pending(gid)).values())
    assert await service.next_timer_due() is None
    clock.advance(60)
    await service.set_time_limit(gid, 2 * HOUR, 100)
    assert {p.deadline for p in (await service.pending(gid)).values()} == {clock.now() + 2 * HOUR}


async def test_timeout_of_decision(service, clock):
    gid, start = await started_game(service, humans=2, time_limit=HOUR)
    h0, h1 = (start.pending[s].prompt.choices["options"] for s in (0, 1))
    a, b = max(h0), min(h1)
    if a == b:
        a = min(h0)
    await service.submit(gid, 100, {"type": "choose", "card": a}, idempotency_key="a")
    r = await service.submit(gid, 101, {"type": "choose", "card": b}, idempotency_key="b")
    deciders = [s for s, p in r.pending.items() if p.prompt.kind == "decide"]
    assert deciders  # distinct cards: the round has a winner who must decide
    sched = Scheduler(service, Collector(), clock=clock)
    clock.advance(HOUR)
    out = [o for o in await sched.run_due() if isinstance(o, ActionResult)]
    assert out[0].timed_out == deciders and out[0].applied[0].action == {"type": "decide", "take": "points"}


async def test_the_loop_sleeps_to_a_deadline_even_if_the_clock_moves_before_its_sleeper_starts(service, clock):
    """The wake time is absolute: a clock advanced between planning the sleep and the sleeper's first step
    (a test's advance, a busy loop) must not push the deadline further away."""
    sched = Scheduler(service, Collector(), clock=clock)
    when = clock.now() + 300
    sleeper = asyncio.create_task(sched._sleep_until(when))
    clock.advance(300)  # before the sleeper ran at all
    await asyncio.wait_for(sleeper, timeout=5)
    assert clock.now() >= when


async def test_a_re_armed_deadline_wakes_the_scheduler_at_its_old_time_and_fires_once_at_its_new_one(service, clock):
    """A re-arm leaves a timer's wake time where it was (the scheduler's index is not touched): woken then,
    the scheduler finds nothing due and waits for the new time; every timer still fires once, on time."""
    gid, start = await started_game(service, humans=2)
    clock.advance(HOUR)
    first = max(start.pending[0].prompt.choices["options"])
    second = next(c for c in start.pending[1].prompt.choices["options"] if c != first)  # no tie: a winner
    await service.submit(gid, 100, {"type": "choose", "card": first}, idempotency_key="k0")
    await service.submit(gid, 101, {"type": "choose", "card": second}, idempotency_key="k1")
    (winner,) = [s for s, p in (await service.pending(gid)).items() if p.waiting]  # decides
    clock.advance(2 * HOUR)
    await service.submit(gid, 100 + winner, {"type": "decide", "take": "points"}, idempotency_key="d")
    # Round 2: the winner's timers are re-armed in place (a day from now), the other seat's are new.
    pend = await service.pending(gid)
    assert {p.deadline for p in pend.values() if p.waiting} == {clock.now() + DAY}
    round2 = clock.now()
    early = await service.next_timer_due()
    assert early is not None and early < round2 + DAY / 2  # the re-armed reminder still wakes at its old time
    sched = Scheduler(service, Collector(), clock=clock)
    clock.advance(early - clock.now())
    assert await sched.run_due() == []  # nothing due at the old time
    assert await service.next_timer_due() == round2 + DAY / 2  # the new reminders' time
    clock.advance(round2 + DAY / 2 - clock.now())
    assert [type(o) for o in await sched.run_due()] == [Reminder, Reminder]
    assert await service.next_timer_due() < round2 + DAY - HOUR  # the re-armed second reminder's old time
    clock.advance(round2 + DAY - clock.now())  # past every old time, to the new deadline
    out = await sched.run_due()
    assert [type(o) for o in out] == [ActionResult, ActionResult]  # the second reminders were late: not sent
    timed_out = sorted(s for o in out if isinstance(o, ActionResult) for s in o.timed_out)
    assert timed_out == [0, 1]  # each seat's new deadline, once
    assert await sched.run_due() == []
