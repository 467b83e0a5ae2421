"""The Splendor Duel table: board, pyramid with decks, royal cards and both players' tableaus, from a view.

Nothing here reads a game state: a public view draws blind reserves as card backs; a seat's own view
draws that seat's blind reserves face up (the private screen).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engine.splendor_duel.cards import GEM_COLORS, TOKEN_KINDS
from rendering.style import BG, BG_PANEL, HIGHLIGHT, TEXT, TEXT_SOFT, fit_font, font, player_name
from rendering.words import say

from . import sprites as S

CELL = 62
LABEL = 26
BOARD_PX = LABEL + 5 * CELL + 8
GAP = 8
PANEL_H = 300
WIDTH = 1180

Names = Sequence[str] | Mapping[int, str]


def board_image(view: Mapping) -> Image.Image:
    """The 5×5 board with column letters A–E and row numbers 1–5; each token by shape and letter."""
    img = Image.new("RGB", (BOARD_PX, BOARD_PX), BG_PANEL)
    d = ImageDraw.Draw(img)
    lab = font(18, True)
    for i in range(5):
        x = LABEL + i * CELL + CELL // 2
        d.text((x, LABEL // 2 + 1), "ABCDE"[i], font=lab, fill=TEXT, anchor="mm")
        d.text((LABEL // 2, LABEL + i * CELL + CELL // 2), str(i + 1), font=lab, fill=TEXT, anchor="mm")
    for idx, tok in enumerate(view["board"]):
        r, c = divmod(idx, 5)
        x0, y0 = LABEL + c * CELL, LABEL + r * CELL
        d.rectangle((x0 + 2, y0 + 2, x0 + CELL - 2, y0 + CELL - 2), fill=(70, 62, 54), outline=(30, 26, 22))
        if tok is not None:
            sprite = S.token(tok, CELL - 12)
            img.paste(sprite, (x0 + 6, y0 + 6), sprite)
    return img


def pyramid_image(view: Mapping) -> Image.Image:
    """Level 3 on top (3 cards), level 2 (4), level 1 (5); each row's deck at its left with its size."""
    w = (S.CARD_W + GAP) * 6 + GAP
    h = (S.CARD_H + GAP) * 3 + GAP
    img = Image.new("RGB", (w, h), BG)
    d = ImageDraw.Draw(img)
    for row, level in enumerate((3, 2, 1)):
        y = GAP + row * (S.CARD_H + GAP)
        size = int(view["decks"][str(level)])
        if size:
            img.paste(S.back(level), (GAP, y))
        else:
            d.rectangle((GAP, y, GAP + S.CARD_W, y + S.CARD_H), outline=TEXT_SOFT, width=2)
        d.rounded_rectangle((GAP + 22, y + S.CARD_H - 28, GAP + S.CARD_W - 22, y + S.CARD_H - 6), radius=6,
                            fill=(30, 30, 30))
        d.text((GAP + S.CARD_W // 2, y + S.CARD_H - 17), str(size), font=font(16, True), fill=TEXT, anchor="mm")
        cards = view["pyramid"][str(level)]
        offset = (5 - len(cards)) * (S.CARD_W + GAP) // 2
        for i, card_id in enumerate(cards):
            x = GAP + (S.CARD_W + GAP) * (i + 1) + offset
            if card_id is None:
                d.rectangle((x, y, x + S.CARD_W, y + S.CARD_H), outline=TEXT_SOFT, width=1)
            else:
                img.paste(S.card(card_id), (x, y))
    return img


def _tableau(img: Image.Image, d: ImageDraw.ImageDraw, view: Mapping, seat: int, name: str, x0: int, y0: int,
             w: int) -> None:
    pl = view["players"][seat]
    active = view.get("active") == seat and view.get("winner") is None
    winner = view.get("winner") == seat
    d.rounded_rectangle((x0, y0, x0 + w, y0 + PANEL_H - GAP), radius=10, fill=BG_PANEL,
                        outline=HIGHLIGHT if active or winner else BG_PANEL, width=3)
    # Each part said on its own: the parts are joined with a wider separator than the catalogue splits on.
    crowns = pl["crowns"]
    parts = [name, say(f"{pl['points']} PP"), say(f"{crowns} crown" if crowns == 1 else f"{crowns} crowns")]
    if winner:
        parts.append(say("WINNER"))
    elif active:
        parts.append(say("to play"))
    head = "  ·  ".join(parts)
    d.text((x0 + 12, y0 + 8), head, font=fit_font(head, w - 24, 20, True), fill=TEXT)
    # Tokens held (shape, letter and count), privileges.
    x = x0 + 12
    for kind in TOKEN_KINDS:
        sprite = S.token(kind, 26)
        img.paste(sprite, (x, y0 + 38), sprite)
        d.text((x + 30, y0 + 51), str(pl["tokens"][kind]), font=font(18, True), fill=TEXT, anchor="lm")
        x += 56
    d.text((x + 4, y0 + 51), f"= {pl['token_count']}/10", font=font(16), fill=TEXT_SOFT, anchor="lm")
    x += 80
    for i in range(pl["privileges"]):
        sprite = S.scroll(28)
        img.paste(sprite, (x + i * 30, y0 + 37), sprite)
    d.text((x + 3 * 30 + 4, y0 + 51), say(f"{pl['privileges']} privilege{'s' if pl['privileges'] != 1 else ''}"), font=font(15), fill=TEXT_SOFT,
           anchor="lm")
    # Cards grouped by colour: bonus and points per column, then the cards' ids stacked small.
    col_w = 92
    by_color: dict[str | None, list[str]] = {c: [] for c in (*GEM_COLORS, None)}
    for card_id, color in pl["cards"]:
        by_color.setdefault(color, []).append(card_id)
    for i, color in enumerate((*GEM_COLORS, None)):
        cx = x0 + 12 + i * (col_w + 6)
        cy = y0 + 76
        if color is not None:
            sprite = S.token(color, 30)
            img.paste(sprite, (cx, cy), sprite)
            bonus = say(f"bonus {pl['bonus'][color]}")
            d.text((cx + 36, cy + 4), bonus, font=fit_font(bonus, col_w - 30, 14, True), fill=TEXT)
            d.text((cx + 36, cy + 19), say(f"{pl['color_points'][color]} PP"), font=font(13), fill=TEXT_SOFT)
        elif by_color.get(None):
            # Gray cards (points, no colour) get a heading like the colours' only when there are some: a bare
            # word right after the black column read as part of it ("bonus 5 gray").
            d.rounded_rectangle((cx + 4, cy, cx + 26, cy + 30), radius=4, fill=S.GRAY_CARD, outline=(20, 20, 20))
            gray = say("gray")
            d.text((cx + 36, cy + 4), gray, font=fit_font(gray, col_w - 30, 14, True), fill=TEXT)
        for j, card_id in enumerate(by_color.get(color, [])[:8]):
            yy = cy + 36 + j * 22
            tint = S.CARD_TINT.get(color, S.GRAY_CARD)
            d.rectangle((cx, yy, cx + col_w, yy + 19), fill=tint, outline=(20, 20, 20))
            ink = (255, 255, 255) if color == "black" else (20, 20, 20)
            d.text((cx + 4, yy + 10), card_id, font=font(12, True), fill=ink, anchor="lm")
        extra = len(by_color.get(color, [])) - 8
        if extra > 0:
            d.text((cx + 4, cy + 36 + 8 * 22 + 2), say(f"+{extra} more"), font=font(12), fill=TEXT_SOFT)
    # Royal cards and reserved cards on the right.
    rx = x0 + 12 + 6 * (col_w + 6) + 6
    for i, royal_id in enumerate(pl["royals"]):
        small = S.royal(royal_id).resize((56, 64))
        img.paste(small, (rx + i * 60, y0 + 80))
    reserved = say("Reserved")
    d.text((rx, y0 + 152), reserved, font=fit_font(reserved, 3 * 74 - 4, 14, True), fill=TEXT)
    for i, entry in enumerate(pl["reserved"]):
        x = rx + i * 74
        if entry.get("card"):
            face = S.card(entry["card"]).resize((70, 96))
            img.paste(face, (x, y0 + 172))
            if entry.get("blind"):
                blind = say("blind")
                d.text((x + 35, y0 + 172 + 100), blind, font=fit_font(blind, 70, 11), fill=TEXT_SOFT, anchor="mt")
        else:
            img.paste(S.back(int(entry["level"]), 70, 96), (x, y0 + 172))


def table_image(view: Mapping, names: Names | None = None) -> Image.Image:
    """The whole table: board, royal cards and supply beside the pyramid, then both players."""
    board = board_image(view)
    pyramid = pyramid_image(view)
    top_h = max(board.height + 90, pyramid.height)
    img = Image.new("RGB", (WIDTH, top_h + 2 * PANEL_H + GAP), BG)
    d = ImageDraw.Draw(img)
    img.paste(board, (GAP, GAP))
    status = _status(view, names)
    room = board.width  # under the board, up to the pyramid
    d.text((GAP, board.height + 16), status, font=fit_font(status, room, 18, True), fill=TEXT)
    # Said in two parts: three spaces join them, which the catalogue does not split on.
    bag = sum(view["bag"].values())
    supply = (say(f"Bag: {bag} token{'s' if bag != 1 else ''}") + "   "
              + say(f"Privileges in supply: {view['supply']}"))
    d.text((GAP, board.height + 42), supply, font=fit_font(supply, room, 15), fill=TEXT_SOFT)
    px = GAP * 2 + board.width
    img.paste(pyramid, (px, 0))
    rx = px + pyramid.width + GAP
    royals = say("Royal cards")
    d.text((rx, GAP), royals, font=fit_font(royals, WIDTH - rx - GAP, 15, True), fill=TEXT)
    for i, royal_id in enumerate(view["royals"]):
        img.paste(S.royal(royal_id), (rx, GAP + 22 + i * (S.ROYAL_H + 6)))
    for seat in (0, 1):
        _tableau(img, d, view, seat, player_name(names, seat), GAP, top_h + seat * PANEL_H, WIDTH - 2 * GAP)
    return img


def _status(view: Mapping, names: Names | None) -> str:
    if view.get("winner") is not None:
        return say(f"{player_name(names, view['winner'])} won")
    who = player_name(names, view["active"])
    stage = {"replenished": "to play (board replenished)", "discard": "returning tokens"}
    return say(f"Turn {view['turn']}: {who} {stage.get(view['stage'], 'to play')}")
