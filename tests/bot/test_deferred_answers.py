"""Deferred commands answer with edit_original_response (never the deprecated "first follow-up replaces the
thinking message"), and an error after a public "thinking" defer is never shown to the channel."""

from __future__ import annotations

import asyncio
import sys

from discord.webhook.async_ import AsyncWebhookAdapter

from bot.autoplay import controls
from bot.service import ServiceError
from tests.bot.test_bot_interactions import past_setup, two_player_game

DEPRECATED = "first follow-up after a deferred reply"
DEFERRED_UPDATE = 6  # Discord's interaction response type of a component's defer


async def _ann_about_to_bid(table):  # noqa: ANN001, ANN202
    """Past the setup: Ann, her bid prompt, its menu and a bid she may choose in it."""
    sims = await past_setup(table)
    prompt = sims[0].current_prompt()
    choose = controls(prompt)["choose"]
    bid = next(o["value"] for o in choose["options"] if o["value"].startswith("bid:"))
    return table.users[0], prompt, choose, bid


async def test_deferred_commands_edit_the_thinking_message(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        await past_setup(table)
        ann = table.users[0]
        status = await ann.slash(table.channel, "viceroy status")
        await fake_discord.wait_for(lambda: status.reply is not None and not status.reply.loading, timeout=10)
        assert status.reply.embeds and not status.reply.ephemeral
        screen = await ann.slash(table.channel, "viceroy screen")
        await fake_discord.wait_for(lambda: screen.reply is not None and not screen.reply.loading, timeout=10)
        assert screen.reply.ephemeral and screen.reply.embeds
        await table.settle()
        assert not [w for w in fake_discord.warnings if DEPRECATED in w]
    finally:
        await table.stop_bot()


async def test_an_error_after_a_public_defer_is_private(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        await past_setup(table)
        ann = table.users[0]

        async def broken(*args, **kwargs):
            raise ServiceError("The table cannot be read right now.")

        table.bot.service.table_state = broken
        before = {m.id for m in table.channel.messages()}
        rec = await ann.slash(table.channel, "viceroy status")
        await fake_discord.wait_for(lambda: any("cannot be read" in m.content for m in ann.ephemerals()), timeout=10,
                                    what="the error, privately")
        await table.settle()
        public = [m for m in table.channel.messages() if m.id not in before]
        assert not [m for m in public if "cannot be read" in m.content]
        assert rec.original is None or rec.original.deleted
        assert not [w for w in fake_discord.warnings if DEPRECATED in w]
    finally:
        await table.stop_bot()



async def test_an_answer_ready_while_the_late_defer_is_on_its_way_back_still_edits_the_prompt(fake_discord, tmp_path,
                                                                                              monkeypatch):
    """A click whose work outlasts ACK_WITHIN is deferred. When its answer is ready after Discord took the defer
    but before Discord's reply to it reached the bot, the answer waits for that reply and edits the prompt
    after the defer. (The defer used to be cancelled there: the bot took the click for unanswered, its own
    response to it was refused as a second one (40060) and the prompt never showed the choice.)"""
    world = fake_discord
    world.interaction_deadline = None  # a slow machine may send the late defer after Discord's 3 s: not the point
    table, _ = await two_player_game(world, tmp_path)
    try:
        ann, prompt, choose, bid = await _ann_about_to_bid(table)
        clicks: list = []
        back = asyncio.Event()  # Discord's reply to the defer reaches the bot
        respond = AsyncWebhookAdapter.create_interaction_response

        async def reply_on_its_way(self, *args, **kwargs):
            reply = await respond(self, *args, **kwargs)
            if clicks and clicks[0].response_type == DEFERRED_UPDATE and not back.is_set():
                await back.wait()
            return reply

        save_draft = table.bot.service.save_draft

        async def save_after_the_defer(*args, **kwargs):
            await world.wait_for(lambda: clicks[0].response_type == DEFERRED_UPDATE, timeout=30,
                                 what="Discord to take the late defer")
            return await save_draft(*args, **kwargs)

        ready = asyncio.Event()
        table_cog = sys.modules[type(table.bot.get_cog("Table")).__module__]  # the module the bot loaded
        ack_lock = table_cog._ack_lock

        def answer_ready(interaction):
            lock = ack_lock(interaction)
            ready.set()
            return lock

        monkeypatch.setattr(AsyncWebhookAdapter, "create_interaction_response", reply_on_its_way)
        monkeypatch.setattr(table.bot.service, "save_draft", save_after_the_defer)
        monkeypatch.setattr(table_cog, "_ack_lock", answer_ready)
        edits = prompt.edits
        clicks.append(await ann.select(prompt, choose["custom_id"], [bid], wait=False))
        await world.wait_for(ready.is_set, timeout=30, what="the answer to Ann's bid")
        back.set()
        await world.wait_for(lambda: world.messages[prompt.id].edits > edits, timeout=30,
                             what="Ann's prompt showing her bid")
        assert "Press **Lock in**" in world.messages[prompt.id].embeds[0]["description"]
    finally:
        await table.settle()
        await table.stop_bot()


async def test_a_click_that_reaches_the_bot_late_is_deferred_within_discords_window(fake_discord, tmp_path,
                                                                                    monkeypatch):
    """Discord's 3 s run from the click. A click delivered 1.8 s late (a slow gateway, a busy host) whose work
    outlasts ACK_WITHIN is deferred at once, not 1.5 s after it arrived (3.3 s after the click: refused with
    10062, the prompt never showing the choice)."""
    world = fake_discord
    table, _ = await two_player_game(world, tmp_path)
    try:
        ann, prompt, choose, bid = await _ann_about_to_bid(table)
        clicks: list = []
        save_draft = table.bot.service.save_draft

        async def save_after_the_defer(*args, **kwargs):
            # The answer is not ready until Discord has the defer (or has refused it: nothing more comes).
            await world.wait_for(lambda: clicks and (clicks[0].response_type is not None
                                                     or any("could not acknowledge" in w for w in warnings)),
                                 timeout=30, what="the late click's defer")
            return await save_draft(*args, **kwargs)

        warnings: list[str] = []
        table_cog = sys.modules[type(table.bot.get_cog("Table")).__module__]  # the module the bot loaded
        monkeypatch.setattr(table_cog.log, "warning", lambda msg, *a: warnings.append(msg % a))
        monkeypatch.setattr(table.bot.service, "save_draft", save_after_the_defer)
        world.gateway_latency = 1.8
        edits = prompt.edits
        clicks.append(await ann.select(prompt, choose["custom_id"], [bid], wait=False))
        await world.wait_for(lambda: world.messages[prompt.id].edits > edits or warnings, timeout=30,
                             what="Ann's prompt showing her bid")
        world.gateway_latency = 0.0
        assert not warnings, warnings
        assert clicks[0].response_type == DEFERRED_UPDATE
        assert "Press **Lock in**" in world.messages[prompt.id].embeds[0]["description"]
    finally:
        await table.settle()
        await table.stop_bot()
