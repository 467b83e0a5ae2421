"""Bad input and everyday commands through the real bot: stale buttons, strangers, amendments, deadlines."""

from __future__ import annotations

import pytest

from bot.autoplay import SimulatedPlayer, controls
from bot.clock import ManualClock
from bot.localdiscord import FakeDiscord, FakeMessage, FakeUser
from bot.presenters.viceroy import PRESENTER
from bot.presenters.viceroy.plans import build_action
from bot.ui.ids import encode_key
from bot.ui.presenter import SeatCtx
from tests.bot.harness import Table, new_table


async def two_player_game(world: FakeDiscord, tmp_path, *, names=("Ann", "Bo"), extra=(), clock=None,
                          time_limit: float | None = None) -> tuple[Table, FakeMessage]:
    table = await new_table(world, tmp_path, [*names, *extra])
    await table.start_bot(clock=clock)
    ann, bo = table.users[:2]
    options = {"seats": 2}
    if time_limit is not None:
        options["time_limit"] = time_limit
    rec = await ann.slash(table.channel, "viceroy new", **options)
    await table.settle()
    lobby = rec.reply
    await bo.click(lobby, label="Join")
    await table.settle()
    await ann.click(lobby, label="Start")
    await table.settle()
    return table, lobby


async def past_setup(table: Table) -> list[SimulatedPlayer]:
    """Both players choose their starting cards; returns their simulated players."""
    sims = [SimulatedPlayer(table.world, u, table.channel) for u in table.users[:2]]
    for sim in sims:
        await table.world.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=15)
        assert await sim.step()
    await table.settle()
    return sims


def last_ephemeral(user: FakeUser) -> str:
    msgs = user.ephemerals()
    assert msgs, f"{user.name} got no private reply"
    return msgs[-1].content


async def test_command_in_a_channel_without_a_game(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        rec = await table.users[0].slash(table.channel, "viceroy status")
        assert rec.ephemeral and "no Viceroy game in this channel" in rec.reply.content
    finally:
        await table.stop_bot()


async def test_second_lobby_in_the_same_channel_is_refused(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        await table.users[0].slash(table.channel, "viceroy new", seats=2)
        await table.settle()
        rec = await table.users[1].slash(table.channel, "viceroy new", seats=2)
        await table.settle()
        assert rec.ephemeral and "already has an open lobby" in rec.reply.content
    finally:
        await table.stop_bot()


async def test_a_stranger_cannot_start_or_see_a_screen(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo", "Eve"])
    await table.start_bot()
    try:
        ann, bo, eve = table.users
        rec = await ann.slash(table.channel, "viceroy new", seats=2)
        await table.settle()
        await eve.click(rec.reply, label="Start")
        await table.settle()
        assert "host" in last_ephemeral(eve).lower()
        await bo.click(rec.reply, label="Join")
        await table.settle()
        await ann.click(rec.reply, label="Start")
        await table.settle()
        status = await fake_discord.wait_message(
            table.channel, lambda m: any(c.get("label") == "My screen" for c in m.buttons()), timeout=10)
        await eve.click(status, label="My screen")
        await table.settle()
        assert "no seat" in last_ephemeral(eve)
        assert not any("screen.png" in m.filenames for m in eve.ephemerals())
    finally:
        await table.stop_bot()


async def test_stale_prompt_answers_clearly_and_is_disabled(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        sims = [SimulatedPlayer(fake_discord, u, table.channel) for u in (ann, bo)]
        setup_prompt = sims[0].current_prompt()
        assert setup_prompt is not None and "starting card" in setup_prompt.embeds[0]["title"]
        for sim in sims:
            assert await sim.step()
        await table.settle()
        assert controls(fake_discord.messages[setup_prompt.id]) == {}, "the answered setup prompt was disabled"
        # Ann also opens her prompt privately in the channel (an ephemeral copy nobody can disable later).
        status = await fake_discord.wait_message(
            table.channel, lambda m: any(c.get("label") == "My screen" for c in m.buttons()), timeout=10)
        rec = await ann.click(status, label="My screen")
        await rec.wait_done()
        # The screen comes first, the prompt in a second follow-up: wait for the one with controls.
        await table.world.wait_for(lambda: any(controls(m) for m in rec.messages), timeout=15, what="the prompt copy")
        copy = next(m for m in reversed(rec.messages) if controls(m))
        assert "auction round 1" in copy.embeds[0]["title"]
        assert await sims[0].step() and await sims[1].step()  # the round is revealed
        await fake_discord.wait_for(lambda: any("bids:" in m.content for m in table.channel.messages()), timeout=10)
        old = controls(copy)["choose"]
        await ann.select(copy, old["custom_id"], [old["options"][-1]["value"]])
        await table.settle()
        assert "earlier step" in last_ephemeral(ann)
        # The stale click changed nothing: Ann's round-2 prompt (if any) is still open, no extra reveal happened.
        assert sum("bids:" in m.content for m in table.channel.messages()) == 1
    finally:
        await table.stop_bot()


async def test_a_sealed_bid_can_be_changed_until_the_reveal(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        sims = [SimulatedPlayer(fake_discord, u, table.channel) for u in (ann, bo)]
        for sim in sims:
            assert await sim.step()  # setup
        await table.settle()
        prompt = sims[0].current_prompt()
        choose = controls(prompt)["choose"]
        bids = [o["value"] for o in choose["options"] if o["value"].startswith("bid:")]
        assert bids, "Ann can bid"
        await ann.select(prompt, choose["custom_id"], [bids[0]])
        await table.settle()
        assert "Press **Lock in**" in fake_discord.messages[prompt.id].embeds[0]["description"]
        await ann.click(fake_discord.messages[prompt.id], label="Lock in")
        await table.settle()
        assert "Your choice is in" in fake_discord.messages[prompt.id].embeds[0]["description"]
        choose = controls(fake_discord.messages[prompt.id])["choose"]
        await ann.select(fake_discord.messages[prompt.id], choose["custom_id"], ["pass"])
        await table.settle()
        assert "Your new choice: **pass" in fake_discord.messages[prompt.id].embeds[0]["description"]
        await ann.click(fake_discord.messages[prompt.id], label="Lock in the change")
        await table.settle()
        assert "Your sealed choice: **pass" in fake_discord.messages[prompt.id].embeds[0]["description"]
        assert await sims[1].step()
        await fake_discord.wait_for(lambda: any("bids:" in m.content for m in table.channel.messages()), timeout=10)
        reveal = next(m.content for m in table.channel.messages() if "bids:" in m.content)
        assert "Ann passes" in reveal
    finally:
        await table.stop_bot()


async def test_gem_choice_through_the_modal(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        sims = await past_setup(table)
        prompt = sims[0].current_prompt()
        rec = await ann.click(prompt, custom_id=controls(prompt)["gems.pass"]["custom_id"])
        assert rec.response_type == 9, "a modal opened"
        bad = await ann.submit_modal(rec, values={"red": "9", "green": "0", "blue": "0", "yellow": "0"})
        await table.settle()
        assert bad.ephemeral and "choose exactly" in bad.reply.content.lower()
        rec = await ann.click(prompt, custom_id=controls(prompt)["gems.pass"]["custom_id"])
        await ann.submit_modal(rec, values={"red": "3", "green": "0", "blue": "0", "yellow": "0"})
        await table.settle()
        assert "3 red" in fake_discord.messages[prompt.id].embeds[0]["description"]
    finally:
        await table.stop_bot()


async def test_everyday_commands(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        rec = await ann.slash(table.channel, "viceroy waiting")
        assert "Ann" in rec.reply.content and "Bo" in rec.reply.content
        rec = await bo.slash(table.channel, "viceroy status")
        await rec.wait_done()
        assert "table.png" in rec.reply.filenames
        rec = await bo.slash(table.channel, "viceroy pyramid")
        await rec.wait_done()
        assert rec.reply.filenames == ["pyramid.png"]
        rec = await ann.slash(table.channel, "viceroy rules", topic="auction")
        assert "Auction" in rec.reply.content and rec.ephemeral
        rec = await ann.slash(table.channel, "viceroy rules", topic="bot")
        assert "My screen" in rec.reply.content
        rec = await ann.slash(table.channel, "viceroy log")
        assert rec.ephemeral and rec.reply.content
        rec = await bo.slash(table.channel, "viceroy settings", time_limit=2.0)
        assert "host" in rec.reply.content.lower()
        rec = await ann.slash(table.channel, "viceroy settings", time_limit=2.0)
        assert "2 h" in rec.reply.content
        rec = await bo.slash(table.channel, "viceroy abandon")
        assert rec.ephemeral
        rec = await ann.slash(table.channel, "viceroy abandon")
        assert rec.ephemeral and "Abandon" in rec.reply.content  # asked once first
        await ann.click(rec.reply, label="Abandon the game")
        await table.settle()
        assert "abandoned" in fake_discord.messages[rec.reply.id].content
        assert any("abandoned" in m.content for m in table.channel.messages())
        rec = await ann.slash(table.channel, "viceroy status")
        assert "no Viceroy game" in rec.reply.content
    finally:
        await table.stop_bot()


async def test_replace_a_player_with_the_ai(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        rec = await ann.slash(table.channel, "viceroy replace", seat=2)
        await ann.click(rec.reply, label="Replace")
        await table.settle()
        assert "AI 2" in fake_discord.messages[rec.reply.id].content
        sim = SimulatedPlayer(fake_discord, ann, table.channel)
        assert await sim.step()  # Ann's setup; the AI answers for seat 2 at once
        await fake_discord.wait_for(lambda: sim.current_prompt() is not None, timeout=10, what="the auction prompt")
        assert "auction" in sim.current_prompt().embeds[0]["title"]
    finally:
        await table.stop_bot()


async def test_undo_by_the_host_is_announced(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        sims = await past_setup(table)
        rec = await bo.slash(table.channel, "viceroy undo")
        assert "host" in rec.reply.content.lower()
        rec = await ann.slash(table.channel, "viceroy undo")
        await ann.click(rec.reply, label="Undo")
        await table.settle()
        assert any("undid the last step" in m.content for m in table.channel.messages())
        # Both are asked for their starting card again.
        await fake_discord.wait_for(lambda: all(s.current_prompt() is None or "starting" in s.current_prompt().embeds[0]["title"]
                                                for s in sims), timeout=10)
    finally:
        await table.stop_bot()


async def test_deadline_passes_for_a_silent_player_and_reminds_first(fake_discord, tmp_path):
    clock = ManualClock(1_000_000.0)
    table, _ = await two_player_game(fake_discord, tmp_path, clock=clock, time_limit=2.0)
    try:
        ann, bo = table.users
        sims = await past_setup(table)
        assert await sims[0].step()  # Ann bids; Bo stays silent
        await table.settle()
        bo_dms = len(bo.dms())
        clock.advance(3600 + 1)  # half time of 2 h: the reminder
        table.bot.scheduler.wake()
        await fake_discord.wait_for(lambda: any("Reminder" in m.content for m in bo.dms()[bo_dms:]), timeout=10,
                                    what="a reminder DM")
        clock.advance(3600)
        table.bot.scheduler.wake()
        await fake_discord.wait_for(lambda: any("Time ran out for Bo" in m.content for m in table.channel.messages()),
                                    timeout=10, what="the timeout announcement")
        reveal = [m.content for m in table.channel.messages() if "bids:" in m.content][-1]
        assert "Bo passes" in reveal
    finally:
        await table.stop_bot()


async def test_dms_closed_during_the_game_falls_back_to_the_channel(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        sims = [SimulatedPlayer(fake_discord, u, table.channel) for u in (ann, bo)]
        bo.close_dms()
        assert await sims[0].step()
        assert await sims[1].step()  # Bo answers his setup prompt (already in his DMs)
        await fake_discord.wait_for(lambda: any("I cannot DM you" in m.content and f"<@{bo.id}>" in m.content
                                                for m in table.channel.messages()), timeout=10, what="a channel ping")
    finally:
        await table.stop_bot()


async def test_a_deleted_channel_does_not_stop_the_game(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        sims = [SimulatedPlayer(fake_discord, u, table.channel) for u in (ann, bo)]
        fake_discord.delete_channel(table.channel)
        for sim in sims:
            assert await sim.step()
        await fake_discord.wait_for(lambda: sims[0].current_prompt() is not None, timeout=10,
                                    what="the next prompt by DM")
        assert "auction" in sims[0].current_prompt().embeds[0]["title"]
    finally:
        await table.stop_bot()


@pytest.mark.parametrize("command", ["viceroy undo", "viceroy abandon", "viceroy waiting"])
async def test_commands_outside_a_server_channel_answer_clearly(fake_discord, tmp_path, command):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        rec = await table.users[0].slash(table.channel, command)
        assert rec.ephemeral and "no Viceroy game" in rec.reply.content
    finally:
        await table.stop_bot()


def test_packaged_rules_page_is_the_documented_one():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    assert (root / "data/viceroy/rules.md").read_text() == (root / "docs/rules.md").read_text()


def test_rules_topics_all_have_text():
    from bot.presenters.viceroy.rules import rules_text
    for topic in PRESENTER.rules_topics:
        text = rules_text(topic)
        assert text and not text.startswith("No rules page"), topic


async def test_a_crash_between_storing_and_announcing_is_caught_up_at_start(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        service = table.bot.service
        game = (await service.list_games())[0]
        # Both choose their starting card straight through the service: stored, never announced.
        for user in (ann, bo):
            click = await service.click_context(game.id, user.id, None, None)
            view = click.view
            hand = view["players"][view["seat"]]["hand"]
            ctx = SeatCtx(game.id, click.seat, click.kind, view, click.prompt, click.names)
            action = build_action(ctx, {"action": "setup", "start": hand[0], "keep": hand[1]})
            await service.submit(game.id, user.id, action, idempotency_key=f"direct-{user.id}")
        sims = [SimulatedPlayer(fake_discord, u, table.channel) for u in (ann, bo)]
        for sim in sims:
            sim.done_keys.add(encode_key("setup:0:0"))
        assert all(sim.current_prompt() is None for sim in sims), "nothing was announced"
        await table.stop_bot()
        await table.start_bot()
        # Whoever must decide next (both bid, or one answers a question) gets the prompt after the restart.
        await fake_discord.wait_for(lambda: any(sim.current_prompt() is not None for sim in sims), timeout=15,
                                    what="the caught-up prompt")
        pend = await table.bot.service.pending(game.id)
        for sim, seat in zip(sims, (0, 1), strict=True):
            if seat in pend:
                await fake_discord.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=15)
                assert "starting card" not in sim.current_prompt().embeds[0]["title"]
    finally:
        await table.stop_bot()
