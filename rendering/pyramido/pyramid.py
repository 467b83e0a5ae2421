"""A Pyramido pyramid drawn from above, floor over floor, with gem icons, gems, cards and lettered positions.

Input is a player's entry of the public view (``view["players"][seat]``): floors with their blocks, each
block at its cell with colour, icon quadrants, gem and whether it is a single block card. Upper floors sit
half a block in from the floor below (corners on centres), so the picture is a quadrant grid: block (x, y)
of floor f covers quadrants 2x+f-1 .. 2x+f.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..style import (
    BG,
    GOLD,
    HIGHLIGHT,
    TEXT,
    TEXT_SOFT,
    centered_text,
    fit_font,
    font,
    new_canvas,
    text_width,
)
from ..words import say
from .palette import COLOUR_DARK, COLOUR_INK, COLOUR_LETTER, COLOUR_RGB, FLOOR_EDGE

Q = 26  # pixels per quadrant: a block is 52 px
MARGIN = 14
HEADER_H = 34
_QUAD = {"tl": (0, 0), "tr": (1, 0), "bl": (0, 1), "br": (1, 1)}


def position_labels(cells: Sequence[Sequence[int]]) -> dict[tuple[int, int], str]:
    """Letters for anchor cells in reading order (top row first): A..Z, then a..z."""
    letters = string.ascii_uppercase + string.ascii_lowercase
    ordered = sorted({(c[0], c[1]) for c in cells}, key=lambda c: (c[1], c[0]))
    return {c: (letters[i] if i < len(letters) else str(i + 1)) for i, c in enumerate(ordered)}


@dataclass(frozen=True)
class Frame:
    """Where quadrant (0, 0) of the picture lies, for a floor's cell grid."""

    qx0: int  # smallest quadrant x shown
    qy0: int
    qw: int  # quadrants across
    qh: int
    left: int
    top: int

    def block_box(self, floor: int, x: int, y: int) -> tuple[int, int, int, int]:
        off = floor - 1
        px = self.left + (2 * x + off - self.qx0) * Q
        py = self.top + (2 * y + off - self.qy0) * Q
        return px, py, px + 2 * Q, py + 2 * Q

    @property
    def size(self) -> tuple[int, int]:
        return self.qw * Q, self.qh * Q


def frame_for(player: Mapping, extra_cells: Iterable[tuple[int, int]] = (), floor: int = 1,
              left: int = MARGIN, top: int = MARGIN) -> Frame:
    """The quadrant window covering every block and the extra cells (on ``floor``), padded to at least 5×4."""
    quads: list[tuple[int, int]] = []
    for fv in player["floors"]:
        off = fv["floor"] - 1
        for b in fv["blocks"]:
            x, y = b["at"]
            quads += [(2 * x + off, 2 * y + off), (2 * x + off + 1, 2 * y + off + 1)]
    off = floor - 1
    for x, y in extra_cells:
        quads += [(2 * x + off, 2 * y + off), (2 * x + off + 1, 2 * y + off + 1)]
    if not quads:
        quads = [(0, 0), (1, 1)]
    qx0 = min(q[0] for q in quads)
    qy0 = min(q[1] for q in quads)
    qx1 = max(q[0] for q in quads)
    qy1 = max(q[1] for q in quads)
    shape = player.get("shape")
    min_w, min_h = (shape[0] * 2, shape[1] * 2) if shape else (8, 8)
    qw = max(qx1 - qx0 + 1, min_w)
    qh = max(qy1 - qy0 + 1, min_h)
    return Frame(qx0, qy0, qw, qh, left, top)


def _gem_icon(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int, ink: tuple[int, int, int]) -> None:
    """A printed gem icon: a small faceted diamond."""
    pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    draw.polygon(pts, fill=(255, 255, 255), outline=ink)
    draw.line([(cx - r // 2, cy - r // 2), (cx + r // 2, cy - r // 2)], fill=ink, width=1)


def _gem_marker(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: str) -> None:
    """A player's gem lying on a block: a round token with a gold ring and the colour letter."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    r = Q * 2 // 3
    draw.ellipse([cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3], fill=GOLD)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=COLOUR_DARK[colour], outline=(255, 255, 255), width=2)
    centered_text(draw, (cx, cy), COLOUR_LETTER[colour], font(15, bold=True), (255, 255, 255))


def draw_pyramid(draw: ImageDraw.ImageDraw, player: Mapping, frame: Frame) -> None:
    """Paint every floor's blocks (lower floors first) into ``frame``."""
    floors = list(player["floors"])
    top_floor = max((fv["floor"] for fv in floors if fv["blocks"]), default=1)
    # Which quadrants stay visible: the later floors paint over.
    owner: dict[tuple[int, int], tuple[int, int]] = {}
    for fi, fv in enumerate(floors):
        off = fv["floor"] - 1
        for bi, b in enumerate(fv["blocks"]):
            x, y = b["at"]
            for qx, qy in _QUAD.values():
                owner[(2 * x + off + qx, 2 * y + off + qy)] = (fi, bi)
    for fi, fv in enumerate(floors):
        floor = fv["floor"]
        for bi, b in enumerate(fv["blocks"]):
            x, y = b["at"]
            box = frame.block_box(floor, x, y)
            colour = b["colour"]
            draw.rectangle(box, fill=COLOUR_RGB[colour], outline=FLOOR_EDGE[min(floor, 4) - 1],
                           width=1 + floor)
            if b.get("card"):
                # single block card: an inner frame and a folded corner
                draw.rectangle([box[0] + 5, box[1] + 5, box[2] - 5, box[3] - 5], outline=(255, 255, 255), width=2)
                draw.polygon([(box[2] - 14, box[1] + 2), (box[2] - 2, box[1] + 2), (box[2] - 2, box[1] + 14)],
                             fill=(255, 255, 255))
            off = floor - 1
            visible = [q for q, (qx, qy) in _QUAD.items()
                       if owner.get((2 * x + off + qx, 2 * y + off + qy)) == (fi, bi)]
            for q in visible:
                qx, qy = _QUAD[q]
                cx = box[0] + qx * Q + Q // 2
                cy = box[1] + qy * Q + Q // 2
                if q in b["icons"]:
                    _gem_icon(draw, cx, cy, Q // 3, COLOUR_DARK[colour])
            # the colour letter in a visible quadrant without an icon (or the first visible one)
            spot = next((q for q in visible if q not in b["icons"]), visible[0] if visible else None)
            if spot is not None and not (b.get("gem") and floor == top_floor):
                qx, qy = _QUAD[spot]
                centered_text(draw, (box[0] + qx * Q + Q // 2, box[1] + qy * Q + Q // 2), COLOUR_LETTER[colour],
                              font(13, bold=True), COLOUR_INK[colour])
            if b.get("gem"):
                _gem_marker(draw, box, b["gem"])
            if b.get("preview"):
                draw.rectangle(box, outline=HIGHLIGHT, width=4)


def draw_labels(draw: ImageDraw.ImageDraw, frame: Frame, floor: int, labels: Mapping[tuple[int, int], str],
                taken: Iterable[tuple[int, int]] = ()) -> None:
    """Lettered free positions on ``floor`` (a dashed frame and a big letter)."""
    for (x, y), letter in labels.items():
        box = frame.block_box(floor, x, y)
        inset = (box[0] + 4, box[1] + 4, box[2] - 4, box[3] - 4)
        draw.rectangle(inset, fill=(28, 30, 36), outline=HIGHLIGHT, width=3)
        centered_text(draw, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), letter, font(24, bold=True),
                      HIGHLIGHT)


def _footer_lines(foot: str, width: int) -> list[str]:
    """The footer on one line if it reads there (11 px or more), else broken in two at the " · " nearest its
    middle (the Swedish words are longer)."""
    if text_width(foot, font(11)) <= width or " · " not in foot:
        return [foot]
    parts = foot.split(" · ")
    best = min(range(1, len(parts)),
               key=lambda i: abs(text_width(" · ".join(parts[:i]), font(11)) - text_width(foot, font(11)) / 2))
    return [" · ".join(parts[:best]), " · ".join(parts[best:])]


def pyramid_image(player: Mapping, name: str, floor: int | None = None,
                  labels: Mapping[tuple[int, int], str] | None = None, note: str = "") -> Image.Image:
    """One architect's pyramid from above; ``labels`` letter free cells of ``floor`` (the floor being built);
    ``note`` (English, said here) ends the footer."""
    floor = floor or max((fv["floor"] for fv in player["floors"]), default=1)
    labels = labels or {}
    frame = frame_for(player, labels.keys(), floor, MARGIN, MARGIN + HEADER_H)
    fw, fh = frame.size
    width = max(fw + 2 * MARGIN, 300)
    gems = " ".join(COLOUR_LETTER[c] for c in player.get("gems", []))
    cards = sum(1 for c in player.get("cards", []) if not c.get("used"))
    foot = f"Floor {floor} · gems left: {gems or '—'} · single block cards: {cards}"
    if player.get("lost"):
        foot = f"Lost: a floor's gaps needed more single block cards · cards left: {cards}"
    if note:
        foot += f" · {note}"
    lines = _footer_lines(say(foot), width - 2 * MARGIN)
    height = fh + 2 * MARGIN + HEADER_H + 22 + 16 * (len(lines) - 1)
    img, draw = new_canvas(width, height, BG)
    frame = Frame(frame.qx0, frame.qy0, frame.qw, frame.qh, (width - fw) // 2, MARGIN + HEADER_H)
    total = say(f"{player.get('total', 0)} pts")
    total_font = font(18, bold=True)
    draw.text((width - MARGIN, 10), total, font=total_font, fill=GOLD, anchor="ra")
    title = name if not player.get("lost") else f"{name} {say('(lost)')}"
    room = width - 2 * MARGIN - text_width(total, total_font) - 12
    draw.text((MARGIN, 8), title, font=fit_font(title, room, 20, bold=True), fill=TEXT)
    # the floor area still to build, faintly
    draw.rectangle([frame.left - 2, frame.top - 2, frame.left + fw + 2, frame.top + fh + 2], outline=(70, 76, 90))
    draw_pyramid(draw, player, frame)
    draw_labels(draw, frame, floor, labels)
    for i, line in enumerate(lines):
        y = height - 20 - 16 * (len(lines) - 1 - i)
        draw.text((MARGIN, y), line, font=fit_font(line, width - 2 * MARGIN, 13), fill=TEXT_SOFT)
    return img
