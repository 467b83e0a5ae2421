"""Pillow rendering of Splendor Duel views: view in, PNG bytes out.

``*_image`` functions return PIL images (for composing and benchmarks); ``render_*`` return PNG bytes.
A public view gives the channel's table image; a seat's view gives that seat's private screen, the same
picture with the seat's blind reserves face up.
"""

from __future__ import annotations

from collections.abc import Mapping

from rendering.cache import cached_png
from rendering.png import encode_png

from .sprites import back, card, royal, token
from .table import Names, board_image, pyramid_image, table_image


@cached_png
def render_table(view: Mapping, names: Names | None = None) -> bytes:
    """PNG of the table as ``view`` shows it (public view for the channel, a seat's view for its screen)."""
    return encode_png(table_image(view, names))


@cached_png
def render_board(view: Mapping) -> bytes:
    """PNG of the labelled 5×5 token board alone (for the token-picking prompt)."""
    return encode_png(board_image(view))


@cached_png
def render_card(card_id: str) -> bytes:
    return encode_png(card(card_id))


__all__ = [
    "back",
    "board_image",
    "card",
    "pyramid_image",
    "render_board",
    "render_card",
    "render_table",
    "royal",
    "table_image",
    "token",
]
