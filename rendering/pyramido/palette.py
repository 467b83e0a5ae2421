"""Pyramido's six block colours, each with a letter so pictures read without colour."""

from __future__ import annotations

from engine.pyramido.tiles import COLOURS
from rendering.style import RGB, WHITE, Swatch, swatch_maps

# Brown is N (browN) so that it does not clash with Blue.
SWATCHES: dict[str, Swatch] = {
    "brown": Swatch((146, 96, 56), (82, 50, 24), WHITE, "N"),
    "blue": Swatch((46, 98, 198), (20, 46, 110), WHITE, "B"),
    "yellow": Swatch((238, 196, 54), (132, 98, 8), (50, 36, 0), "Y"),
    "aqua": Swatch((84, 204, 206), (18, 100, 104), (10, 50, 52), "A"),
    "red": Swatch((204, 58, 50), (118, 26, 22), WHITE, "R"),
    "green": Swatch((56, 150, 74), (20, 78, 36), WHITE, "G"),
}
COLOUR_RGB, COLOUR_DARK, COLOUR_INK, COLOUR_LETTER = swatch_maps(SWATCHES)
# Block outlines per floor: higher floors get lighter, thicker edges so the steps read.
FLOOR_EDGE: tuple[RGB, ...] = ((30, 26, 22), (60, 56, 50), (200, 200, 200), (255, 255, 255))

assert set(COLOUR_RGB) == set(COLOURS) == set(COLOUR_LETTER)
