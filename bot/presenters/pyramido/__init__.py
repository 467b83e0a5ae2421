"""Pyramido on Discord: the turn plan, the table with every pyramid and the market, a score post per floor."""

from __future__ import annotations

import functools

from bot.i18n import reader
from bot.ui import rulesbook
from bot.ui.presenter import BasePresenter, TableCtx
from bot.ui.spec import Image, MessageSpec
from bot.ui.texts import count_text, fill_names, points_text, timestamp
from engine.api import Outcome
from engine.pyramido.tiles import DOMINOES, QUADRANT_LABEL
from engine.pyramido.views import domino_view
from rendering.pyramido import render_domino, render_pyramid, render_sheet, render_table

from .turn import FillKind, TurnKind, describe_action

BOT_HELP = """**Playing Pyramido with this bot**
• `/pyramido new` opens a lobby; players press **Join**, the host may **Add AI**, then **Start**.
• On your turn the bot sends you (by DM, or with **My screen** under the table) a picture of your pyramid with
  the free positions lettered, and the market. Choose a domino, a lettered position, the direction of its
  second block, then **Confirm**. The gem goes on by itself when only one block can take it; you may add a
  single block card and pick the pile that refills the quarry.
• Green arrows keep your floor completable; red ones would leave more gaps than you hold single block cards.
• The channel shows every pyramid, the market and whose turn it is; after each floor a score sheet is posted.
• `/pyramido status`, `/pyramido show`, `/pyramido log` show the game; the host can `replace`, `undo` or
  `abandon`. When your time runs out the bot plays a safe move for you."""


RULES_PAGE = "data.pyramido"
RULING_WORDS = ("Ruling", "Tolkning")  # how a ruling is marked on the page, in each language


def rules_text(topic: str, locale: str | None = None) -> str:
    """The rules on a topic: a heading of data/pyramido/rules.md containing the word, or the bot's help, in
    ``locale`` (None: the reader's; a section not yet translated is in English)."""
    topic = (topic or "overview").lower().strip()
    found = rulesbook.find(RULES_PAGE, topic, locale)
    if found:
        return found
    if topic == "bot":
        return BOT_HELP
    sections = rulesbook.sections(RULES_PAGE, locale or reader()[0])
    if topic == "rulings":
        return "\n".join(line for body in sections.values() for line in body.splitlines()
                         if any(word in line for word in RULING_WORDS))
    return "No rules page on that topic. Topics: " + ", ".join(t for t in sections if t) + ", rulings, bot."


# The floor scoring's events: the score post tells them in the channel (the recap still tells the seat).
SCORE_POST_EVENTS = ("floor_score", "next_floor")
RULES_TOPICS = ["overview", "a turn", "placing", "fit", "scoring", "end", "rulings", "bot"]


class PyramidoPresenter(BasePresenter):
    name = "pyramido"
    display_name = "Pyramido"
    decision_names = {"turn": "your turn", "fill_gaps": "the gaps of your floor to fill"}
    embed_color = 0xE0A030
    kinds = {"turn": TurnKind(), "fill_gaps": FillKind()}
    board_command = None
    board_description = "Show an architect's pyramid"
    rules_topics = RULES_TOPICS
    lobby_footer = "Your turns come by direct message (or with the My screen button): allow DMs from server members."
    description = "Play Pyramido: build a four-floor pyramid of dominoes"

    def describe(self, action: dict) -> str:
        # what the player saw (a position's letter, a direction's button), never the engine's coordinates
        return describe_action(action)

    def event_line(self, event: dict, names: dict[int, str]) -> str | None:
        if event.get("type") in SCORE_POST_EVENTS:
            return None  # the floor's score post below the lines says it (and the last floor's comes at the end)
        return self.recap_line(event, names)

    def recap_line(self, event: dict, names: dict[int, str]) -> str | None:
        text = event.get("text")
        return fill_names(text, names) if text else None

    def results(self, events: list[dict], public_view: dict, names: dict[int, str]) -> MessageSpec | None:
        scored = [e for e in events if e.get("type") == "floor_score"]
        if not scored:
            return None
        floor = scored[0]["floor"]
        lines = floor_lines(public_view, floor, names, [e["seat"] for e in scored])
        nxt = next((e for e in events if e.get("type") == "next_floor"), None)
        if nxt is not None:
            lines.append(f"Floor {nxt['floor']} begins: **{names.get(nxt['seat'], nxt['seat'])}** starts "
                         "(fewest points).")
        return MessageSpec(title=f"Floor {floor} scoring", description="\n".join(lines),
                           image=Image(f"floor{floor}.png", functools.partial(render_sheet, public_view, floor, names)))

    def table_title(self, ctx: TableCtx) -> str:
        floor = ctx.view.get("floor")
        return f"Pyramido game #{ctx.game_id}" + (f" · floor {floor}" if ctx.status == "active" else "")

    def table(self, ctx: TableCtx, with_image: bool) -> MessageSpec:
        spec = super().table(ctx, with_image)
        view = ctx.view
        if ctx.status == "active" and not view.get("over"):
            totals = " · ".join(f"{ctx.names.get(p['seat'], p['seat'])} {p['total']}"
                                + (" (lost)" if p["lost"] else "") for p in view["players"])
            quarry = ", ".join(f"#{q['domino']} {q['a']['colour']}/{q['b']['colour']}" for q in view["quarry"] if q)
            turn = ctx.waiting[0] if ctx.waiting else None
            who = f"Turn: **{turn.name}** ({timestamp(turn.deadline)})" if turn else "Turn: —"
            spec.description = f"{who}\nScores: {totals}\nQuarry: {quarry}"
        return spec

    def table_picture(self, ctx: TableCtx) -> Image | None:
        return Image("table.png", functools.partial(render_table, ctx.view, ctx.names))

    def table_key(self, public_view: dict) -> str:
        # a fresh table message for every floor; within a floor the same message is edited
        return f"floor{public_view.get('floor')}"

    def final(self, game_id: int, outcome: Outcome, public_view: dict, names: dict[int, str]) -> list[MessageSpec]:
        specs = super().final(game_id, outcome, public_view, names)
        if specs:
            specs[0].image = Image("final.png", functools.partial(render_table, public_view, names))
        # the last floor's sheet comes with the final scores (the game ends with that scoring)
        floors = max((len(p["sheets"]) for p in public_view["players"]), default=0)
        if floors:
            scored = [p["seat"] for p in public_view["players"] if len(p["sheets"]) >= floors]
            specs.append(MessageSpec(title=f"Floor {floors} scoring",
                                     description="\n".join(floor_lines(public_view, floors, names, scored)),
                                     image=Image(f"floor{floors}.png",
                                                 functools.partial(render_sheet, public_view, floors, names))))
        return specs

    def board(self, public_view: dict, seat: int, name: str) -> MessageSpec | None:
        player = public_view["players"][seat]
        return MessageSpec(title=f"{name}'s pyramid",
                           image=Image("pyramid.png", functools.partial(render_pyramid, player, name)))

    def rules_text(self, topic: str) -> str:
        return rules_text(topic)

    def card_entries(self) -> list[tuple[str, str]]:
        return [(str(n), domino_label(n)) for n in range(len(DOMINOES))]

    def card_page(self, value: str) -> MessageSpec | None:
        if not value.isdigit() or int(value) >= len(DOMINOES):
            return None
        number = int(value)
        d = domino_view(number)
        lines = [f"**Domino #{number}**"]
        for i, block in enumerate((d["a"], d["b"]), start=1):
            icons = ", ".join(QUADRANT_LABEL[q] for q in block["icons"]) or "none"
            lines.append(f"Block {i}: {block['colour']}, gem icons: {icons}")
        lines.append("A gem of yours may go on a block of its colour; each icon in a scored colour area adds a point.")
        return MessageSpec(title=f"Pyramido domino #{number}", description="\n".join(lines),
                           image=Image("domino.png", functools.partial(render_domino, d)))


def floor_lines(public_view: dict, floor: int, names: dict[int, str], seats: list[int]) -> list[str]:
    """Each scored architect's floor points and where they came from: '**Ann**: 10 points (8 in 5 areas + 2
    Mino's bonus)'."""
    lines = []
    for seat in seats:
        sheet = public_view["players"][seat]["sheets"][floor - 1]
        areas = count_text(len(sheet["areas"]), "area")
        lines.append(f"**{names.get(seat, seat)}**: {points_text(sheet['total'])} "
                     f"({sheet['area_points']} in {areas} + {sheet['mino_points']} Mino's bonus)")
    return lines


def domino_label(number: int) -> str:
    d = domino_view(number)
    return f"#{number} " + " + ".join(f"{b['colour']} ({len(b['icons'])} icon{'' if len(b['icons']) == 1 else 's'})"
                                      for b in (d["a"], d["b"]))


PRESENTER = PyramidoPresenter()
