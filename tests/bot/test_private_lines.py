"""What a step gives one player privately (gems taken, a card drawn) opens that player's next prompt instead of
coming in a DM of its own, and is never lost: the prompt keeps those lines when it closes (answered, closed by
the next step, a stale click, a restart in between), and an announcement delivered again after a crash finds
them in the prompt instead of sending them a second time."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.autoplay import SimulatedPlayer, controls
from bot.localdiscord import FakeDiscord, FakeMessage
from bot.presenters.viceroy import PRESENTER
from tests.bot.harness import Table
from tests.bot.test_bot_interactions import past_setup, two_player_game


def _delivered(db, game_id: int) -> list[tuple[int, dict, dict]]:
    """(outbox id, payload, recorded parts) of the game's delivered announcements, newest first."""
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT id, payload, sent FROM outbox WHERE game_id=? AND delivered_at IS NOT NULL"
                           " ORDER BY id DESC", (game_id,)).fetchall()
    return [(oid, json.loads(payload), json.loads(sent or "{}")) for oid, payload, sent in rows]


def _lines(payload: dict, seat: str) -> list[str]:
    names = {int(k): v for k, v in payload["names"].items()}
    return [t for t in (PRESENTER.private_line(e, names) for e in payload["private"].get(seat, [])) if t]


def _in_a_prompt(world: FakeDiscord, db, game_id: int, *, still_open: bool
                 ) -> tuple[int, dict, str, list[str], FakeMessage] | None:
    """The newest announcement that showed a seat's private lines at the top of a prompt (with ``still_open``:
    a sealed round's prompt still open): (outbox id, its parts, the part, the lines, the prompt)."""
    for oid, payload, parts in _delivered(db, game_id):
        for part, message_id in parts.items():
            prompt = world.messages.get(message_id) if part.startswith("p") and isinstance(message_id, int) else None
            if prompt is not None and prompt.embeds and (not still_open or controls(prompt)
                                                         and " round " in (prompt.embeds[0].get("title") or "")):
                return oid, parts, part, _lines(payload, part[1:]), prompt
    return None


async def _play_until_lines_in_a_prompt(table: Table, sims: list[SimulatedPlayer], game_id: int, *,
                                        still_open: bool = False) -> tuple[int, dict, str, list[str], FakeMessage]:
    for _ in range(40):
        found = _in_a_prompt(table.world, table.db, game_id, still_open=still_open)
        if found is not None:
            return found
        for sim in sims:
            if sim.current_prompt() is not None:
                await sim.step()
        await table.settle()
    raise AssertionError("no private line opened a prompt")


@asynccontextmanager
async def _a_game_with_lines_in_a_prompt(world: FakeDiscord, tmp_path, *, still_open: bool
                                         ) -> AsyncIterator[tuple[Table, list[SimulatedPlayer], int, tuple]]:
    """A two-player game past setup, played until a seat's private lines opened one of its prompts: (the
    table, the players, the game id, what ``_play_until_lines_in_a_prompt`` found). The bot stops at the end."""
    table, _ = await two_player_game(world, tmp_path)
    try:
        sims = await past_setup(table)
        game_id = (await table.bot.service.list_games(statuses=("active",)))[0].id
        yield table, sims, game_id, await _play_until_lines_in_a_prompt(table, sims, game_id, still_open=still_open)
    finally:
        await table.stop_bot()


def _owner_first(sims: list[SimulatedPlayer], prompt: FakeMessage) -> list[SimulatedPlayer]:
    return sorted(sims, key=lambda s: s.user.dm_channel is None or s.user.dm_channel.id != prompt.channel_id)


async def _until_closed(table: Table, sims: list[SimulatedPlayer], prompt: FakeMessage) -> None:
    """The prompt's owner answers first, then the others: the step resolves on someone else's click, so the
    announcement closes the owner's prompt (if the owner's answer did not)."""
    for _ in range(10):
        if not controls(table.world.messages[prompt.id]):
            return
        for sim in _owner_first(sims, prompt):
            if sim.current_prompt() is not None:
                await sim.step()
                await table.settle()
    raise AssertionError("the prompt never closed")


async def test_the_lines_open_the_prompt_and_stay_when_it_closes(fake_discord, tmp_path):
    world = fake_discord
    async with _a_game_with_lines_in_a_prompt(world, tmp_path, still_open=True) as (table, sims, _, found):
        _, _, _, lines, prompt = found
        assert lines and all(line in prompt.content for line in lines)
        assert prompt.content.startswith("Last round:") and not prompt.flags & (1 << 12)  # the prompt notifies
        dm = world.channel(prompt.channel_id)
        assert not any(m.content.strip() == "\n".join(lines) for m in dm.messages()), "a DM of their own too"
        await _until_closed(table, sims, prompt)
        closed = world.messages[prompt.id]
        assert not controls(closed) and all(line in closed.content for line in lines), closed.content


async def test_a_prompt_closed_after_a_restart_keeps_its_lines(fake_discord, tmp_path):
    world = fake_discord
    async with _a_game_with_lines_in_a_prompt(world, tmp_path, still_open=True) as (table, sims, _, found):
        _, _, _, lines, prompt = found
        await table.stop_bot()  # the new process did not send the prompt: it knows it only from its record
        await table.start_bot()
        await table.settle()
        await _until_closed(table, sims, prompt)
        closed = world.messages[prompt.id]
        assert not controls(closed) and all(line in closed.content for line in lines), closed.content


async def test_a_stale_click_keeps_the_lines(fake_discord, tmp_path):
    world = fake_discord
    async with _a_game_with_lines_in_a_prompt(world, tmp_path, still_open=True) as (table, sims, _, found):
        _, _, _, lines, prompt = found
        owner, *others = _owner_first(sims, prompt)
        assert await owner.step()  # locked in, and still open for a change until the reveal
        await table.settle()
        assert controls(world.messages[prompt.id])
        # Closing the prompt at the reveal fails: it keeps its controls after the step has moved on. (503: the
        # error discord.py raises at once; on a 500 it sleeps 25 s over five tries before raising the same.)
        world.fail("PATCH", f"/channels/{prompt.channel_id}/messages/{prompt.id}", status=503,
                   message="Service Unavailable", times=10)
        for sim in others:
            assert await sim.step()
        await table.settle()
        world.clear_faults()
        old = world.messages[prompt.id]
        control = next(iter(controls(old).values()))
        if control.get("type") == 3:
            await owner.user.select(old, control["custom_id"], [control["options"][0]["value"]])
        else:
            await owner.user.click(old, custom_id=control["custom_id"])
        await table.settle()
        closed = world.messages[prompt.id]
        assert "earlier step" in closed.content and not controls(closed)
        assert all(line in closed.content for line in lines), closed.content


async def test_a_redelivered_announcement_finds_the_lines_in_the_prompt(fake_discord, tmp_path):
    """A process killed after the prompt went out and before the announcement recorded it: delivered again
    (Discord has forgotten the nonces), the lines are found in the prompt, not sent in a DM."""
    world = fake_discord
    async with _a_game_with_lines_in_a_prompt(world, tmp_path, still_open=False) as (table, _, game_id, found):
        bot = table.bot
        outbox_id, parts, part, _, prompt = found
        dm = world.channel(prompt.channel_id)
        before = len(dm.messages())
        await bot.service.outbox_progress(outbox_id, {k: v for k, v in parts.items() if k != part}, delivered=False)
        world.nonce_window = 0.0
        bot.announcer.nonce_trusted = 0.0
        async with bot.announcer.lock(game_id):
            assert await bot.announcer.deliver(game_id)
        await table.settle()
        assert len(dm.messages()) == before
        again = next(p for oid, _, p in _delivered(table.db, game_id) if oid == outbox_id)
        assert again[part] == prompt.id
