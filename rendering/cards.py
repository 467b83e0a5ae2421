"""Card faces: the full face (hand, auction) and the compact face used inside a pyramid.

Both put the sections where the printed card has them: quarter circles centred on the two top corners and
a half circle centred on the bottom edge, so cards laid edge to edge with the half-card offset form the
game's circles by themselves. Faces are cached per card; tokens are pasted on a copy.
"""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw

from engine.viceroy import cards as cardlib

from .darkness import draw_aristocrat_extra
from .icons import icon, reward_icon, token_chips
from .style import (
    INK,
    INK_SOFT,
    PAPER,
    PAPER_SHADE,
    SECTION_INK,
    SECTION_LETTER,
    SECTION_RGB,
    VICEROY_SWATCHES,
    fit_font,
    font,
    wrap,
)
from .words import per_language, say

# Full face (hand, auction), the proportions of the printed card.
CARD_W, CARD_H, CARD_R = 260, 364, 54
# Compact face inside a pyramid.
PYR_W, PYR_H, PYR_R = 200, 176, 46

_K = 2  # faces are drawn at twice their size and scaled down (smooth circles)
_EDGE = (70, 58, 44)
SECTION_NAMES = ("top_left", "top_right", "bottom_left", "bottom_right")

assert set(VICEROY_SWATCHES) == set(cardlib.COLORS), "every Viceroy colour needs a swatch"


def section_centers(w: int, h: int, r: int) -> dict[str, tuple[int, int]]:
    """A point well inside each section of a face of size w x h (the spot its letter is drawn)."""
    return {
        "top_left": (int(r * 0.4), int(r * 0.4)),
        "top_right": (w - int(r * 0.4), int(r * 0.4)),
        "bottom_left": (w // 2 - int(r * 0.45), h - int(r * 0.38)),
        "bottom_right": (w // 2 + int(r * 0.45), h - int(r * 0.38)),
    }


def section_probes(w: int, h: int, r: int) -> dict[str, tuple[int, int]]:
    """One pixel inside each section, clear of its letter and edge: where that section's colour shows."""
    dx, dy = int(r * 0.8), int(r * 0.29)
    return {
        "top_left": (dx, dy),
        "top_right": (w - 1 - dx, dy),
        "bottom_left": (w // 2 - dx, h - 1 - dy),
        "bottom_right": (w // 2 + dx, h - 1 - dy),
    }


def _hatch(img: Image.Image, shape_mask: Image.Image, k: int) -> None:
    """White diagonal stripes over a painted section, so painting shows without relying on colour."""
    w, h = img.size
    stripes = Image.new("L", (w, h), 0)
    sd = ImageDraw.Draw(stripes)
    step = 9 * k
    for x in range(-h, w, step):
        sd.line([(x, h), (x + h, 0)], fill=200, width=2 * k)
    img.paste((255, 255, 255), mask=ImageChops.multiply(stripes, shape_mask))


def _draw_sections(img: Image.Image, w: int, h: int, r: int, colors: dict[str, str], painted: frozenset[str],
                   k: int, letter_size: int) -> None:
    d = ImageDraw.Draw(img)
    # (section, circle centre, start angle, end angle) in PIL's clockwise-from-east degrees
    parts = [
        ("top_left", (0, 0), 0, 90),
        ("top_right", (w, 0), 90, 180),
        ("bottom_left", (w // 2, h), 180, 270),
        ("bottom_right", (w // 2, h), 270, 360),
    ]
    for section, (cx, cy), a0, a1 in parts:
        box = [cx - r, cy - r, cx + r, cy + r]
        color = colors[section]
        d.pieslice(box, a0, a1, fill=SECTION_RGB[color])
        if section in painted:
            mask = Image.new("L", img.size, 0)
            ImageDraw.Draw(mask).pieslice(box, a0, a1, fill=255)
            _hatch(img, mask, k)
        d.arc(box, a0, a1, fill=_EDGE, width=2 * k)
    if colors["bottom_left"] == colors["bottom_right"] and not painted & {"bottom_left", "bottom_right"}:
        d.line([(w // 2 - r, h - 1), (w // 2 + r, h - 1)], fill=_EDGE, width=k)
    else:
        d.line([(w // 2, h - r), (w // 2, h)], fill=_EDGE, width=2 * k)
    centers = section_centers(w, h, r)
    fnt = font(letter_size * k, True)
    shown = list(SECTION_NAMES)
    if colors["bottom_left"] == colors["bottom_right"] and not painted & {"bottom_left", "bottom_right"}:
        shown = ["top_left", "top_right"]
        c = colors["bottom_left"]
        if c != "none":
            d.text((w // 2, h - int(r * 0.42)), SECTION_LETTER[c], font=fnt, fill=SECTION_INK[c], anchor="mm")
    for section in shown:
        c = colors[section]
        if c != "none":  # an aristocrat's colourless half circle carries its extra reward instead
            d.text(centers[section], SECTION_LETTER[c], font=fnt, fill=SECTION_INK[c], anchor="mm")


def _frame(d: ImageDraw.ImageDraw, w: int, h: int, k: int) -> None:
    d.rectangle([0, 0, w - 1, h - 1], outline=_EDGE, width=2 * k)


def short_name(number: int) -> str:
    """The card's name without the alternative after a slash ('Lookout / Sentry' -> 'Lookout')."""
    return cardlib.name(number).split(" / ")[0]


@per_language(maxsize=128)
def full_face(number: int) -> Image.Image:
    """The full card face (RGB, CARD_W x CARD_H): sections, number, name, rows or law text."""
    k = _K
    w, h, r = CARD_W * k, CARD_H * k, CARD_R * k
    data = cardlib.card(number)
    law = cardlib.is_law(number)
    img = Image.new("RGB", (w, h), PAPER_SHADE if law else PAPER)
    d = ImageDraw.Draw(img)
    d.text((w // 2, 6 * k), f"#{number}", font=font(30 * k, True), fill=INK, anchor="mt")
    name_font = fit_font(data["name"], (CARD_W - 30) * k, 24 * k, bold=True)
    d.text((w // 2, 58 * k), data["name"], font=name_font, fill=INK, anchor="mm")
    if law or "rows" not in data:
        # A law, or a card with printed choices instead of rows (a domain card): its text.
        text = data.get("text") or "; ".join(str(r.get("text", "")) for r in data.get("rewards", []))
        d.text((w // 2, 80 * k), say("LAW" if law else "CARD"), font=font(15 * k, True), fill=INK_SOFT, anchor="mm")
        _law_text(d, say(text), top=94 * k, bottom=(CARD_H - CARD_R - 6) * k, left=14 * k,
                  right=(CARD_W - 14) * k, k=k)
    elif "lines" in data:  # a criminal (underworld): three lines paid in judgement tokens
        from .underworld import draw_lines

        d.text((w // 2, 80 * k), say("CRIMINAL"), font=font(15 * k, True), fill=INK_SOFT, anchor="mm")
        draw_lines(img, d, data["lines"], (ROW_TOP + 16) * k, ROW_H * k, w, k, ROW_ICON * k)
    else:
        _rows(img, d, number, k)
    _draw_sections(img, w, h, r, cardlib.section_colors(number), frozenset(), k, 26)
    draw_aristocrat_extra(img, number, w, h, r)
    _frame(d, w, h, k)
    return img.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)


ROW_TOP, ROW_H, ROW_ICON = 80, 54, 44


def _rows(img: Image.Image, d: ImageDraw.ImageDraw, number: int, k: int) -> None:
    """The four cost -> reward rows, level 4 at the top and level 1 at the bottom (as printed)."""
    level_font = font(18 * k, True)
    for level in (4, 3, 2, 1):
        y = (ROW_TOP + (4 - level) * ROW_H) * k
        if level % 2 == 0:
            d.rectangle([4 * k, y, (CARD_W - 4) * k, y + ROW_H * k - 1], fill=PAPER_SHADE)
        cy = y + ROW_H * k // 2
        d.text((14 * k, cy), str(level), font=level_font, fill=INK_SOFT, anchor="mm")
        row = cardlib.card(number)["rows"][level - 1]
        # An aristocrat's level-1 cost is gems of any colours: a plain gem with their number.
        gem = (icon("gems", ROW_ICON * k, None, str(row.get("count", 1))) if row["cost"] == "any"
               else icon("gem", ROW_ICON * k, row["cost"]))
        img.paste(gem, (26 * k, cy - gem.height // 2), gem)
        ax = 26 * k + gem.width + 4 * k
        d.polygon([(ax, cy - 7 * k), (ax + 12 * k, cy), (ax, cy + 7 * k)], fill=INK_SOFT)
        x = ax + 18 * k
        rewards = row["reward"]
        size = ROW_ICON if len(rewards) < 3 else 40
        for reward in rewards:
            sprite = reward_icon(reward, size * k)
            img.paste(sprite, (x, cy - sprite.height // 2), sprite)
            x += sprite.width + 4 * k


def _law_text(d: ImageDraw.ImageDraw, text: str, top: int, bottom: int, left: int, right: int, k: int) -> None:
    size = 21 * k
    while True:
        fnt = font(size)
        lines = wrap(text, fnt, right - left)
        line_h = int(size * 1.2)
        if len(lines) * line_h <= bottom - top or size <= 10 * k:
            break
        size -= k
    y = top
    for line in lines:
        d.text(((left + right) // 2, y), line, font=fnt, fill=INK, anchor="mt")
        y += line_h


@per_language(maxsize=512)
def placed_face(number: int, paint: tuple[tuple[str, str], ...] = ()) -> Image.Image:
    """The compact face of a card lying in a pyramid (RGB, PYR_W x PYR_H); ``paint`` as sorted pairs."""
    k = _K
    w, h, r = PYR_W * k, PYR_H * k, PYR_R * k
    law = cardlib.is_law(number)
    img = Image.new("RGB", (w, h), PAPER_SHADE if law else PAPER)
    d = ImageDraw.Draw(img)
    d.text((w // 2, 4 * k), f"#{number}", font=font(32 * k, True), fill=INK, anchor="mt")
    label = short_name(number)
    d.text((w // 2, 54 * k), label, font=fit_font(label, (PYR_W - 16) * k, 22 * k, bold=True), fill=INK,
           anchor="mm")
    if law:
        d.text((w // 2, 74 * k), say("LAW"), font=font(14 * k, True), fill=INK_SOFT, anchor="mm")
    elif "lines" in cardlib.card(number):
        d.text((w // 2, 74 * k), say("CRIMINAL"), font=font(14 * k, True), fill=INK_SOFT, anchor="mm")
    colors = cardlib.section_colors(number)
    colors.update(dict(paint))
    _draw_sections(img, w, h, r, colors, frozenset(s for s, _ in paint), k, 22)
    draw_aristocrat_extra(img, number, w, h, r)
    _frame(d, w, h, k)
    return img.resize((PYR_W, PYR_H), Image.Resampling.LANCZOS)


# Where token chips go on a compact face: a row under the name, then the two bottom corners beside the
# half circle.
PLACED_CHIP = 40


def _placed_chip_spots() -> list[tuple[int, int]]:
    y = 84
    row = [(8 + i * 47, y) for i in range(4)]
    corner_y = PYR_H - PLACED_CHIP - 6
    return row + [(6, corner_y), (PYR_W - PLACED_CHIP - 6, corner_y)]


PLACED_SPOTS = _placed_chip_spots()


def paste_tokens_placed(canvas: Image.Image, x: int, y: int, entry: dict) -> None:
    """Draw the tokens, stored gems and tucked count of a pyramid entry onto a face already at (x, y)."""
    chips = token_chips(entry.get("tokens") or (), PLACED_CHIP, entry.get("gems"), len(entry.get("tucked") or ()))
    if len(chips) > len(PLACED_SPOTS):
        # rare: shrink so everything still fits in two rows
        small = PLACED_CHIP * 3 // 4
        chips = token_chips(entry.get("tokens") or (), small, entry.get("gems"), len(entry.get("tucked") or ()))
        spots = [(6 + (i % 6) * (small + 2), 84 + (i // 6) * (small + 2)) for i in range(len(chips))]
    else:
        spots = PLACED_SPOTS
        if len(chips) < 4:
            # centre a short row
            width = len(chips) * 47 - 7
            start = (PYR_W - width) // 2
            spots = [(start + i * 47, 84) for i in range(len(chips))]
    for chip, (cx, cy) in zip(chips, spots, strict=False):
        canvas.paste(chip, (x + cx, y + cy), chip)


def card_image(number: int, tokens: list[dict] | None = None, tucked: int = 0) -> Image.Image:
    """The full face of a card as a PIL image, with any tokens lying on it and its tucked-card count."""
    face = full_face(number)
    if not tokens and not tucked:
        return face.copy()
    img = face.copy()
    chips = token_chips(tokens or (), 40, None, tucked)
    if chips:
        # a paper strip over the top row: once a card lies in a pyramid its rows no longer matter
        band = Image.new("RGBA", (CARD_W - 8, 52), PAPER + (235,))
        img.paste(band, (4, ROW_TOP + 1), band)
        width = len(chips) * 44 - 4
        x = max(6, (CARD_W - width) // 2)
        for chip in chips:
            img.paste(chip, (x, ROW_TOP + 7), chip)
            x += 44
    return img
