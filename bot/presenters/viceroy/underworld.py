"""The Underworld parts of the Viceroy prompts: playing a criminal on one of its lines, returning a judgement
token, discarding judgement tokens, the bribe follow-up, relocating a free character (picked on the lettered
pyramid picture), the end-of-phase criminal return and the end-of-game judgement.

The engine's underworld module says what each prompt offers (``Prompt.choices``); these kinds show it and
turn clicks into the engine's actions. Controls use the op names the simulated players know ("slot", "opt"
and "confirm" inside a development plan, "pick" for one choice, "return" for several).
"""

from __future__ import annotations

from bot.ui.presenter import BasePromptKind, SeatCtx
from bot.ui.spec import Image, MessageSpec, Option, PlanIncomplete, cut
from bot.ui.texts import BLOCKED_MARK
from engine.viceroy import cards as C
from engine.viceroy import pyramid as P
from engine.viceroy.modules.criminals import is_criminal, token_text

from . import plans
from .common import describe_action, render_pyramid, reward_text, screen_line, slot_labels

LINE_NAMES = ("Top", "Middle", "Bottom")


def judgement_line(me: dict) -> str:
    """The seat's own judgement tokens and bribes, in words (for its prompts)."""
    tokens = me.get("judgement_tokens")
    parts = []
    if tokens is not None:
        parts.append("Your judgement tokens: " + (", ".join(token_text(t["id"]) for t in tokens) or "none"))
    if me.get("bribes") is not None:
        parts.append(f"{'Bribe' if not parts else 'bribe'} tokens: {me['bribes']}")
    return "\n".join(f"*{part}*" for part in parts)  # a line each, so that each is translated whole


def _base(ctx: SeatCtx, title: str) -> tuple[MessageSpec, list[str]]:
    me = ctx.view["players"][ctx.seat]
    lines = [screen_line(me)]
    extra = judgement_line(me)
    if extra:
        lines.append(extra)
    return MessageSpec(title=title), lines


def _criminals(ctx: SeatCtx) -> dict[str, dict]:
    return dict(ctx.choices.get("criminals") or {})


def criminal_action(ctx: SeatCtx, draft: dict) -> dict:
    """The engine action of a criminal play draft (raises PlanIncomplete naming what is missing)."""
    number = draft["card"]
    entry = _criminals(ctx).get(str(number), {})
    if not entry.get("slots"):
        raise PlanIncomplete("There is no place for a criminal: it needs two adjacent level-1 cards with no "
                             "criminal under them.")
    if draft.get("slot") not in entry["slots"]:
        raise PlanIncomplete("Choose where the criminal goes (level 0, letters on the picture).")
    if draft.get("line") is None:
        raise PlanIncomplete("Choose one of the criminal's three lines.")
    return {"type": "play", "card": number, "slot": draft["slot"], "line": draft["line"],
            "reward": plans._reward_from_draft(ctx, draft)}


def _criminal_options(options: list[Option], criminals: dict[str, dict]) -> list[Option]:
    """The first step's card menu with each criminal said as it is played (level 0, no gems, a line); one
    with no place is marked, last, with the reason (bot/ui/informed.py)."""
    out = []
    for o in options:
        number = int(o.value.split(":")[1])
        if not is_criminal(number):
            out.append(o)
            continue
        entry = criminals.get(str(number), {})
        if entry.get("slots"):
            out.append(Option(cut(f"Play {C.label(number)}"), o.value,
                              "criminal: level 0, costs no gems → the rewards of a line you choose", o.default))
        else:
            out.append(Option(cut(f"{BLOCKED_MARK} Play {C.label(number)}"), o.value,
                              "no place for a criminal (two adjacent level-1 cards)", o.default,
                              "no place for a criminal (two adjacent level-1 cards)"))
    return [o for o in out if not o.blocked] + [o for o in out if o.blocked]


def with_criminals(kind):  # noqa: ANN001, ANN201
    """The development prompt (or its re-plan) with criminals: played on a line, never discarded for gems."""

    class UnderworldDevelopment(type(kind)):  # type: ignore[misc]
        def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
            number = draft.get("card")
            if draft.get("action") == "play" and isinstance(number, int) and is_criminal(number):
                return self._criminal(ctx, draft, number)
            spec = super().render(ctx, draft)
            discard, card = ctx.control_id("discard"), ctx.control_id("card")
            criminals = _criminals(ctx)
            for row in spec.rows:
                for control in row:
                    if getattr(control, "custom_id", "") == discard:
                        control.options = [o for o in control.options if not is_criminal(int(o.value.split(":")[1]))]
                    if getattr(control, "custom_id", "") == card:  # criminals go on level 0, for no gems
                        control.options = _criminal_options(control.options, criminals)
            spec.rows = [row for row in spec.rows
                         if not any(getattr(c, "custom_id", "") == discard and not c.options for c in row)]
            extra = judgement_line(ctx.view["players"][ctx.seat])
            if extra:
                spec.description = (spec.description or "") + "\n" + extra
            return spec

        def _criminal(self, ctx: SeatCtx, draft: dict, number: int) -> MessageSpec:
            spec, lines = _base(ctx, "Choose again" if self.replan else
                                f"Turn {ctx.view['turn']}: development round {ctx.view['round']}")
            entry = _criminals(ctx).get(str(number), {"slots": [], "lines": []})
            slots = entry["slots"]
            lines.append(f"Play the criminal **{C.label(number)}** on level 0, under two adjacent level-1 cards. "
                         "It costs no gems: choose a line and take its judgement tokens (you return one of them).")
            labels = slot_labels(slots)
            if slots:
                spec.rows.append([ctx.select("slot", "Where it goes (letters on the picture)", [
                    Option(f"{labels[s]}: level 0", s, None, draft.get("slot") == s) for s in slots])])
            spec.rows.append([ctx.select("opt", "Choose one line", [
                Option(cut(f"{LINE_NAMES[i]} line: {line['judgement']} judgement tokens, keep "
                           f"{line['judgement'] - 1}"), str(i), cut(line["text"], 100), draft.get("line") == i)
                for i, line in enumerate(entry["lines"])])])
            if draft.get("line") is not None:
                lines.append(f"Reward: **{entry['lines'][draft['line']]['text']}**.")
            from .prompts import _reward_controls

            buttons = _reward_controls(ctx, spec, draft, lines)
            ready = True
            try:
                criminal_action(ctx, draft)
            except PlanIncomplete as exc:
                ready = False
                lines.append(f"*{exc.message}*")
            buttons.append(ctx.button("Confirm", "confirm", "success", disabled=not ready))
            buttons.append(ctx.button("Back", "back"))
            spec.rows = spec.rows[:4]
            spec.rows.append(buttons[:5])
            pyramid = ctx.view["players"][ctx.seat]["pyramid"]
            name = ctx.names.get(ctx.seat, "You")
            spec.image = Image("placement.png", lambda: render_pyramid(pyramid, name, slots))
            spec.description = "\n".join(lines)
            return spec

        def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
            number = draft.get("card")
            criminal = draft.get("action") == "play" and isinstance(number, int) and is_criminal(number)
            if criminal and op == "opt" and values:
                draft["line"] = int(values[0])
                draft.get("gems", {}).pop("reward", None)  # another line: the suggested gems again
                return None
            if criminal and op == "confirm":
                action = criminal_action(ctx, draft)
                return {"type": "decide", "plan": action} if self.replan else action
            return super().on_control(ctx, draft, op, values)

    return UnderworldDevelopment(replan=kind.replan)


class JudgementReturnKind(BasePromptKind):
    """After taking a line's judgement tokens: the one to return to the reserve."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx, "Return one judgement token")
        lines.append(ctx.choices.get("text", ""))
        lines.append("Only you see these tokens; the one you return is shuffled into the reserve.")
        tokens = list(ctx.choices.get("tokens") or [])
        spec.rows.append([ctx.select("pick", "Token to return", [
            Option(cut(token_text(t)), str(t)) for t in sorted(tokens, key=lambda t: -_harm(t))])])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op == "pick" and values:
            return {"type": "decide", "token": int(values[0])}
        return None


def _harm(token: int) -> float:
    from engine.viceroy.modules.underworld import penalty_estimate

    return penalty_estimate(token)


class JudgementDiscardKind(BasePromptKind):
    """A reward that returns judgement tokens: which ones."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx, "Discard judgement tokens")
        lines.append(ctx.choices.get("text", ""))
        n = int(ctx.choices.get("count", 1))
        tokens = sorted(ctx.choices.get("tokens") or [], key=lambda t: -_harm(t))
        spec.rows.append([ctx.select("return", f"Tokens to return ({n})",
                                     [Option(cut(token_text(t)), str(t)) for t in tokens], n, n)])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op == "return" and values:
            return {"type": "decide", "tokens": [int(v) for v in values]}
        return None


class BribeKind(BasePromptKind):
    """After taking bribe tokens: pay as many as a character's level to gain its reward once more."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx, "Bribe tokens")
        lines.append(ctx.choices.get("text", ""))
        lines.append(f"You hold {ctx.choices.get('bribes', 0)} bribe tokens; tokens the reward gives lie on the "
                     "criminal (or the law).")
        options = [Option(cut(f"Pay {o['level']}: {C.label(o['card'])} on level {o['level']}"), o["slot"],
                          cut(reward_text(plans.items_for(o["card"], o["level"], {})) or "no reward", 100))
                   for o in sorted(ctx.choices.get("options") or [], key=lambda o: (-o["level"], o["slot"]))]
        spec.rows.append([ctx.select("pick", "Character whose reward you gain again", options)])
        spec.rows.append([ctx.button("Keep the bribe tokens", "keep")])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op == "keep":
            return {"type": "decide", "slot": None}
        if op == "pick" and values:
            return {"type": "decide", "slot": values[0], "reward": {}}  # gems are asked for when taken
        return None


class RelocateKind(BasePromptKind):
    """Relocation: first the free character, then its new place, both lettered on the pyramid picture."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx, "Relocate a free character")
        lines.append(ctx.choices.get("text", ""))
        options = dict(ctx.choices.get("options") or {})
        pyramid = ctx.view["players"][ctx.seat]["pyramid"]
        cards = pyramid["cards"]
        name = ctx.names.get(ctx.seat, "You")
        origin = draft.get("from")
        if origin not in options:
            slots = sorted(options, key=P.parse_slot)
            labels = slot_labels(slots)
            spec.rows.append([ctx.select("pick", "Character to move (letters on the picture)", [
                Option(cut(f"{labels[s]}: {C.label(cards[s]['card'])} (level {P.level_of(s)})"), s) for s in slots])])
        else:
            slots = list(options[origin])
            labels = slot_labels(slots)
            number = cards[origin]["card"]
            lines.append(f"Moving **{C.label(number)}**: choose its new place.")
            spec.rows.append([ctx.select("pick", "New place (letters on the picture)", [
                Option(cut(f"{labels[s]}: level {P.level_of(s)}"), s,
                       cut(reward_text(plans.items_for(number, P.level_of(s), {})) or "no reward", 100))
                for s in slots])])
            spec.rows.append([ctx.button("Choose another character", "change")])
        spec.rows.append([ctx.button("Do not relocate", "skip")])
        spec.image = Image("relocation.png", lambda: render_pyramid(pyramid, name, slots))
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op == "skip":
            return {"type": "decide", "from": None}
        if op == "change":
            draft.pop("from", None)
            return None
        if op == "pick" and values:
            options = dict(ctx.choices.get("options") or {})
            if draft.get("from") in options:
                return {"type": "decide", "from": draft["from"], "to": values[0], "reward": {}}
            if values[0] in options:
                draft["from"] = values[0]
        return None


class CriminalReturnKind(BasePromptKind):
    """The end of the development phase: put one criminal under the criminal deck, or keep them."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx, f"Turn {ctx.view['turn']}: end of the development phase")
        lines.append("You may put one criminal from your hand under the criminal deck. Whoever has no criminal "
                     "in hand then draws one.")
        if ctx.view.get("my_choice"):
            lines.append(f"Chosen: **{_return_text(ctx.view['my_choice'])}** (you can change it until everyone has "
                         "chosen).")
        options = [Option("Keep my criminals", "keep")]
        options += [Option(cut(f"Put {C.label(c)} under the deck"), str(c)) for c in ctx.choices.get("criminals", [])]
        spec.rows.append([ctx.select("pick", "Criminals", options)])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op == "pick" and values:
            return {"type": "criminal_return", "card": None if values[0] == "keep" else int(values[0])}
        return None


def _return_text(action: dict) -> str:
    return "keep them" if action.get("card") is None else f"put {C.label(action['card'])} under the deck"


class JudgementKind(BasePromptKind):
    """The end of the game: which tokens the discard judgement tokens take (the order is yours)."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx, "The judgement")
        texts = dict(ctx.choices.get("texts") or {})
        lines.append("Your judgement tokens are revealed. Each **discard** token takes one of the tokens it shows "
                     "from your pyramid or your combat card (if you have one): " + ", ".join(texts.values()) + ". Choose the outcome.")
        plans_ = list(ctx.choices.get("plans") or [])
        spec.rows.append([ctx.select("pick", "Outcome", [Option(cut(p["text"]), str(i)) for i, p in
                                                         enumerate(plans_)])])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        plans_ = list(ctx.choices.get("plans") or [])
        if op == "pick" and values and values[0].isdigit() and int(values[0]) < len(plans_):
            return {"type": "judgement", "discards": plans_[int(values[0])]["discards"]}
        return None


def describe(action: dict) -> str | None:
    """A module action in words (None for the base game's)."""
    if action.get("type") == "criminal_return":
        return _return_text(action)
    if action.get("type") == "play" and is_criminal(action.get("card", 0)) and action.get("line") is not None:
        return f"play {C.label(action['card'])} on level 0, {LINE_NAMES[action['line']].lower()} line"
    if action.get("type") == "judgement":
        return "resolve the judgement"
    return None


def install(kinds: dict) -> None:
    """Add the Underworld kinds to the Viceroy prompt kinds."""
    kinds["development"] = with_criminals(kinds["development"])
    kinds["replan"] = with_criminals(kinds["replan"])
    kinds["judgement_return"] = JudgementReturnKind()
    kinds["judgement_discard"] = JudgementDiscardKind()
    kinds["bribe"] = BribeKind()
    kinds["relocate"] = RelocateKind()
    kinds["underworld"] = CriminalReturnKind()
    kinds["judgement"] = JudgementKind()


__all__ = ["describe", "describe_action", "install"]
