"""Pyramido in Swedish: a whole game on the fake Discord with a Swedish server and Swedish players, every text
the bot sends scanned for English left over and every word drawn on its pictures (tables, turn pictures, floor
score sheets) asked for in Swedish; and the picture caches never hand a Swedish picture to an English reader."""

from __future__ import annotations

import random

import pytest

from bot.autoplay import SimulatedPlayer, game_over, play_together
from bot.i18n import catalogue, drawing
from bot.localdiscord import FakeDiscord
from engine.pyramido import GAME
from rendering.cache import PARTS, PICTURES
from rendering.pyramido import pyramid_image, render_sheet, render_table, sheet_image
from rendering.words import clear_caches, drawing_in
from tests.i18n.english import ENGLISH, PYRAMIDO, Messages, sample
from tests.i18n.pictures import swedish_game
from tests.pyramido.test_e2e import architect

NAMES = ("Ann", "Bo", "Cy")


async def test_a_whole_pyramido_game_in_swedish_leaves_no_english(fake_discord: FakeDiscord, tmp_path,
                                                                  monkeypatch: pytest.MonkeyPatch):
    world = fake_discord
    messages = Messages(world)
    async with swedish_game(world, tmp_path, "pyramido", NAMES, monkeypatch, guild_name="Pyramidoklubben",
                            watch=messages.watch, seats=len(NAMES)) as (table, pictures):
        sims = [SimulatedPlayer(world, u, table.channel, seed=i, strategy=architect)
                for i, u in enumerate(table.users)]
        await play_together(sims, timeout=600)
        await table.settle()
        assert game_over(table.channel), "the game did not reach its Swedish score sheet"
    # The messages: names and the game's own are the only English words ("Mino" is the pyramid's guardian).
    left = messages.english({*NAMES, "Pyramido", "Pyramidoklubben", "Mino"}, ENGLISH | PYRAMIDO)
    assert not left, f"{len(left)} texts still in English, for example:\n{sample(left)}"
    assert len(messages.seen) > 200, "the scan saw too few texts to prove anything"
    # Only the players' names are drawn as they are: every other word on a Pyramido picture is the bot's
    # (colour letters, position letters and numbers carry no words).
    names = set(NAMES)
    untranslated = pictures.untranslated(names)
    assert not untranslated, f"{len(untranslated)} texts drawn in English, for example: {list(untranslated.items())[:10]}"
    unsaid = pictures.drawn_unsaid(names)
    assert not unsaid, f"{len(unsaid)} texts drawn without a translation asked for, for example: {unsaid[:10]}"
    said = {english for _, _, english, _ in pictures.said}
    assert len(said) > 20, f"too few drawn texts seen to prove anything: {sorted(said)}"
    # every kind of picture was drawn: the market, a table's status, the pyramids' footers, a score sheet
    for start in ("Market", "Pyramido · floor", "Floor 1 ·", "Floor 4 scoring", "Floor total:"):
        assert any(text.startswith(start) for text in said), f"no picture said {start!r}"


def _view_at_floor_two() -> dict:
    state = GAME.new_game({}, 6, 3)
    rng = random.Random(6)
    while state["floor"] < 2:
        GAME.apply(state, state["turn"], GAME.choose_action(state, state["turn"], rng))
    return GAME.view(state, None)


def _forget_pictures() -> None:
    PICTURES.clear()
    PARTS.clear()
    clear_caches()


def test_the_same_table_and_sheet_differ_by_language_and_never_share_a_cached_copy():
    view = _view_at_floor_two()
    names = list(NAMES)
    _forget_pictures()
    with drawing_in(*drawing("sv", "pyramido")):
        swedish = render_table(view, names), render_sheet(view, 1, names)
    after_swedish = render_table(view, names), render_sheet(view, 1, names)
    _forget_pictures()
    english = render_table(view, names), render_sheet(view, 1, names)
    assert swedish[0] != english[0] and swedish[1] != english[1]
    assert after_swedish == english  # drawn after the Swedish copies, and still the English pictures
    _forget_pictures()


def test_the_texts_a_game_rarely_draws_are_in_swedish_too():
    # A lost architect and a floor without a scored area seldom happen in a simulated game.
    view = _view_at_floor_two()
    lost = dict(view["players"][0], lost=True)
    bare = dict(view["players"][1])
    bare["sheets"] = [dict(bare["sheets"][0], areas=[], mino=None, mino_points=0)]
    key, translate = drawing("sv", "pyramido")
    said: list[str] = []

    def recording(text: str) -> str:
        said.append(text)
        return translate(text)

    with drawing_in(key, recording):
        pyramid_image(lost, "Ann")
        sheet_image(dict(view, players=[bare]), 1, list(NAMES))
    swedish = catalogue("sv", "pyramido")
    assert {"(lost)", "no scored area", "Mino's bonus: +0"} <= set(said)
    assert any(text.startswith("Lost: ") for text in said)
    assert not {text: swedish.missing(text, NAMES) for text in said if swedish.missing(text, NAMES)}
