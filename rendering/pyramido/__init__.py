"""Pillow pictures of Pyramido views: pyramids from above with lettered positions, the market, score sheets.

Every function takes a *view* (``engine.pyramido.view``), never a state. ``*_image`` return PIL images;
``render_*`` return PNG bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cache import cached_png
from ..png import encode_png
from .boards import Names, draw_domino, market_image, sheet_image, table_image
from .palette import COLOUR_LETTER, COLOUR_RGB
from .pyramid import Frame, frame_for, position_labels, pyramid_image


@cached_png
def render_pyramid(player: Mapping, name: str, floor: int | None = None,
                   anchors: Sequence[Sequence[int]] = ()) -> bytes:
    """PNG of one pyramid; ``anchors`` (cells of the floor being built) are lettered per ``position_labels``."""
    return encode_png(pyramid_image(player, name, floor, position_labels(anchors) if anchors else None))


@cached_png
def render_domino(domino: Mapping, size: int = 160) -> bytes:
    """PNG of one domino as printed (``engine.pyramido.views.domino_view``), large enough to read."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (2 * size + 24, size + 24), (40, 44, 52))
    draw_domino(ImageDraw.Draw(img), 12, 12, domino, size)
    return encode_png(img)


@cached_png
def render_market(view: Mapping) -> bytes:
    return encode_png(market_image(view))


@cached_png
def render_sheet(view: Mapping, floor: int, names: Names = None) -> bytes:
    return encode_png(sheet_image(view, floor, names))


@cached_png
def render_table(view: Mapping, names: Names = None) -> bytes:
    return encode_png(table_image(view, names))


__all__ = ["COLOUR_LETTER", "COLOUR_RGB", "Frame", "draw_domino", "frame_for", "market_image", "plan_image",
           "position_labels", "pyramid_image", "render_market", "render_plan", "render_pyramid", "render_sheet",
           "render_table", "sheet_image", "table_image"]


def plan_image(view: Mapping, seat: int, name: str, anchors: Sequence[Sequence[int]] = (),
               preview: Sequence[Mapping] = ()):
    """A turn picture for ``seat``: their pyramid with the free positions lettered (and a planned domino drawn
    in place, outlined), above the market."""
    from PIL import Image

    player = dict(view["players"][seat])
    floor = view["floor"]
    if preview:
        floors = [dict(fv) for fv in player["floors"]]
        top = next(fv for fv in floors if fv["floor"] == floor)
        top["blocks"] = list(top["blocks"]) + [dict(b, preview=True) for b in preview]
        player["floors"] = floors
    labels = position_labels(anchors) if anchors else None
    pyr = pyramid_image(player, name, floor, labels)
    market = market_image(view)
    width = max(pyr.width, market.width)
    img = Image.new("RGB", (width, pyr.height + market.height), (40, 45, 54))
    img.paste(pyr, ((width - pyr.width) // 2, 0))
    img.paste(market, ((width - market.width) // 2, pyr.height))
    return img


@cached_png
def render_plan(view: Mapping, seat: int, name: str, anchors: Sequence[Sequence[int]] = (),
                preview: Sequence[Mapping] = ()) -> bytes:
    return encode_png(plan_image(view, seat, name, anchors, preview))
