"""Splendor Duel in Swedish: a whole game on a Swedish server between two Swedish players, every text the bot
sends scanned for English left over and every word drawn on the table and the screens asked for in Swedish; and
the picture caches keep the languages apart."""

from __future__ import annotations

import pytest

from bot.autoplay import game_over, play_together
from bot.i18n import drawing
from bot.localdiscord import FakeDiscord
from bot.presenters.splendor_duel.autoplay import SplendorPlayer
from engine.splendor_duel import GAME
from rendering.cache import PARTS, PICTURES
from rendering.splendor_duel import card, render_table, royal
from rendering.words import clear_caches, drawing_in
from tests.i18n.english import ENGLISH, SPLENDOR_DUEL, Messages, sample
from tests.i18n.pictures import swedish_game
from tests.splendor_duel.test_rendering import midgame

# Drawn as printed in every language: the players' names, the gold token's chemical symbol (the other tokens
# show single letters) and the Roman numerals on the deck backs. Card ids ("L1-08", "R-2") hold no two letters
# in a row, so they need no entry.
PRINTED = ("Ann", "Bo", "Au", "II", "III")


async def test_a_whole_splendor_duel_game_in_swedish_leaves_no_english(fake_discord: FakeDiscord, tmp_path,
                                                                       monkeypatch: pytest.MonkeyPatch):
    world = fake_discord
    messages = Messages(world)
    async with swedish_game(world, tmp_path, "splendorduel", PRINTED[:2], monkeypatch,
                            guild_name="Splendorklubben", watch=messages.watch) as (table, pictures):
        sims = [SplendorPlayer(world, u, table.channel, seed=i) for i, u in enumerate(table.users)]
        sims[1].blind = True  # blind reserves: the owner's screen labels them
        await play_together(sims, timeout=400)
        await world.idle(timeout=30)
        assert game_over(table.channel), "the game did not reach its end"
    # The messages: only names and the game's own are English ("Au" is the gold token's symbol).
    left = messages.english({*PRINTED, "Splendor", "Duel", "Splendorklubben"}, ENGLISH | SPLENDOR_DUEL)
    assert not left, f"{len(left)} texts still in English, for example:\n{sample(left)}"
    assert len(messages.seen) > 200, "the scan saw too few texts to prove anything"
    untranslated = pictures.untranslated(PRINTED)
    assert not untranslated, f"{len(untranslated)} texts drawn in English, for example: {list(untranslated.items())[:20]}"
    unsaid = pictures.drawn_unsaid(PRINTED)
    assert not unsaid, f"{len(unsaid)} texts drawn without a translation asked for, for example: {unsaid[:20]}"
    english = {t for _, _, t, _ in pictures.said}
    assert len(english) > 20, "too few drawn texts seen to prove anything"
    assert {"Royal cards", "Reserved", "blind"} <= english
    assert any(t.endswith(" won") for t in english), "the final table was not drawn"


def test_the_table_in_swedish_differs_and_leaves_the_english_one_as_it_was():
    view = GAME.view(midgame(), None)
    names = ["Ann", "Bo"]

    def forget(everything: bool) -> None:
        PICTURES.clear()
        PARTS.clear()
        if everything:  # the sprites too, however they are cached
            clear_caches()
            card.cache_clear()
            royal.cache_clear()

    try:
        forget(True)
        with drawing_in(*drawing("sv", "splendor_duel")):
            swedish = render_table(view, names)
            swedish_card = card("L1-08").tobytes()  # a card with an ability badge
        forget(False)  # the card faces drawn in Swedish stay cached
        english_after = render_table(view, names)
        english_card = card("L1-08").tobytes()
        forget(True)
        english = render_table(view, names)
    finally:
        forget(True)
    assert swedish != english
    assert english_after == english, "a Swedish picture drawn first changed the English one"
    assert swedish_card != english_card
