"""Underworld pictures: criminal faces (three lines), judgement tokens face up and face down, bribe tokens,
and the icons of the new rewards (bribes, discarding judgement tokens, relocation).

A judgement token face up says what it costs ("0", "-2", "-1 per circle" ...); face down it is a dark disc with
a balance, all alike, so a picture of another player's tokens shows only how many there are. Views decide who
sees what: a seat's own view lists its tokens face up (``judgement_tokens``), everyone else only the count.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from .icons import SS, _text, icon
from .style import INK, TEXT, TEXT_SOFT, font
from .words import say

JUDGEMENT_BACK = (52, 44, 64)
JUDGEMENT_RIM = (196, 170, 108)
JUDGEMENT_FACE = (238, 232, 220)
BRIBE = (120, 150, 84)
BRIBE_RIM = (60, 80, 40)


def _balance(d: ImageDraw.ImageDraw, n: int, colour: tuple[int, int, int]) -> None:
    """A small pair of scales: the judgement symbol."""
    w = max(1, n // 22)
    d.line([(0.5 * n, 0.25 * n), (0.5 * n, 0.72 * n)], fill=colour, width=w)
    d.line([(0.28 * n, 0.34 * n), (0.72 * n, 0.34 * n)], fill=colour, width=w)
    for cx in (0.28, 0.72):
        d.arc([(cx - 0.12) * n, 0.36 * n, (cx + 0.12) * n, 0.58 * n], 0, 180, fill=colour, width=w)
    d.line([(0.38 * n, 0.74 * n), (0.62 * n, 0.74 * n)], fill=colour, width=w)


@lru_cache(maxsize=64)
def judgement_back(size: int) -> Image.Image:
    n = size * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse([SS, SS, n - SS, n - SS], fill=JUDGEMENT_BACK, outline=JUDGEMENT_RIM, width=max(1, n // 16))
    _balance(d, n, JUDGEMENT_RIM)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def face_text(token: Mapping) -> tuple[str, str]:
    """What a face-up judgement token shows: a big line and a small one."""
    kind = token.get("kind")
    if kind == "none":
        return "0", say("no penalty")
    if kind == "pp":
        return f"-{token['value']}", "PP"
    if kind == "per_circle":
        return f"-{token['value']}", say("per circle")
    if kind == "per_token":
        return f"-{token['value']}", say(f"per {token['token']}")
    return "X", "/".join(say(t) for t in token.get("tokens") or ())


@lru_cache(maxsize=128)
def _judgement_face(size: int, big: str, small: str) -> Image.Image:
    n = size * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse([SS, SS, n - SS, n - SS], fill=JUDGEMENT_FACE, outline=JUDGEMENT_BACK, width=max(1, n // 16))
    _text(d, n, big, 0.5, 0.42, 0.42, INK)
    _text(d, n, small, 0.5, 0.74, 0.16, INK)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def judgement_face(token: Mapping, size: int) -> Image.Image:
    return _judgement_face(size, *face_text(token))


@lru_cache(maxsize=64)
def bribe(size: int, text: str = "") -> Image.Image:
    n = size * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([SS, n * 0.18, n - SS, n * 0.82], radius=n * 0.12, fill=BRIBE, outline=BRIBE_RIM,
                        width=max(1, n // 18))
    _text(d, n, text or "$", 0.5, 0.5, 0.4, (250, 250, 240))
    return img.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def _relocate(size: int) -> Image.Image:
    n = size * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rectangle([0.12 * n, 0.5 * n, 0.42 * n, 0.88 * n], fill=(236, 226, 204), outline=INK, width=max(1, n // 24))
    d.rectangle([0.58 * n, 0.12 * n, 0.88 * n, 0.5 * n], fill=(236, 226, 204), outline=INK, width=max(1, n // 24))
    w = max(1, n // 16)
    d.line([(0.3 * n, 0.44 * n), (0.52 * n, 0.24 * n)], fill=INK, width=w)
    d.polygon([(0.56 * n, 0.2 * n), (0.42 * n, 0.24 * n), (0.52 * n, 0.34 * n)], fill=INK)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def reward_icon(reward: dict, size: int) -> Image.Image | None:
    """The icon of an Underworld reward item, or None for another type."""
    kind = reward.get("type")
    if kind == "bribes":
        return bribe(size, str(reward.get("amount", 1)))
    if kind == "discard_judgement":
        sprite = judgement_back(size).copy()
        d = ImageDraw.Draw(sprite)
        d.line([(size * 0.15, size * 0.85), (size * 0.85, size * 0.15)], fill=(210, 50, 50), width=max(2, size // 10))
        d.text((size * 0.82, size * 0.82), str(reward.get("amount", 1)), font=font(max(8, size // 3), True),
               fill=(210, 50, 50), anchor="mm")
        return sprite
    if kind == "relocate":
        return _relocate(size)
    return None


# ---------------------------------------------------------------------------------------------- faces

LINE_TOKENS = (2, 3, 4)


def draw_lines(img: Image.Image, d: ImageDraw.ImageDraw, lines: list[dict], top: int, row_h: int, width: int,
               k: int, icon_size: int) -> None:
    """A criminal's three lines on its full face: judgement tokens taken -> reward (top line first)."""
    label_font = font(18 * k, True)
    for i, line in enumerate(lines):
        y = top + i * row_h
        if i % 2 == 0:
            d.rectangle([4 * k, y, width - 4 * k, y + row_h - 1], fill=(232, 226, 236))
        cy = y + row_h // 2
        back = judgement_back(icon_size)
        img.paste(back, (10 * k, cy - back.height // 2), back)
        d.text((10 * k + back.width + 4 * k, cy), f"{line['judgement']}", font=label_font, fill=INK, anchor="lm")
        x = 10 * k + back.width + 22 * k
        d.polygon([(x, cy - 7 * k), (x + 12 * k, cy), (x, cy + 7 * k)], fill=TEXT_SOFT)
        x += 18 * k
        from .icons import reward_icon as any_reward_icon

        size = icon_size if len(line["reward"]) < 3 else icon_size * 9 // 10
        for reward in line["reward"]:
            sprite = any_reward_icon(reward, size)
            img.paste(sprite, (x, cy - sprite.height // 2), sprite)
            x += sprite.width + 4 * k


# ---------------------------------------------------------------------------------------------- screens


def tokens_strip(player: Mapping, size: int = 56, title: bool = True) -> Image.Image | None:
    """A seat's judgement tokens (face up when the view lists them, else face down) and its bribe tokens, or
    None when the view has no underworld part for that seat."""
    count = player.get("judgement")
    if count is None:
        return None
    faces = player.get("judgement_tokens")
    chips = [judgement_face(t, size) for t in faces] if faces is not None else [judgement_back(size)] * int(count)
    bribes = player.get("bribes")
    label = say("Judgement tokens" if faces is not None else "Judgement tokens (face down)")
    fnt = font(26, True)
    width = max(int(fnt.getlength(label)) + 20, len(chips) * (size + 6) + 20, 200)
    if bribes is not None:
        width += size + 90
    height = size + (40 if title else 8)
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    y = 0
    if title:
        d.text((0, 0), label, font=fnt, fill=TEXT_SOFT)
        y = 34
    x = 0
    if not chips:
        d.text((0, y + size // 2), say("none"), font=font(24), fill=TEXT_SOFT, anchor="lm")
        x = 80
    for chip in chips:
        img.paste(chip, (x, y), chip)
        x += size + 6
    if bribes is not None:
        x += 20
        sprite = bribe(size)
        img.paste(sprite, (x, y), sprite)
        d.text((x + size + 6, y + size // 2), f"\u00d7{int(bribes)}", font=font(34, True), fill=TEXT, anchor="lm")
    return img


def header_item(player: Mapping, size: int) -> tuple[Image.Image, str] | None:
    """For a pyramid's header: a face-down token and how many a seat holds (what everyone may see)."""
    count = player.get("judgement")
    if not count:
        return None
    return judgement_back(size), str(count)


__all__ = ["bribe", "draw_lines", "face_text", "header_item", "icon", "judgement_back", "judgement_face",
           "reward_icon", "tokens_strip"]
