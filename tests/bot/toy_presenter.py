"""A presenter for the toy game (tests/service/toygame.py): the whole Discord side of a second game.

It is what a new game writes: its prompt kinds, its event lines and its private screen. Everything else
(commands, lobby, delivery, table message, final scores) comes from the generic layer.
"""

from __future__ import annotations

from bot.ui.presenter import BasePresenter, BasePromptKind, SeatCtx
from bot.ui.spec import MessageSpec, Option, PlanIncomplete
from bot.ui.texts import fill_names


class ChooseKind(BasePromptKind):
    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        chosen = ctx.view.get("choice")
        lines = [f"Your hand: {', '.join(map(str, ctx.view['hand']))}"]
        lines.append(f"Your secret number: **{chosen}** (you can change it until everyone has chosen)." if chosen
                     else "Choose a number secretly: the highest number nobody else chose wins the round.")
        options = [Option(str(n), str(n), default=n == chosen) for n in sorted(set(ctx.choices["options"]))]
        return MessageSpec(title=f"Toy game #{ctx.game_id}: round {ctx.view['round']}", description="\n".join(lines),
                           rows=[[ctx.select("number", "Your number", options)]])

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op != "number" or not values:
            raise PlanIncomplete("Choose a number.")
        return {"type": "choose", "card": int(values[0])}


class DecideKind(BasePromptKind):
    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        return MessageSpec(title=f"Toy game #{ctx.game_id}: you won the round",
                           description=f"Score your {ctx.choices['value']}, or draw a new number?",
                           rows=[[ctx.button("Score it", "points", "success"), ctx.button("Draw a number", "draw")]])

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op not in ctx.choices["options"]:
            raise PlanIncomplete("Score it or draw.")
        return {"type": "decide", "take": op}


class ToyPresenter(BasePresenter):
    name = "toy"
    display_name = "Toy"
    embed_color = 0x2E8B57
    kinds = {"choose": ChooseKind(), "decide": DecideKind()}
    rules_topics = ["overview", "bot"]

    def event_line(self, event: dict, names: dict[int, str]) -> str | None:
        kind = event.get("type")
        if kind == "reveal":
            return "Revealed: " + ", ".join(f"{names.get(s, s)} {c}" for s, c in enumerate(event["choices"]))
        if kind == "round_won":
            return f"{names.get(event['seat'], event['seat'])} wins the round with {event['value']}."
        if kind == "scored":
            return f"{names.get(event['seat'], event['seat'])} scores {event['points']}."
        if kind == "drew":
            return f"{names.get(event['seat'], event['seat'])} draws a number."
        return fill_names(event["text"], names) if event.get("text") else None

    def private_line(self, event: dict, names: dict[int, str]) -> str | None:
        if event.get("type") == "drew":
            return f"You draw a {event['card']}."
        return None

    def describe(self, action: dict) -> str:
        return f"number {action['card']}" if action.get("type") == "choose" else str(action.get("take"))

    def screen(self, game_id: int, seat_view: dict, seat: int, names: dict[int, str]) -> MessageSpec | None:
        return MessageSpec(title=f"Your screen in Toy game #{game_id}",
                           description=f"Your hand: {', '.join(map(str, seat_view.get('hand', [])))}")

    def screen_key(self, seat_view: dict, seat: int) -> str | None:
        return ",".join(map(str, seat_view.get("hand", [])))

    def rules_text(self, topic: str) -> str:
        return "Everyone chooses a number in secret; the highest number nobody else chose wins the round."


PRESENTER = ToyPresenter()
