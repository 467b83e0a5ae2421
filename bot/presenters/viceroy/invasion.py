"""The Invasion parts of the Viceroy prompts: the combat plan and the fallback question.

The combat prompt is one sealed plan, presented like an auction bid: a menu of how many monsters to defeat
(each with its whole cost and the reward of the topmost), and the payment: suggested by the engine (the
combat card first, then the screen, science recolours, diamonds) or set by the player in forms (gems and
diamonds from behind the screen, from the combat card, and the recolours). Choosing a number submits the plan;
it can be changed until everyone has chosen. "pick" is the op the simulated players know.
"""

from __future__ import annotations

import functools

from bot.ui.presenter import BasePromptKind, SeatCtx
from bot.ui.spec import FormField, FormSpec, Image, MessageSpec, Option, PlanIncomplete, cut
from engine.viceroy import cards as C

from .common import gems_long, gems_text, reward_text, screen_line

FORMS = {
    "combat_screen": ("Pay from behind your screen", "gems", "diamonds"),
    "combat_card": ("Pay from your combat card", "card_gems", "card_diamonds"),
}


def _paid_text(plan: dict) -> str:
    gems = {c: plan.get("gems", {}).get(c, 0) + plan.get("card_gems", {}).get(c, 0) for c in C.COLORS}
    parts = [gems_text(gems)] if any(gems.values()) else []
    d = plan.get("diamonds", 0) + plan.get("card_diamonds", 0)
    if d:
        parts.append(f"{d} diamond{'s' if d != 1 else ''}")
    return " + ".join(parts) or "nothing"


def _custom(draft: dict) -> dict | None:
    return draft.get("combat")


def _plan_for(ctx: SeatCtx, draft: dict, defeat: int) -> dict:
    """The action for defeating ``defeat`` monsters: the player's own payment if set, else the suggestion."""
    if defeat == 0:
        return {"type": "combat", "defeat": 0}
    custom = _custom(draft)
    if custom is not None:
        action = {"type": "combat", "defeat": defeat, **{k: v for k, v in custom.items() if k != "recolour"}}
        if custom.get("recolour") is not None:
            action["recolour"] = custom["recolour"]
        return action
    plans = ctx.choices.get("plans", [])
    if defeat >= len(plans):
        raise PlanIncomplete("You cannot pay for that many monsters: set your payment first.")
    return dict(plans[defeat])


def parse_recolours(text: str) -> list[dict] | None:
    """'yellow>blue, red>green' -> [{"from": "yellow", "to": "blue"}, ...]; blank -> None (worked out)."""
    text = text.strip().lower()
    if not text:
        return None
    out = []
    for part in text.replace(";", ",").split(","):
        src, sep, dst = part.strip().partition(">")
        if not sep or src.strip() not in C.COLORS or dst.strip() not in C.COLORS:
            raise PlanIncomplete("Write recolours as colour>colour, for example: yellow>blue, red>green.")
        out.append({"from": src.strip(), "to": dst.strip()})
    return out


class CombatKind(BasePromptKind):
    """The sealed combat plan: how many monsters from the bottom, which gems, which recolours."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        view, ch = ctx.view, ctx.choices
        me = view["players"][ctx.seat]
        spec = MessageSpec(title=f"Viceroy game #{ctx.game_id}: combat!")
        lines = [screen_line(me)]
        stack = list(ch.get("stack", []))
        lines.append("The monsters attack. Choose in secret how many you defeat, counted from the bottom of the stack: "
                     "pay the whole cost of each (no partial defeat) and gain the reward of the topmost one. "
                     "Defeating none gives a combat penalty card (-4 PP).")
        for i, m in enumerate(stack):
            lines.append(f"{i + 1}. **{m['name']}** (tier {'I' * m['tier']}): pay {', '.join(m['cost'])}; "
                         f"reward {reward_text(m['reward'])} · all up to here: {gems_long(m['total'])}")
        card = f"{gems_long(ch.get('card_gems', {}))}" + (f", {ch['card_diamonds']} diamonds" if ch.get("card_diamonds") else "")
        lines.append(f"Combat card: {card}. Science tokens (one recolour each): {ch.get('science', 0)}.")
        current = view.get("my_choice")
        if current:
            lines.append(f"Your sealed plan: **defeat {current['defeat']}**, paying {_paid_text(current)}"
                         + (" (recolours " + ", ".join(f"{r['from']}>{r['to']}" for r in current["recolour"]) + ")"
                            if current.get("recolour") else "") + ". You can change it until everyone has chosen.")
        custom = _custom(draft)
        if custom is not None:
            lines.append(f"Your payment: **{_paid_text(custom)}**"
                         + (f", recolours {', '.join(r['from'] + '>' + r['to'] for r in custom['recolour'])}"
                            if custom.get("recolour") else "") + ".")
        plans = list(ch.get("plans", []))
        opts: list[Option] = []
        counts = range(len(stack), 0, -1) if custom is not None else range(len(plans) - 1, 0, -1)
        for n in counts:
            m = stack[n - 1]
            paid = _paid_text(custom) if custom is not None else _paid_text(plans[n])
            opts.append(Option(cut(f"Defeat {n}, up to {m['name']}: {reward_text(m['reward'])}"), str(n),
                               cut(f"pay {paid}")))
        opts.append(Option("Defeat none (take a combat penalty card, -4 PP)", "0"))
        spec.rows.append([ctx.select("pick", "How many monsters to defeat", opts)])
        row = [ctx.button("Pay from my screen", "gems.combat_screen"), ctx.button("Pay from my combat card", "gems.combat_card"),
               ctx.button("Recolours", "gems.combat_recolour")]
        if custom is not None:
            row.append(ctx.button("Use the suggested payment", "suggested"))
        spec.rows.append(row)
        if "invasion" in view:
            from rendering.invasion import render_invasion

            spec.image = Image("combat.png", functools.partial(render_invasion, view, ctx.names))
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op == "suggested":
            draft.pop("combat", None)
            return None
        if op != "pick" or not values or not values[0].isdigit():
            return None
        return _plan_for(ctx, draft, int(values[0]))

    def form(self, ctx: SeatCtx, draft: dict, purpose: str) -> FormSpec | None:
        purpose = purpose.split(".", 1)[-1]
        custom = _custom(draft) or {}
        if purpose == "combat_recolour":
            text = ", ".join(f"{r['from']}>{r['to']}" for r in custom.get("recolour") or [])
            return FormSpec(ctx.form_id("gems.combat_recolour"), "Science recolours",
                            [FormField("recolour", "e.g. yellow>blue (blank: worked out)", text, 60)])
        if purpose not in FORMS:
            return None
        title, gems_key, diamonds_key = FORMS[purpose]
        gems = custom.get(gems_key, {})
        fields = [FormField(c, f"{c.capitalize()} gems", str(gems.get(c, 0))) for c in C.COLORS]
        fields.append(FormField("diamonds", "Diamonds", str(custom.get(diamonds_key, 0))))
        return FormSpec(ctx.form_id(f"gems.{purpose}"), title, fields)

    def on_form(self, ctx: SeatCtx, draft: dict, purpose: str, values: dict[str, str]) -> str:
        purpose = purpose.split(".", 1)[-1]
        custom = draft.setdefault("combat", {"gems": dict.fromkeys(C.COLORS, 0), "card_gems": dict.fromkeys(C.COLORS, 0),
                                             "diamonds": 0, "card_diamonds": 0, "recolour": None})
        if purpose == "combat_recolour":
            custom["recolour"] = parse_recolours(values.get("recolour", ""))
            return "Recolours set." if custom["recolour"] else "Recolours will be worked out for you."
        if purpose not in FORMS:
            raise PlanIncomplete("That form is not part of the combat plan.")
        _title, gems_key, diamonds_key = FORMS[purpose]
        numbers = {}
        for key in (*C.COLORS, "diamonds"):
            raw = (values.get(key) or "0").strip() or "0"
            if not raw.isdigit():
                raise PlanIncomplete("Write whole numbers, 0 or more.")
            numbers[key] = int(raw)
        custom[gems_key] = {c: numbers[c] for c in C.COLORS}
        custom[diamonds_key] = numbers["diamonds"]
        return f"Payment set: {_paid_text(custom)}. Now choose how many monsters to defeat."


class FallbackKind(BasePromptKind):
    """A monster's reward cannot be taken in full: take what there is, or the next lower monster's."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec = MessageSpec(title="A question during the combat")
        lines = [screen_line(ctx.view["players"][ctx.seat]), ctx.choices.get("text", "")]
        spec.rows.append([ctx.select("pick", "Which reward", [
            Option("The next lower monster's reward", "lower"),
            Option("What there is of this reward", "take")])])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op == "pick" and values and values[0] in ("lower", "take"):
            return {"type": "decide", "choice": values[0]}
        return None


def install(kinds: dict) -> None:
    kinds["combat"] = CombatKind()
    kinds["monster_fallback"] = FallbackKind()
