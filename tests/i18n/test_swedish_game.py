"""A whole Viceroy game in Swedish: a server whose language is Swedish, two players whose Discord clients run in
Swedish, every decision through the real menus by DM. Every text the bot sends (channel posts, DMs, private
replies, buttons and menus, as sent and as edited) is scanned for English left over, and so is every word drawn in
its pictures (tests/i18n/pictures.py)."""

from __future__ import annotations

import pytest

from bot.autoplay import SimulatedPlayer, game_over, play_together
from bot.localdiscord import FakeDiscord
from engine.viceroy.cards import CARDS
from engine.viceroy.modules.invasion_data import MONSTER_CARDS
from tests.i18n.english import Messages, sample
from tests.i18n.pictures import swedish_game

MONSTERS = {m["name"] for m in MONSTER_CARDS.values()}  # proper names too, as the monster cards print them


# The base game, and Times of Darkness: domain cards, diamonds and the revised laws, with the aristocrats, with
# the revised two-player game, and with the Invasion and the Underworld; and the solo game against the virtual
# opponents.
@pytest.mark.parametrize(("modules", "seats"), [("", 2), ("darkness,aristocrats", 2), ("darkness,duo", 2),
                                                ("darkness,invasion,underworld", 2), ("", 1)])
async def test_a_whole_game_in_swedish_leaves_no_english(fake_discord: FakeDiscord, tmp_path, modules: str, seats: int,
                                                         monkeypatch: pytest.MonkeyPatch):
    world = fake_discord
    messages = Messages(world)
    options = {"seats": seats, **({"modules": modules} if modules else {})}
    async with swedish_game(world, tmp_path, "viceroy", ("Ann", "Bo")[:seats], monkeypatch,
                            guild_name="Viceroyklubben", watch=messages.watch, **options) as (table, pictures):
        sims = [SimulatedPlayer(world, u, table.channel, seed=i) for i, u in enumerate(table.users)]
        await play_together(sims, timeout=600)
        await world.idle(timeout=30)
        assert game_over(table.channel), "the game did not reach its Swedish score sheet"
    names = {"Ann", "Bo", "Viceroy", "Viceroyklubben", "AI", "PP"}
    leftovers = messages.english(names)
    assert not leftovers, f"{len(leftovers)} texts still in English, for example:\n{sample(leftovers)}"
    assert len(messages.seen) > 200, "the scan saw too few texts to prove anything"
    # The pictures: every word drawn was said in Swedish (card names stay as printed).
    printed = names | {n for c in CARDS.values() for n in (c["name"], *c["name"].split(" / "))} | MONSTERS
    untranslated = pictures.untranslated(printed)
    assert not untranslated, f"{len(untranslated)} texts drawn in English, for example: {list(untranslated.items())[:10]}"
    unsaid = pictures.drawn_unsaid(printed)
    assert not unsaid, f"{len(unsaid)} texts drawn without a translation asked for, for example: {unsaid[:10]}"
    assert len({t for _, _, t, _ in pictures.said}) > 30, "too few drawn texts seen to prove anything"


async def test_languages_follow_each_reader_and_english_players_write_nothing(fake_discord, tmp_path):
    from cogs.i18n import Languages

    class Prefs:
        def __init__(self):
            self.rows: dict[tuple[int, str], str] = {}
            self.writes = 0

        async def get_pref(self, user_id, key):
            return self.rows.get((user_id, key))

        async def set_pref(self, user_id, key, value):
            self.writes += 1
            if value is None:
                self.rows.pop((user_id, key), None)
            else:
                self.rows[(user_id, key)] = value

    class Client:
        def get_guild(self, guild_id):
            return None

    prefs = Prefs()
    languages = Languages(Client(), prefs)
    assert await languages.remember(1, "en-US") == "en" and prefs.writes == 0
    assert await languages.remember(2, "sv-SE") == "sv" and prefs.writes == 1
    assert await languages.remember(2, "sv-SE") == "sv" and prefs.writes == 1  # unchanged: no second write
    assert await languages.of_user(2) == "sv" and await languages.of_user(1) == "en"
    await languages.set_guild(7, "sv")
    assert await languages.of_user(3, guild_id=7) == "sv"  # never interacted: their server's language
    assert await languages.of_guild(8) == "en"
    fresh = Languages(Client(), prefs)  # after a restart the stored choices come back
    assert await fresh.of_user(2) == "sv" and await fresh.of_guild(7) == "sv"
