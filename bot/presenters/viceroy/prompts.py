"""Viceroy's prompt kinds: setup, auction, development (and its re-plan), painting, resolution questions.

Each kind renders the seat's prompt from its view and the engine's Prompt choices, and turns clicks into a
draft or an engine action. Gem choices open a form (op ``gems.<purpose>``).
"""

from __future__ import annotations

from dataclasses import replace

from bot.ui import drafts, informed, lockin
from bot.ui.informed import Choice, shortfall
from bot.ui.presenter import SeatCtx
from bot.ui.spec import Button, FormField, FormSpec, Image, MessageSpec, Option, PlanIncomplete, cut
from engine.viceroy import cards as C
from engine.viceroy import pyramid as P
from engine.viceroy.laws import token_name
from engine.viceroy.painting import best_painting

from . import darkness, invasion, plans, underworld
from .common import (
    COLOR_EMOJI,
    COLOR_LETTER,
    afford_reason,
    card_at_text,
    card_option,
    character_choice,
    describe_action,
    gems_long,
    gems_text,
    law_choice,
    level_reward_text,
    option_text,
    place_letters,
    render_auction,
    render_places,
    render_plan_start,
    render_screen,
    reward_text,
    screen_line,
)

FORM_TITLES = {"pass": "Gems to take when passing", "reward": "Reward gems", "discard": "Gems for discarding",
               "store": "Gems to store on Treasury", "decide": "Gems to take"}


def _base(ctx: SeatCtx) -> tuple[MessageSpec, list[str]]:
    return MessageSpec(title=f"Viceroy game #{ctx.game_id}: your move"), [screen_line(ctx.view["players"][ctx.seat])]


class GemForms:
    """The gem form shared by every kind: four numbers, one per colour, checked against the plan."""

    def form(self, ctx: SeatCtx, draft: dict, purpose: str) -> FormSpec | None:
        purpose = purpose.split(".", 1)[-1]
        if purpose not in plans.CHOICE_PURPOSES:
            return None
        count = plans.gem_choice_count(ctx, draft, purpose)
        current = plans.gems_choice(ctx, draft, purpose, count)
        title = cut(f"{FORM_TITLES.get(purpose, 'Gems')} ({'up to ' if purpose == 'store' else ''}{count})", 45)
        return FormSpec(ctx.form_id(f"gems.{purpose}"), title,
                        [FormField(c, f"{c.capitalize()} gems", str(current.get(c, 0))) for c in C.COLORS])

    def on_form(self, ctx: SeatCtx, draft: dict, purpose: str, values: dict[str, str]) -> str:
        purpose = purpose.split(".", 1)[-1]
        gems = plans.parse_gems(values)
        plans.check_gem_choice(ctx, draft, purpose, gems)
        draft.setdefault("gems", {})[purpose] = gems
        return f"Gems set: {gems_long(gems)}."


# ------------------------------------------------------------------------------------------------ plans


def _reward_controls(ctx: SeatCtx, spec: MessageSpec, draft: dict, lines: list[str]) -> list[Button]:
    """Controls for the gems and cards a plan takes; returns buttons for the last row."""
    buttons: list[Button] = []
    need = plans.gem_need(ctx, draft)
    if need:
        purpose, count = need
        chosen = plans.gems_choice(ctx, draft, purpose, count)
        what = {"reward": "Reward gems", "discard": "Gems for discarding", "store": "Gems to store on Treasury"}[purpose]
        lines.append(f"{what}: **{gems_long(chosen)}**" + (" (suggested)" if purpose not in draft.get("gems", {}) else ""))
        buttons.append(ctx.button("Change gems", f"gems.{purpose}"))
    n = plans.draw_need(draft)
    if n:
        opts = [Option(f"{k} from the law deck, {n - k} from the small deck", str(k), default=draft.get("draw_law", 0) == k)
                for k in range(n + 1)]
        if ctx.view.get("underworld"):  # a card reward may draw from the criminal deck too
            chosen = (draft.get("draw_law", 0), draft.get("draw_criminal", 0))
            opts = [Option(cut(f"{k} law, {c} criminal, {n - k - c} small deck"), f"{k}:{c}", default=chosen == (k, c))
                    for k in range(n + 1) for c in range(n + 1 - k)]
        spec.rows.append([ctx.select("draw", "Where the drawn cards come from", opts)])
    if buttons and draft.get("action") == "setup":
        spec.rows.append(buttons)
        return []
    return buttons


def _plan_control(ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
    """Clicks that build a setup or development plan; the confirmed plan becomes the action."""
    value = values[0] if values else None
    if op in ("card", "discard") and value:
        drafts.clear(draft)
        what, number = value.split(":")
        draft["action"] = what
        draft["card"] = int(number)
    elif op == "back":
        drafts.clear(draft)
    elif op in ("start", "keep") and value:
        draft["action"] = "setup"
        draft[op] = int(value)
        if op == "start" and draft.get("keep") == draft["start"]:
            draft.pop("keep")
    elif op == "slot" and value:
        draft["slot"] = value
    elif op == "target" and value:
        draft["target"] = value
    elif op == "draw" and value is not None:
        law, _, criminal = value.partition(":")
        draft["draw_law"] = int(law)
        draft["draw_criminal"] = int(criminal or 0)
    elif op == "lvl5" and value:
        draft.setdefault("reward", {})["level5"] = value
    elif op == "opt" and value is not None:
        draft.setdefault("reward", {})["option"] = int(value)
    elif op == "color" and value:
        draft.setdefault("reward", {})["color"] = value
    elif op == "take" and value:
        draft["take"] = int(value)
    elif op == "tuck":
        draft["tuck"] = [int(v) for v in values]
    elif op == "tuck1" and value:
        draft["tuck1"] = value
    elif op == "give" and value:
        draft["give"] = value
    elif op == "swap" and value:
        draft["swap"] = value
    elif op == "confirm":
        return plans.build_action(ctx, draft)
    return None


class SetupKind(GemForms):
    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx)
        view = ctx.view
        hand = list(ctx.choices.get("hand", view["players"][ctx.seat].get("hand", [])))
        draft.setdefault("action", "setup")
        spec.title = "Viceroy: choose your starting card"
        lines.append("Choose the card that starts your pyramid (you gain its level-1 reward) and the card you keep "
                     "in hand; the others go back to the deck.")
        if view.get("my_choice"):
            lines.append(f"Chosen: **{describe_action(view['my_choice'])}** (you can change it until everyone has chosen).")
        start_opts = [card_option(n, description=f"Level 1: {reward_text(C.rewards(n, 1))}", value=str(n)) for n in hand]
        for o in start_opts:
            o.default = draft.get("start") == int(o.value)
        spec.rows.append([ctx.select("start", "Starting card", start_opts)])
        if int(ctx.choices.get("deal", view["options"]["deal"])) != 2:
            keep_opts = [card_option(n) for n in hand if n != draft.get("start")]
            for o in keep_opts:
                o.default = draft.get("keep") == int(o.value)
            spec.rows.append([ctx.select("keep", "Card to keep", keep_opts)])
        _reward_controls(ctx, spec, draft, lines)
        spec.rows.append([ctx.button("Confirm", "confirm", "success")])
        spec.description = "\n".join(lines)
        spec.image = Image("dealt.png", lambda: render_screen(view), stable=True, shows_screen=True)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        draft.setdefault("action", "setup")
        return _plan_control(ctx, draft, op, values)


class DevelopmentKind(GemForms):
    """The development prompt; `replan` is the same plan asked again during resolution (a decision)."""

    lock_in = True  # Pass (out of the phase) is drafted and locked in; a plan's Confirm submits at once

    def __init__(self, replan: bool = False) -> None:
        self.replan = replan

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx)
        view = ctx.view
        me = view["players"][ctx.seat]
        hand = me.get("hand", [])
        if self.replan:
            spec.title = "A question during resolution"
            lines.append(ctx.choices.get("text", ""))
            spec.title = "Choose again"
        else:
            spec.title = f"Turn {view['turn']}: development round {view['round']}"
        current = view.get("my_choice")
        if current and not self.replan:
            lines.append(f"Your sealed plan: **{describe_action(current)}**. You can change it until everyone has chosen.")
        if not draft.get("action"):
            lines.append("Play a card (character or law), discard one for 2 gems, or pass (out of the development "
                         "phase this turn).")
            if hand:
                spec.rows.append([ctx.select("card", "Play a card", play_options(ctx))])
                gems = plans.discard_gems(ctx)
                spec.rows.append([ctx.select("discard", f"Discard a card for {gems} gems", informed.options(
                    [Choice(f"Discard {C.label(n)}", f"discard:{n}", gives=f"{gems} gems") for n in hand]))])
            spec.rows.append([ctx.button("Pass (out of this development phase)", "pass")])
            spec.description = "\n".join(lines)
            # The first step shows what a plan starts from: the hand and the pyramid.
            view_, seat, name = ctx.view, ctx.seat, ctx.names.get(ctx.seat)
            spec.image = Image("plan.png", lambda: render_plan_start(view_, seat, name), stable=True,
                               shows_screen=True)
            return spec
        kind = draft["action"]
        number = draft.get("card")
        if kind == "discard":
            lines.append(f"Discard **{C.label(number)}** and take {plans.discard_gems(ctx)} gems.")
        elif kind == "play" and number is not None:
            lines.append(f"Play **{C.label(number)}**.")
            _play_controls(ctx, spec, draft, lines)
        buttons = _reward_controls(ctx, spec, draft, lines)
        ready = True
        try:
            plans.build_action(ctx, draft)
        except PlanIncomplete as exc:
            ready = False
            lines.append(f"*{exc.message}*")
        buttons.append(ctx.button("Confirm", "confirm", "success", disabled=not ready))
        buttons.append(ctx.button("Back", "back"))
        spec.rows = spec.rows[:4]
        spec.rows.append(buttons[:5])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        action = {"type": "pass"} if op == "pass" else _plan_control(ctx, draft, op, values)
        if action is not None and self.replan:
            return {"type": "decide", "plan": action}  # a re-plan answer carries the plan inside a decision
        return action


def play_options(ctx: SeatCtx) -> list[Option]:
    """The first step's menu: each card in hand with where it can go, for what and giving what; a card that
    cannot be played now is marked, last, with the reason."""
    me = ctx.view["players"][ctx.seat]
    entries = plans.plays(ctx)
    letters = place_letters(me["pyramid"], entries)
    choices = []
    for n in me.get("hand", []):
        entry = entries.get(str(n), {})
        if C.is_law(n):
            choices.append(law_choice(n, entry, f"play:{n}"))
        else:
            choices.append(character_choice(n, entry.get("slots", []), me, letters, f"play:{n}"))
    return informed.options(choices)


def _play_controls(ctx: SeatCtx, spec: MessageSpec, draft: dict, lines: list[str]) -> None:
    view, seat, names = ctx.view, ctx.seat, ctx.names
    me = view["players"][seat]
    number = draft["card"]
    pyramid = me["pyramid"]
    entry = plans.plays(ctx).get(str(number), {})
    letters = place_letters(pyramid, plans.plays(ctx))
    name = names.get(seat, "You")
    if "targets" in entry:
        targets = list(entry["targets"])
        opts = [Option(cut(card_at_text(pyramid, t, letters)), t, default=draft.get("target") == t) for t in targets]
        if opts:
            spec.rows.append([ctx.select("target", "Which card of your pyramid (letters on the picture)", opts)])
        else:
            lines.append("There is no card it can act on.")
        spec.image = Image("pyramid.png", lambda: render_places(pyramid, name, targets, letters))
        return
    places = entry.get("slots", [])
    slots = [p["slot"] if isinstance(p, dict) else p for p in places]
    choices = []
    gems = me.get("gems", {})
    for place in places:
        if not isinstance(place, dict):  # a law: any open place below level 5
            choices.append(Choice(f"{letters[place]}: level {P.level_of(place)}", place, note="a law costs no gems",
                                  default=draft.get("slot") == place))
            continue
        payment, slot, level = place["payment"], place["slot"], place["level"]
        label = f"{letters[slot]}: level {level}"
        if payment is None:
            choices.append(Choice(label, slot, blocked=afford_reason(place["cost"], gems, level)))
            continue
        rewards = reward_text(plans.items_for(number, level, draft.get("reward", {})))
        note = f"you pay {gems_text(payment['pay'])} (infinite gems cover the rest)" if payment["infinite"] else ""
        choices.append(Choice(label, slot, costs=gems_text(place["cost"]), gives=rewards, note=note,
                              default=draft.get("slot") == slot))
    if choices:
        spec.rows.append([ctx.select("slot", "Where it goes (letters on the picture)", informed.options(choices))])
    if not any(not c.blocked for c in choices):
        lines.append("You cannot pay for this card anywhere in your pyramid.")
    spec.image = Image("placement.png", lambda: render_places(pyramid, name, slots, letters))
    slot = draft.get("slot")
    if not C.is_law(number) and slot and P.level_of(slot) == 5:
        choice = draft.get("reward", {}).get("level5", "rows")
        spec.rows.append([ctx.select("lvl5", "Level-5 reward", [
            Option("Rewards of rows 1, 2 and 3", "rows",
                   cut(reward_text([i for lv in (1, 2, 3) for i in C.rewards(number, lv)])), choice == "rows"),
            Option("A 15-PP token", "pp", None, choice == "pp")])])
    if plans.is_choice(number):
        options = C.card(number)["effect"]["options"]
        chosen = draft.get("reward", {}).get("option")
        spec.rows.append([ctx.select("opt", "Choose one option",
                                     [Option(cut(option_text(o)), str(i), None, chosen == i) for i, o in enumerate(options)])])
        if any(i["type"] == "infinite_gem" for i in plans.choice_items(number, chosen)):
            colour = draft.get("reward", {}).get("color")
            spec.rows.append([ctx.select("color", "Colour of the infinite gem",
                                         [Option(c, c, None, colour == c) for c in C.COLORS])])
    if number == 69:
        offer = [c for col in C.COLORS for c in (view["auction"][col]["base"], view["auction"][col]["tip"]) if c is not None]
        spec.rows.append([ctx.select("take", "Auction card to take",
                                     [marked(card_option(c), draft.get("take") == c) for c in offer])])
    if number == 72:
        others = [c for c in me.get("hand", []) if c != 72]
        if others:
            spec.rows.append([ctx.select("tuck", "Cards to put under Secret Service (5 PP each)",
                                         [marked(card_option(c), c in draft.get("tuck", [])) for c in others],
                                         0, len(others))])
    if number == 74:
        # Only cards still free once Royal Favor rests on its place (the cards under it are not).
        place = draft.get("slot")
        free = P.free_after_placing(pyramid, place, 74) if place else []
        if free:
            spec.rows.append([ctx.select("tuck1", "Free card to put under Royal Favor",
                                         [Option(cut(card_at_text(pyramid, t, letters)), t, None, draft.get("tuck1") == t)
                                          for t in free])])
    if number == 67:
        mine = [Option(cut(f"{letters.get(t, '?')}: {token_name(tok)} on {C.label(e['card'])}"), f"{t}#{i}")
                for t, e in sorted(pyramid["cards"].items()) for i, tok in enumerate(e["tokens"])
                if tok["type"] != "infinite_gem"]  # a gem, not a token: the law cannot swap it
        theirs = [Option(cut(f"{names.get(p['seat'], 'Seat ' + str(p['seat']))}: {token_name(tok)} on {C.label(e['card'])}"),
                         f"{p['seat']}#{t}#{i}")
                  for p in view["players"] if p["seat"] != seat for t, e in sorted(p["pyramid"]["cards"].items())
                  for i, tok in enumerate(e["tokens"]) if tok["type"] != "infinite_gem"]
        if mine and theirs:
            lines.append("Exchange of Favors: optionally pick one of your tokens and one of another player's "
                         "(you pay them 3 gems).")
            spec.rows.append([ctx.select("give", "Your token to give",
                                         [marked(o, draft.get("give") == o.value) for o in mine])])
            spec.rows.append([ctx.select("swap", "Their token to take",
                                         [marked(o, draft.get("swap") == o.value) for o in theirs])])


def marked(option: Option, selected: bool) -> Option:
    """``option`` shown as chosen in its menu when ``selected`` (the draft holds it)."""
    return replace(option, default=selected)


# --------------------------------------------------------------------------------------------- auction


def auction_choices(ctx: SeatCtx, pass_gems: dict[str, int]) -> list[Choice]:
    """Every bid the auction shows, what it costs and brings; a colour the seat has no gem of is marked."""
    view = ctx.view
    me = view["players"][ctx.seat]
    gems = me.get("gems", {})
    offered = {b["color"]: b["cards"] for b in ctx.choices.get("bids", [])}
    out: list[Choice] = []
    for colour in C.COLORS:
        spot = view.get("auction", {}).get(colour) or {}
        cards = offered.get(colour) or [c for c in (spot.get("base"), spot.get("tip")) if c is not None]
        for card in cards:
            first = level_reward_text(card, 1)  # none for an aristocrat
            choice = Choice(f"{COLOR_EMOJI[colour]} Bid {colour} for {C.label(card)}", f"bid:{colour}:{card}",
                            costs=f"1{COLOR_LETTER[colour]} (you have {gems.get(colour, 0)})",
                            gives=f"the card (L1: {first})" if first else "the card")
            if colour not in offered:
                choice.blocked = shortfall({colour: 1}, gems, lambda c: COLOR_LETTER[c])
            out.append(choice)
    for card in ctx.choices.get("attack", []):
        out.append(Choice(f"Attack for {C.label(card)}", f"attack:{card}",
                          costs=f"1 attack token (you have {me.get('attacks', 0)})", gives="the card"))
    count = sum(pass_gems.values())
    out.append(Choice(f"Pass and take {count} gems", "pass", gives=gems_long(pass_gems)))
    return out



class AuctionKind(GemForms):
    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx)
        view = ctx.view
        me = view["players"][ctx.seat]
        spec.title = f"Turn {view['turn']}: auction round {view['round']}"
        count = plans.pass_gems(ctx)
        pass_gems = plans.gems_choice(ctx, draft, "pass", count)
        opts = informed.options(auction_choices(ctx, pass_gems))
        for o in opts:
            o.default = o.value == draft.get("choose")
        current = view.get("my_choice")
        if current:
            lines.append(f"Your sealed choice: **{describe_action(current)}**. You can change it until everyone has chosen.")
        else:
            lines.append("Choose secretly: bid one gem for a character, attack, or pass. Everyone's choice is revealed "
                         "together.")
        lines.append(f"If you pass you take: **{gems_long(pass_gems)}**" + (" (suggested)" if "pass" not in draft.get("gems", {}) else ""))
        spec.rows.append([ctx.select("choose", "Bid, attack or pass", opts)])
        row = [ctx.button("Change pass gems", "gems.pass")]
        if any(e["card"] == 78 for e in me["pyramid"]["cards"].values()):
            on = draft.get("archive", False)
            row.append(ctx.button(f"Archive a won card: {'yes' if on else 'no'}", "archive", "primary" if on else "secondary"))
        spec.rows.append(row)
        auction_view = view["auction"]
        spec.image = Image("auction.png", lambda: render_auction(auction_view), stable=True)
        spec.description = "\n".join(lines)
        return spec

    lock_in = True  # a bid is drafted by the menu and sealed by Lock in (bot/ui/lockin.py)

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        value = values[0] if values else None
        if op == "archive":
            draft["archive"] = not draft.get("archive", False)
            # The toggle belongs to the bid: a bid already chosen (drafted or sealed) is made again with it.
            value = draft.get("choose") if draft.get("choose", "pass") != "pass" else None
            if value is None:
                return None
        elif op != "choose" or not value:
            return None
        draft["choose"] = value
        if value == "pass":
            return {"type": "pass", "gems": plans.gems_choice(ctx, draft, "pass")}
        parts = value.split(":")
        if parts[0] == "bid":
            return {"type": "bid", "color": parts[1], "card": int(parts[2]), "archive": draft.get("archive", False)}
        return {"type": "attack", "card": int(parts[1]), "archive": draft.get("archive", False)}


    def on_form(self, ctx: SeatCtx, draft: dict, purpose: str, values: dict[str, str]) -> str:
        note = super().on_form(ctx, draft, purpose, values)
        if draft.get("choose") == "pass":  # a pass already chosen takes the new gems (to be locked in)
            draft[lockin.LOCK] = {"type": "pass", "gems": plans.gems_choice(ctx, draft, "pass")}
        return note


# -------------------------------------------------------------------------------------------- painting


class PaintKind(GemForms):
    lock_in = True  # skipping the painting is final: it is locked in like any sealed choice

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx)
        spec.title = f"Viceroy game #{ctx.game_id}: painting"
        lines.append("The game is over. You may paint circle sections with your leftover gems; each gem turns one "
                     "section to its colour. The best painting for your score is worked out for you.")
        paint, gain = best_painting({"players": ctx.view["players"]}, ctx.seat)
        label = f"Paint the best way ({len(paint)} sections, +{gain} points)" if paint else "Nothing worth painting: finish"
        spec.rows = [[ctx.button(label, "paint", "primary"), ctx.button("Skip painting", "skip")]]
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op == "skip":
            return {"type": "paint", "paint": []}
        if op == "paint":
            paint, _gain = best_painting({"players": ctx.view["players"]}, ctx.seat)
            return {"type": "paint", "paint": paint}
        return None


# ------------------------------------------------------------------------------------------- decisions


class DecisionKind(GemForms):
    """Questions during resolution: the engine's decision says what is asked (its choices)."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        spec, lines = _base(ctx)
        kind = ctx.prompt.kind if ctx.prompt else ""
        ch = ctx.choices
        spec.title = "A question during resolution"
        lines.append(ch.get("text", ""))
        if kind == "gems":
            chosen = plans.gems_choice(ctx, draft, "decide")
            lines.append(f"Reserve: {gems_long(ch['reserve'])}. Your choice: **{gems_long(chosen)}**")
            spec.rows.append([ctx.button("Take these gems", "take", "success"), ctx.button("Change gems", "gems.decide")])
        elif kind in ("attack_pick", "solo_discard"):
            spec.rows.append([ctx.select("pick", "Choose a character", [card_option(c) for c in ch["options"]])])
        elif kind == "royal_favor":
            pyramid = ctx.view["players"][ctx.seat]["pyramid"]
            letters = place_letters(pyramid)
            spec.rows.append([ctx.select("pick", "Choose a free card (letters on the picture)",
                                         [Option(cut(card_at_text(pyramid, t, letters)), t) for t in ch["options"]])])
            name, targets = ctx.names.get(ctx.seat, "You"), list(ch["options"])
            spec.image = Image("pyramid.png", lambda: render_places(pyramid, name, targets, letters))
        elif kind == "archive":
            spec.rows.append([ctx.button("Yes, tuck it under Archive", "yes", "primary"), ctx.button("No, into my hand", "no")])
        elif kind == "chancery_return":
            n = ch["count"]
            spec.rows.append([ctx.select("return", f"Choose {n} laws to return (first chosen goes on top)",
                                         [card_option(c) for c in ch["options"]], n, n)])
        spec.description = "\n".join(lines)
        return spec

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        kind = ctx.prompt.kind if ctx.prompt else ""
        value = values[0] if values else None
        if kind == "gems" and op == "take":
            return {"type": "decide", "gems": plans.gems_choice(ctx, draft, "decide")}
        if op == "pick" and value:
            if kind == "royal_favor":
                return {"type": "decide", "slot": value}
            return {"type": "decide", "card": int(value)}
        if op in ("yes", "no"):
            return {"type": "decide", "archive": op == "yes"}
        if op == "return":
            return {"type": "decide", "cards": [int(v) for v in values]}
        return None


KINDS = {
    "setup": SetupKind(),
    "auction": AuctionKind(),
    "development": DevelopmentKind(),
    "replan": DevelopmentKind(replan=True),
    "paint": PaintKind(),
    "*": DecisionKind(),
}
darkness.install(KINDS)  # the Times of Darkness modules' prompts
invasion.install(KINDS)
underworld.install(KINDS)
