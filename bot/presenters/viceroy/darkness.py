"""The Times of Darkness parts of the Viceroy prompts: the domain reward, the kept characters, diamond bids.

The engine's modules (engine/viceroy/modules/) say what each prompt offers (``Prompt.choices``); these kinds
show it and turn clicks into the engine's actions. Controls use the op names the simulated players know
("pick" for one choice, "return" for several), so the fake-Discord games play them too.
"""

from __future__ import annotations

from bot.ui.presenter import BasePromptKind, SeatCtx
from bot.ui.spec import MessageSpec, Option, cut
from engine.viceroy import cards as C

from .common import COLOR_EMOJI, card_option, describe_action, reward_text, screen_line

DOMAIN_LABELS = {
    "gems": ("Any 4 gems", "taken from the reserve now"),
    "science": ("A science token", "it lies on your domain card: one more gem each time you pass"),
    "attack": ("An attack token", "behind your screen"),
    "card:character": ("A character card", "then keep 2 of the 4 characters in hand"),
    "card:law": ("A law card", "from the law deck"),
}


def _base(ctx: SeatCtx, title: str) -> tuple[MessageSpec, list[str]]:
    return MessageSpec(title=title), [screen_line(ctx.view["players"][ctx.seat])]


class DomainKind(BasePromptKind):
    """The domain card's reward (darkness): one of four, chosen in secret."""

    lock_in = True

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx, "Viceroy: your domain card's reward")
        lines.append("Your domain card lies in the first row of your pyramid (its sections are every colour). "
                     "Choose one of its rewards; then you draw 3 characters and keep 1.")
        if ctx.view.get("my_choice"):
            lines.append(f"Chosen: **{describe_action(ctx.view['my_choice'])}** (you can change it until everyone "
                         "has chosen).")
        options = [Option(label, value, help_text) for value, (label, help_text) in DOMAIN_LABELS.items()]
        spec.rows.append([ctx.select("pick", "Domain reward", options)])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op != "pick" or not values or values[0] not in DOMAIN_LABELS:
            return None
        kind, _, deck = values[0].partition(":")
        action = {"type": "domain", "reward": kind}
        if deck:
            action["deck"] = deck
        return action

class KeepKind(BasePromptKind):
    """The characters kept after the domain reward (darkness): 1 of the 3 drawn, or 2 of 4."""

    lock_in = True

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx, "Viceroy: the characters you keep")
        hand = list(ctx.choices.get("hand", []))
        keep = int(ctx.choices.get("keep", 1))
        lines.append(f"Keep {keep} of these characters in your hand; the others go back to the deck.")
        if ctx.view.get("my_choice"):
            lines.append(f"Chosen: **{describe_action(ctx.view['my_choice'])}**.")
        options = [card_option(n, description=cut(f"Level 2: {reward_text(C.rewards(n, 2))}", 100), value=str(n))
                   for n in hand]
        # "return" is the several-at-once choice the simulated players know.
        spec.rows.append([ctx.select("return", f"Characters to keep ({keep})", options, keep, keep)])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op != "return" or not values:
            return None
        return {"type": "setup", "keep": [int(v) for v in values]}

class DiamondBidKind(BasePromptKind):
    """After the reveal, a diamond bidder names the colour (and card) the diamond stands for."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx, "Your diamond bid: choose its colour")
        lines.append(ctx.choices.get("text", ""))
        options = []
        for option in ctx.choices.get("options", []):
            for card in option["cards"]:
                options.append(Option(cut(f"{option['color']} for {C.label(card)}"), f"{option['color']}:{card}",
                                      COLOR_EMOJI.get(option["color"])))
        spec.rows.append([ctx.select("pick", "Colour and character", options)])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op != "pick" or not values or ":" not in values[0]:
            return None
        colour, card = values[0].split(":", 1)
        return {"type": "decide", "color": colour, "card": int(card)}

def with_diamond_bid(kind):  # noqa: ANN001, ANN201
    """The auction prompt with a "bid a diamond" choice when the seat holds one."""

    class DiamondAuction(type(kind)):  # type: ignore[misc]
        def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
            spec = super().render(ctx, draft)
            if ctx.choices.get("diamonds"):
                for row in spec.rows:
                    for control in row:
                        if getattr(control, "custom_id", "") == ctx.control_id("choose"):
                            control.options.insert(0, Option("Bid a diamond", "bid:diamond",
                                                             "choose its colour after the reveal"))
                            del control.options[25:]
            return spec

        def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
            if op == "choose" and values and values[0] == "bid:diamond":
                return {"type": "bid", "diamond": True, "archive": draft.get("archive", False)}
            return super().on_control(ctx, draft, op, values)

    return DiamondAuction()


def with_diamond_painting(kind):  # noqa: ANN001, ANN201
    """The painting prompt whose one-click best painting also uses the seat's diamonds (each paints one
    section in any colour)."""
    from engine.viceroy.modules.common import best_painting_with_diamonds

    def best(ctx: SeatCtx) -> tuple[list[dict], int, int]:
        diamonds = int(ctx.choices.get("diamonds") or 0)
        paint, gain = best_painting_with_diamonds({"players": ctx.view["players"]}, ctx.seat, diamonds)
        return paint, gain, diamonds

    class DiamondPainting(type(kind)):  # type: ignore[misc]
        def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
            spec = super().render(ctx, draft)
            if not ctx.choices.get("diamonds"):
                return spec
            paint, gain, diamonds = best(ctx)
            used = sum(1 for item in paint if item.get("diamond"))
            spec.description = (spec.description or "") + (
                f"\nYou hold {diamonds} diamond{'s' if diamonds != 1 else ''}: each paints one section in any colour.")
            label = (f"Paint the best way ({len(paint)} sections, {used} with diamonds, +{gain} points)" if paint
                     else "Nothing worth painting: finish")
            for row in spec.rows:
                for control in row:
                    if getattr(control, "custom_id", "") == ctx.control_id("paint"):
                        control.label = cut(label, 80)
            return spec

        def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
            if op == "paint" and ctx.choices.get("diamonds"):
                return {"type": "paint", "paint": best(ctx)[0]}
            return super().on_control(ctx, draft, op, values)

    return DiamondPainting()


class SetupSwitch:
    """The setup prompt: the base game's (starting card) or, with domain cards, the kept characters."""

    def __init__(self, base, keep: KeepKind) -> None:  # noqa: ANN001
        self.base, self.keep = base, keep

    lock_in = True  # the base setup submits with its Confirm (a commit op); the kept characters are locked in

    def _pick(self, ctx: SeatCtx):  # noqa: ANN202
        return self.keep if "keep" in ctx.choices and "deal" not in ctx.choices else self.base

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        return self._pick(ctx).render(ctx, draft)

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        return self._pick(ctx).on_control(ctx, draft, op, values)

    def form(self, ctx: SeatCtx, draft: dict, purpose: str):  # noqa: ANN201
        return self._pick(ctx).form(ctx, draft, purpose)

    def on_form(self, ctx: SeatCtx, draft: dict, purpose: str, values: dict[str, str]) -> str:
        return self._pick(ctx).on_form(ctx, draft, purpose, values)


def install(kinds: dict) -> None:
    """Add the modules' kinds to the Viceroy prompt kinds."""
    kinds["domain"] = DomainKind()
    kinds["setup"] = SetupSwitch(kinds["setup"], KeepKind())
    kinds["diamond_bid"] = DiamondBidKind()
    kinds["auction"] = with_diamond_bid(kinds["auction"])
    kinds["paint"] = with_diamond_painting(kinds["paint"])
