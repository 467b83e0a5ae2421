"""Pyramido's six block colours, each with a letter so pictures read without colour."""

from __future__ import annotations

from engine.pyramido.tiles import COLOURS

RGB = tuple[int, int, int]

COLOUR_RGB: dict[str, RGB] = {
    "brown": (146, 96, 56),
    "blue": (46, 98, 198),
    "yellow": (238, 196, 54),
    "aqua": (84, 204, 206),
    "red": (204, 58, 50),
    "green": (56, 150, 74),
}
COLOUR_DARK: dict[str, RGB] = {
    "brown": (82, 50, 24),
    "blue": (20, 46, 110),
    "yellow": (132, 98, 8),
    "aqua": (18, 100, 104),
    "red": (118, 26, 22),
    "green": (20, 78, 36),
}
# Brown is N (browN) so that it does not clash with Blue.
COLOUR_LETTER: dict[str, str] = {"brown": "N", "blue": "B", "yellow": "Y", "aqua": "A", "red": "R", "green": "G"}
COLOUR_INK: dict[str, RGB] = {
    "brown": (255, 255, 255),
    "blue": (255, 255, 255),
    "yellow": (50, 36, 0),
    "aqua": (10, 50, 52),
    "red": (255, 255, 255),
    "green": (255, 255, 255),
}
# Block outlines per floor: higher floors get lighter, thicker edges so the steps read.
FLOOR_EDGE: tuple[RGB, ...] = ((30, 26, 22), (60, 56, 50), (200, 200, 200), (255, 255, 255))

assert set(COLOUR_RGB) == set(COLOURS) == set(COLOUR_LETTER)
