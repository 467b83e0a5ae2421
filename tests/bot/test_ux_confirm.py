"""Irreversible commands ask once (Confirm / Cancel, privately) before acting; undo says what it took back."""

from __future__ import annotations

import pytest

import tests.service.toygame as toygame
from bot.autoplay import controls, prompt_key
from bot.presenters import register_presenter
from tests.bot.harness import Table, new_table, start_game
from tests.bot.toy_presenter import PRESENTER


@pytest.fixture(autouse=True)
def toy_registered():
    assert toygame.KIND.name == "toy"
    register_presenter(PRESENTER)


async def started(fake_discord, tmp_path) -> Table:
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    await start_game(table, "toy", seats=2, rounds=3)
    await table.settle()
    return table


def prompt_of(user):
    return next((m for m in reversed(user.dms()) if prompt_key(m) is not None and controls(m)), None)


async def choose(table: Table, user) -> None:
    await table.world.wait_for(lambda: prompt_of(user) is not None, timeout=10, what=f"{user.name}'s prompt")
    msg = prompt_of(user)
    menu = controls(msg)["number"]
    await user.select(msg, menu["custom_id"], [menu["options"][0]["value"]])
    await table.settle()


async def status(table: Table) -> str:
    return (await table.bot.service.game(1)).status


async def test_abandon_asks_first_and_cancel_changes_nothing(fake_discord, tmp_path):
    table = await started(fake_discord, tmp_path)
    try:
        ann, _ = table.users
        posts = len(table.channel.messages())
        rec = await ann.slash(table.channel, "toy abandon")
        assert rec.ephemeral and "cannot be resumed" in rec.reply.content
        assert {c["label"] for c in rec.reply.buttons()} == {"Abandon the game", "Cancel"}
        assert await status(table) == "active"  # nothing happened yet
        await ann.click(rec.reply, label="Cancel")
        await table.settle()
        assert "nothing was changed" in fake_discord.messages[rec.reply.id].content
        assert not fake_discord.messages[rec.reply.id].buttons()
        assert await status(table) == "active" and len(table.channel.messages()) == posts
        rec = await ann.slash(table.channel, "toy abandon")
        await ann.click(rec.reply, label="Abandon the game")
        await table.settle()
        assert await status(table) == "abandoned"
        assert "was abandoned" in fake_discord.messages[rec.reply.id].content
        assert sum("was abandoned" in m.content for m in table.channel.messages()) == 1
    finally:
        await table.stop_bot()


async def test_only_the_host_is_asked(fake_discord, tmp_path):
    table = await started(fake_discord, tmp_path)
    try:
        _, bo = table.users
        for command in ("toy abandon", "toy undo"):
            rec = await bo.slash(table.channel, command)
            assert rec.ephemeral and "host" in rec.reply.content.lower() and not rec.reply.buttons()
        rec = await bo.slash(table.channel, "toy replace", seat=1)
        assert "host" in rec.reply.content.lower() and not rec.reply.buttons()
    finally:
        await table.stop_bot()


async def test_undo_asks_then_says_whose_moves_went_back_and_who_decides_again(fake_discord, tmp_path):
    table = await started(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        await choose(table, ann)
        await choose(table, bo)  # the round is revealed: a completed step
        rec = await ann.slash(table.channel, "toy undo")
        assert rec.ephemeral and {c["label"] for c in rec.reply.buttons()} == {"Undo", "Cancel"}
        assert not any("undid" in m.content for m in table.channel.messages())
        await ann.click(rec.reply, label="Undo")
        await table.settle()
        line = next(m.content for m in table.channel.messages() if "undid" in m.content)
        assert "2 moves taken back (Ann, Bo)" in line and "Now to decide: Ann, Bo" in line
        assert "undone" in fake_discord.messages[rec.reply.id].content
        # A second click on the answered question does nothing more.
        assert not fake_discord.messages[rec.reply.id].buttons()
    finally:
        await table.stop_bot()


async def test_replace_asks_then_gives_the_seat(fake_discord, tmp_path):
    table = await started(fake_discord, tmp_path)
    try:
        ann, _ = table.users
        rec = await ann.slash(table.channel, "toy replace", seat=2)
        assert "Bo loses the seat" in rec.reply.content
        game = await table.bot.service.game(1)
        assert not game.seats[1].is_ai
        await ann.click(rec.reply, label="Replace")
        await table.settle()
        game = await table.bot.service.game(1)
        assert game.seats[1].is_ai
        assert any("now played by AI 2" in m.content for m in table.channel.messages())
    finally:
        await table.stop_bot()
