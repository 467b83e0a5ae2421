"""Times of Darkness pictures: the diamond and the any-colour circle bonus (reward icons and token chips).

A diamond is drawn as the rulebook prints its reward: a white gem with a black number. The any-colour circle
bonus is a ring of the four colours with its value. The domain card's multicoloured sections and the
aristocrats' colourless lower sections use ``style.SECTION_RGB``.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.viceroy import cards as cardlib
from engine.viceroy.cards import COLORS

from .icons import SS, _gem, _text, icon
from .style import COLOR_RGB, INK, fit_font
from .words import say

DIAMOND_FILL = (250, 250, 252)
DIAMOND_LINE = (60, 60, 70)


@lru_cache(maxsize=128)
def diamond(size: int, text: str = "") -> Image.Image:
    n = size * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    _gem(d, n, DIAMOND_FILL, DIAMOND_LINE)
    _text(d, n, text or "D", 0.5, 0.44, 0.44, INK)
    return img.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=128)
def any_colour_bonus(size: int, text: str = "+1") -> Image.Image:
    n = size * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    m = n * 0.05
    for i, colour in enumerate(COLORS):
        d.pieslice([m, m, n - m, n - m], -90 + 90 * i, 90 * i, fill=COLOR_RGB[colour])
    m2 = n * 0.2
    d.ellipse([m2, m2, n - m2, n - m2], fill=(255, 255, 255), outline=INK, width=max(1, n // 40))
    _text(d, n, text, 0.5, 0.5, 0.36, INK)
    return img.resize((size, size), Image.Resampling.LANCZOS)


# The aristocrats' end-of-game texts, short enough for the half circle (the full text is in /viceroy rules).
EXTRA_CAPTIONS = {
    "per_law": "per law",
    "per_adjacent_character": "per next character",
    "per_set": "per set",
    "per_card_on_level": "per card on level {level}",
    "per_token": "per {token}",
    "by_level": "x its level",
}


def extra_caption(score: dict) -> str:
    return EXTRA_CAPTIONS.get(score["kind"], score["kind"].replace("_", " ")).format(**score)


def draw_aristocrat_extra(img: Image.Image, number: int, w: int, h: int, r: int) -> bool:
    """Draw an aristocrat's extra reward in its colourless lower half circle (centre (w/2, h), radius r):
    its token images, or its end-of-game points as a PP icon with a short caption. False for other cards."""
    data = cardlib.card(number)
    extra = data.get("extra")
    if extra not in ("images", "text"):
        return False
    from .icons import reward_icon as base_reward_icon

    d = ImageDraw.Draw(img)
    cx = w // 2
    if extra == "images":
        images = data.get("images") or []
        size = int(r * (0.78 if len(images) == 1 else 0.6))
        gap = size // 8
        total = len(images) * size + (len(images) - 1) * gap
        x = cx - total // 2
        y = h - int(r * 0.06) - size
        for reward in images:
            sprite = base_reward_icon(reward, size)
            img.paste(sprite, (x, y), sprite)
            x += size + gap
        return True
    score = data["score"]
    size = int(r * 0.5)
    pp = icon("power_points", size, None, str(score["pp"]))
    img.paste(pp, (cx - size // 2, h - int(r * 0.93)), pp)
    caption = say(extra_caption(score))
    fnt = fit_font(caption, int(r * 1.6), max(8, int(r * 0.24)), bold=True)
    d.text((cx, h - int(r * 0.2)), caption, font=fnt, fill=INK, anchor="mm")
    return True


def reward_icon(reward: dict, size: int) -> Image.Image | None:
    """The icon of an expansion reward item, or None for a base reward type."""
    kind = reward.get("type")
    if kind == "diamonds":
        return diamond(size, str(reward.get("amount", 1)))
    if kind == "any_circle_bonus":
        return any_colour_bonus(size, f"+{reward.get('value', 1)}")
    from .underworld import reward_icon as underworld_icon  # bribes, discarding judgement tokens, relocation

    return underworld_icon(reward, size)
