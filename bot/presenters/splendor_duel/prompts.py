"""Splendor Duel's prompt kinds: the turn (one plan, one Confirm) and the discard step.

A turn's draft holds the plan as it is built: privileges, then the mode (take / reserve / buy) and its
choices, the answers a purchase asks for, the tokens to return. Every menu lists only what the engine
accepts at that point (engine.splendor_duel.plans answers from the seat's view); Confirm checks the
whole plan the same way before it is submitted. Replenishing is a button of its own: it draws from the bag,
so the rest of the turn is chosen on the new board.
"""

from __future__ import annotations

import functools

from bot.ui import drafts, informed
from bot.ui.informed import Choice, shortfall
from bot.ui.presenter import SeatCtx
from bot.ui.spec import MAX_OPTIONS, Image, MessageSpec, Option, PlanIncomplete, cut
from bot.ui.texts import count_text
from engine.splendor_duel import plans as P
from engine.splendor_duel.board import CELL_INDEX
from engine.splendor_duel.cards import CARDS, GOLD, LEVELS, TOKEN_KINDS, TOKEN_LETTER, label
from engine.splendor_duel.moves import describe
from engine.splendor_duel.rules import auto_payment, can_afford, effective_cost, has_colored_bonus
from rendering.splendor_duel import render_table

QUESTION_TEXT = {
    "joker": "Column for the joker",
    "take": "Token of the card's colour to take",
    "steal": "Token to steal from your opponent",
    "royal": "Royal card to take (your crowns reach a threshold)",
    "royal_steal": "Token the royal card steals",
}
MODES = (("take", "Take tokens"), ("reserve", "Reserve a card"), ("buy", "Buy a card"))
DOWNSTREAM = ("first", "line", "target", "gold", "card", "joker", "take", "steal", "royal", "royal_steal", "discard")


def tokens_text(tokens: dict[str, int]) -> str:
    parts = [f"{n}{TOKEN_LETTER[k]}" for k in TOKEN_KINDS if (n := tokens.get(k, 0))]
    return " ".join(parts) if parts else "none"



def seat_line(view: dict, seat: int) -> str:
    me = view["players"][seat]
    return (f"You: {me['points']} PP, {count_text(me['crowns'], 'crown')}, best colour "
            f"{max(me['color_points'].values())} PP · tokens {tokens_text(me['tokens'])} ({me['token_count']}/10) · "
            f"{count_text(me['privileges'], 'privilege')}")


def card_option(card_id: str, value: str | None = None, default: bool = False, note: str = "") -> Option:
    text = label(card_id)
    return Option(cut(text, 100), value or card_id, cut(note, 100) if note else None, default)


def _picture(ctx: SeatCtx) -> Image:
    # The seat's own view of the table: the same picture as its screen (see the presenter's screen).
    return Image("table.png", functools.partial(render_table, ctx.view, ctx.names), stable=True, shows_screen=True)


def _reset_after(draft: dict, key: str) -> None:
    """Forget every choice that depends on ``key`` (they were made for another board or card)."""
    start = DOWNSTREAM.index(key) + 1 if key in DOWNSTREAM else 0
    for k in DOWNSTREAM[start:]:
        draft.pop(k, None)


class TurnPlan:
    """The plan in a draft, turned into an engine action step by step."""

    def __init__(self, ctx: SeatCtx, draft: dict) -> None:
        self.ctx, self.draft = ctx, draft
        self.seat = ctx.seat
        self.privileges = list(draft.get("priv") or [])
        self.state = P.after_privileges(ctx.view, ctx.seat, self.privileges)

    def action(self, with_discard: bool = True) -> dict | None:
        """The engine action the draft describes, or None while a choice is missing."""
        d = self.draft
        mode = d.get("mode")
        action: dict | None = None
        if mode == "take" and d.get("line"):
            action = {"type": "take", "tokens": d["line"].split("-")}
        elif mode == "reserve" and d.get("target") and self.gold():
            target = d["target"]
            action = {"type": "reserve", "gold": self.gold()}
            if target.startswith("deck:"):
                action["deck"] = int(target.split(":")[1])
            else:
                action["card"] = target
        elif mode == "buy" and d.get("card"):
            if self.questions():
                return None
            action = {"type": "buy", "card": d["card"]}
            for key in P.QUESTION_ORDER:
                if d.get(key) is not None:
                    action[key] = d[key]
        if action is None:
            return None
        if self.privileges:
            action["privileges"] = list(self.privileges)
        if with_discard and d.get("discard"):
            action["discard"] = P.discard_from_units(d["discard"])
        return action

    def gold(self) -> str | None:
        """The gold chosen, or the only one on the board."""
        golds = P.reserve_options(self.state, self.seat)["gold"]
        if self.draft.get("gold") in golds:
            return self.draft["gold"]
        return golds[0] if len(golds) == 1 else None

    def questions(self) -> list[dict]:
        d = self.draft
        if d.get("mode") != "buy" or not d.get("card"):
            return []
        answers = {k: d.get(k) for k in P.QUESTION_ORDER if d.get(k) is not None}
        return P.buy_questions(self.state, self.seat, d["card"], answers)

    def discard_needed(self) -> tuple[int, dict[str, int]]:
        action = self.action(with_discard=False)
        if action is None:
            return 0, {}
        result = P.check(self.ctx.view, self.seat, action)
        if not result["ok"]:
            return 0, {}
        return result["discard"], result["tokens"]


class TurnKind:
    """The turn prompt: privileges, one mandatory action and its answers, the discard; one Confirm."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        choices = ctx.choices
        spec = MessageSpec(title=f"Splendor Duel game #{ctx.game_id}: your turn", image=_picture(ctx))
        lines = [seat_line(ctx.view, ctx.seat)]
        if choices.get("must_replenish"):
            lines.append("No action is possible on this board: **replenish the board** first "
                         "(your opponent takes a privilege).")
            spec.description = "\n".join(lines)
            spec.rows.append([ctx.button("Replenish the board", "replenish", "primary")])
            return spec
        if choices.get("stage") == "replenished":
            lines.append("The board was replenished: now take tokens, reserve or buy.")
        plan = TurnPlan(ctx, draft)
        mode = draft.get("mode")
        row = [ctx.button(text, f"mode.{m}", "primary" if mode == m else "secondary") for m, text in MODES]
        if choices.get("can_replenish"):
            row.append(ctx.button("Replenish the board", "replenish"))
        spec.rows.append(row)
        # Privileges (before the action), as one menu of the board's gems and pearls.
        if choices.get("privileges"):
            cells = P.privilege_cells(ctx.view)
            chosen = set(plan.privileges)
            opts = [Option(f"{c}: {ctx.view['board'][CELL_INDEX[c]]}", c, default=c in chosen) for c in cells]
            if opts:
                spec.rows.append([ctx.select("priv", f"Use privileges (up to {choices['privileges']}): take tokens",
                                             opts, lo=0, hi=choices["privileges"])])
        if plan.privileges:
            lines.append(f"Privileges on: **{', '.join(plan.privileges)}**")
        rows: list = []
        if mode == "take":
            rows = self._take_rows(ctx, draft, plan, lines)
        elif mode == "reserve":
            rows = self._reserve_rows(ctx, draft, plan, lines)
        elif mode == "buy":
            rows = self._buy_rows(ctx, draft, plan, lines)
        else:
            lines.append("Choose what to do: take tokens, reserve a card with a gold, or buy a card.")
        action = plan.action(with_discard=False)
        complete = action is not None
        need, tokens = plan.discard_needed() if complete else (0, {})
        if complete and need:
            # The discard takes the place of the second menu (at most 5 rows in a message).
            units = P.discard_units(tokens)
            chosen = set(draft.get("discard") or [])
            opts = [Option(f"{u.split(':')[0]} #{u.split(':')[1]}", u, default=u in chosen) for u in units]
            rows = rows[:1] + [ctx.select("discard", f"Return {need} token{'s' if need != 1 else ''} to the bag (limit 10)", opts,
                                          lo=need, hi=need)]
            lines.append(f"You would hold {sum(tokens.values())} tokens: choose {need} to return.")
        spec.rows.extend([r] for r in rows[:2])
        ready = complete and (not need or len(draft.get("discard") or []) == need)
        if complete:
            lines.append(f"Plan: **{_describe(plan.action() or action)}**")
        spec.rows.append([ctx.button("Confirm", "confirm", "success", disabled=not ready),
                          ctx.button("Clear", "clear", "danger")])
        spec.description = "\n".join(lines)
        spec.footer = "Board spaces: columns A–E, rows 1–5. Nothing is played until you press Confirm."
        return spec

    def _take_rows(self, ctx: SeatCtx, draft: dict, plan: TurnPlan, lines: list[str]) -> list:
        cells = P.first_cells(plan.state)
        first = draft.get("first")
        opts = [Option(f"{c}: {plan.state['board'][CELL_INDEX[c]]}", c, default=c == first) for c in cells]
        if not opts:
            lines.append("No gem or pearl is left on the board to take.")
            return []
        rows = [ctx.select("first", "First token of the line", opts[:MAX_OPTIONS])]
        if first in cells:
            current = draft.get("line")
            line_opts = [Option(_line_text(plan.state, line), "-".join(line), default="-".join(line) == current)
                         for line in P.lines_through(plan.state, first)]
            rows.append(ctx.select("line", "Tokens to take (a line through it)", line_opts))
        else:
            lines.append("Pick the first token, then the line of 1–3 tokens through it.")
        return rows

    def _reserve_rows(self, ctx: SeatCtx, draft: dict, plan: TurnPlan, lines: list[str]) -> list:
        options = P.reserve_options(plan.state, ctx.seat)
        if not options["gold"]:
            lines.append("You cannot reserve now (no gold on the board, or 3 cards reserved already).")
            return []
        target = draft.get("target")
        opts = [card_option(c, default=c == target) for c in options["cards"]]
        opts += [Option(f"Top card of deck {lv} (hidden)", f"deck:{lv}", default=target == f"deck:{lv}")
                 for lv in options["decks"]]
        rows = [ctx.select("target", "Card to reserve", opts)]
        if target and len(options["gold"]) > 1:
            gold = draft.get("gold")
            rows.append(ctx.select("gold", "Gold token to take",
                                   [Option(g, g, default=g == gold) for g in options["gold"]]))
        return rows

    def _buy_rows(self, ctx: SeatCtx, draft: dict, plan: TurnPlan, lines: list[str]) -> list:
        cards = P.buy_options(plan.state, ctx.seat)
        if not cards:
            lines.append("You cannot pay for any card" + (" even with those privileges." if plan.privileges else ".")
                         + " Each card below says what it lacks.")
        current = draft.get("card")
        rows = [ctx.select("card", "Card to buy", informed.options(buy_choices(plan.state, ctx.seat, current)))]
        questions = plan.questions()
        if questions:
            q = questions[0]
            opts = [Option(_answer_text(q["key"], v, plan.state), str(v)) for v in q["options"]]
            rows.append(ctx.select(f"q.{q['key']}", QUESTION_TEXT[q["key"]], opts))
        return rows

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        value = values[0] if values else None
        if op == "replenish":
            privileges = list(draft.get("priv") or []) if ctx.choices.get("privileges") else []
            action = {"type": "replenish"}
            if privileges:
                action["privileges"] = privileges
            result = P.check(ctx.view, ctx.seat, action)
            if not result["ok"]:
                raise PlanIncomplete(result["message"])
            return action
        if op == "clear":
            drafts.clear(draft)
        elif op.startswith("mode."):
            mode = op.split(".", 1)[1]
            if mode not in {m for m, _ in MODES}:
                raise PlanIncomplete("That is not an action of this game.")
            if draft.get("mode") != mode:
                _reset_after(draft, "priv")
                draft["mode"] = mode
        elif op == "priv":
            allowed = set(P.privilege_cells(ctx.view))
            if len(values) > int(ctx.choices.get("privileges") or 0) or not set(values) <= allowed:
                raise PlanIncomplete("Those privileges cannot be used now.")
            draft["priv"] = list(values)
            _reset_after(draft, "priv")
        elif op == "first" and value:
            draft["first"] = value
            _reset_after(draft, "first")
        elif op in ("line", "target", "gold", "card") and value:
            draft[op] = value
            _reset_after(draft, op)
        elif op.startswith("q.") and value:
            key = op[2:]
            if key not in P.QUESTION_ORDER:
                raise PlanIncomplete("That question is not asked now.")
            draft[key] = value
            _reset_after(draft, key)
        elif op == "discard":
            draft["discard"] = list(values)
        elif op == "confirm":
            plan = TurnPlan(ctx, draft)
            action = plan.action()
            if action is None:
                raise PlanIncomplete("The plan is not complete yet.")
            result = P.check(ctx.view, ctx.seat, action)
            if not result["ok"]:
                raise PlanIncomplete(result["message"])
            if result["discard"]:
                raise PlanIncomplete(f"Choose {result['discard']} token{'s' if result['discard'] != 1 else ''} to return to the bag first.")
            return action
        return None

    def form(self, ctx: SeatCtx, draft: dict, purpose: str) -> None:
        return None

    def on_form(self, ctx: SeatCtx, draft: dict, purpose: str, values: dict[str, str]) -> str:
        raise PlanIncomplete("This form is not available.")


class DiscardKind:
    """The discard step, when a plan left out the tokens to return."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        count = int(ctx.choices.get("count", 0))
        tokens = dict(ctx.choices.get("tokens") or {})
        chosen = set(draft.get("discard") or [])
        opts = [Option(f"{u.split(':')[0]} #{u.split(':')[1]}", u, default=u in chosen) for u in P.discard_units(tokens)]
        spec = MessageSpec(title=f"Splendor Duel game #{ctx.game_id}: return tokens", image=_picture(ctx))
        spec.description = (f"{seat_line(ctx.view, ctx.seat)}\nYou hold {sum(tokens.values())} tokens: choose "
                            f"**{count}** to return to the bag (limit 10).")
        spec.rows.append([ctx.select("discard", f"Return {count} token{'s' if count != 1 else ''}", opts, lo=count, hi=count)])
        spec.rows.append([ctx.button("Confirm", "confirm", "success", disabled=len(chosen) != count)])
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op == "discard":
            draft["discard"] = list(values)
            return None
        if op == "confirm":
            count = int(ctx.choices.get("count", 0))
            units = draft.get("discard") or []
            if len(units) != count:
                raise PlanIncomplete(f"Choose exactly {count} token{'s' if count != 1 else ''} to return.")
            return {"type": "discard", "tokens": P.discard_from_units(units)}
        return None

    def form(self, ctx: SeatCtx, draft: dict, purpose: str) -> None:
        return None

    def on_form(self, ctx: SeatCtx, draft: dict, purpose: str, values: dict[str, str]) -> str:
        raise PlanIncomplete("This form is not available.")


def buy_choices(state: dict, seat: int, current: str | None = None) -> list[Choice]:
    """Every card the seat could buy (the pyramid's, then its own reserve): what it pays and what it gets;
    a card it cannot pay for is marked, with what it lacks."""
    me = state["players"][seat]
    mine = [c for c, _b in me["reserved"]]
    out = []
    for card_id in [c for lv in LEVELS for c in state["pyramid"][str(lv)] if c] + mine:
        card = CARDS[card_id]
        choice = Choice(label(card_id), card_id, note="from your reserve" if card_id in mine else "",
                        default=card_id == current)
        if can_afford(card, me["tokens"], me["bonus"]):
            pay = auto_payment(card, me["tokens"], me["bonus"]) or {}
            choice.costs = tokens_text(pay) if pay else "nothing (your bonuses pay)"
        elif card.is_joker and not has_colored_bonus(me["bonus"]):
            choice.blocked = "a joker needs a card with a colour bonus first"
        else:
            need = effective_cost(card, me["bonus"])
            missing = sum(max(0, n - me["tokens"].get(k, 0)) for k, n in need.items())
            choice.blocked = shortfall({k: n for k, n in need.items() if n > me["tokens"].get(k, 0)}, me["tokens"],
                                       lambda k: TOKEN_LETTER[k])
            choice.blocked += f" (gold covers {me['tokens'].get(GOLD, 0)} of the {missing} missing)"
        out.append(choice)
    return out


def _line_text(state: dict, line: list[str]) -> str:
    return ", ".join(f"{c} {state['board'][CELL_INDEX[c]]}" for c in line)


def _answer_text(key: str, value: object, state: dict) -> str:
    if key == "royal":
        return cut(label(str(value)), 100)
    if key == "take":
        return f"{value}: {state['board'][CELL_INDEX[str(value)]]}"
    return str(value)


def _describe(action: dict) -> str:
    return describe(action)


KINDS = {"turn": TurnKind(), "discard": DiscardKind()}
