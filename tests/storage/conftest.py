from __future__ import annotations

import pytest

from bot.storage import Storage


@pytest.fixture
async def storage(tmp_path):
    st = await Storage.open(tmp_path / "var" / "test.db")
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
