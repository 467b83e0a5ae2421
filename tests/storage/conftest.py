from __future__ import annotations

import pytest

from bot.storage import Storage


@pytest.fixture
async def storage(db_target):
    st = await Storage.open(db_target)
    yield st
    await st.close()


async def new_game(storage: Storage, channel: int = 1, seats: int = 2) -> int:
    """An active game row with `seats` seats (no engine involved: storage tests only)."""
    from bot.storage import SeatRow

    async with storage.transaction() as tx:
        gid = await tx.insert_game(guild_id=1, channel_id=channel, kind="toy", options={}, host_user_id=100,
                                   time_limit=None, now=1.0)
        await tx.replace_seats(gid, [SeatRow(gid, s, 100 + s, f"u{s}", False, "unknown") for s in range(seats)])
        await tx.update_game(gid, 1.0, status="active", seed=1)
    return gid


@pytest.fixture
def service(storage):
    import itertools

    import tests.service.toygame  # noqa: F401  (registers "toy")
    from bot.clock import ManualClock
    from bot.service import GameService

    seeds = itertools.count(1000)
    return GameService(storage, clock=ManualClock(1_800_000_000.0), seed_source=lambda: next(seeds))
