"""Everything Splendor Duel shows on Discord: the turn prompt, the table message, the private screen, the end."""

from __future__ import annotations

import functools
import hashlib
import json

from bot.ui import rulesbook
from bot.ui.presenter import BasePresenter, TableCtx
from bot.ui.spec import Image, MessageSpec
from bot.ui.texts import count_text, fill_names, timestamp
from engine.api import GameType, Outcome
from engine.splendor_duel.cards import ABILITY_TEXT, CARDS, COST_KINDS, ROYALS, TOKEN_LETTER, label
from engine.splendor_duel.moves import describe as describe_action
from rendering.splendor_duel import render_table

from .prompts import KINDS, seat_line, tokens_text

EMBED_COLOR = 0x7A3E8C
RULES_TOPICS = ["overview", "setup", "turn", "privileges", "abilities", "royal", "end", "rulings", "bot"]
BOT_HELP = """**Playing Splendor Duel with this bot**
• `/splendorduel new` opens a lobby; the second player presses **Join** (or the host presses **Add AI**), then **Start**.
• On your turn the bot sends your controls by **direct message**: pick privileges, then take tokens (first token,
  then the line through it), reserve or buy, answer the card's questions, and press **Confirm** once.
  **Replenish the board** is a button of its own: you see the new board before choosing the rest.
• DMs closed? Press **My screen** under the table message: you get the same controls privately.
• The table message in the channel shows the board, whose turn it is and the deadline; when time runs out the
  bot plays a legal move for you. Cards you reserve blind from a deck are shown only to you.
• `/splendorduel status`, `/splendorduel show`, `/splendorduel log`, `/splendorduel rules <topic>`."""


RULES_PAGE = "data.splendor_duel"
NOT_FOR_PLAYERS = ("coverage (for developers)",)


def rules_text(topic: str, locale: str | None = None) -> str:
    """The rules page section whose heading contains the topic word (or the overview), in ``locale`` (None: the
    reader's; a section not yet translated is in English)."""
    topic = (topic or "overview").lower().strip()
    found = rulesbook.find(RULES_PAGE, topic, locale, NOT_FOR_PLAYERS)
    if found:
        return found
    if topic == "bot":
        return BOT_HELP
    return "No rules section on that topic. Topics: " + ", ".join(rulesbook.sections(RULES_PAGE, skip=NOT_FOR_PLAYERS)) + ", bot."


class SplendorDuelPresenter(BasePresenter):
    name = "splendor_duel"
    command_name = "splendorduel"  # /splendorduel, as players type it
    display_name = "Splendor Duel"
    decision_names = {"turn": "your turn", "discard": "the tokens to return to the bag"}
    embed_color = EMBED_COLOR
    kinds = KINDS
    rules_topics = RULES_TOPICS
    board_description = "Show the table"
    description = "Play Splendor Duel: two players, a shared board of gems, cards and royal favours"
    lobby_footer = "Your turn's controls come by direct message: allow DMs from server members."

    def started_line(self, game_type: GameType) -> str:
        return "The game begins! Whoever plays first gets their controls by DM."

    def describe(self, action: dict) -> str:
        return describe_action(action)

    def event_line(self, event: dict, names: dict[int, str]) -> str | None:
        if event.get("type") in ("turn", "discard_needed"):
            return None  # the table message says whose turn it is; the prompt asks for the discard
        text = event.get("text")
        return fill_names(text, names) if text else None

    # ---------------------------------------------------------------- table and screens

    def table_title(self, ctx: TableCtx) -> str:
        return f"Splendor Duel game #{ctx.game_id} · turn {ctx.view['turn']}"

    def table(self, ctx: TableCtx, with_image: bool) -> MessageSpec:
        spec = super().table(ctx, with_image)
        view = ctx.view
        if view.get("winner") is not None or ctx.status != "active":
            spec.description = "The game is over."
            return spec
        active = view["active"]
        name = ctx.names.get(active, f"Seat {active + 1}")
        deadline = next((w.deadline for w in ctx.pending if w.seat == active), None)
        stage = {"replenished": " (board replenished)", "discard": " (returning tokens)"}.get(view["stage"], "")
        lines = [f"Turn: **{name}**{stage}, {timestamp(deadline)}"]
        for seat, pl in enumerate(view["players"]):
            who = ctx.names.get(seat, f"Seat {seat + 1}")
            lines.append(f"{who}: {pl['points']} PP, {count_text(pl['crowns'], 'crown')}, best colour "
                         f"{max(pl['color_points'].values())} PP, tokens {tokens_text(pl['tokens'])}, "
                         f"{count_text(pl['privileges'], 'privilege')}, {len(pl['reserved'])} reserved")
        spec.description = "\n".join(lines)
        return spec

    def table_picture(self, ctx: TableCtx) -> Image | None:
        return Image("table.png", functools.partial(render_table, ctx.view, ctx.names))

    def table_key(self, public_view: dict) -> str:
        return "over" if public_view.get("winner") is not None else "table"

    def screen(self, game_id: int, seat_view: dict, seat: int, names: dict[int, str]) -> MessageSpec | None:
        return MessageSpec(title=f"Your screen in Splendor Duel game #{game_id}",
                           description=seat_line(seat_view, seat) + "\n" + self._reserve_line(seat_view, seat),
                           image=Image("screen.png", functools.partial(render_table, seat_view, names)),
                           footer="Kept up to date as the game goes on. Only you can see it.")

    def my_screen(self, game_id: int, seat_view: dict, seat: int, names: dict[int, str]) -> MessageSpec | None:
        spec = self.screen(game_id, seat_view, seat, names)
        if spec is not None:
            spec.title = "Your screen (only you can see this)"
        return spec

    @staticmethod
    def _reserve_line(seat_view: dict, seat: int) -> str:
        reserved = seat_view["players"][seat]["reserved"]
        if not reserved:
            return "Reserved: none"
        from engine.splendor_duel.cards import label

        parts = [label(r["card"]) + (" (blind: only you know it)" if r["blind"] else "") for r in reserved]
        return "Reserved: " + "; ".join(parts)

    def screen_key(self, seat_view: dict, seat: int) -> str | None:
        me = seat_view["players"][seat]
        data = [me["tokens"], me["reserved"], me["privileges"], len(me["cards"]), seat_view["turn"]]
        return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    # ---------------------------------------------------------------- the end and boards

    def final(self, game_id: int, outcome: Outcome, public_view: dict, names: dict[int, str]) -> list[MessageSpec]:
        specs = super().final(game_id, outcome, public_view, names)
        specs[0].image = Image("table.png", functools.partial(render_table, public_view, names))
        return specs

    def board(self, public_view: dict, seat: int, name: str) -> MessageSpec | None:
        return MessageSpec(title="The table", image=Image("table.png", functools.partial(render_table, public_view)))

    def rules_text(self, topic: str) -> str:
        return rules_text(topic)

    def card_entries(self) -> list[tuple[str, str]]:
        return [(c, label(c)) for c in CARDS] + [(r, label(r)) for r in ROYALS]

    def card_page(self, value: str) -> MessageSpec | None:
        if value not in CARDS and value not in ROYALS:
            return None
        return MessageSpec(title=label(value), description="\n".join(card_lines(value)),
                           image=Image("card.png", functools.partial(render_card_face, value)))


def card_lines(card_id: str) -> list[str]:
    """A jewel or royal card in words: what it costs, what it gives, what its abilities do."""
    if card_id in ROYALS:
        r = ROYALS[card_id]
        lines = [f"**Royal card {r.id}**: {r.points} PP", "Taken free when your crowns reach 3, then 6."]
        abilities = r.abilities
    else:
        c = CARDS[card_id]
        kind = {"colored": f"{c.color} card", "joker": "joker card", "points_only": "gray card"}[c.card_type]
        cost = " ".join(f"{n}{TOKEN_LETTER[k]}" for k, n in zip(COST_KINDS, c.cost, strict=True) if n) or "free"
        lines = [f"**{c.id}**: level {c.level} {kind}", f"Costs: {cost}",
                 f"Gives: {c.points} PP, {c.crowns} crown{'s' if c.crowns != 1 else ''}, "
                 + (f"a bonus of {c.bonus}" + (f" {c.color}" if c.color else " of the colour it joins")
                    if c.bonus else "no bonus")]
        abilities = c.abilities
    lines += [f"Ability: {ABILITY_TEXT.get(a, a)}" for a in abilities]
    return lines


def render_card_face(card_id: str) -> bytes:
    from rendering.png import encode_png
    from rendering.splendor_duel import card, royal

    return encode_png(royal(card_id) if card_id in ROYALS else card(card_id))


PRESENTER = SplendorDuelPresenter()
