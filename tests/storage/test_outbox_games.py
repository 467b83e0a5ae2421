"""Which games have undelivered announcements, and of those, which were committed before a time (the
orphan sweep of cogs/announcer.py asks for announcements two minutes old), on both drivers."""

from __future__ import annotations

from tests.storage.conftest import new_game


async def test_outbox_games_lists_undelivered_announcements_committed_before_the_time(storage):
    old, recent, delivered = [await new_game(storage, channel=c) for c in (1, 2, 3)]
    async with storage.transaction() as tx:
        await tx.add_outbox(old, 2, {"p": 1}, 100.0)
        await tx.add_outbox(recent, 2, {"p": 2}, 250.0)
        await tx.add_outbox(delivered, 2, {"p": 3}, 100.0)
    async with storage.reading() as tx:
        (row,) = await tx.outbox(delivered)
    async with storage.transaction() as tx:
        await tx.outbox_progress(row.id, {}, 110.0)
    async with storage.reading() as tx:
        assert await tx.outbox_games() == [(old, 1), (recent, 1)]
        assert await tx.outbox_games(before=200.0) == [(old, 1)]
        assert await tx.outbox_games(before=100.0) == []  # committed at that time: not before it
        assert await tx.outbox_games(before=300.0) == [(old, 1), (recent, 1)]
