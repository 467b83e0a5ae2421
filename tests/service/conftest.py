from __future__ import annotations

import itertools

import pytest

import tests.service.toygame  # noqa: F401  (registers the "toy" kind)
from bot.clock import ManualClock
from bot.service import GameService
from bot.storage import Storage


@pytest.fixture
async def storage(db_target):  # every service test runs on SQLite and on PostgreSQL (tests/conftest.py)
    st = await Storage.open(db_target)
    yield st
    await st.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1_800_000_000.0)


@pytest.fixture
def service(storage, clock) -> GameService:
    seeds = itertools.count(1000)
    return GameService(storage, clock=clock, seed_source=lambda: next(seeds))


async def started_game(service: GameService, *, humans: int = 2, ais: int = 0, rounds: int = 3,
                       channel: int = 10, time_limit=None, seed: int | None = 7):
    """A running toy game with `humans` users 100, 101, ... and `ais` AI seats."""
    kwargs = {} if time_limit is None else {"time_limit": time_limit}
    game = await service.create_lobby(1, channel, 100, "u100", kind="toy", options={"rounds": rounds}, **kwargs)
    for i in range(1, humans):
        await service.join(game.id, 100 + i, f"u{100 + i}")
    for _ in range(ais):
        await service.add_ai(game.id, 100)
    result = await service.start(game.id, 100, seed=seed)
    return game.id, result
