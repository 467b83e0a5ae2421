"""Pyramido end to end through the real bot and the fake Discord: people and AI to the final scores, a
SIGKILL restart mid-floor, stale and foreign clicks refused."""

from __future__ import annotations

import re
import time

from bot.autoplay import SimulatedPlayer, controls, game_over, play_together
from bot.presenters.pyramido.autoplay import architect
from engine.pyramido import GAME
from tests.bot.harness import Table, final_sheet, new_table, open_lobby, posted_totals, start_game

COORDINATES = re.compile(r"\(\s*-?\d+\s*,\s*-?\d+\s*\)")  # an engine cell such as "(-3, -1)"


def dm_texts(user) -> list[str]:
    return [text for m in user.dms() for text in (m.content or "", *(e.get("description") or "" for e in m.embeds))]


def titles(table: Table) -> list[str]:
    return [e.get("title") or "" for m in table.channel.messages() for e in m.embeds]


async def _finished(table: Table) -> tuple:
    game = (await table.bot.service.list_games(statuses=("finished",)))[0]
    assert game.kind == "pyramido"
    scores = {s["seat"]: s["total"] for s in await table.bot.service.final_scores(game.id)}
    names = {s.seat: s.display_name for s in game.seats}
    return game, scores, names


async def test_two_seats_a_person_and_an_ai_play_to_the_final_scores(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        (ann,) = table.users
        msg = await open_lobby(table, ann, "pyramido", seats=2, ai=1)
        assert msg.embeds[0]["title"].startswith("Pyramido game #")
        await ann.click(msg, label="Start")
        await table.settle()
        sim = SimulatedPlayer(fake_discord, ann, table.channel, seed=1, strategy=architect)
        decisions = await sim.run(timeout=600)
        await table.settle()
        assert game_over(table.channel) and decisions >= 20
        game, scores, names = await _finished(table)
        assert posted_totals(table.channel) == {names[s]: t for s, t in scores.items()}
        posted = titles(table)
        for floor in (1, 2, 3, 4):
            assert f"Floor {floor} scoring" in posted
        # every turn prompt was closed once it was played
        assert all(not controls(m) for m in ann.dms())
        # each closed prompt echoes the move by the position's letter on the picture, never by coordinates
        chosen = [t for t in dm_texts(ann) if "You chose:" in t]
        assert len(chosen) >= 20
        for text in chosen:
            assert re.search(r"at position [A-Za-z0-9]+, second block (east|south|west|north)\b", text), text
            assert not COORDINATES.search(text), text
    finally:
        await table.stop_bot()


async def test_four_seats_people_and_ai_one_without_dms(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"], closed=("Bo",))
    await table.start_bot()
    try:
        ann, bo = table.users
        await start_game(table, "pyramido", seats=4, ai=2)
        await table.settle()
        sims = [SimulatedPlayer(fake_discord, u, table.channel, seed=i, strategy=architect)
                for i, u in enumerate((ann, bo))]
        counts = await play_together(sims, timeout=900)
        await table.settle()
        assert game_over(table.channel) and all(c >= 15 for c in counts)
        game, scores, names = await _finished(table)
        assert posted_totals(table.channel) == {names[s]: t for s, t in scores.items()}
        assert sum(t.startswith("Floor 4 scoring") for t in titles(table)) == 1
        # the table names whose turn it is
        assert any("Turn: **" in (e.get("description") or "") for m in table.channel.messages() for e in m.embeds)
    finally:
        await table.stop_bot()


async def test_stale_and_foreign_clicks_are_refused(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Eve"])
    await table.start_bot()
    try:
        ann, eve = table.users
        msg = await open_lobby(table, ann, "pyramido", seats=2, ai=1, starter="first")
        await ann.click(msg, label="Start")
        await table.settle()
        sim = SimulatedPlayer(fake_discord, ann, table.channel, seed=3, strategy=architect)
        await fake_discord.wait_for(lambda: sim.current_prompt() is not None, timeout=30, what="Ann's first turn")
        first = sim.current_prompt()
        status = await fake_discord.wait_message(
            table.channel, lambda m: any(c.get("label") == "My screen" for c in m.buttons()), timeout=10)
        # a stranger presses My screen under the table: no seat for them
        rec = await eve.click(status, label="My screen")
        await rec.wait_done()
        assert "no seat" in eve.ephemerals()[-1].content
        # Ann opens a private copy of her turn, then plays the turn from her DM
        rec = await ann.click(status, label="My screen")
        await rec.wait_done()
        await table.settle()
        copy = next(m for m in reversed(rec.messages) if controls(m))
        menu = controls(copy)["domino"]
        assert menu["custom_id"] == controls(first)["domino"]["custom_id"]
        assert await sim.step()
        await table.settle()
        assert controls(fake_discord.messages[first.id]) == {}, "the played turn's prompt was closed"
        # the copy is now stale: its click is refused and changes nothing
        game = (await table.bot.service.list_games())[0]
        before = [e for m in table.channel.messages() for e in m.embeds]
        await ann.select(copy, menu["custom_id"], [menu["options"][0]["value"]])
        await table.settle()
        assert "earlier step" in ann.ephemerals()[-1].content
        assert (await table.bot.service.list_games())[0].id == game.id
        assert [e for m in table.channel.messages() for e in m.embeds][: len(before)] == before
    finally:
        await table.stop_bot()


async def test_sigkill_restart_mid_floor_loses_nothing(fake_discord, tmp_path):
    from tests.bot.test_e2e_restart import _start

    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    ann, bo = table.users
    await _start(table)
    try:
        rec = await ann.slash(table.channel, "pyramido new", seats=2)
        await world.idle(quiet=0.3, timeout=30)
        msg = rec.reply
        await bo.click(msg, label="Join")
        await world.idle(quiet=0.3, timeout=30)
        await ann.click(msg, label="Start")
        await world.idle(quiet=0.3, timeout=30)
        sims = [SimulatedPlayer(world, u, table.channel, seed=i, strategy=architect) for i, u in enumerate((ann, bo))]
        # play three turns each, then leave one player mid-plan (domino chosen) and kill the bot
        deadline = time.monotonic() + 240
        played = 0
        while played < 6 and time.monotonic() < deadline:
            for sim in sims:
                if await sim.step():
                    played += 1
            await world.idle(quiet=0.2, timeout=30)
        assert played >= 6
        await world.wait_for(lambda: any(s.current_prompt() is not None for s in sims), timeout=120,
                             what="the next turn's prompt")
        waiting = next(s for s in sims if s.current_prompt() is not None)
        prompt = waiting.current_prompt()
        domino = controls(prompt)["domino"]
        await waiting._select(prompt, domino, [domino["options"][0]["value"]])
        await world.wait_for(lambda: waiting._chosen(controls(prompt)["domino"]), timeout=60,
                             what="the plan's domino shown as chosen")
        table.kill_process()
        await _start(table)
        # the prompt from before the restart still works, and the plan chosen so far is kept
        await waiting._select(prompt, controls(prompt)["domino"], [domino["options"][1]["value"]])
        await world.wait_for(lambda: controls(prompt)["domino"]["options"][1].get("default"), timeout=120,
                             what="the restarted bot to take the click on the old prompt")
        counts = await play_together(sims, timeout=900)
        await world.idle(quiet=0.5, timeout=60)
        assert game_over(table.channel) and sum(counts) >= 30
        final = final_sheet(table.channel)
        assert "Ann" in final.embeds[0]["description"] and "Bo" in final.embeds[0]["description"]
    finally:
        table.kill_process()


def test_engine_and_presenter_agree_on_prompt_kinds():
    from bot.presenters.pyramido import PRESENTER

    state = GAME.new_game({}, 1, 2)
    for prompt in GAME.pending(state).values():
        assert prompt.kind in PRESENTER.kinds
    assert set(PRESENTER.kinds) == {"turn", "fill_gaps"}


async def test_rules_command_answers_from_the_rules_page(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        (ann,) = table.users
        names = {c["name"] for c in fake_discord.commands(table.guild)}
        assert "pyramido" in names
        rec = await ann.slash(table.channel, "pyramido rules", topic="scoring")
        await table.settle()
        texts = [m.content for m in [rec.reply, *rec.messages] if m is not None]
        assert any("Mino's bonus" in t for t in texts)
        rec = await ann.slash(table.channel, "pyramido rules", topic="rulings")
        await table.settle()
        assert any("Ruling" in (m.content or "") for m in [rec.reply, *rec.messages] if m is not None)
    finally:
        await table.stop_bot()


async def test_time_running_out_plays_a_safe_default_turn(fake_discord, tmp_path):
    from bot.clock import ManualClock

    clock = ManualClock(1_000_000.0)
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot(clock=clock)
    try:
        (ann,) = table.users
        msg = await open_lobby(table, ann, "pyramido", seats=2, ai=1, starter="first", time_limit=2.0)
        await ann.click(msg, label="Start")
        await table.settle()
        sim = SimulatedPlayer(fake_discord, ann, table.channel, seed=2, strategy=architect)
        await fake_discord.wait_for(lambda: sim.current_prompt() is not None, timeout=30, what="Ann's first turn")
        first = sim.current_prompt()
        clock.advance(2 * 3600 + 1)
        table.bot.scheduler.wake()
        await fake_discord.wait_for(lambda: any("Time ran out for Ann" in m.content for m in table.channel.messages()),
                                    timeout=20, what="the timeout announcement")
        await table.settle()
        assert controls(fake_discord.messages[first.id]) == {}, "the timed-out prompt was closed"
        game = (await table.bot.service.list_games())[0]
        view = await table.bot.service.view_seat(game.id, None)
        assert view["players"][0]["floors"][0]["dominoes"] == 1  # the default turn placed a domino
        # the DM telling Ann what was chosen for her gives no coordinates (she picked no letter)
        told = [t for t in dm_texts(ann) if "I chose for you:" in t]
        assert told and "second block" in told[0] and not COORDINATES.search(told[0]), told
        # Ann's next turn arrives and she can play on
        await fake_discord.wait_for(lambda: sim.current_prompt() is not None and sim.current_prompt().id != first.id,
                                    timeout=30, what="Ann's next turn")
    finally:
        await table.stop_bot()


async def test_show_posts_an_architects_pyramid(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        (ann,) = table.users
        msg = await open_lobby(table, ann, "pyramido", seats=2, ai=1)
        await ann.click(msg, label="Start")
        await table.settle()
        rec = await ann.slash(table.channel, "pyramido show")
        await table.settle()
        replies = [m for m in [rec.reply, *rec.messages] if m is not None]
        assert any(m.attachments for m in replies), [m.content for m in replies]
        assert any("pyramid" in (e.get("title") or "").lower() for m in replies for e in m.embeds)
    finally:
        await table.stop_bot()
