"""Tokens, jewel cards, card backs and royal cards as cached sprites.

Every token kind has its own shape *and* letter (W B G R K P Au), so nothing depends on colour vision:
white circle, blue diamond, green hexagon, red triangle, black square, pearl double ring, gold octagon.
Sprites are drawn at four times their size and scaled down (cheap anti-aliasing), then only pasted.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.splendor_duel.cards import CARDS, COST_KINDS, ROYALS, TOKEN_LETTER
from rendering.style import INK, RGB, fit_font, font
from rendering.words import per_language, say

SS = 4
TOKEN_RGB: dict[str, RGB] = {
    "white": (244, 243, 236),
    "blue": (48, 104, 196),
    "green": (44, 140, 74),
    "red": (206, 62, 52),
    "black": (44, 44, 48),
    "pearl": (226, 208, 232),
    "gold": (244, 196, 64),
}
TOKEN_INK: dict[str, RGB] = {
    "white": (40, 34, 28),
    "blue": (255, 255, 255),
    "green": (255, 255, 255),
    "red": (255, 255, 255),
    "black": (255, 255, 255),
    "pearl": (60, 30, 70),
    "gold": (70, 48, 0),
}
OUTLINE: RGB = (24, 22, 20)
GRAY_CARD: RGB = (176, 172, 164)
# Card tints: the colour, lightened so the ink on it stays legible.
CARD_TINT: dict[str, RGB] = {
    "white": (250, 249, 242),
    "blue": (156, 186, 232),
    "green": (150, 206, 164),
    "red": (236, 160, 150),
    "black": (120, 120, 128),
    None: GRAY_CARD,  # type: ignore[dict-item]
}
BACK_RGB: dict[int, RGB] = {1: (64, 120, 86), 2: (196, 150, 52), 3: (64, 92, 160)}
CARD_W, CARD_H = 96, 132
SMALL_W, SMALL_H = 72, 30
ROYAL_W, ROYAL_H = 84, 96


def _polygon(kind: str, n: int) -> list[tuple[float, float]] | None:
    c, r = n / 2, n * 0.46
    if kind == "blue":  # diamond
        return [(c, c - r), (c + r, c), (c, c + r), (c - r, c)]
    if kind == "green":  # hexagon
        return [(c + r * math.cos(math.pi / 3 * i), c + r * math.sin(math.pi / 3 * i)) for i in range(6)]
    if kind == "red":  # triangle, point up
        return [(c, c - r), (c + r * 0.95, c + r * 0.72), (c - r * 0.95, c + r * 0.72)]
    if kind == "black":  # square
        s = r * 0.84
        return [(c - s, c - s), (c + s, c - s), (c + s, c + s), (c - s, c + s)]
    if kind == "gold":  # octagon
        return [(c + r * math.cos(math.pi / 8 + math.pi / 4 * i), c + r * math.sin(math.pi / 8 + math.pi / 4 * i))
                for i in range(8)]
    return None


@lru_cache(maxsize=64)
def token(kind: str, size: int) -> Image.Image:
    """A token sprite (RGBA) of ``size`` pixels."""
    n = size * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill, width = TOKEN_RGB[kind], max(2, n // 16)
    poly = _polygon(kind, n)
    if poly is not None:
        d.polygon(poly, fill=fill, outline=OUTLINE, width=width)
    else:
        m = n * 0.04
        d.ellipse((m, m, n - m, n - m), fill=fill, outline=OUTLINE, width=width)
        if kind == "pearl":  # a second ring tells the pearl from the white gem
            k = n * 0.16
            d.ellipse((k, k, n - k, n - k), outline=OUTLINE, width=max(1, width // 2))
    letter = TOKEN_LETTER[kind]
    cy = n * 0.58 if kind == "red" else n / 2
    rel = 0.36 if len(letter) > 1 else 0.46
    if kind == "red":
        rel = 0.34
    d.text((n / 2, cy), letter, font=font(max(6, int(n * rel)), True), fill=TOKEN_INK[kind], anchor="mm")
    return img.resize((size, size), Image.LANCZOS)


def _crown(d: ImageDraw.ImageDraw, x: float, y: float, s: float, fill: RGB = (250, 206, 60)) -> None:
    pts = [(x, y + s), (x, y + s * 0.3), (x + s * 0.25, y + s * 0.6), (x + s * 0.5, y), (x + s * 0.75, y + s * 0.6),
           (x + s, y + s * 0.3), (x + s, y + s)]
    d.polygon(pts, fill=fill, outline=OUTLINE)


ABILITY_BADGE = {
    "extra_turn": "+TURN",
    "take_token_of_card_color_from_board": "+TOKEN",
    "take_privilege": "+PRIV",
    "steal_token_from_opponent": "STEAL",
    "joker_bonus_copy": "JOKER",
}


def _badge(d: ImageDraw.ImageDraw, ability: str, x: float, y: float, width: int) -> None:
    text = say(ABILITY_BADGE[ability])
    d.text((x, y), text, font=fit_font(text, width, 11, True, min_size=8), fill=INK, anchor="mm")


@per_language(maxsize=128)
def card(card_id: str, color: str | None = None) -> Image.Image:
    """A jewel card face: points, crowns, bonus, abilities and cost; ``color`` for a placed joker."""
    c = CARDS[card_id]
    shown = color if c.is_joker and color else c.color
    img = Image.new("RGB", (CARD_W, CARD_H), CARD_TINT[shown] if shown else GRAY_CARD)
    d = ImageDraw.Draw(img)
    dark = shown == "black"
    ink = (255, 255, 255) if dark else INK
    d.rectangle((0, 0, CARD_W - 1, CARD_H - 1), outline=OUTLINE, width=2)
    if c.points:
        d.text((6, 2), str(c.points), font=font(26, True), fill=ink)
    if c.crowns:
        for i in range(c.crowns):
            _crown(d, 36 + i * 15, 8, 13)
    # Bonus at top right: the token shape of its colour (a ? for an unplaced joker), ×2 when double.
    if c.card_type == "colored" or (c.is_joker and shown):
        img.paste(token(shown, 28), (CARD_W - 32, 4), token(shown, 28))
    elif c.is_joker:
        d.ellipse((CARD_W - 32, 4, CARD_W - 4, 32), fill=(255, 255, 255), outline=OUTLINE, width=2)
        d.text((CARD_W - 18, 18), "?", font=font(18, True), fill=INK, anchor="mm")
    if c.bonus == 2:
        d.text((CARD_W - 34, 24), "×2", font=font(13, True), fill=ink, anchor="rm")
    y = 38
    for a in c.abilities:
        d.rounded_rectangle((4, y, CARD_W - 5, y + 15), radius=4, fill=(255, 255, 255), outline=OUTLINE)
        _badge(d, a, CARD_W / 2, y + 8, CARD_W - 14)
        y += 18
    # Cost, bottom left upwards: small token shape with the count beside it.
    items = [(k, n) for k, n in zip(COST_KINDS, c.cost, strict=True) if n]
    x0, yb = 4, CARD_H - 36
    for i, (kind, n) in enumerate(items):
        x = x0 + (i % 2) * 44
        yy = yb - (i // 2) * 20
        img.paste(token(kind, 18), (x, yy), token(kind, 18))
        d.text((x + 21, yy + 9), str(n), font=font(15, True), fill=ink, anchor="lm")
    d.text((CARD_W - 4, CARD_H - 2), card_id, font=font(11), fill=ink, anchor="rd")
    return img


@lru_cache(maxsize=8)
def back(level: int, width: int = CARD_W, height: int = CARD_H) -> Image.Image:
    """A card back: the level in Roman numerals on its deck's colour, a diagonal pattern."""
    img = Image.new("RGB", (width, height), BACK_RGB[level])
    d = ImageDraw.Draw(img)
    for k in range(-height, width, 12):
        d.line((k, 0, k + height, height), fill=tuple(min(255, v + 18) for v in BACK_RGB[level]), width=3)
    d.rectangle((0, 0, width - 1, height - 1), outline=OUTLINE, width=2)
    d.ellipse((width / 2 - 22, height / 2 - 22, width / 2 + 22, height / 2 + 22), fill=(250, 246, 232),
              outline=OUTLINE, width=2)
    d.text((width / 2, height / 2), "I" * level, font=font(22, True), fill=INK, anchor="mm")
    return img


@per_language(maxsize=8)
def royal(royal_id: str) -> Image.Image:
    r = ROYALS[royal_id]
    img = Image.new("RGB", (ROYAL_W, ROYAL_H), (120, 60, 128))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, ROYAL_W - 1, ROYAL_H - 1), outline=OUTLINE, width=2)
    _crown(d, ROYAL_W / 2 - 14, 8, 28)
    d.text((ROYAL_W / 2, 54), say(f"{r.points} PP"), font=font(18, True), fill=(255, 255, 255), anchor="mm")
    for a in r.abilities:
        d.rounded_rectangle((4, 66, ROYAL_W - 5, 82), radius=4, fill=(255, 255, 255), outline=OUTLINE)
        _badge(d, a, ROYAL_W / 2, 74, ROYAL_W - 14)
    d.text((ROYAL_W - 4, ROYAL_H - 3), royal_id, font=font(10), fill=(255, 255, 255), anchor="rd")
    return img


def scroll(size: int) -> Image.Image:
    """A privilege scroll (a rolled parchment with an S)."""
    return _scroll(size)


@lru_cache(maxsize=8)
def _scroll(size: int) -> Image.Image:
    n = size * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((n * 0.12, n * 0.2, n * 0.88, n * 0.8), radius=n * 0.1, fill=(236, 220, 180), outline=OUTLINE,
                        width=n // 16)
    d.ellipse((n * 0.02, n * 0.14, n * 0.24, n * 0.86), fill=(214, 194, 150), outline=OUTLINE, width=n // 20)
    d.text((n * 0.56, n * 0.5), "S", font=font(int(n * 0.42), True), fill=INK, anchor="mm")
    return img.resize((size, size), Image.LANCZOS)
