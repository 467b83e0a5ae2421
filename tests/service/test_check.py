"""The audit command (`python -m bot.check`) on games that ended in every way."""

from __future__ import annotations

from bot.check import check_database
from tests.service.conftest import started_game


async def test_abandoned_started_game_checks_ok(service, storage):
    gid, _ = await started_game(service, humans=2)
    await service.abandon(gid, 100)
    assert [(r.status, r.verdict) for r in await check_database(storage)] == [("abandoned", "OK")]


async def test_replaced_seat_checks_ok(service, storage):
    gid, _ = await started_game(service, humans=2)
    await service.replace_seat(gid, 1, None, "AI", by_user_id=100)
    assert [r.verdict for r in await check_database(storage)] == ["OK"]
