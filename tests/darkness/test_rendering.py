"""The aristocrats' lower half circle shows its extra reward, on the full face and inside a pyramid."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

import engine.viceroy.modules  # noqa: F401  (registers the designed cards)
from engine.viceroy import cards as cardlib
from engine.viceroy.modules.carddata import ARISTOCRATS
from rendering import cards, darkness
from rendering.icons import COIN as PP_GOLD  # the power-point coin
from rendering.style import SECTION_RGB

FACES = [(cards.full_face, cards.CARD_W, cards.CARD_H, cards.CARD_R),
         (cards.placed_face, cards.PYR_W, cards.PYR_H, cards.PYR_R)]


def _without_extra(monkeypatch, face, number: int) -> Image.Image:  # noqa: ANN001
    monkeypatch.setattr(cards, "draw_aristocrat_extra", lambda *args: False)
    try:
        return face.__wrapped__(number)
    finally:
        monkeypatch.undo()


def _half_circle(w: int, h: int, r: int) -> tuple[int, int, int, int]:
    return (w // 2 - r, h - r, w // 2 + r, h)


@pytest.mark.parametrize("number", ARISTOCRATS)
@pytest.mark.parametrize("which", [0, 1], ids=["full face", "in a pyramid"])
def test_aristocrat_extra_reward_is_drawn_in_its_lower_half_circle(monkeypatch, number: int, which: int):
    face, w, h, r = FACES[which]
    drawn = face.__wrapped__(number)
    plain = _without_extra(monkeypatch, face, number)
    changed = ImageChops.difference(drawn, plain).getbbox()
    assert changed is not None, "nothing drawn for the extra reward"
    left, top, right, bottom = _half_circle(w, h, r)
    # Everything drawn lies inside the half circle, and it covers a good part of it.
    assert changed[0] >= left - 1 and changed[1] >= top - 1 and changed[2] <= right + 1 and changed[3] <= bottom + 1
    assert (changed[2] - changed[0]) * (changed[3] - changed[1]) > (r * r) // 4
    assert plain.getpixel((w // 2, h - r // 2)) == pytest.approx(SECTION_RGB["none"], abs=12)


@pytest.mark.parametrize("number", [n for n in ARISTOCRATS if cardlib.card(n)["extra"] == "images"])
def test_aristocrat_token_images_are_their_reward_icons(number: int):
    from rendering.icons import reward_icon

    images = cardlib.card(number)["images"]
    w, h, r = cards.CARD_W * 2, cards.CARD_H * 2, cards.CARD_R * 2
    canvas = Image.new("RGB", (w, h), SECTION_RGB["none"])
    assert darkness.draw_aristocrat_extra(canvas, number, w, h, r)
    size = int(r * 0.78) if len(images) == 1 else int(r * 0.6)
    sprite = reward_icon(images[0], size)
    expected = Image.new("RGB", (w, h), SECTION_RGB["none"])
    total = len(images) * size + (len(images) - 1) * (size // 8)
    expected.paste(sprite, (w // 2 - total // 2, h - int(r * 0.06) - size), sprite)
    box = (w // 2 - total // 2, h - int(r * 0.06) - size, w // 2 - total // 2 + size, h - int(r * 0.06))
    assert ImageChops.difference(canvas.crop(box), expected.crop(box)).getbbox() is None


@pytest.mark.parametrize("number", [n for n in ARISTOCRATS if cardlib.card(n)["extra"] == "text"])
def test_aristocrat_end_of_game_points_show_a_pp_coin_and_caption(number: int):
    w, h, r = cards.CARD_W * 2, cards.CARD_H * 2, cards.CARD_R * 2
    canvas = Image.new("RGB", (w, h), SECTION_RGB["none"])
    assert darkness.draw_aristocrat_extra(canvas, number, w, h, r)
    region = canvas.crop(_half_circle(w, h, r))
    colours = region.getcolors(maxcolors=1 << 20) or []
    assert any(all(abs(a - b) <= 30 for a, b in zip(rgb, PP_GOLD, strict=True)) for _, rgb in colours)
    assert darkness.extra_caption(cardlib.card(number)["score"])


def test_base_cards_have_no_extra_reward_drawn():
    canvas = Image.new("RGB", (100, 100))
    assert not any(darkness.draw_aristocrat_extra(canvas, n, 100, 100, 20) for n in cardlib.CHARACTER_NUMBERS)
