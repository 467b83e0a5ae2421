"""Splendor Duel through the real bot and discord.py on the fake Discord: whole games, AI, closed DMs,
and no blind reserve in any public message or image."""

from __future__ import annotations

import asyncio
import io
import json
import random

from PIL import Image

from bot.autoplay import game_over, play_together
from bot.localdiscord import FakeChannel, FakeUser
from bot.presenters.splendor_duel import prompts
from bot.presenters.splendor_duel.autoplay import SplendorPlayer
from engine.splendor_duel import GAME
from rendering.splendor_duel import render_table
from tests.bot.harness import Table, new_table, open_lobby, start_game

COMMAND = "splendorduel"


async def play_to_end(table: Table, players: list[FakeUser], blind: bool = False) -> list[int]:
    sims = [SplendorPlayer(table.world, u, table.channel, seed=i) for i, u in enumerate(players)]
    for sim in sims:
        sim.blind = blind
    counts = await play_together(sims, timeout=400)
    await table.world.idle(timeout=30)
    return list(counts)


async def secret_cards(table: Table, game_id: int) -> set[str]:
    """Cards still reserved blind when the game ended: never revealed, so never named in public."""
    state = await table.bot.service.full_state(game_id)
    return {c for pl in state["players"] for c, blind in pl["reserved"] if blind}


def assert_no_blind_reserve_in_public(channel: FakeChannel, secret: set[str]) -> None:
    for msg in channel.messages():
        text = msg.content + json.dumps(msg.embeds)
        for card in secret:
            assert card not in text, f"blind reserve {card} named in the channel: {text[:200]}"


async def test_two_people_play_to_the_end(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        await start_game(table, COMMAND)
        counts = await play_to_end(table, [ann, bo])
        assert game_over(table.channel) and all(c > 5 for c in counts)
        game = (await table.bot.service.list_games(statuses=("finished",)))[0]
        assert game.kind == "splendor_duel"
        tables = [m for m in table.channel.messages() if "table.png" in m.filenames]
        assert tables and Image.open(io.BytesIO(tables[-1].embed_image())).format == "PNG"
    finally:
        await table.stop_bot()


async def test_person_against_the_ai(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        (ann,) = table.users
        rules = await ann.slash(table.channel, f"{COMMAND} rules", topic="rulings")
        await table.settle()
        assert "Ruling" in rules.reply.content and "blind" in rules.reply.content
        lobby = await open_lobby(table, ann, COMMAND, ai=1)
        await ann.click(lobby, label="Start")
        await play_to_end(table, [ann])
        assert game_over(table.channel)
    finally:
        await table.stop_bot()


async def test_player_with_dms_closed_plays_from_my_screen(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Cy"], closed=("Cy",))
    await table.start_bot()
    try:
        ann, cy = table.users
        await start_game(table, COMMAND)
        await play_to_end(table, [ann, cy])
        assert cy.dms() == [], "Cy never got a DM"
        assert game_over(table.channel)
    finally:
        await table.stop_bot()


async def test_secrecy_scan_no_blind_reserve_in_public_messages_images_or_the_opponents_dms(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        await start_game(table, COMMAND)
        await play_to_end(table, [ann, bo], blind=True)
        game = (await table.bot.service.list_games(statuses=("finished",)))[0]
        state = await table.bot.service.full_state(game.id)
        secret = {seat: {c for c, blind in pl["reserved"] if blind} for seat, pl in enumerate(state["players"])}
        assert secret[0] or secret[1], "the players kept no blind reserve: the scan would prove nothing"
        assert_no_blind_reserve_in_public(table.channel, secret[0] | secret[1])
        seat_of = {s.user_id: s.seat for s in game.seats}
        for user in (ann, bo):
            other = 1 - seat_of[user.id]
            for msg in user.dms() + user.ephemerals():
                text = msg.content + json.dumps(msg.embeds)
                assert not any(c in text for c in secret[other]), f"{user.name} saw the opponent's blind reserve"
        # The posted table picture is the public view's picture, which never depends on blind identities.
        names = {s.seat: s.display_name for s in game.seats}
        last = [m for m in table.channel.messages() if "table.png" in m.filenames][-1]
        assert last.embed_image() == render_table(GAME.view(state, None), names)
        other = GAME.determinize(state, 0, random.Random(1))
        assert render_table(GAME.view(other, None), names) == render_table(GAME.view(state, None), names)
    finally:
        await table.stop_bot()


async def test_a_prompt_drawn_after_discord_went_quiet_is_still_played(fake_discord, tmp_path, monkeypatch):
    """A player with closed DMs looks at "My screen"; the bot draws the prompt's picture before sending it, so
    Discord can be quiet for a while before the prompt comes. Here every prompt picture waits until Discord has
    been quiet for longer than the player's look waits: the prompt that comes later is played from that look,
    not missed (missing it meant looking again and again, each look as slow as the last)."""
    loop = asyncio.get_running_loop()
    draw = prompts.render_table

    def after_a_quiet_discord(*args, **kwargs) -> bytes:  # runs in the bot's drawing thread
        quiet = fake_discord.wait_for(lambda: fake_discord.is_idle(quiet=0.4), timeout=30, what="a quiet Discord")
        asyncio.run_coroutine_threadsafe(quiet, loop).result()
        return draw(*args, **kwargs)

    monkeypatch.setattr(prompts, "render_table", after_a_quiet_discord)
    table = await new_table(fake_discord, tmp_path, ["Cy"], closed=("Cy",))
    await table.start_bot()
    try:
        (cy,) = table.users
        lobby = await open_lobby(table, cy, COMMAND, ai=1)
        await cy.click(lobby, label="Start")
        sim = SplendorPlayer(table.world, cy, table.channel, seed=1)
        playing = asyncio.ensure_future(sim.run(timeout=120))
        # Before, every look missed its prompt the same way: no decision was ever made.
        await table.world.wait_for(lambda: sim.decisions >= 3 or playing.done(), timeout=120, what="three decisions")
        assert not playing.done(), playing.exception()
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)
    finally:
        await table.stop_bot()
