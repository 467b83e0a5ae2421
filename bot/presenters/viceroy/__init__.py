"""Everything Viceroy shows on Discord: prompts per kind, lobby line, table message, screen, scores, boards."""

from __future__ import annotations

import functools
import hashlib
import json

from bot.ui.presenter import BasePresenter, TableCtx, option_value_text
from bot.ui.spec import Image, MessageSpec, PlanIncomplete
from bot.ui.texts import fill_names
from engine.api import GameType, Outcome
from engine.viceroy import cards as C
from engine.viceroy.state import DISCARD_GEMS

from .common import (
    EMBED_COLOR,
    card_lines,
    describe_action,
    render_card,
    render_pyramid,
    render_screen,
    render_table,
    screen_line,
)
from .prompts import KINDS
from .rules import rules_text as _rules_text

RULES_TOPICS = ["overview", "goal", "turn", "costs", "scoring", "icons", "setup", "auction", "development", "pyramid",
                "laws", "end", "solo", "darkness", "revised", "duo", "aristocrats", "invasion", "underworld", "bot"]
PHASE_TITLES = {"domain": " · domain cards", "setup": " · setup", "auction": " · auction round {round}", "development": " · development round {round}",
                "painting": " · painting", "over": " · game over", "combat": " · combat",
                "underworld": " · criminals back under the deck", "judgement": " · the judgement"}
# The score sheet's breakdown keys, as the picture (rendering.render_scores) names them.
BREAKDOWN_KEYS = {"Circles": "circles", "Infinite gems": "infinite_gems", "Laws": "laws", "Power points": "power_points",
                  "Magic": "magic", "Sets": "sets", "Attacks": "attack"}
SHORT_LABELS = {"circles": "circles", "infinite_gems": "infinite gems", "laws": "laws", "power_points": "PP",
                "magic": "magic", "sets": "sets", "attack": "attack"}


def is_discard_gain(event: dict) -> bool:
    """The gems a discard brings, when the reserve gave them all: the discard's own line already counts them.
    A short reserve (fewer gems, or none) keeps its line."""
    return (event.get("type") == "gems_taken" and event.get("count") == DISCARD_GEMS
            and str(event.get("text", "")).endswith("(discarding a card)."))


class ViceroyPresenter(BasePresenter):
    name = "viceroy"
    display_name = "Viceroy"
    embed_color = EMBED_COLOR
    kinds = KINDS
    board_command = "pyramid"
    board_description = "Show a player's pyramid"
    rules_topics = RULES_TOPICS
    form_ops = ("gems.",)
    slash_names = {"virtual_opponents": "virtual"}
    slash_help = {"deal": "Starting deal: 4 cards, or 2 (first printing)", "virtual_opponents": "Virtual opponents (2-3 players only)",
                  "modules": "Times of Darkness modules, comma-separated: darkness, duo, aristocrats, invasion, underworld"}
    lobby_footer = "Secret choices come by direct message: allow DMs from server members."
    description = "Play Viceroy: pyramids, secret bids and laws"
    decision_names = {"setup": "your starting card", "auction": "your auction choice (bid, attack or pass)",
                      "development": "your development plan", "replan": "a new development plan",
                      "paint": "your painting", "domain": "your domain card's reward",
                      "diamond_bid": "your diamond bid's colour", "gems": "your choice of gems",
                      "attack_pick": "the character your attack takes", "royal_favor": "Royal Favor's card",
                      "archive": "whether Archive tucks the card", "chancery_return": "the laws to return",
                      "solo_discard": "the character to discard"}

    # ---------------------------------------------------------------- lobby and events

    def lobby_lines(self, game_type: GameType, options: dict) -> list[str]:
        lines = [f"Starting deal: {options.get('deal', 4)} cards · virtual opponents: {options.get('virtual_opponents', 0)}"]
        for spec in game_type.options:  # the expansion modules (and any other switches the engine offers)
            if spec.kind == "flags":
                lines.append(f"{spec.label}: {option_value_text(spec, options.get(spec.name) or [])}")
        return lines

    def check_new(self, seats: int, ai: int, options: dict) -> None:
        if seats == 1 and options.get("virtual_opponents", 1) not in (0, 1):
            raise PlanIncomplete("A solo game has exactly one virtual opponent (leave `virtual` empty).")
        if seats + options.get("virtual_opponents", 0) > 4 and options.get("virtual_opponents"):
            raise PlanIncomplete("Virtual opponents only fill seats up to 4.")

    def started_line(self, game_type: GameType) -> str:
        return "The game begins! Everyone: choose your starting card in your DMs."

    def describe(self, action: dict) -> str:
        return describe_action(action)

    def event_line(self, event: dict, names: dict[int, str]) -> str | None:
        if event.get("type") == "chosen":
            return None  # the table message shows whom the game waits for
        text = event.get("text")
        if is_discard_gain(event):
            return None  # "… discards #71 Militia Levy for 2 gems." just before says it (the colours go by DM)
        return fill_names(text, names) if text else None

    def private_line(self, event: dict, names: dict[int, str]) -> str | None:
        if event.get("type") == "choice_recorded":
            return None  # the prompt itself says the choice is in
        return super().private_line(event, names)

    def results(self, events: list[dict], public_view: dict, names: dict[int, str]) -> MessageSpec | None:
        if not any(e.get("type") == "development_reveal" for e in events):
            return None
        # The development results come with the table as it now stands (posted: laid out for a phone).
        return MessageSpec(title="The table after this development round",
                           image=Image("table.png", functools.partial(render_table, public_view, names, narrow=True)))

    # ---------------------------------------------------------------- table and screens

    def table_title(self, ctx: TableCtx) -> str:
        view = ctx.view
        title = f"Viceroy game #{ctx.game_id} · turn {view['turn']}" + (" (last)" if view["last_turn"] else "")
        return title + PHASE_TITLES[view["phase"]].format(round=view["round"])

    def table(self, ctx: TableCtx, with_image: bool) -> MessageSpec:
        spec = super().table(ctx, with_image)
        if ctx.view["phase"] == "over":
            spec.description = "The game is over."
        return spec

    def table_picture(self, ctx: TableCtx) -> Image | None:
        """The whole table at full size on demand (`/viceroy status`). The table message the game posts is laid
        out for a phone, and in the base game a development phase's has no picture: a turn is the auction, then
        development, and the auction changes no pyramid, so the pyramids are those of the turn's auction table
        message just above (less the auction, which is over); each development round's results come with a
        picture of their own. Modules add phases of their own between them: their games keep the picture."""
        if not ctx.posted:
            return Image("table.png", functools.partial(render_table, ctx.view, ctx.names))
        if ctx.view.get("phase") == "development" and not (ctx.view.get("options") or {}).get("modules"):
            return None
        return Image("table.png", functools.partial(render_table, ctx.view, ctx.names, narrow=True))

    def table_key(self, public_view: dict) -> str:
        return f"{public_view['phase']}:{public_view['turn']}"

    def screen(self, game_id: int, seat_view: dict, seat: int, names: dict[int, str]) -> MessageSpec | None:
        me = seat_view["players"][seat]
        return MessageSpec(title=f"Your screen in Viceroy game #{game_id}", description=screen_line(me),
                           image=Image("screen.png", functools.partial(render_screen, seat_view, names.get(seat))),
                           footer="Kept up to date as the game goes on. Only you can see it.")

    def my_screen(self, game_id: int, seat_view: dict, seat: int, names: dict[int, str]) -> MessageSpec | None:
        return MessageSpec(title="Your screen (only you can see this)",
                           description=screen_line(seat_view["players"][seat]),
                           image=Image("screen.png", functools.partial(render_screen, seat_view, names.get(seat))))

    def screen_key(self, seat_view: dict, seat: int) -> str | None:
        me = seat_view["players"][seat]
        return hashlib.sha1(json.dumps([me.get("gems"), me.get("attacks"), me.get("hand")]).encode()).hexdigest()[:16]

    # ---------------------------------------------------------------- the end and boards

    def final(self, game_id: int, outcome: Outcome, public_view: dict, names: dict[int, str]) -> list[MessageSpec]:
        from rendering import render_scores

        scores = [{"seat": r.seat, "total": r.total, "winner": r.winner,
                   "breakdown": {BREAKDOWN_KEYS.get(label, label): value for label, value in r.breakdown}}
                  for r in outcome.results]
        lines = []
        for s in sorted(scores, key=lambda s: -s["total"]):
            b = s["breakdown"]
            # One part per score row (" · " between them): each row reads in every language, whichever rows
            # the game's modules add.
            parts = [f"{SHORT_LABELS.get(k, k)} {v}" for k, v in b.items()]
            lines.append(" · ".join([f"**{names.get(s['seat'], s['seat'])}**: {s['total']}" + (" 🏆" if s["winner"] else ""),
                                     *parts]))
        return [MessageSpec(title=f"Viceroy game #{game_id}: final scores", description="\n".join(lines),
                            image=Image("scores.png", functools.partial(render_scores, scores, names))),
                MessageSpec(title="The final pyramids",
                            image=Image("table.png", functools.partial(render_table, public_view, names, narrow=True)))]

    def board(self, public_view: dict, seat: int, name: str) -> MessageSpec | None:
        pyramid = public_view["players"][seat]["pyramid"]
        return MessageSpec(title=f"{name}'s pyramid", image=Image("pyramid.png", functools.partial(render_pyramid, pyramid, name)))

    def rules_text(self, topic: str) -> str:
        return _rules_text(topic)

    def card_entries(self) -> list[tuple[str, str]]:
        return [(str(n), C.label(n)) for n in sorted(C.CARDS)]

    def card_page(self, value: str) -> MessageSpec | None:
        if not value.isdigit() or int(value) not in C.CARDS:
            return None
        number = int(value)
        return MessageSpec(title=C.label(number), description="\n".join(card_lines(number)),
                           image=Image("card.png", functools.partial(render_card, number)))


PRESENTER = ViceroyPresenter()
