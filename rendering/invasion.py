"""Invasion pictures: the monster stack with each monster's line, and every player's combat card.

A view in, an image out (the view's ``invasion`` part and each player's ``combat_card``): the stack is drawn
bottom first as the rulebook lays it, one line per monster (tier, name, cost gems, reward icons, and the whole
cost of defeating it and every monster under it); each combat card shows its gems, diamonds, tokens and the
face-down penalty cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image

from engine.viceroy.cards import COLORS

from .cache import cached_png
from .darkness import diamond
from .icons import icon, reward_icon, token_chips
from .png import encode_png
from .style import BG, BG_PANEL, GOLD, INK, PAPER, TEXT, TEXT_SOFT, fit_font, font, new_canvas, player_name
from .words import say

WIDTH = 1100
LINE_H = 64
ICON = 40
PAD = 20
TIERS = {1: "I", 2: "II", 3: "III"}


def _paste(img: Image.Image, sprite: Image.Image, x: int, y: int) -> int:
    img.paste(sprite, (x, y), sprite)
    return x + sprite.width + 6


def invasion_image(view: Mapping, names: Sequence[str] | Mapping[int, str] | None = None) -> Image.Image:
    part = view.get("invasion") or {}
    stack = list(part.get("stack") or [])
    players = list(view.get("players") or [])
    rows = max(1, len(stack))
    height = PAD + 40 + rows * (LINE_H + 8) + 40 + len(players) * (LINE_H + 8) + PAD
    img, d = new_canvas(WIDTH, height, BG_PANEL)
    title = say(f"Monster stack ({len(stack)} of 4; combat at 4) · {part.get('pile', 0)} monsters still in the deck")
    d.text((PAD, PAD), title, font=font(26, True), fill=TEXT)
    y = PAD + 40
    if not stack:
        d.text((PAD, y + 16), say("No monster revealed yet."), font=font(22), fill=TEXT_SOFT)
        y += LINE_H + 8
    total = dict.fromkeys(COLORS, 0)
    for i, m in enumerate(stack):
        d.rectangle([PAD, y, WIDTH - PAD, y + LINE_H], fill=PAPER)
        d.text((PAD + 10, y + LINE_H // 2), f"{i + 1}. {TIERS.get(m['tier'], '?')}", font=font(24, True), fill=INK,
               anchor="lm")
        d.text((PAD + 80, y + LINE_H // 2), m["name"], font=fit_font(m["name"], 240, 24, True), fill=INK, anchor="lm")
        x = PAD + 330
        for colour in m["cost"]:
            total[colour] += 1
            x = _paste(img, icon("gem", ICON, colour), x, y + (LINE_H - ICON) // 2)
        x = max(x + 10, PAD + 500)
        d.text((x, y + LINE_H // 2), "→", font=font(28, True), fill=INK, anchor="lm")
        x += 34
        for item in m["reward"]:
            x = _paste(img, reward_icon(item, ICON), x, y + (LINE_H - ICON) // 2)
        whole = " ".join(f"{n}{c[0].upper()}" for c, n in total.items() if n)
        d.text((WIDTH - PAD - 12, y + LINE_H // 2), say(f"all: {whole}"), font=font(20), fill=INK, anchor="rm")
        y += LINE_H + 8
    d.text((PAD, y + 8), say("Combat cards"), font=font(26, True), fill=TEXT)
    y += 40
    for seat, p in enumerate(players):
        card = p.get("combat_card") or {}
        d.rectangle([PAD, y, WIDTH - PAD, y + LINE_H], fill=BG)
        d.text((PAD + 10, y + LINE_H // 2), player_name(names, p.get("seat", seat)), font=font(24, True), fill=GOLD,
               anchor="lm")
        x = PAD + 260
        for colour in COLORS:
            n = (card.get("gems") or {}).get(colour, 0)
            if n:
                x = _paste(img, icon("gem", ICON, colour, str(n)), x, y + (LINE_H - ICON) // 2)
        if card.get("diamonds"):
            x = _paste(img, diamond(ICON, str(card["diamonds"])), x, y + (LINE_H - ICON) // 2)
        for chip in token_chips(card.get("tokens") or [], ICON):
            x = _paste(img, chip, x, y + (LINE_H - ICON) // 2)
        penalties = p.get("penalty_cards", 0)
        text = say(f"penalty cards: {penalties} ({-4 * penalties} PP)" if penalties else "no penalty card")
        d.text((WIDTH - PAD - 12, y + LINE_H // 2), text, font=font(20), fill=TEXT_SOFT, anchor="rm")
        y += LINE_H + 8
    return img


@cached_png
def render_invasion(view: Mapping, names: Sequence[str] | Mapping[int, str] | None = None) -> bytes:
    """PNG of the monster stack and the combat cards."""
    return encode_png(invasion_image(view, names), palette=True)


def below(top: Image.Image, bottom: Image.Image, gap: int = 12) -> Image.Image:
    """``bottom`` drawn under ``top`` on the table's background (how the table picture gains the panel)."""
    width = max(top.width, bottom.width)
    img, _ = new_canvas(width, top.height + gap + bottom.height, BG)
    img.paste(top, ((width - top.width) // 2, 0))
    img.paste(bottom, ((width - bottom.width) // 2, top.height + gap))
    return img
