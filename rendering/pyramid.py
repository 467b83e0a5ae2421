"""A player's pyramid: compact faces laid with the half-card offset, circles marked, legal slots labelled."""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.viceroy import cards as cardlib

from .cards import PYR_H, PYR_R, PYR_W, paste_tokens_placed, placed_face
from .icons import SS, icon
from .style import BG, GOLD, HIGHLIGHT, INK, TEXT, TEXT_SOFT, fit_font, font, new_canvas
from .words import say

MARGIN = 20
GUTTER = 44  # level numbers on the left
HEADER_H = 112


def parse_slot(slot: str) -> tuple[int, int]:
    """'L:x' -> (L, x)."""
    level, x = slot.split(":")
    return int(level), int(x)


def slot_labels(slots: Sequence[str]) -> dict[str, str]:
    """Letters for legal slots in the order given: A, B, ... Z, then AA, AB, ..."""
    letters = string.ascii_uppercase
    out: dict[str, str] = {}
    for i, slot in enumerate(slots):
        out[slot] = letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26]
    return out


@dataclass(frozen=True)
class PyramidLayout:
    """Pixel geometry of a pyramid image; ``rect(slot)`` is the box a card at that slot occupies."""

    width: int
    height: int
    left: int  # pixel x of doubled coordinate ``umin``
    bottom: int  # pixel y of the bottom edge of level 1
    umin: int
    levels: int
    card_w: int = PYR_W
    card_h: int = PYR_H
    low: int = 1  # the lowest level drawn: 0 when cards lie under the first row (criminals)

    def rect(self, slot: str) -> tuple[int, int, int, int]:
        level, x = parse_slot(slot)
        x0 = self.left + (x - 1 - self.umin) * self.card_w // 2
        y1 = self.bottom - (level - self.low) * self.card_h
        return x0, y1 - self.card_h, x0 + self.card_w, y1

    def circle_center(self, slot: str) -> tuple[int, int]:
        """Centre of the circle completed by the card at ``slot`` (level >= 2): middle of its bottom edge."""
        x0, _, x1, y1 = self.rect(slot)
        return (x0 + x1) // 2, y1


def _cards(pyramid_view: Mapping) -> dict[str, dict]:
    cards = pyramid_view.get("cards", pyramid_view) if isinstance(pyramid_view, Mapping) else {}
    return {slot: entry for slot, entry in cards.items() if isinstance(entry, Mapping) and "card" in entry}


def pyramid_layout(pyramid_view: Mapping, slots: Iterable[str] | None = None, min_width: int = 0) -> PyramidLayout:
    """The geometry for a pyramid plus any extra (empty) slots that must be shown."""
    positions = [parse_slot(s) for s in _cards(pyramid_view)] + [parse_slot(s) for s in slots or ()]
    if not positions:
        positions = [(1, 0)]
    umin = min(x - 1 for _, x in positions)
    umax = max(x + 1 for _, x in positions)
    levels = max(level for level, _ in positions)
    low = min(1, min(level for level, _ in positions))  # level 0 only when something lies or may go there
    body_w = (umax - umin) * PYR_W // 2
    width = max(GUTTER + body_w + 2 * MARGIN, min_width)
    # centre the pyramid in the space right of the gutter
    left = GUTTER + MARGIN + (width - GUTTER - 2 * MARGIN - body_w) // 2
    height = HEADER_H + (levels - low + 1) * PYR_H + 2 * MARGIN
    return PyramidLayout(width, height, left, height - MARGIN, umin, levels, low=low)


def slot_rects(
    pyramid_view: Mapping, slots: Sequence[str], totals: Mapping | None = None, player_name: str = ""
) -> dict[str, tuple[int, int, int, int]]:
    """Pixel boxes of the given slots in the image pyramid_image draws for the same arguments."""
    layout = pyramid_layout(pyramid_view, slots, _header_width(pyramid_view, totals, player_name))
    return {slot: layout.rect(slot) for slot in slots}


def circle_colors(cards: Mapping[str, Mapping], slot: str) -> list[str] | None:
    """The four section colours of the circle completed by the card at ``slot`` (paint applied)."""
    level, x = parse_slot(slot)
    if level < 1:  # level 1 too: over two level-0 cards (criminals)
        return None
    left = cards.get(f"{level - 1}:{x - 1}")
    right = cards.get(f"{level - 1}:{x + 1}")
    upper = cards[slot]
    if left is None or right is None:
        return None

    def colors(entry: Mapping) -> dict[str, str]:
        c = cardlib.section_colors(entry["card"])
        c.update(entry.get("paint") or {})
        return c

    lc, rc, uc = colors(left), colors(right), colors(upper)
    return [lc["top_right"], rc["top_left"], uc["bottom_left"], uc["bottom_right"]]


def single_color_circles(pyramid_view: Mapping) -> list[tuple[str, str]]:
    """(slot of the upper card, colour) for every single-colour circle, in slot order."""
    cards = _cards(pyramid_view)
    out = []
    for slot in sorted(cards, key=parse_slot):
        cols = circle_colors(cards, slot)
        if cols and len(set(cols)) == 1:
            out.append((slot, cols[0]))
    return out


def pyramid_totals(pyramid_view: Mapping) -> dict[str, int]:
    """Key totals shown in the header: PP on cards and token counts."""
    t = dict.fromkeys(
        ("power_points", "science", "magic", "magic_bonus", "defense", "attack", "infinite_gem", "circles"), 0
    )
    for entry in _cards(pyramid_view).values():
        for tok in entry.get("tokens") or ():
            kind = tok.get("type")
            if kind == "power_points":
                t[kind] += int(tok.get("value", tok.get("amount", 0)))
            elif kind == "magic_bonus":
                t[kind] += int(tok.get("value", 0))
            elif kind in t:
                t[kind] += int(tok.get("amount", 1))
    t["circles"] = len(single_color_circles(pyramid_view))
    return t


@lru_cache(maxsize=4)
def _ring(radius: int) -> Image.Image:
    """Gold ring marking a single-colour circle."""
    pad = 8
    n = (radius + pad) * 2 * SS
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse([SS, SS, n - SS, n - SS], outline=(20, 20, 20, 255), width=9 * SS)
    d.ellipse([2 * SS, 2 * SS, n - 2 * SS, n - 2 * SS], outline=GOLD + (255,), width=6 * SS)
    size = (radius + pad) * 2
    return img.resize((size, size), Image.Resampling.LANCZOS)


HEADER_ICON = 40


def _header_items(pyramid_view: Mapping, totals: Mapping | None) -> list[tuple[Image.Image | None, str]]:
    t = pyramid_totals(pyramid_view)
    items: list[tuple[Image.Image | None, str]] = [(icon("power_points", HEADER_ICON, None, "PP"), str(t["power_points"]))]
    for kind in ("science", "magic", "defense", "attack"):
        if t[kind]:
            items.append((icon(kind, HEADER_ICON), str(t[kind])))
    if t["magic_bonus"]:
        items.append((icon("magic_bonus", HEADER_ICON, None, "+"), str(t["magic_bonus"])))
    if t["infinite_gem"]:
        items.append((icon("gems", HEADER_ICON, None, "\u221e"), str(t["infinite_gem"])))
    if t["circles"]:
        items.append((_ring(HEADER_ICON // 2 - 8), str(t["circles"])))
    for label, value in (totals or {}).items():
        if isinstance(value, tuple):  # an extra with its own sprite: (image, text)
            items.append(value)
        else:
            items.append((None, f"{say(label)} {say(value) if isinstance(value, str) else value}"))
    return items


_ITEM_GAP = 18


def _items_width(items: list[tuple[Image.Image | None, str]]) -> int:
    fnt = font(30, True)
    w = 0
    for sprite, text in items:
        w += (sprite.width + 6 if sprite is not None else 0) + int(fnt.getlength(text)) + _ITEM_GAP
    return w


MIN_WIDTH = 480


def _header_width(pyramid_view: Mapping, totals: Mapping | None, name: str = "") -> int:
    """Width the header needs (name and totals), between MIN_WIDTH and 1200 px."""
    need = max(_items_width(_header_items(pyramid_view, totals)), int(font(42, True).getlength(name)))
    return max(MIN_WIDTH, min(need + 2 * MARGIN, 1200))


def _draw_header(img: Image.Image, d: ImageDraw.ImageDraw, name: str, items: list, width: int) -> None:
    d.text((MARGIN, MARGIN - 4), name, font=fit_font(name, width - 2 * MARGIN, 42, bold=True), fill=TEXT)
    x, y = MARGIN, MARGIN + 52
    fnt = font(30, True)
    for sprite, text in items:
        if sprite is not None:
            img.paste(sprite, (x, y + (HEADER_ICON - sprite.height) // 2), sprite)
            x += sprite.width + 6
        d.text((x, y + HEADER_ICON // 2), text, font=fnt, fill=TEXT if sprite is not None else TEXT_SOFT, anchor="lm")
        x += int(fnt.getlength(text)) + _ITEM_GAP


def _draw_slot_frame(img: Image.Image, box: tuple[int, int, int, int], letter: str, occupied: bool) -> None:
    x0, y0, x1, y1 = box
    overlay = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    if occupied:
        od.rectangle([0, 0, x1 - x0 - 1, y1 - y0 - 1], outline=HIGHLIGHT + (255,), width=6)
    else:
        od.rectangle([5, 5, x1 - x0 - 6, y1 - y0 - 6], fill=(255, 255, 255, 34), outline=HIGHLIGHT + (255,), width=4)
    img.paste(overlay, (x0, y0), overlay)
    d = ImageDraw.Draw(img)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    r = 38
    d.rounded_rectangle([cx - r, cy - r, cx + r, cy + r], radius=14, fill=HIGHLIGHT, outline=INK, width=3)
    d.text((cx, cy), letter, font=fit_font(letter, 2 * r - 8, 60, bold=True), fill=INK, anchor="mm")


def _draw_tag(img: Image.Image, box: tuple[int, int, int, int], letter: str) -> None:
    x0, _, _, y1 = box
    d = ImageDraw.Draw(img)
    r = 20
    cx, cy = x0 + 10 + r, y1 - 10 - r
    d.rounded_rectangle([cx - r, cy - r, cx + r, cy + r], radius=8, fill=(235, 235, 235), outline=INK, width=2)
    d.text((cx, cy), letter, font=fit_font(letter, 2 * r - 6, 30, bold=True), fill=INK, anchor="mm")


def pyramid_image(
    pyramid_view: Mapping,
    player_name: str,
    totals: Mapping | None = None,
    slots: Sequence[str] | None = None,
    background: tuple[int, int, int] = BG,
    labels: Mapping[str, str] | None = None,
) -> Image.Image:
    """Compose the pyramid image (see render_pyramid)."""
    cards = _cards(pyramid_view)
    items = _header_items(pyramid_view, totals)
    layout = pyramid_layout(pyramid_view, slots, _header_width(pyramid_view, totals, player_name))
    img, d = new_canvas(layout.width, layout.height, background)
    _draw_header(img, d, player_name, items, layout.width)
    level_font = font(26, True)
    for level in range(layout.low, layout.levels + 1):
        y = layout.bottom - (level - layout.low) * PYR_H - PYR_H // 2
        d.text((MARGIN + GUTTER // 2 - 6, y), f"L{level}", font=level_font, fill=TEXT_SOFT, anchor="mm")
    for slot, entry in cards.items():
        x0, y0, _, _ = layout.rect(slot)
        paint = tuple(sorted((entry.get("paint") or {}).items()))
        img.paste(placed_face(entry["card"], paint), (x0, y0))
        paste_tokens_placed(img, x0, y0, entry)
    ring = _ring(PYR_R)
    for slot, _color in single_color_circles(pyramid_view):
        cx, cy = layout.circle_center(slot)
        img.paste(ring, (cx - ring.width // 2, cy - ring.height // 2), ring)
    if not cards and not slots:
        d.text((layout.width // 2, layout.bottom - PYR_H // 2), say("no cards yet"), font=font(28), fill=TEXT_SOFT,
               anchor="mm")
    # ``labels``: the letters the prompt's menus use for these places (default: A, B, ... in the given order).
    lettered = slot_labels(list(slots or ())) if labels is None else {s: labels[s] for s in slots or () if s in labels}
    for slot, letter in lettered.items():
        _draw_slot_frame(img, layout.rect(slot), letter, slot in cards)
    # Every other lettered card carries a small tag, so each letter a menu names can be found on the picture.
    for slot, letter in (labels or {}).items():
        if slot in cards and slot not in lettered:
            _draw_tag(img, layout.rect(slot), letter)
    return img
