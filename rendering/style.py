"""Palette, fonts and small drawing helpers shared by every renderer.

Fonts are the DejaVu Sans Condensed files shipped in ``rendering/fonts`` so that images look the same on a
bare CI machine as on a developer's laptop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from .words import say

RGB = tuple[int, int, int]

WHITE: RGB = (255, 255, 255)


@dataclass(frozen=True)
class Swatch:
    """One colour of a game's pieces: its fill, a dark shade for edges, the ink for a letter drawn on it, and
    the letter itself (every colour always carries its letter, so nothing depends on colour vision)."""

    fill: RGB
    dark: RGB
    ink: RGB
    letter: str


def swatch_maps(swatches: Mapping[str, Swatch]) -> tuple[dict[str, RGB], dict[str, RGB], dict[str, RGB], dict[str, str]]:
    """The fill, dark, ink and letter look-up tables of a palette, keyed like it."""
    return ({k: s.fill for k, s in swatches.items()}, {k: s.dark for k, s in swatches.items()},
            {k: s.ink for k, s in swatches.items()}, {k: s.letter for k, s in swatches.items()})


# Viceroy's section / gem colours, chosen to stay apart for the common colour-vision deficiencies when paired
# with the letter each one always carries (white ink on the dark colours, near-black on yellow).
VICEROY_SWATCHES: dict[str, Swatch] = {
    "red": Swatch((206, 62, 52), (120, 30, 24), WHITE, "R"),
    "green": Swatch((52, 148, 82), (22, 80, 42), WHITE, "G"),
    "blue": Swatch((48, 104, 196), (22, 52, 112), WHITE, "B"),
    "yellow": Swatch((240, 190, 48), (140, 100, 10), (50, 36, 0), "Y"),
}
COLOR_RGB, COLOR_DARK, COLOR_INK, COLOR_LETTER = swatch_maps(VICEROY_SWATCHES)
COLOR_NAME: dict[str, str] = {"red": "Red", "green": "Green", "blue": "Blue", "yellow": "Yellow"}

PAPER: RGB = (247, 241, 227)
PAPER_SHADE: RGB = (236, 226, 204)
INK: RGB = (40, 34, 28)
INK_SOFT: RGB = (120, 108, 92)
BG: RGB = (40, 45, 54)
BG_PANEL: RGB = (52, 58, 70)
TEXT: RGB = (238, 240, 244)
TEXT_SOFT: RGB = (170, 178, 192)
GOLD: RGB = (244, 196, 64)
HIGHLIGHT: RGB = (255, 214, 90)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped TTF at a pixel size (cached: loading a face is the slow part of drawing text)."""
    name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
    with resources.as_file(resources.files("rendering").joinpath("fonts", name)) as path:
        return ImageFont.truetype(str(path), size)


def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    return int(fnt.getlength(text))


def fit_font(text: str, max_width: int, size: int, bold: bool = False, min_size: int = 10) -> ImageFont.FreeTypeFont:
    """The largest font not above ``size`` in which ``text`` fits ``max_width``."""
    while size > min_size and text_width(text, font(size, bold)) > max_width:
        size -= 1
    return font(size, bold)


def wrap(text: str, fnt: ImageFont.FreeTypeFont, max_width: int) -> list[str]:
    """Greedy word wrap by measured width."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, fnt) > max_width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def centered_text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont, fill: RGB
) -> None:
    """Draw text centred on a point (middle-middle anchor)."""
    draw.text(xy, text, font=fnt, fill=fill, anchor="mm")


def dashed_rect(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: RGB, width: int = 3, dash: int = 14
) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        draw.line([(x, y0), (min(x + dash, x1), y0)], fill=fill, width=width)
        draw.line([(x, y1), (min(x + dash, x1), y1)], fill=fill, width=width)
    for y in range(y0, y1, dash * 2):
        draw.line([(x0, y), (x0, min(y + dash, y1))], fill=fill, width=width)
        draw.line([(x1, y), (x1, min(y + dash, y1))], fill=fill, width=width)


def player_name(names: Sequence[str] | Mapping[int, str] | None, seat: int) -> str:
    """A seat's display name from a list or a mapping; 'Seat N' when unknown."""
    if names is not None:
        try:
            value = names[seat]
        except (KeyError, IndexError, TypeError):
            value = None
        if value:
            return str(value)
    return say(f"Seat {seat + 1}")


def new_canvas(width: int, height: int, color: RGB = BG) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (max(1, width), max(1, height)), color)
    return img, ImageDraw.Draw(img)

# Section colours besides the four (Times of Darkness): a domain card's multicoloured sections ("any") and an
# aristocrat's colourless lower sections ("none", where its extra reward is printed). Sections only, never gems.
SECTION_RGB: dict[str, RGB] = {**COLOR_RGB, "any": (236, 236, 244), "none": (214, 204, 184)}
SECTION_LETTER: dict[str, str] = {**COLOR_LETTER, "any": "*", "none": "-"}
SECTION_INK: dict[str, RGB] = {**COLOR_INK, "any": (40, 34, 28), "none": (90, 78, 56)}
