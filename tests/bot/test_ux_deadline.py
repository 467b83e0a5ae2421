"""The deadline is on every prompt as Discord timestamps, and stays there when the prompt is edited."""

from __future__ import annotations

import re

import pytest

import tests.service.toygame as toygame
from bot.autoplay import controls, prompt_key
from bot.presenters import register_presenter
from bot.ui.texts import move_line
from tests.bot.harness import new_table
from tests.bot.toy_presenter import PRESENTER

STAMPS = re.compile(r"<t:(\d+):f> \(<t:\1:R>\)")


@pytest.fixture(autouse=True)
def toy_registered():
    assert toygame.KIND.name == "toy"
    register_presenter(PRESENTER)


def test_the_move_line_shows_the_deadline_in_absolute_and_relative_timestamps():
    line = move_line("Toy", 3, 1_800_000_000.7)
    assert "<t:1800000000:f>" in line and "<t:1800000000:R>" in line and "Toy game #3" in line
    assert "no time limit" in move_line("Toy", 3, None)
    chosen = move_line("Toy", 3, 1_800_000_000, waiting=False)
    assert "change it until the reveal" in chosen and "<t:1800000000:R>" in chosen


async def test_the_deadline_survives_a_click_on_a_sealed_prompt(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot(time_limit=3600)
    try:
        ann, bo = table.users
        rec = await ann.slash(table.channel, "toy new", seats=2, rounds=2)
        await table.settle()
        lobby = rec.reply
        await bo.click(lobby, label="Join")
        await table.settle()
        await ann.click(lobby, label="Start")
        await table.settle()
        prompt = next(m for m in reversed(ann.dms()) if prompt_key(m) is not None)
        first = STAMPS.search(prompt.content or "")
        assert first, f"no deadline on the prompt: {prompt.content!r}"
        menu = controls(prompt)["number"]
        await ann.select(prompt, menu["custom_id"], [menu["options"][0]["value"]])
        await table.settle()
        edited = fake_discord.messages[prompt.id]
        assert "Your choice is in" in edited.embeds[0]["description"]  # the prompt was edited in place
        # Ann has chosen: her line says until when she may change it (Bo's deadline, set with hers).
        again = STAMPS.search(edited.content or "")
        assert again and again.group(1) == first.group(1), f"the deadline vanished: {edited.content!r}"
        assert "your choice is in" in edited.content
        # A second click (changing the sealed choice) keeps it too.
        menu = controls(edited)["number"]
        await ann.select(edited, menu["custom_id"], [menu["options"][-1]["value"]])
        await table.settle()
        assert STAMPS.search(fake_discord.messages[prompt.id].content or "")
    finally:
        await table.stop_bot()
