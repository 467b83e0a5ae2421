"""Auction row, a seat's screen, the table and the score sheet, composed from cached card faces."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engine.viceroy.cards import COLORS

from .cache import cached_image
from .cards import CARD_H, CARD_W, card_image, full_face
from .icons import icon
from .pyramid import pyramid_image
from .style import (
    BG,
    BG_PANEL,
    COLOR_DARK,
    COLOR_INK,
    COLOR_LETTER,
    COLOR_NAME,
    COLOR_RGB,
    GOLD,
    TEXT,
    TEXT_SOFT,
    dashed_rect,
    fit_font,
    font,
    new_canvas,
    player_name,
)
from .words import per_language, say

PAD = 20
GAP = 14
MAX_SIDE = 2400
# The table laid out for a phone (table_image's ``narrow``): Discord shows a picture at the width of the screen,
# so a 1,850 px table is read at a fifth of its size; this one at about half.
NARROW_WIDTH = 900
NARROW_COLUMN = NARROW_WIDTH - 2 * PAD


def _fit(img: Image.Image, max_side: int = MAX_SIDE) -> Image.Image:
    """Scale an image down so neither side exceeds ``max_side`` (Discord previews and upload limits)."""
    w, h = img.size
    if max(w, h) <= max_side:
        return img
    f = max_side / max(w, h)
    return img.resize((max(1, int(w * f)), max(1, int(h * f))), Image.Resampling.BILINEAR)


@per_language(maxsize=256)
def _scaled_face(number: int, width: int) -> Image.Image:
    face = full_face(number)
    if width == face.width:
        return face
    return face.resize((width, round(face.height * width / face.width)), Image.Resampling.LANCZOS)


def _empty_slot(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, size: int) -> None:
    dashed_rect(d, box, TEXT_SOFT, width=3)
    text = say(text)
    d.text(((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), text, font=fit_font(text, box[2] - box[0] - 12, size), fill=TEXT_SOFT, anchor="mm")


def _color_tab(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], color: str, label: str, size: int) -> None:
    """A coloured title bar that also spells the colour and its letter."""
    d.rounded_rectangle(box, radius=10, fill=COLOR_RGB[color], outline=COLOR_DARK[color], width=3)
    d.text(((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), label, font=fit_font(label, box[2] - box[0] - 12, size, True),
           fill=COLOR_INK[color], anchor="mm")


# ---------------------------------------------------------------------------------------------- auction

def _slot_card(auction_view: Mapping, color: str, where: str) -> int | None:
    entry = auction_view.get(color) or {}
    value = entry.get(where)
    if isinstance(value, Mapping):  # tolerate {"card": n} entries
        value = value.get("card")
    return int(value) if value is not None else None


def auction_image(auction_view: Mapping) -> Image.Image:
    """Four columns, one per auction card colour; the new card (base) above the older one (tip)."""
    tab_h, label_h = 56, 34
    col_w = CARD_W
    width = PAD * 2 + 4 * col_w + 3 * GAP
    height = PAD * 2 + tab_h + 2 * (label_h + CARD_H) + GAP
    img, d = new_canvas(width, height, BG)
    for i, color in enumerate(COLORS):
        x = PAD + i * (col_w + GAP)
        _color_tab(d, (x, PAD, x + col_w, PAD + tab_h - 8), color, f"{COLOR_LETTER[color]} \u00b7 {say(COLOR_NAME[color])}", 30)
        y = PAD + tab_h
        for where, caption in (("base", "base (new)"), ("tip", "tip (discarded next)")):
            caption = say(caption)
            d.text((x + col_w // 2, y + label_h // 2), caption, font=fit_font(caption, col_w - 8, 22, True), fill=TEXT_SOFT, anchor="mm")
            y += label_h
            number = _slot_card(auction_view, color, where)
            if number is None:
                _empty_slot(d, (x + 4, y + 4, x + col_w - 4, y + CARD_H - 4), "empty", 26)
            else:
                img.paste(full_face(number), (x, y))
            y += CARD_H + GAP
    return img


def auction_strip(auction_view: Mapping, card_w: int = 190, per_row: int = 4) -> Image.Image:
    """The auction for the table: per colour, base then tip, under a colour tab; ``per_row`` colours a row
    (4: one row; 2: two rows, for a narrow picture)."""
    card_h = round(CARD_H * card_w / CARD_W)
    tab_h = 44
    group_w = 2 * card_w + 8
    row_h = tab_h + card_h + 30
    rows = -(-len(COLORS) // per_row)
    width = PAD * 2 + per_row * group_w + (per_row - 1) * GAP * 2
    img, d = new_canvas(width, rows * row_h + (rows - 1) * GAP, BG)
    for i, color in enumerate(COLORS):
        x = PAD + (i % per_row) * (group_w + GAP * 2)
        y = (i // per_row) * (row_h + GAP)
        _color_tab(d, (x, y, x + group_w, y + tab_h - 6), color, f"{COLOR_LETTER[color]} \u00b7 {say(COLOR_NAME[color])}", 26)
        for j, where in enumerate(("base", "tip")):
            cx = x + j * (card_w + 8)
            number = _slot_card(auction_view, color, where)
            if number is None:
                _empty_slot(d, (cx + 3, y + tab_h + 3, cx + card_w - 3, y + tab_h + card_h - 3), "empty", 22)
            else:
                img.paste(_scaled_face(number, card_w), (cx, y + tab_h))
            d.text((cx + card_w // 2, y + tab_h + card_h + 14), say(where), font=font(20, True), fill=TEXT_SOFT,
                   anchor="mm")
    return img


# ---------------------------------------------------------------------------------------------- screen

def _own(seat_view: Mapping) -> Mapping:
    """The viewing seat's private holdings: top-level keys, or the seat's own entry in ``players``."""
    if "hand" in seat_view or "gems" in seat_view:
        return seat_view
    seat = seat_view.get("seat")
    players = seat_view.get("players") or []
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return {}


def screen_image(seat_view: Mapping, player_name_: str | None = None) -> Image.Image:
    """The private screen: gems by colour, attack tokens, then the hand's cards (three per row)."""
    own = _own(seat_view)
    gems = own.get("gems") or {}
    attacks = int(own.get("attacks") or 0)
    hand = [int(c) for c in own.get("hand") or ()]
    cols = max(1, min(3, len(hand)))
    rows = (len(hand) + cols - 1) // cols
    icon_size = 64
    count_font = font(44, True)
    title = say(f"{player_name_}'s screen" if player_name_ else "Your screen")
    strip_w = 4 * (icon_size + 8 + 70) + icon_size + 8 + 70
    width = max(PAD * 2 + cols * CARD_W + (cols - 1) * GAP, PAD * 2 + strip_w)
    height = PAD + 56 + icon_size + 24 + 40 + rows * (CARD_H + GAP) + PAD
    if not hand:
        height += 60
    from .underworld import tokens_strip  # judgement tokens face up (the owner's view) and bribe tokens

    strip = tokens_strip(own)
    if strip is not None:
        width = max(width, strip.width + 2 * PAD)
        height += strip.height + 16
    img, d = new_canvas(width, height, BG)
    d.text((PAD, PAD), title, font=fit_font(title, width - 2 * PAD, 40, True), fill=TEXT)
    x, y = PAD, PAD + 56
    for color in COLORS:
        sprite = icon("gem", icon_size, color)
        img.paste(sprite, (x, y), sprite)
        d.text((x + icon_size + 6, y + icon_size // 2), f"\u00d7{int(gems.get(color, 0))}", font=count_font,
               fill=TEXT, anchor="lm")
        x += icon_size + 8 + 70
    sprite = icon("attack", icon_size)
    img.paste(sprite, (x, y), sprite)
    d.text((x + icon_size + 6, y + icon_size // 2), f"\u00d7{attacks}", font=count_font, fill=TEXT, anchor="lm")
    y += icon_size + 24
    d.text((PAD, y), say(f"Hand ({len(hand)})"), font=font(30, True), fill=TEXT_SOFT)
    y += 40
    if not hand:
        d.text((PAD, y + 20), say("no cards in hand"), font=font(28), fill=TEXT_SOFT)
    for i, number in enumerate(hand):
        cx = PAD + (i % cols) * (CARD_W + GAP)
        cy = y + (i // cols) * (CARD_H + GAP)
        img.paste(card_image(number), (cx, cy))
    if strip is not None:
        y += rows * (CARD_H + GAP) if hand else 60
        img.paste(strip, (PAD, y), strip)
    return img


# ---------------------------------------------------------------------------------------------- table

PHASES = {"setup": "Setup", "auction": "Auction", "development": "Development", "painting": "Painting",
          "over": "Game over", "domain": "Domain", "combat": "Combat", "judgement": "Judgement",
          "underworld": "Underworld"}


def _status_line(public_view: Mapping) -> str:
    parts = []
    # Each part said on its own: the parts are joined with a wider separator than the catalogue splits on.
    if public_view.get("turn") is not None:
        last = " (last)" if public_view.get("last_turn") else ""
        parts.append(say(f"Turn {public_view['turn']}{last}"))
    phase = public_view.get("phase")
    if phase:
        label = PHASES.get(phase, str(phase).title())
        if public_view.get("round") and phase in ("auction", "development"):
            label += f", round {public_view['round']}"
        parts.append(say(label))
    decks = dict(public_view.get("decks") or {})
    for key in ("large_deck", "small_deck", "law_deck"):
        if isinstance(public_view.get(key), int):
            decks[key.removesuffix("_deck")] = public_view[key]
    if decks:
        parts.append(say("decks") + " " + " / ".join(f"{say(k)} {v}" for k, v in decks.items()))
    return "  \u00b7  ".join(parts)


def _player_caption(p: Mapping, seat: int, names: Sequence[str] | Mapping[int, str] | None) -> tuple[str, dict]:
    """Name and the public extras for one seat (never its hand or screen)."""
    extras: dict[str, object] = {}
    size = p.get("hand_size", p.get("hand_count"))
    if size is not None:
        extras["hand"] = size
    if isinstance(p.get("gem_count"), int):  # public: the number of gems behind a screen, not their colours
        extras["gems"] = p["gem_count"]
    from .underworld import header_item  # judgement tokens: face down, only their number

    item = header_item(p, 40)
    if item is not None:
        extras["judgement"] = item
    if p.get("submitted"):
        extras["\u2713"] = "ready"
    return player_name(names, seat), extras


@cached_image
def _table_pyramid(pyramid_view: Mapping, name: str, extras: Mapping, col_w: int) -> Image.Image:
    """A player's pyramid for the table, at most ``col_w`` wide (after a move, most are as they were: cached)."""
    pim = pyramid_image(pyramid_view, name, extras, background=BG_PANEL)
    if pim.width > col_w:
        pim = pim.resize((col_w, round(pim.height * col_w / pim.width)), Image.Resampling.BILINEAR)
    return pim


def table_image(public_view: Mapping, names: Sequence[str] | Mapping[int, str] | None, *,
                narrow: bool = False) -> Image.Image:
    """Status line, reserve, the auction row, then every pyramid (two per row, scaled to a common width).

    ``narrow``: laid out for a phone, at most NARROW_WIDTH wide: the auction in two rows, the pyramids one
    under the other (each at most NARROW_COLUMN wide)."""
    players = list(public_view.get("players") or [])
    ncols = 1 if len(players) <= 1 or narrow else 2
    col_w = NARROW_COLUMN if narrow else 900 if ncols == 2 else 1100
    strip = auction_strip(public_view.get("auction") or {}, per_row=2 if narrow else 4)
    pyramids = []
    for seat, p in enumerate(players):
        s = p.get("seat", seat) if isinstance(p.get("seat"), int) else seat
        name, extras = _player_caption(p, s, names)
        pyramids.append(_table_pyramid(p.get("pyramid") or {"cards": {}}, name, extras, col_w))
    grid_w = ncols * col_w + (ncols - 1) * GAP
    width = max(strip.width, grid_w + 2 * PAD)
    rows = [pyramids[i:i + ncols] for i in range(0, len(pyramids), ncols)]
    row_heights = [max(p.height for p in row) for row in rows]
    reserve = public_view.get("reserve") or {}
    reserve_y = 64 if narrow else 14  # narrow: the reserve under the status line, not beside it
    head_h = reserve_y + 50 if narrow and reserve else 64
    height = head_h + strip.height + GAP + sum(h + GAP for h in row_heights) + PAD
    img, d = new_canvas(width, height, BG)
    status = _status_line(public_view)
    d.text((PAD, 14), status, font=fit_font(status, width - 2 * PAD, 30, True) if narrow else font(30, True), fill=TEXT)
    if reserve:
        x = width - PAD - 4 * 100
        d.text((x - 12, reserve_y + 20), say("reserve"), font=font(24), fill=TEXT_SOFT, anchor="rm")
        for color in COLORS:
            sprite = icon("gem", 40, color)
            img.paste(sprite, (x, reserve_y), sprite)
            d.text((x + 44, reserve_y + 20), str(int(reserve.get(color, 0))), font=font(30, True), fill=TEXT,
                   anchor="lm")
            x += 100
    img.paste(strip, ((width - strip.width) // 2, head_h))
    y = head_h + strip.height + GAP
    for row, rh in zip(rows, row_heights, strict=True):
        x = (width - grid_w) // 2
        for pim in row:
            d.rectangle([x, y, x + col_w - 1, y + rh - 1], fill=BG_PANEL)
            img.paste(pim, (x + (col_w - pim.width) // 2, y))
            x += col_w + GAP
        y += rh + GAP
    if public_view.get("invasion"):  # the Invasion module's part of the view: monster stack and combat cards
        from .invasion import below, invasion_image

        img = below(img, invasion_image(public_view, names))
    return _fit(img)


# ---------------------------------------------------------------------------------------------- scores

SCORE_CATEGORIES: list[tuple[str, str, tuple[str, ...]]] = [
    ("circles", "Circles", ("circle", "single_color_circles")),
    ("infinite_gems", "Infinite gems", ("infinite", "infinite_gem")),
    ("laws", "Laws", ("law",)),
    ("pp_tokens", "PP tokens", ("power_points", "pp", "tokens")),
    ("magic", "Magic", ()),
    ("sets", "Sets", ("set",)),
    ("attack", "Attack", ("attacks",)),
]


def _category_icon(key: str, size: int) -> Image.Image | None:
    from .pyramid import _ring

    if key == "circles":
        return _ring(size // 2 - 8)
    return {
        "infinite_gems": lambda: icon("gems", size, None, "\u221e"),
        "laws": lambda: icon("law", size),
        "pp_tokens": lambda: icon("power_points", size, None, "PP"),
        "magic": lambda: icon("magic", size),
        "sets": lambda: icon("science", size),
        "attack": lambda: icon("attack", size),
    }.get(key, lambda: None)()


def _score_rows(scores: Sequence[Mapping]) -> list[tuple[str, str]]:
    """(breakdown key, label) rows in the rules' order, then any other keys the engine reports."""
    present = {k for s in scores for k in (s.get("breakdown") or {})}
    rows: list[tuple[str, str]] = []
    used: set[str] = set()
    for key, label, aliases in SCORE_CATEGORIES:
        found = next((k for k in (key, *aliases) if k in present), key)
        rows.append((found, label))
        used.add(found)
    for key in sorted(present - used):
        rows.append((key, key.replace("_", " ").capitalize()))
    return rows


def scores_image(scores: Sequence[Mapping], names: Sequence[str] | Mapping[int, str] | None) -> Image.Image:
    """The final score sheet: a row per category, a column per player, totals and the winner(s)."""
    scores = list(scores)
    rows = _score_rows(scores)
    label_w, col_w, row_h, head_h = 300, 190, 58, 120
    width = PAD * 2 + label_w + max(1, len(scores)) * col_w
    height = PAD * 2 + 60 + head_h + (len(rows) + 1) * row_h + 10
    img, d = new_canvas(width, height, BG)
    d.text((PAD, PAD), say("Final scores"), font=font(42, True), fill=TEXT)
    top = PAD + 60
    cell = font(34, True)
    y = top + head_h
    for i in range(0, len(rows), 2):
        d.rectangle([PAD, y + i * row_h, width - PAD, y + (i + 1) * row_h - 1], fill=BG_PANEL)
    for j, s in enumerate(scores):
        x = PAD + label_w + j * col_w
        if s.get("winner"):
            d.rounded_rectangle([x + 4, top, x + col_w - 4, height - PAD], radius=12, fill=(92, 78, 34))
        seat = int(s.get("seat", j))
        name = player_name(names, seat)
        d.text((x + col_w // 2, top + 36), name, font=fit_font(name, col_w - 16, 32, True), fill=TEXT, anchor="mm")
        if s.get("winner"):
            d.text((x + col_w // 2, top + 84), "\u2605 " + say("Winner"), font=font(28, True), fill=GOLD, anchor="mm")
    y = top + head_h
    for key, label in rows:
        sprite = _category_icon(key, 40)
        if sprite is not None:
            img.paste(sprite, (PAD + 8, y + (row_h - sprite.height) // 2), sprite)
        label = say(label)
        d.text((PAD + 60, y + row_h // 2), label, font=fit_font(label, label_w - 70, 30), fill=TEXT, anchor="lm")
        for j, s in enumerate(scores):
            value = (s.get("breakdown") or {}).get(key)
            text = "\u2013" if value is None else str(value)
            fill = (255, 140, 130) if isinstance(value, int) and value < 0 else TEXT
            d.text((PAD + label_w + j * col_w + col_w // 2, y + row_h // 2), text, font=cell, fill=fill, anchor="mm")
        y += row_h
    d.line([(PAD, y + 4), (width - PAD, y + 4)], fill=TEXT_SOFT, width=3)
    y += 10
    d.text((PAD + 60, y + row_h // 2), say("Total"), font=font(34, True), fill=TEXT, anchor="lm")
    for j, s in enumerate(scores):
        x = PAD + label_w + j * col_w + col_w // 2
        d.text((x, y + row_h // 2), str(s.get("total", 0)), font=font(42, True),
               fill=GOLD if s.get("winner") else TEXT, anchor="mm")
    return img

