"""Lighter traffic: a step's public lines go out in its new table message, a prompt the answer closed is not
edited again, prompts carry the player's screen, a picture drawn again byte for byte is not uploaded again,
table edits show the newest choices, routine posts are silent (a crash right after the new table message:
tests/bot/test_outbox.py)."""

from __future__ import annotations

import asyncio
import hashlib
from collections import defaultdict

from bot.autoplay import SimulatedPlayer, controls, game_over
from cogs.announcer import CLOSED_TEXT
from tests.bot.lines import LINE_NONCE
from tests.bot.test_bot_interactions import two_player_game
from tests.bot.test_dm_failures import lobby_of_two

SILENT = 1 << 12  # SUPPRESS_NOTIFICATIONS


def tables(channel, title: str) -> list:
    return [m for m in channel.messages() if any(title in (e.get("title") or "") for e in m.embeds)
            and any(c.get("label") == "My screen" for c in m.buttons())]


async def setup_prompts(table) -> list[SimulatedPlayer]:
    sims = [SimulatedPlayer(table.world, u, table.channel, seed=i) for i, u in enumerate(table.users[:2])]
    for sim in sims:
        await table.world.wait_for(lambda s=sim: s.current_prompt() is not None, timeout=30, what="a prompt")
    return sims


async def test_the_reveal_goes_out_in_the_new_table_message_and_answered_prompts_are_closed_once(
        fake_discord, tmp_path):
    world = fake_discord
    table, _ = await two_player_game(world, tmp_path)
    try:
        sims = await setup_prompts(table)
        first = [sim.current_prompt() for sim in sims]
        assert await sims[0].step()
        await table.settle()
        assert await sims[1].step()  # Bo's choice reveals the setup: the auction begins
        await table.settle()
        # One post for the step: the reveal's lines, the new table, its picture and its button.
        auction = tables(table.channel, "auction round 1")
        assert len(auction) == 1
        post = auction[0]
        assert LINE_NONCE.match(post.nonce or "") and "starts with" in post.content
        assert "table.png" in post.filenames and post.flags & SILENT
        assert not any("starts with" in m.content for m in table.channel.messages() if m.id != post.id)
        # Bo answered last: the answer to his click closed his setup prompt ("Done"), so it is not edited again;
        # Ann's, still open for a change, is closed by the announcement. Each auction prompt is a new DM with
        # the player's screen under it.
        assert CLOSED_TEXT not in world.messages[first[1].id].content and controls(world.messages[first[1].id]) == {}
        assert controls(world.messages[first[0].id]) == {} and CLOSED_TEXT in world.messages[first[0].id].content
        for sim, before in zip(sims, first, strict=True):
            now = sim.current_prompt()
            assert now is not None and now.id != before.id and "auction" in now.embeds[0]["title"]
            assert "Your screen" in (now.embeds[1].get("title") or "")
        # Ann bids: the table message shows who is still to choose (its edit waits a moment for more choices).
        assert await sims[0].step()
        await table.settle()
        waiting = world.messages[post.id].embeds[0]["description"]
        assert "Bo" in waiting and "Ann (" not in waiting.split("Waiting for:", 1)[-1].split("\n", 1)[0]
    finally:
        await table.stop_bot()


async def test_a_whole_game_stays_light(fake_discord, tmp_path):
    """Two players through the real menus, from Start to the score sheet: at most 6.5 requests per decision (a
    guard against regressions; two players share fewer table edits than four, see bench_traffic.py), and no
    answer to a click uploads the picture its message already shows."""
    world = fake_discord
    table, lobby = await lobby_of_two(world, tmp_path)
    # Prompt message -> what each answer to a click on it uploaded: (file, digest), or None for an answer that
    # uploaded nothing (it kept the picture, or showed none).
    uploads: dict[int, list[tuple[str, str] | None]] = defaultdict(list)
    read_body = world._read_body

    async def reading(request):
        body, files = await read_body(request)
        parts = request.path.split("/")
        if "interactions" in parts:  # the answer to a click: it edits the clicked message
            rec = world.interactions.get(int(parts[parts.index("interactions") + 1]))
            if rec is not None and rec.source_message_id is not None:
                sent = [(name, hashlib.sha256(data).hexdigest()) for name, data, _ in files.values()]
                uploads[rec.source_message_id] += sent or [None]
        return body, files

    world._read_body = reading
    try:
        since = len(world.requests)
        await table.users[0].click(lobby, label="Start")
        sims = [SimulatedPlayer(world, u, table.channel, seed=3 + i) for i, u in enumerate(table.users)]
        await asyncio.gather(*(sim.run(timeout=900) for sim in sims))
        await table.settle()
        assert game_over(table.channel)
        decisions = sum(sim.decisions for sim in sims)
        # What a busy machine adds is left out: a click answered after 1.5 s is deferred first (one request
        # more), and a 429 is sent again. What is left depends on the bot's design, not on the load.
        late = sum(rec.deferred for rec in world.interactions.values() if rec.type == 3)
        limited = sum(r.status == 429 for r in world.requests[since:])
        assert (len(world.requests) - since - late - limited) / decisions <= 6.5, (late, limited)
        for message_id, sent in uploads.items():
            for before, after in zip(sent, sent[1:], strict=False):
                assert after is None or before != after, f"message {message_id} got {after[0]} again, byte for byte"
        routine = [m for m in table.channel.messages() if m.author_id == world.bot.id and LINE_NONCE.match(m.nonce or "")]
        assert routine and all(m.flags & SILENT for m in routine), "the step's posts do not notify"
    finally:
        await table.stop_bot()
