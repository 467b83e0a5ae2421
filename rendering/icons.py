"""Token, gem and reward icons as cached RGBA sprites.

Each icon is drawn once at four times its size and scaled down (cheap anti-aliasing), then reused: the
renderers only paste sprites. Every icon differs by *shape* as well as colour, and coloured ones carry the
colour's letter, so nothing depends on colour vision alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.viceroy.cards import REWARD_TYPES

from .style import COLOR_DARK, COLOR_INK, COLOR_LETTER, COLOR_RGB, INK, RGB, font

SS = 4  # supersampling factor

WHITE: RGB = (255, 255, 255)
OUTLINE: RGB = (34, 30, 26)
NEUTRAL_GEM: RGB = (232, 234, 240)
COIN: RGB = (242, 192, 62)
COIN_RIM: RGB = (168, 120, 20)
CARD_BACK: RGB = (64, 96, 110)
SCIENCE: RGB = (24, 138, 146)
MAGIC: RGB = (124, 64, 172)
DEFENSE: RGB = (98, 110, 128)
ATTACK: RGB = (44, 40, 40)
TUCKED: RGB = (150, 140, 126)

# The reward/token kinds an icon exists for (the reward types of cards.json plus display-only kinds).
KINDS = (*sorted(REWARD_TYPES), "gem", "tucked", "law")


def _pts(points: Iterable[tuple[float, float]], n: int) -> list[tuple[float, float]]:
    return [(x * n, y * n) for x, y in points]


def _text(draw: ImageDraw.ImageDraw, n: int, text: str, cx: float, cy: float, rel: float, fill: RGB) -> None:
    """Centre text in the unit square, shrinking it to at most 80 % of the width."""
    size = max(4, int(n * rel))
    fnt = font(size, True)
    while size > 4 and fnt.getlength(text) > n * 0.8:
        size -= 2
        fnt = font(size, True)
    draw.text((cx * n, cy * n), text, font=fnt, fill=fill, anchor="mm")


GEM_SHAPE = [(0.24, 0.12), (0.76, 0.12), (0.96, 0.38), (0.5, 0.94), (0.04, 0.38)]


def _gem(draw: ImageDraw.ImageDraw, n: int, fill: RGB, line: RGB) -> None:
    draw.polygon(_pts(GEM_SHAPE, n), fill=fill, outline=line, width=max(1, n // 18))
    # facets: the table edge and two flanks, lightly drawn
    soft = tuple(int(c * 0.75 + 255 * 0.25) for c in line)
    w = max(1, n // 40)
    draw.line(_pts([(0.04, 0.38), (0.96, 0.38)], n), fill=soft, width=w)
    draw.line(_pts([(0.24, 0.12), (0.36, 0.38), (0.5, 0.94)], n), fill=soft, width=w)
    draw.line(_pts([(0.76, 0.12), (0.64, 0.38), (0.5, 0.94)], n), fill=soft, width=w)


def _disc(draw: ImageDraw.ImageDraw, n: int, fill: RGB, line: RGB = OUTLINE) -> None:
    m = n * 0.04
    draw.ellipse([m, m, n - m, n - m], fill=fill, outline=line, width=max(1, n // 20))


def _star(cx: float, cy: float, r_out: float, r_in: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        r = r_out if i % 2 == 0 else r_in
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def _badge(draw: ImageDraw.ImageDraw, n: int, text: str, corner: str = "br") -> None:
    """A small dark disc with white text in a corner of the icon (counts, the infinity mark)."""
    r = n * 0.2
    cx = n - r - n * 0.01 if corner.endswith("r") else r + n * 0.01
    cy = n - r - n * 0.01 if corner.startswith("b") else r + n * 0.01
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(20, 20, 24), outline=WHITE, width=max(1, n // 40))
    size = int(r * 1.35)
    fnt = font(size, True)
    while size > 4 and fnt.getlength(text) > r * 1.7:
        size -= 2
        fnt = font(size, True)
    draw.text((cx, cy), text, font=fnt, fill=WHITE, anchor="mm")


@lru_cache(maxsize=1024)
def icon(kind: str, size: int, color: str | None = None, text: str = "", badge: str = "") -> Image.Image:
    """An RGBA sprite ``size`` px square.

    ``text`` is written inside the icon (amounts, bonus values); ``badge`` in a small corner disc (counts of
    identical tokens).  ``color`` is a gem colour for gem, infinite_gem and circle_bonus.
    """
    n = size * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if kind in ("gem", "infinite_gem") or (kind == "gems" and color):
        assert color is not None
        _gem(d, n, COLOR_RGB[color], COLOR_DARK[color])
        _text(d, n, text or COLOR_LETTER[color], 0.5, 0.44, 0.42, COLOR_INK[color])
        if kind == "infinite_gem":
            _badge(d, n, "\u221e", "tr")
    elif kind == "gems":
        _gem(d, n, NEUTRAL_GEM, OUTLINE)
        _text(d, n, text, 0.5, 0.44, 0.44, INK)
    elif kind == "power_points":
        _disc(d, n, COIN, COIN_RIM)
        m = n * 0.15
        d.ellipse([m, m, n - m, n - m], outline=COIN_RIM, width=max(1, n // 40))
        _text(d, n, text, 0.5, 0.5, 0.46, INK)
    elif kind in ("cards", "tucked", "law"):
        back = {"cards": CARD_BACK, "tucked": TUCKED, "law": (236, 226, 204)}[kind]
        w = max(1, n // 22)
        r = n * 0.08
        d.rounded_rectangle(_pts([(0.30, 0.04), (0.88, 0.80)], n), radius=r, fill=back, outline=OUTLINE, width=w)
        d.rounded_rectangle(_pts([(0.14, 0.18), (0.72, 0.96)], n), radius=r, fill=back, outline=OUTLINE, width=w)
        ink = INK if kind == "law" else WHITE
        _text(d, n, text or ("L" if kind == "law" else ""), 0.43, 0.57, 0.42, ink)
    elif kind == "science":
        _disc(d, n, SCIENCE)
        flask = [(0.43, 0.2), (0.57, 0.2), (0.57, 0.42), (0.76, 0.76), (0.24, 0.76), (0.43, 0.42)]
        d.polygon(_pts(flask, n), fill=WHITE)
        d.polygon(_pts([(0.36, 0.6), (0.64, 0.6), (0.72, 0.72), (0.28, 0.72)], n), fill=SCIENCE)
    elif kind == "magic":
        _disc(d, n, MAGIC)
        d.polygon(_star(0.5 * n, 0.53 * n, 0.34 * n, 0.14 * n), fill=WHITE)
    elif kind == "defense":
        _disc(d, n, DEFENSE)
        shield = [(0.28, 0.24), (0.5, 0.18), (0.72, 0.24), (0.70, 0.52), (0.5, 0.80), (0.30, 0.52)]
        d.polygon(_pts(shield, n), fill=WHITE)
        d.line(_pts([(0.5, 0.26), (0.5, 0.70)], n), fill=DEFENSE, width=max(1, n // 18))
    elif kind == "attack":
        _disc(d, n, ATTACK)
        blade = [(0.5, 0.14), (0.56, 0.24), (0.56, 0.6), (0.44, 0.6), (0.44, 0.24)]
        d.polygon(_pts(blade, n), fill=WHITE)
        d.rectangle(_pts([(0.3, 0.6), (0.7, 0.67)], n), fill=WHITE)
        d.rectangle(_pts([(0.46, 0.67), (0.54, 0.8)], n), fill=WHITE)
        d.ellipse(_pts([(0.44, 0.78), (0.56, 0.88)], n), fill=WHITE)
    elif kind == "magic_bonus":
        d.polygon(_star(0.5 * n, 0.54 * n, 0.5 * n, 0.27 * n), fill=MAGIC, outline=OUTLINE, width=max(1, n // 22))
        _text(d, n, text, 0.5, 0.57, 0.34, WHITE)
    elif kind == "circle_bonus":
        assert color is not None
        m = n * 0.05
        d.ellipse([m, m, n - m, n - m], fill=COLOR_RGB[color], outline=OUTLINE, width=max(1, n // 22))
        m2 = n * 0.2
        d.ellipse([m2, m2, n - m2, n - m2], fill=WHITE, outline=COLOR_DARK[color], width=max(1, n // 40))
        _text(d, n, text, 0.5, 0.5, 0.36, INK)
        _badge(d, n, COLOR_LETTER[color], "br")
    else:
        raise ValueError(f"unknown icon kind {kind!r}")
    if badge:
        _badge(d, n, badge, "br")
    return img.resize((size, size), Image.Resampling.LANCZOS)


def reward_icon(reward: dict, size: int) -> Image.Image:
    """The icon of one reward item of a card row (amounts written on the icon)."""
    kind = reward["type"]
    amount = reward.get("amount", 1)
    color = reward.get("color")
    if color == "any":
        color = None
    if kind in ("gems", "power_points", "cards"):
        return icon(kind, size, None, str(amount))
    if kind in ("science", "magic", "defense", "attack"):
        return icon(kind, size, None, "", str(amount) if amount > 1 else "")
    if kind == "infinite_gem":
        if color is None:
            return icon("gems", size, None, "\u221e")
        return icon("infinite_gem", size, color)
    if kind == "magic_bonus":
        return icon("magic_bonus", size, None, f"+{reward['value']}")
    if kind == "circle_bonus":
        return icon("circle_bonus", size, color or "red", f"+{reward['value']}")
    from .darkness import reward_icon as expansion_icon  # Times of Darkness reward types

    sprite = expansion_icon(reward, size)
    if sprite is not None:
        return sprite
    raise ValueError(f"unknown reward type {kind!r}")


def token_chips(tokens: Iterable[dict], size: int, stored_gems: dict | None = None, tucked: int = 0) -> list[Image.Image]:
    """Aggregate the tokens lying on one card into a short, stable list of icons.

    Identical tokens become one icon with a count; PP and magic-bonus values are summed (that is how they
    score); circle bonuses and infinite gems are kept per colour.
    """
    counts: dict[str, int] = {}
    pp = 0
    bonus = 0
    circle: dict[str, int] = {}
    infinite: dict[str, int] = {}
    any_bonus = 0
    for tok in tokens or ():
        kind = tok.get("type")
        if kind == "power_points":
            pp += int(tok.get("value", tok.get("amount", 0)))
        elif kind == "magic_bonus":
            bonus += int(tok.get("value", 0))
        elif kind == "circle_bonus":
            c = tok.get("color", "red")
            circle[c] = circle.get(c, 0) + int(tok.get("value", 0))
        elif kind == "infinite_gem":
            c = tok.get("color", "red")
            infinite[c] = infinite.get(c, 0) + 1
        elif kind in ("science", "magic", "defense", "attack"):
            counts[kind] = counts.get(kind, 0) + int(tok.get("amount", 1))
        elif kind == "any_circle_bonus":
            any_bonus += int(tok.get("value", 1))
    chips: list[Image.Image] = []
    if any_bonus:
        from .darkness import any_colour_bonus

        chips.append(any_colour_bonus(size, f"+{any_bonus}"))
    if pp:
        chips.append(icon("power_points", size, None, str(pp)))
    for kind in ("science", "magic", "defense", "attack"):
        if counts.get(kind):
            chips.append(icon(kind, size, None, "", str(counts[kind]) if counts[kind] > 1 else ""))
    if bonus:
        chips.append(icon("magic_bonus", size, None, f"+{bonus}"))
    for c in COLOR_RGB:
        if infinite.get(c):
            chips.append(icon("infinite_gem", size, c, "", str(infinite[c]) if infinite[c] > 1 else ""))
    for c in COLOR_RGB:
        if circle.get(c):
            chips.append(icon("circle_bonus", size, c, f"+{circle[c]}"))
    for c in COLOR_RGB:
        n = (stored_gems or {}).get(c, 0)
        if n:
            chips.append(icon("gem", size, c, "", str(n)))
    if tucked:
        chips.append(icon("tucked", size, None, str(tucked)))
    return chips
