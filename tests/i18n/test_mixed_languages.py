"""One game, two languages: an English server where one player's Discord runs in Swedish and the other's in
English. Each reader gets their own language, whoever clicked last: the channel's posts and pictures in the
server's English, each player's DMs and private replies (and their pictures) in that player's language."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import cogs.discord_ui
from bot.autoplay import SimulatedPlayer, game_over, play_together
from bot.localdiscord import FakeDiscord, FakeMessage
from bot.presenters.splendor_duel.autoplay import SplendorPlayer
from tests.bot.harness import Table
from tests.i18n.english import ENGLISH, SPLENDOR_DUEL, SWEDISH, Messages, english_left, message_texts, sample


@contextmanager
def drawn_languages(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """Every picture the bot draws, by the digest of its PNG: the language its words were drawn in."""
    languages: dict[str, str] = {}
    draw = cogs.discord_ui.draw_picture

    async def recording(image, locale: str, game: str | None) -> bytes:
        data = await draw(image, locale, game)
        languages.setdefault(hashlib.sha256(data).hexdigest(), locale)
        return data

    monkeypatch.setattr(cogs.discord_ui, "draw_picture", recording)
    yield languages


def picture_languages(msg: FakeMessage, languages: dict[str, str]) -> set[str]:
    return {languages.get(hashlib.sha256(a.data).hexdigest(), "?") for a in msg.attachments
            if a.filename.endswith(".png")}


@pytest.mark.parametrize(("command", "sim"), [("splendorduel", SplendorPlayer), ("viceroy", SimulatedPlayer)])
async def test_each_reader_gets_their_own_language_whoever_clicked(fake_discord: FakeDiscord, tmp_path, command,
                                                                     sim, monkeypatch: pytest.MonkeyPatch):
    world = fake_discord
    guild = world.add_guild("Game night")  # an English server
    channel = world.add_text_channel(guild, command)
    ann, bo = world.add_user("Ann", guild), world.add_user("Bo", guild)
    ann.locale, bo.locale = "sv-SE", "en-US"
    messages = Messages(world)
    messages.watch(channel)
    table = Table(world, guild, channel, [ann, bo], tmp_path / "mixed.db")
    with drawn_languages(monkeypatch) as languages:
        await table.start_bot()
        table.bot.service._seed_source = lambda: 20261203  # one fixed deal: the same texts on every run
        try:
            rec = await ann.slash(channel, f"{command} new", seats=2)  # the Swedish player hosts and clicks first
            await table.settle()
            await bo.click(rec.reply, label="Join")
            await table.settle()
            lobby = await ann.slash(channel, f"{command} status")  # the lobby, shown to her alone: in Swedish
            await table.settle()
            assert lobby.reply is not None and lobby.reply.ephemeral
            assert any("Platser" in t for t in message_texts(lobby.reply)), message_texts(lobby.reply)
            await ann.click(rec.reply, label="Start")
            await table.settle()
            sims = [sim(world, u, channel, seed=i) for i, u in enumerate((ann, bo))]
            await play_together(sims, timeout=600)
            await table.settle()
            assert game_over(channel), "the game did not reach its end"
            # The Swedish player asks for the table and a player's board: public answers, in English.
            status = await ann.slash(channel, f"{command} status")
            board = await ann.slash(channel, f"{command} show", player=bo)
            await table.settle()
            assert status.reply is not None and not status.reply.ephemeral and status.reply.embeds
            assert board.reply is not None and not board.reply.ephemeral
        finally:
            await table.stop_bot()
    names = {"Ann", "Bo", "Game", "Splendor", "Duel", "Viceroy", "AI", "PP", "Au"}
    english_words = ENGLISH | SPLENDOR_DUEL if command == "splendorduel" else ENGLISH
    for reader, language in (("channel", "en"), (f"dm:{bo.id}", "en"), (f"dm:{ann.id}", "sv")):
        texts = messages.texts(reader)
        assert len(texts) > 30, f"too few texts for {reader} to prove anything"
        words = SWEDISH if language == "en" else english_words
        left = {t: (reader, english_left(t, names, words)) for t in texts if english_left(t, names, words)}
        assert not left, f"{len(left)} texts for {reader} in the wrong language, for example:\n{sample(left)}"
    # The pictures: the channel's in English (drawn after the Swedish player's clicks too), each player's in
    # their own language.
    readers = {"channel": channel.id, "Bo": world.dm_channel_of(bo).id, "Ann": world.dm_channel_of(ann).id}
    shown = {who: set().union(*(picture_languages(m, languages) for m in world.channel_messages(cid)))
             for who, cid in readers.items()}
    assert shown["channel"] == {"en"} and shown["Bo"] <= {"en"}, shown
    assert shown["Ann"] <= {"sv"}, shown
