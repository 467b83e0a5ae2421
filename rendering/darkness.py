"""Times of Darkness pictures: the diamond and the any-colour circle bonus (reward icons and token chips).

A diamond is drawn as the rulebook prints its reward: a white gem with a black number. The any-colour circle
bonus is a ring of the four colours with its value. The domain card's multicoloured sections and the
aristocrats' colourless lower sections use ``style.SECTION_RGB``.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.viceroy.cards import COLORS

from .icons import SS, _gem, _text
from .style import COLOR_RGB, INK

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


def reward_icon(reward: dict, size: int) -> Image.Image | None:
    """The icon of an expansion reward item, or None for a base reward type."""
    kind = reward.get("type")
    if kind == "diamonds":
        return diamond(size, str(reward.get("amount", 1)))
    if kind == "any_circle_bonus":
        return any_colour_bonus(size, f"+{reward.get('value', 1)}")
    from .underworld import reward_icon as underworld_icon  # bribes, discarding judgement tokens, relocation

    return underworld_icon(reward, size)
