"""The player-experience commands in Swedish: card pages, history, stats, export and their refusals reach a
Swedish reader with no English left (card names stay as printed)."""

from __future__ import annotations

import pytest

from bot.presenters import register_presenter
from engine.viceroy.cards import CARDS
from tests.bot.harness import new_table
from tests.bot.test_ux_remembered import finished_game
from tests.bot.toy_presenter import PRESENTER
from tests.i18n.english import english_left, message_texts

NAMES = {"Ann", "Bo", "AI", "PP", "Viceroy", "Splendor", "Duel", "Pyramido", "Toy", "R", "W", "B", "G", "Y", "K", "P"}


@pytest.fixture(autouse=True)
def toy_registered():
    register_presenter(PRESENTER)


def _english(rec) -> list[tuple[str, list[str]]]:
    out = []
    for msg in [rec.reply, *rec.messages]:
        if msg is None:
            continue
        for text in message_texts(msg):
            left = english_left(text, NAMES)
            if left:
                out.append((text[:120], left))
    return out


async def test_card_pages_speak_swedish(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        (ann,) = table.users
        ann.locale = "sv-SE"
        laws = [n for n, c in CARDS.items() if c.get("text")][:3]
        for command, card in [("viceroy card", "1"), ("viceroy card", "61"), *[("viceroy card", str(n)) for n in laws],
                              ("splendorduel card", "R-2"), ("splendorduel card", "L3-07"), ("pyramido card", "3")]:
            rec = await ann.slash(table.channel, command, card=card)
            await table.settle()
            assert rec.ephemeral and (rec.reply.embeds or rec.messages), (command, card)
            assert not _english(rec), (command, card, _english(rec))
        rec = await ann.slash(table.channel, "viceroy card", card="zzzz")
        await table.settle()
        assert "Inget enskilt kort" in rec.reply.content and not _english(rec)
    finally:
        await table.stop_bot()


async def test_history_stats_and_export_speak_swedish(fake_discord, tmp_path):
    table = await finished_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        ann.locale = bo.locale = "sv-SE"
        for user, command, options in [(ann, "toy history", {}), (ann, "toy stats", {}), (ann, "toy stats", {"player": bo}),
                                       (bo, "toy export", {"game": 1})]:
            rec = await user.slash(table.channel, command, **options)
            await table.settle()
            assert rec.ephemeral, command
            assert not _english(rec), (command, _english(rec))
        assert "Avslutade" in (await ann.slash(table.channel, "toy history")).reply.content
    finally:
        await table.stop_bot()
