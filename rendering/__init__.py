"""Pillow rendering of Viceroy views: pure functions, view in, PNG bytes out.

Nothing here reads a game state: every function takes a *view* (see docs/architecture.md), so an image
can only show what its viewer may see. ``*_image`` functions return PIL images (for composing and
benchmarks); ``render_*`` functions return PNG bytes ready for ``discord.File``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .boards import _fit as fit
from .boards import auction_image, scores_image, screen_image, table_image
from .cache import cached_png
from .cards import card_image
from .png import encode_png
from .pyramid import (
    PyramidLayout,
    pyramid_image,
    pyramid_layout,
    single_color_circles,
    slot_labels,
    slot_rects,
)
from .words import say

Names = Sequence[str] | Mapping[int, str]


@cached_png
def render_card(number: int, tokens: list[dict] | None = None, tucked: int = 0) -> bytes:
    """PNG of one card's full face, with tokens lying on it and its tucked-card count."""
    return encode_png(card_image(number, tokens, tucked), palette=True)


@cached_png
def render_pyramid(
    pyramid_view: Mapping,
    player_name: str,
    totals: Mapping[str, object] | None = None,
    slots: Sequence[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> bytes:
    """PNG of a pyramid; ``slots`` are places drawn as frames lettered per ``labels`` (default
    ``slot_labels(slots)``): occupied places too, for a law that acts on a card.

    Pyramids wider than 2400 px (a level 1 of 24+ cards) are scaled down; ``slot_rects`` describes the
    unscaled ``pyramid_image``. ``totals`` are extra 'label value' pairs for the header (e.g. {"hand": 2}); PP on cards, tokens and
    single-colour circles are counted from the pyramid itself.
    """
    return encode_png(fit(pyramid_image(pyramid_view, player_name, totals, slots, labels=labels)), palette=True)


@cached_png
def render_auction(auction_view: Mapping) -> bytes:
    """PNG of the auction: {colour: {"base": card|None, "tip": card|None}}."""
    return encode_png(auction_image(auction_view), palette=True)


@cached_png
def render_screen(seat_view: Mapping, player_name: str | None = None) -> bytes:
    """PNG of a seat's private screen (gems, attack tokens, hand). For DMs only."""
    return encode_png(screen_image(seat_view, player_name), palette=True)


@cached_png
def render_plan_start(seat_view: Mapping, seat: int, player_name: str | None = None) -> bytes:
    """PNG of what a plan starts from: the seat's screen (gems, hand) above its pyramid, one narrow column."""
    from PIL import Image

    from .style import BG

    screen = screen_image(seat_view, player_name)
    pyramid = pyramid_image(seat_view["players"][seat]["pyramid"], player_name or say("Your pyramid"))
    width = max(screen.width, pyramid.width)
    img = Image.new("RGB", (width, screen.height + pyramid.height), BG)
    img.paste(screen, ((width - screen.width) // 2, 0))
    img.paste(pyramid, ((width - pyramid.width) // 2, screen.height))
    return encode_png(fit(img), palette=True)


@cached_png
def render_table(public_view: Mapping, names: Names | None = None, *, narrow: bool = False) -> bytes:
    """PNG of the whole table from the public view: status, auction row and every pyramid; ``narrow``: laid
    out for a phone (see table_image)."""
    return encode_png(table_image(public_view, names, narrow=narrow), palette=True)


@cached_png
def render_scores(scores: Sequence[Mapping], names: Names | None = None) -> bytes:
    """PNG of the final score sheet (engine's final_scores() list)."""
    return encode_png(scores_image(scores, names), palette=True)


__all__ = [
    "PyramidLayout",
    "auction_image",
    "card_image",
    "encode_png",
    "pyramid_image",
    "pyramid_layout",
    "render_auction",
    "render_card",
    "render_plan_start",
    "render_pyramid",
    "render_scores",
    "render_screen",
    "render_table",
    "scores_image",
    "screen_image",
    "single_color_circles",
    "slot_labels",
    "slot_rects",
    "table_image",
]
