"""Time and context: reminders name the server, the channel and the decision with a link to the prompt; a
timeout says privately exactly what was chosen; undo tells each player which of their moves went back."""

from __future__ import annotations

from bot.autoplay import controls
from bot.clock import ManualClock
from tests.bot.test_bot_interactions import past_setup, two_player_game
from tests.bot.test_ux_lockin import lock, pass_the_auction, pick


async def test_a_reminder_names_server_channel_decision_and_links_the_prompt(fake_discord, tmp_path):
    clock = ManualClock(1_000_000.0)
    table, _ = await two_player_game(fake_discord, tmp_path, clock=clock, time_limit=2.0)
    try:
        ann, bo = table.users
        await past_setup(table)
        await pick(table, ann, "pass")
        await lock(table, ann)
        prompt = next(m for m in reversed(bo.dms()) if controls(m))
        seen = len(bo.dms())
        clock.advance(3600 + 1)
        table.bot.scheduler.wake()
        await fake_discord.wait_for(lambda: any("Reminder" in m.content for m in bo.dms()[seen:]), timeout=15,
                                    what="a reminder DM")
        text = next(m.content for m in bo.dms()[seen:] if "Reminder" in m.content)
        assert f"on **{table.guild.name}**" in text and f"<#{table.channel.id}>" in text
        assert "your auction choice" in text and "<t:" in text
        assert f"https://discord.com/channels/@me/{prompt.channel_id}/{prompt.id}" in text
    finally:
        await table.stop_bot()


async def test_a_timeout_at_setup_says_which_starting_card_was_chosen(fake_discord, tmp_path):
    clock = ManualClock(1_000_000.0)
    table, _ = await two_player_game(fake_discord, tmp_path, clock=clock, time_limit=1.0)
    try:
        ann, bo = table.users
        await fake_discord.wait_for(lambda: any(controls(m) for m in bo.dms()), timeout=15, what="Bo's prompt")
        clock.advance(3600 + 1)
        table.bot.scheduler.wake()
        await fake_discord.wait_for(lambda: any("I chose for you" in m.content for m in bo.dms()), timeout=15,
                                    what="the timeout DM")
        text = next(m.content for m in bo.dms() if "I chose for you" in m.content)
        assert "**start with #" in text and ", keep #" in text, text
        await table.settle()
        public = " ".join(m.content for m in table.channel.messages())
        assert "Time ran out for Bo" in public and "they pass" not in public
        assert "keep #" not in public, "the kept card is secret"
    finally:
        await table.stop_bot()


async def test_undo_tells_each_player_which_of_their_moves_went_back(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        await past_setup(table)
        for user in (ann, bo):
            await pick(table, user, "pass")
            await lock(table, user)
        await table.settle()
        seen = len(bo.dms())
        rec = await ann.slash(table.channel, "viceroy undo")
        await ann.click(rec.reply, label="Undo")
        await table.settle()
        await fake_discord.wait_for(lambda: any("took back your move" in m.content for m in bo.dms()[seen:]),
                                    timeout=15, what="Bo's undo DM")
        text = next(m.content for m in bo.dms()[seen:] if "took back your move" in m.content)
        assert "**pass and take" in text, text
        line = next(m.content for m in table.channel.messages() if "undid" in m.content)
        assert "Ann, Bo" in line and "pass and take" not in line, "the public line names seats, not choices"
    finally:
        await table.stop_bot()


async def test_the_reveal_is_posted_before_the_next_phase_table(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        await past_setup(table)
        await pass_the_auction(table)
        posts = table.channel.messages()
        table_at = next(i for i, m in enumerate(posts)
                        if any("development round 1" in (e.get("title") or "") for e in m.embeds))
        reveals = [i for i, m in enumerate(posts) if "bids:" in m.content]
        # The reveal goes out in the development table message itself (one post for the step), never after it.
        assert reveals and max(reveals) <= table_at, "the last auction reveal comes after the development table"
    finally:
        await table.stop_bot()
