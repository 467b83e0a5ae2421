"""Card faces and icons: every card renders, sections sit where the rules put them, tokens show."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.viceroy import cards as cardlib
from rendering import card_image, encode_png, render_card
from rendering.cards import (
    CARD_H,
    CARD_R,
    CARD_W,
    PYR_H,
    PYR_R,
    PYR_W,
    placed_face,
    section_probes,
)
from rendering.icons import reward_icon
from rendering.style import COLOR_RGB

from .sample_views import ALL_TOKENS

ALL_CARDS = list(cardlib.CHARACTER_NUMBERS) + list(cardlib.LAW_NUMBERS)


def close(pixel: tuple, rgb: tuple, tol: int = 12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(pixel[:3], rgb, strict=True))


def test_every_card_renders_to_a_png_of_card_size() -> None:
    for number in ALL_CARDS:
        data = render_card(number)
        with Image.open(io.BytesIO(data)) as img:
            assert img.format == "PNG"
            assert img.size == (CARD_W, CARD_H)
        assert placed_face(number).size == (PYR_W, PYR_H)


@pytest.mark.parametrize("number", ALL_CARDS)
def test_section_pixels_carry_the_card_colours(number: int) -> None:
    colors = cardlib.section_colors(number)
    full = card_image(number)
    for section, xy in section_probes(CARD_W, CARD_H, CARD_R).items():
        assert close(full.getpixel(xy), COLOR_RGB[colors[section]]), (number, section, full.getpixel(xy))
    compact = placed_face(number)
    for section, xy in section_probes(PYR_W, PYR_H, PYR_R).items():
        assert close(compact.getpixel(xy), COLOR_RGB[colors[section]]), (number, section)


def test_probe_distinguishes_faces_with_different_sections() -> None:
    # Boatswain (#1) is all red; Ambassador (#2) has blue top corners: the probe must tell them apart.
    probes = section_probes(CARD_W, CARD_H, CARD_R)
    assert close(card_image(1).getpixel(probes["top_left"]), COLOR_RGB["red"])
    assert not close(card_image(2).getpixel(probes["top_left"]), COLOR_RGB["red"])


def pixels(img: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    raw = img.crop(box).convert("RGB").tobytes()
    return [tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)]


def _white_pixels(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    return sum(1 for p in pixels(img, box) if min(p) > 215)


def test_painted_section_is_hatched_and_recoloured() -> None:
    number = 1  # all red
    plain = placed_face(number)
    painted = placed_face(number, (("top_left", "blue"),))
    x, y = section_probes(PYR_W, PYR_H, PYR_R)["top_left"]
    box = (x - 6, y - 6, x + 7, y + 5)  # around the probe, clear of the letter
    assert _white_pixels(painted, box) > 10 > _white_pixels(plain, box)
    blue_like = sum(1 for p in pixels(painted, box) if close(p, COLOR_RGB["blue"]))
    assert blue_like > 40
    # the other sections keep their printed colour
    xr, yr = section_probes(PYR_W, PYR_H, PYR_R)["top_right"]
    assert close(painted.getpixel((xr, yr)), COLOR_RGB["red"])


def test_tokens_and_tucked_cards_are_drawn_on_the_card() -> None:
    plain = card_image(32)
    with_tokens = card_image(32, tokens=ALL_TOKENS)
    with_tucked = card_image(32, tucked=2)
    assert plain.tobytes() != with_tokens.tobytes()
    assert plain.tobytes() != with_tucked.tobytes()
    assert with_tokens.tobytes() != with_tucked.tobytes()
    # tokens are pasted on a copy: the cached face stays clean
    assert card_image(32).tobytes() == plain.tobytes()


def test_every_reward_of_the_data_set_has_an_icon() -> None:
    seen: set[str] = set()
    for number in cardlib.CHARACTER_NUMBERS:
        for row in cardlib.card(number)["rows"]:
            for reward in row["reward"]:
                sprite = reward_icon(reward, 44)
                assert sprite.size == (44, 44)
                assert sprite.getbbox() is not None  # something was drawn
                seen.add(reward["type"])
    assert seen == set(cardlib.REWARD_TYPES)


def test_distinct_rewards_get_distinct_icons() -> None:
    rewards = [
        {"type": "gems", "amount": 3},
        {"type": "power_points", "amount": 3},
        {"type": "cards", "amount": 3},
        {"type": "science", "amount": 1},
        {"type": "magic", "amount": 1},
        {"type": "defense", "amount": 1},
        {"type": "attack", "amount": 1},
        {"type": "infinite_gem", "color": "red"},
        {"type": "infinite_gem", "color": "blue"},
        {"type": "magic_bonus", "value": 3},
        {"type": "circle_bonus", "color": "red", "value": 3},
        {"type": "circle_bonus", "color": "blue", "value": 3},
    ]
    images = {reward_icon(r, 44).tobytes() for r in rewards}
    assert len(images) == len(rewards)


def test_encode_png_round_trips() -> None:
    img = card_image(65)
    data = encode_png(img)
    with Image.open(io.BytesIO(data)) as back:
        assert back.convert("RGB").tobytes() == img.tobytes()
