"""An announcement redelivered after Discord has forgotten its nonces (a process killed after Discord showed a
part and before it was recorded, restarted minutes later) still shows every part exactly once: the bot
looks for the unrecorded part in the channel (or the DM) before sending it again."""

from __future__ import annotations

import json
import sqlite3

import tests.service.toygame as toygame
from bot.autoplay import any_control
from bot.presenters import register_presenter
from tests.bot.harness import new_table, play_out, start_game
from tests.bot.test_bot_interactions import past_setup, two_player_game
from tests.bot.toy_presenter import PRESENTER


def _shown_rows(db, game_id: int) -> list[tuple[int, dict]]:
    """(outbox id, recorded parts) of the game's delivered announcements that showed a channel line and a
    private line, newest first."""
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT id, sent FROM outbox WHERE game_id=? AND delivered_at IS NOT NULL ORDER BY id DESC",
                           (game_id,)).fetchall()
    out = []
    for oid, sent in rows:
        parts = json.loads(sent or "{}")
        if parts.get("c0") and any(k.startswith("p") and v for k, v in parts.items()):
            out.append((oid, parts))
    return out


async def _game_with_lines(world, tmp_path):
    """A game played until an announcement has shown a channel line and a private line (and an earlier one
    a channel line)."""
    table, _ = await two_player_game(world, tmp_path)

    async def own_dm(*args: object) -> None:
        return None  # private lines go out in DMs of their own here, never at the top of a prompt

    table.bot.announcer._in_prompt = own_dm
    sims = await past_setup(table)
    game_id = (await table.bot.service.list_games(statuses=("active",)))[0].id
    for _ in range(40):
        rows = _shown_rows(table.db, game_id)
        if rows and _earlier_line(table.db, game_id, rows[0][0]):
            return table, game_id, rows[0]
        for sim in sims:
            if sim.current_prompt() is not None:
                await sim.step()
        await table.settle()
    raise AssertionError("no announcement with a channel line and a private line")


def _earlier_line(db, game_id: int, outbox_id: int) -> int:
    """The message id of a channel line an earlier announcement of the game recorded."""
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT sent FROM outbox WHERE game_id=? AND id<? ORDER BY id DESC", (game_id, outbox_id))
        return next((json.loads(sent)["c0"] for (sent,) in rows if sent and json.loads(sent).get("c0")), 0)


def _copies(world, channel, message_id: int) -> int:
    content = world.messages[message_id].content
    return sum(1 for m in channel.messages() if m.author_id == world.bot_user_id and m.content == content)


async def test_a_part_shown_before_the_crash_is_found_and_not_sent_again(fake_discord, tmp_path):
    world = fake_discord
    table, game_id, (outbox_id, parts) = await _game_with_lines(world, tmp_path)
    try:
        bot = table.bot
        seat_part = next(k for k, v in parts.items() if k.startswith("p") and v)
        line, private = world.messages[parts["c0"]], world.messages[parts[seat_part]]
        dm = world.channel(private.channel_id)
        before = (len(table.channel.messages()), len(dm.messages()))
        # Shown by Discord, never recorded: the process died in between; and the nonces are forgotten.
        await bot.service.outbox_progress(outbox_id, {}, delivered=False)
        world.nonce_window = 0.0
        bot.announcer.nonce_trusted = 0.0  # the announcement counts as older than any nonce
        async with bot.announcer.lock(game_id):
            assert await bot.announcer.deliver(game_id)
        await table.settle()
        assert (len(table.channel.messages()), len(dm.messages())) == before
        assert _copies(world, table.channel, line.id) == 1 and _copies(world, dm, private.id) == 1
        again = dict(_shown_rows(table.db, game_id))[outbox_id]
        assert again["c0"] == line.id and again[seat_part] == private.id
        assert bot.announcer.searches >= 2
    finally:
        await table.stop_bot()


async def test_a_part_not_shown_before_the_crash_is_sent_once(fake_discord, tmp_path):
    world = fake_discord
    table, game_id, (outbox_id, parts) = await _game_with_lines(world, tmp_path)
    try:
        bot = table.bot
        line = world.messages[parts["c0"]]
        content = line.content
        # As if the process died before Discord showed the line: it is not in the channel. An earlier line of
        # the game says the same (a player passing twice): that one is not taken for it.
        line.deleted = True
        earlier = world.messages[_earlier_line(table.db, game_id, outbox_id)]
        earlier.content = content
        await bot.service.outbox_progress(outbox_id, {k: v for k, v in parts.items() if k != "c0"}, delivered=False)
        world.nonce_window = 0.0
        bot.announcer.nonce_trusted = 0.0
        async with bot.announcer.lock(game_id):
            assert await bot.announcer.deliver(game_id)
        await table.settle()
        shown = [m for m in table.channel.messages() if m.author_id == world.bot_user_id and m.content == content]
        assert [m.id for m in shown][:1] == [earlier.id] and len(shown) == 2 and shown[1].id != line.id
        assert dict(_shown_rows(table.db, game_id))[outbox_id]["c0"] == shown[1].id
    finally:
        await table.stop_bot()


async def test_a_late_announcement_never_shown_costs_one_search(fake_discord, tmp_path):
    """Parts go out in order: the first channel line not there means nothing after it was shown, so the
    private lines are sent without looking for them."""
    world = fake_discord
    table, game_id, (outbox_id, parts) = await _game_with_lines(world, tmp_path)
    try:
        bot = table.bot
        contents = {k: world.messages[v].content for k, v in parts.items() if isinstance(v, int) and v}
        for v in parts.values():
            if isinstance(v, int) and v:
                world.messages[v].deleted = True  # the process died before any of it reached Discord
        await bot.service.outbox_progress(outbox_id, {}, delivered=False)
        world.nonce_window = 0.0
        bot.announcer.nonce_trusted = 0.0
        async with bot.announcer.lock(game_id):
            assert await bot.announcer.deliver(game_id)
        await table.settle()
        assert bot.announcer.searches == 1
        again = dict(_shown_rows(table.db, game_id))[outbox_id]
        for key, content in contents.items():
            shown = world.messages[again[key]]
            assert shown.content == content and not shown.deleted
            where = world.channel(shown.channel_id)
            assert sum(1 for m in where.messages() if m.content == content) == 1
    finally:
        await table.stop_bot()


async def test_without_the_search_a_late_redelivery_would_show_the_line_twice(fake_discord, tmp_path):
    """The fake forgets nonces like Discord: trusting the nonce after its window doubles the line (what the
    search above prevents)."""
    world = fake_discord
    table, game_id, (outbox_id, parts) = await _game_with_lines(world, tmp_path)
    try:
        bot = table.bot
        line = world.messages[parts["c0"]]
        await bot.service.outbox_progress(outbox_id, {k: v for k, v in parts.items() if k != "c0"}, delivered=False)
        world.nonce_window = 0.0
        bot.announcer.nonce_trusted = 1e9  # trusts the nonce: no search
        async with bot.announcer.lock(game_id):
            assert await bot.announcer.deliver(game_id)
        await table.settle()
        assert _copies(world, table.channel, line.id) == 2
        assert bot.announcer.searches == 0
    finally:
        await table.stop_bot()


async def test_a_score_sheet_and_results_shown_before_the_crash_are_not_posted_again(fake_discord, tmp_path):
    """Killed while posting the end (the sheet and the players' results shown, nothing recorded), restarted
    after the nonces are forgotten: the sheet and each result are found, not posted again."""
    assert toygame.KIND.name == "toy"
    register_presenter(PRESENTER)
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        await start_game(table, "toy", seats=2, rounds=2)
        await table.settle()
        await play_out(table, [ann, bo], strategy=any_control)
        game_id = (await table.bot.service.list_games(statuses=("finished",)))[0].id

        def ends() -> tuple[int, int, int]:
            sheets = sum("final scores" in (e.get("title") or "") for m in table.channel.messages() for e in m.embeds)
            return sheets, *(sum("is over: you finished" in (m.content or "") for m in u.dms()) for u in (ann, bo))

        assert ends() == (1, 1, 1)
        with sqlite3.connect(table.db) as con:
            outbox_id, sent = con.execute("SELECT id, sent FROM outbox WHERE game_id=? AND sent LIKE '%final%'",
                                          (game_id,)).fetchone()
            con.execute("DELETE FROM prompt_messages WHERE game_id=? AND purpose='final'", (game_id,))
        # Nothing of the end recorded (the process died before it could), and the nonces forgotten.
        await table.bot.service.outbox_progress(outbox_id, {}, delivered=False)
        world.nonce_window = 0.0
        table.bot.announcer.nonce_trusted = 0.0
        async with table.bot.announcer.lock(game_id):
            assert await table.bot.announcer.deliver(game_id)
        await table.settle()
        assert ends() == (1, 1, 1)
        with sqlite3.connect(table.db) as con:
            assert con.execute("SELECT delivered_at IS NOT NULL FROM outbox WHERE id=?", (outbox_id,)).fetchone()[0]
            assert json.loads(con.execute("SELECT sent FROM outbox WHERE id=?", (outbox_id,)).fetchone()[0]) == \
                json.loads(sent)
    finally:
        await table.stop_bot()
