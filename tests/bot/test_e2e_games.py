"""Whole games through the real bot and the real discord.py, on the local fake Discord."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.autoplay import SimulatedPlayer, game_over, play_together
from bot.localdiscord import FakeChannel, FakeDiscord, FakeUser
from tests.bot.harness import Table, new_table, open_lobby, posted_totals, start_game

PRIVATE_PHRASES = ("You draw", "You take", "Your choice", "Your sealed", "Your gems", "only you can see")
PUBLIC_IMAGES = {"table.png", "scores.png", "pyramid.png"}


async def play_to_end(table: Table, players: list[FakeUser], channel: FakeChannel | None = None) -> list[int]:
    channel = channel or table.channel
    sims = [SimulatedPlayer(table.world, u, channel, seed=i) for i, u in enumerate(players)]
    counts = await play_together(sims, timeout=240)
    await table.world.idle(timeout=30)
    return list(counts)


async def engine_totals(table: Table, game_id: int) -> dict[str, int]:
    service = table.bot.service
    info = await service.game(game_id)
    names = {s.seat: s.display_name for s in info.seats}
    return {names[s["seat"]]: s["total"] for s in await service.final_scores(game_id)}


def assert_no_secrets_in_public(world: FakeDiscord, channel: FakeChannel, users: list[FakeUser]) -> None:
    """Nothing private reaches the channel: no private texts, no private images, no secretly drawn card
    named before it is revealed by a public event."""
    public = channel.messages()
    for msg in public:
        text = msg.content + " ".join((e.get("title") or "") + (e.get("description") or "") for e in msg.embeds)
        for phrase in PRIVATE_PHRASES:
            assert phrase not in text, f"private text in the channel: {text[:200]}"
        for name in msg.filenames:
            assert name in PUBLIC_IMAGES, f"a private image in the channel: {name}"
    for user in users:
        for dm in user.dms() + user.ephemerals():
            for card in re.findall(r"You draw #(\d+)", dm.content):
                named = re.compile(rf"(?<!game )#{card}\b")  # "Viceroy game #1 is waiting" names no card
                later = [m for m in public if m.id > dm.id and named.search(m.content)]
                if later:
                    first = later[0].content
                    assert re.search(rf"(plays|discards|tucks|puts) [^.;]*#{card}\b", first) or "the law #" in first, \
                        f"card #{card} drawn by {user.name} was named publicly before its reveal: {first[:300]}"


def test_the_secrets_scan_tells_a_card_from_a_game_number() -> None:
    world = FakeDiscord()
    guild = world.add_guild("Guild")
    channel = world.add_text_channel(guild, "viceroy")
    ann = world.add_user("Ann", guild)
    dm = world._get_or_create_dm(ann)

    def say(where: FakeChannel, text: str) -> None:
        world.bot_posts(where, {"content": text})

    say(dm, "You draw #1 Fence.")
    say(channel, "<@1>, Viceroy game #1 is waiting for your auction choice.")
    say(channel, "Ann plays #1 Fence.")
    assert_no_secrets_in_public(world, channel, [ann])  # the game's number, then the card's reveal
    say(dm, "You draw #12 Buyer.")
    say(channel, "Bo bids for #12.")
    with pytest.raises(AssertionError, match="card #12 drawn by Ann was named publicly"):
        assert_no_secrets_in_public(world, channel, [ann])


async def test_solo_game_end_to_end(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        (ann,) = table.users
        lobby = await open_lobby(table, ann, seats=1)
        await ann.click(lobby, label="Start")
        await play_to_end(table, [ann])
        assert game_over(table.channel)
        game = (await table.bot.service.list_games(statuses=("finished",)))[0]
        assert posted_totals(table.channel) == await engine_totals(table, game.id)
        assert_no_secrets_in_public(fake_discord, table.channel, table.users)
    finally:
        await table.stop_bot()


async def test_two_players_and_a_virtual_opponent(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        await start_game(table, seats=2, virtual=1)
        counts = await play_to_end(table, [ann, bo])
        assert all(c > 12 for c in counts), "each player decided every turn"
        # Ann's prompts show her screen under them (kept while she clicks through a prompt); its picture comes
        # when the screen changed (an unchanged one is on an earlier prompt already).
        prompts = [m for m in ann.dms() if len(m.embeds) > 1 and "Your screen" in (m.embeds[1].get("title") or "")]
        assert len(prompts) > 5, "Ann's prompts show her screen"
        pictures = [m.embed_image(1) for m in prompts if (m.embeds[1].get("image") or {}).get("url")]
        assert pictures and all((p or b"").startswith(b"\x89PNG") for p in pictures)
        assert any("table.png" in m.filenames and "Development round" in m.content for m in table.channel.messages())
        game = (await table.bot.service.list_games(statuses=("finished",)))[0]
        assert game.options["virtual_opponents"] == 1
        assert posted_totals(table.channel) == await engine_totals(table, game.id)
        assert_no_secrets_in_public(fake_discord, table.channel, table.users)
    finally:
        await table.stop_bot()


async def test_three_seats_with_ai_and_a_player_whose_dms_are_closed(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Cy"], closed=("Cy",))
    await table.start_bot()
    try:
        ann, cy = table.users
        lobby = await open_lobby(table, ann, seats=3, ai=1)
        await cy.click(lobby, label="Join")
        await table.settle()
        assert "cannot receive DMs" in fake_discord.messages[lobby.id].embeds[0]["description"]
        start = await ann.click(lobby, label="Start")
        await table.settle()
        assert any("I cannot send direct messages to Cy" in m.content for m in start.followups)
        await play_to_end(table, [ann, cy])
        assert cy.dms() == [], "Cy never got a DM"
        assert any("screen.png" in m.filenames for m in cy.ephemerals()), "Cy saw their screen privately"
        game = (await table.bot.service.list_games(statuses=("finished",)))[0]
        assert posted_totals(table.channel) == await engine_totals(table, game.id)
        assert_no_secrets_in_public(fake_discord, table.channel, table.users)
    finally:
        await table.stop_bot()


async def test_four_seats_two_people_two_ai(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        await start_game(table, seats=4, ai=2, deal=2)
        await play_to_end(table, [ann, bo])
        game = (await table.bot.service.list_games(statuses=("finished",)))[0]
        assert game.options["deal"] == 2 and len(game.seats) == 4
        totals = posted_totals(table.channel)
        assert totals == await engine_totals(table, game.id)
        scores = next(m for m in table.channel.messages() if "scores.png" in m.filenames)
        assert scores.embed_image() is not None and scores.embed_image().startswith(b"\x89PNG")
        assert_no_secrets_in_public(fake_discord, table.channel, table.users)
    finally:
        await table.stop_bot()


async def test_two_games_in_parallel_in_two_channels(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    second = fake_discord.add_text_channel(table.guild, "viceroy-2")
    await table.start_bot()
    try:
        ann, bo = table.users
        lobby1 = await open_lobby(table, ann, seats=2, ai=1)
        rec = await bo.slash(second, "viceroy new", seats=2, ai=1, ai_level="easy")
        await table.settle()
        await ann.click(lobby1, label="Start")
        await bo.click(rec.reply, label="Start")
        await asyncio.gather(play_to_end(table, [ann]), play_to_end(table, [bo], second))
        assert game_over(table.channel) and game_over(second)
        finished = await table.bot.service.list_games(statuses=("finished",))
        assert {g.channel_id for g in finished} == {table.channel.id, second.id}
    finally:
        await table.stop_bot()
