"""The market (quarry and the four piles' tops), floor score sheets, and the whole table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from ..style import (
    BG,
    BG_PANEL,
    GOLD,
    TEXT,
    TEXT_SOFT,
    centered_text,
    fit_font,
    font,
    new_canvas,
    player_name,
)
from ..words import say
from .palette import COLOUR_DARK, COLOUR_INK, COLOUR_LETTER, COLOUR_RGB
from .pyramid import Frame, Q, _gem_icon, draw_pyramid, pyramid_image

Names = Sequence[str] | Mapping[int, str] | None
_QUAD = {"tl": (0, 0), "tr": (1, 0), "bl": (0, 1), "br": (1, 1)}
B = 48  # block size in the market


def draw_block(draw: ImageDraw.ImageDraw, x: int, y: int, size: int, colour: str, icons: Sequence[str]) -> None:
    draw.rectangle([x, y, x + size, y + size], fill=COLOUR_RGB[colour], outline=(20, 20, 20), width=2)
    q = size // 2
    for name in icons:
        qx, qy = _QUAD[name]
        _gem_icon(draw, x + qx * q + q // 2, y + qy * q + q // 2, q // 3, COLOUR_DARK[colour])
    spot = next((n for n in ("tl", "tr", "bl", "br") if n not in icons), "tl")
    qx, qy = _QUAD[spot]
    centered_text(draw, (x + qx * q + q // 2, y + qy * q + q // 2), COLOUR_LETTER[colour], font(12, bold=True),
                  COLOUR_INK[colour])


def draw_domino(draw: ImageDraw.ImageDraw, x: int, y: int, domino: Mapping, size: int = B) -> None:
    """A domino as printed: block a on the left, block b on the right."""
    draw_block(draw, x, y, size, domino["a"]["colour"], domino["a"]["icons"])
    draw_block(draw, x + size, y, size, domino["b"]["colour"], domino["b"]["icons"])


def market_image(view: Mapping) -> Image.Image:
    """The four face-up piles (their tops and sizes) with the three quarry dominoes in front of them."""
    col = 2 * B + 30
    width = 4 * col + 40
    height = 2 * B + 150
    img, draw = new_canvas(width, height, BG_PANEL)
    draw.text((14, 8), say("Market"), font=font(18, bold=True), fill=TEXT)
    for pile in view["piles"]:
        x = 20 + pile["pile"] * col
        y = 40
        draw.text((x, y - 2), say(f"Pile {pile['pile'] + 1} · {pile['count']}"), font=font(13), fill=TEXT_SOFT)
        if pile["top"] is not None:
            draw_domino(draw, x, y + 16, pile["top"], B * 3 // 4)
        else:
            draw.rectangle([x, y + 16, x + B * 3 // 2, y + 16 + B * 3 // 4], outline=TEXT_SOFT)
    for slot in view["quarry"]:
        if slot is None:
            continue
        # space k stands in front of piles k and k+1: centred between them
        x = 20 + slot["slot"] * col + col // 2 + 4
        y = 40 + 16 + B * 3 // 4 + 24
        draw.rectangle([x - 6, y - 6, x + 2 * B + 6, y + B + 22], fill=(34, 38, 46), outline=GOLD, width=2)
        draw_domino(draw, x, y, slot)
        draw.text((x, y + B + 3), say(f"Space {slot['slot'] + 1} · #{slot['domino']}"), font=font(12), fill=TEXT)
    return img


def _outline_area(draw: ImageDraw.ImageDraw, frame: Frame, cells: Sequence[Sequence[int]], colour: tuple,
                  width: int) -> None:
    """Trace the outer edges of a group of quadrants."""
    inside = {(c[0], c[1]) for c in cells}
    for x, y in inside:
        px = frame.left + (x - frame.qx0) * Q
        py = frame.top + (y - frame.qy0) * Q
        if (x, y - 1) not in inside:
            draw.line([(px, py), (px + Q, py)], fill=colour, width=width)
        if (x, y + 1) not in inside:
            draw.line([(px, py + Q), (px + Q, py + Q)], fill=colour, width=width)
        if (x - 1, y) not in inside:
            draw.line([(px, py), (px, py + Q)], fill=colour, width=width)
        if (x + 1, y) not in inside:
            draw.line([(px + Q, py), (px + Q, py + Q)], fill=colour, width=width)


def sheet_image(view: Mapping, floor: int, names: Names = None) -> Image.Image:
    """A floor's score sheet: for every architect the pyramid as it was scored, each scored area outlined and
    listed (colour, icons), Mino's bonus (★, the smallest scored area) and the floor total."""
    players = [p for p in view["players"] if len(p["sheets"]) >= floor]
    shapes = [p.get("shape") or [5, 4] for p in players]
    pic_w = max((2 * s[0] * Q for s in shapes), default=10 * Q)
    pic_h = max((2 * s[1] * Q for s in shapes), default=8 * Q)
    col = max(250, pic_w + 20)
    rows = max((len(p["sheets"][floor - 1]["areas"]) for p in players), default=0)
    width = max(col * max(len(players), 1) + 20, 300)
    height = 90 + pic_h + 16 + 26 * (rows + 3)
    img, draw = new_canvas(width, height, BG)
    draw.text((14, 10), say(f"Floor {floor} scoring"), font=font(22, bold=True), fill=TEXT)
    for i, p in enumerate(players):
        sheet = p["sheets"][floor - 1]
        x = 14 + i * col
        y = 48
        name = player_name(names, p["seat"])
        draw.text((x, y), name, font=fit_font(name, col - 20, 17, bold=True), fill=GOLD)
        y += 28
        shape = p.get("shape") or [5, 4]
        frame = Frame(0, 0, 2 * shape[0], 2 * shape[1], x, y)
        as_scored = {"floors": [fv for fv in p["floors"] if fv["floor"] <= floor], "shape": shape}
        draw_pyramid(draw, as_scored, frame)
        mino = sheet["mino"]
        for j, area in enumerate(sheet["areas"]):
            smallest = mino is not None and mino.get("index") == j
            _outline_area(draw, frame, area["cells"] or [], GOLD if smallest else (255, 255, 255), 4 if smallest else 2)
        y += pic_h + 16
        for j, area in enumerate(sheet["areas"]):
            colour = area["colour"]
            draw.rectangle([x, y, x + 20, y + 20], fill=COLOUR_RGB[colour], outline=(0, 0, 0))
            centered_text(draw, (x + 10, y + 10), COLOUR_LETTER[colour], font(12, bold=True), COLOUR_INK[colour])
            icons = area["icons"]
            line = say(f"{colour} area: {icons} icon{'' if icons == 1 else 's'}")
            if mino is not None and mino.get("index") == j:
                line += "  ★ " + say("smallest")
            draw.text((x + 28, y + 2), line, font=fit_font(line, col - 48, 14, min_size=11), fill=TEXT)
            y += 26
        if not sheet["areas"]:
            draw.text((x, y + 2), say("no scored area"), font=font(14), fill=TEXT_SOFT)
            y += 26
        if mino is not None:
            bonus = say(f"Mino's bonus: +{sheet['mino_points']} ({mino['colour']})")
        else:
            bonus = say(f"Mino's bonus: +{sheet['mino_points']}")
        draw.text((x, y + 2), bonus, font=fit_font(bonus, col - 20, 14, bold=True, min_size=11), fill=TEXT)
        y += 26
        total = say(f"Floor total: {sheet['total']}")
        draw.text((x, y + 2), total, font=fit_font(total, col - 20, 16, bold=True, min_size=11), fill=GOLD)
    return img


def table_image(view: Mapping, names: Names = None) -> Image.Image:
    """The whole table: a status line, the market and every pyramid (two per row)."""
    market = market_image(view)
    pyramids = []
    for p in view["players"]:
        note = "to play" if view.get("turn") == p["seat"] else ""
        pyramids.append(pyramid_image(p, player_name(names, p["seat"]), view["floor"], note=note))
    per_row = 2
    cell_w = max(im.width for im in pyramids)
    cell_h = max(im.height for im in pyramids)
    rows = (len(pyramids) + per_row - 1) // per_row
    width = max(market.width, per_row * cell_w + (per_row + 1) * 10)
    height = 44 + market.height + 10 + rows * (cell_h + 10)
    img, draw = new_canvas(width, height, BG)
    if view.get("over"):
        status = say("Pyramido · game over")
    else:
        turn = view.get("turn")
        status = say(f"Pyramido · floor {view['floor']} · {player_name(names, turn)} to play")
    draw.text((14, 10), status, font=fit_font(status, width - 28, 22, bold=True), fill=TEXT)
    img.paste(market, ((width - market.width) // 2, 44))
    top = 44 + market.height + 10
    for i, im in enumerate(pyramids):
        r, c = divmod(i, per_row)
        img.paste(im, (10 + c * (cell_w + 10), top + r * (cell_h + 10)))
    return img
