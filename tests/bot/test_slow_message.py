"""One slow Discord message never holds up the other players' prompts (the announcement lanes)."""

from __future__ import annotations

import asyncio
import sys

from bot.autoplay import SimulatedPlayer
from tests.bot.lines import expected_lines, shown_lines
from tests.bot.test_bot_interactions import two_player_game


def _title(msg) -> str:
    return (msg.embeds[0].get("title") or "") if msg is not None and msg.embeds else ""


async def _one_has_chosen(world, tmp_path):
    """A two-player game at its setup prompts where Ann has chosen and Bo has not: (table, game id, Ann, Bo)."""
    table, _ = await two_player_game(world, tmp_path)
    sims = [SimulatedPlayer(table.world, u, table.channel, seed=i) for i, u in enumerate(table.users[:2])]
    for sim in sims:
        await table.world.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=30, what="a prompt")
    assert await sims[0].step()
    await table.settle()
    return table, (await table.bot.service.game_in_channel(table.channel.id)).id, sims[0], sims[1]


def _new_prompt(sim: SimulatedPlayer, before) -> bool:
    now = sim.current_prompt()
    return now is not None and now.id != getattr(before, "id", None)


async def test_a_held_channel_message_does_not_hold_up_the_next_prompts(fake_discord, tmp_path):
    world = fake_discord
    table, game_id, ann, bo = await _one_has_chosen(world, tmp_path)
    try:
        before = [ann.current_prompt(), bo.current_prompt()]
        release = world.hold("POST", f"/channels/{table.channel.id}/messages")  # the next channel message
        # The last choice: the reveal goes to the channel, new prompts to both (the player's own wait for a quiet
        # Discord ends once the held message goes through).
        step = asyncio.create_task(bo.step())
        await world.wait_for(lambda: any(r.method == "POST" and r.path == f"/channels/{table.channel.id}/messages"
                                         and r.status == 0 for r in world.requests), timeout=30,
                             what="the channel message to be held")
        await world.wait_for(lambda: _new_prompt(ann, before[0]) and _new_prompt(bo, None), timeout=30,
                             what="both players' next prompts while the channel message is held")
        assert not release.is_set()
        release.set()
        assert await step
        await table.settle()
        assert shown_lines(table.channel, game_id) == await expected_lines(table.db, game_id)
    finally:
        await table.settle()
        await table.stop_bot()


async def test_a_held_prompt_does_not_hold_up_the_other_players_prompt_or_the_channel(fake_discord, tmp_path):
    world = fake_discord
    table, game_id, ann, bo = await _one_has_chosen(world, tmp_path)
    try:
        ann_dm = table.users[0].dm_channel
        shown = len(shown_lines(table.channel, game_id))
        bo_before = bo.current_prompt()
        release = world.hold("POST", f"/channels/{ann_dm.id}/messages")  # Ann's next DM is slow
        step = asyncio.create_task(bo.step())
        await world.wait_for(lambda: _new_prompt(bo, bo_before), timeout=30, what="Bo's next prompt")
        await world.wait_for(lambda: len(shown_lines(table.channel, game_id)) > shown, timeout=30,
                             what="the reveal in the channel")
        assert not release.is_set()
        release.set()
        assert await step
        await table.settle()
        await world.wait_for(lambda: ann.current_prompt() is not None and "auction" in _title(ann.current_prompt()),
                             timeout=30, what="Ann's prompt once her DM goes through")
    finally:
        await table.settle()
        await table.stop_bot()


async def test_a_hung_answer_to_a_click_gives_up_within_its_time_limit(fake_discord, tmp_path, monkeypatch):
    world = fake_discord
    table, _, _, bo = await _one_has_chosen(world, tmp_path)
    # The bot loads its cogs as extensions, each a fresh module: the time limit is set on the one it runs.
    monkeypatch.setattr(sys.modules["cogs.table"], "REPLY_TIMEOUT", 0.5)
    # The answers to clicks never come (the held requests are dropped with the fake at the end).
    # A click is answered in its interaction response (or, when slow, by an edit after a defer).
    world.hold("PATCH", "/webhooks/*/messages/@original", times=50)
    world.hold("POST", "/interactions/*/callback", times=50)
    try:
        step = asyncio.create_task(bo.step())
        await world.wait_for(lambda: any(r.method in ("PATCH", "POST") and r.status == 0 for r in world.requests),
                             timeout=30, what="an answer to be held")
        await world.wait_for(lambda: not table.bot.in_hand, timeout=30, what="the click handlers to give up")
        step.cancel()
    finally:
        world.clear_faults()
        await table.stop_bot()
        world.clear_faults()
        await table.stop_bot()
