"""A development or setup plan as the player builds it (the draft), and the engine action it becomes.

What may be chosen comes from the prompt's choices (engine/viceroy/moves.py via the engine's pending()):
the places a card may go with their payments, the gems a pass or a discard brings, the decision counts.
Only card facts (rewards per level, law options) are read from the card data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ui.presenter import SeatCtx
from bot.ui.spec import PlanIncomplete
from engine.viceroy import cards as C
from engine.viceroy import moves as M
from engine.viceroy import pyramid as P
from engine.viceroy.state import LEVEL5_PP, is_choice_law

from .common import suggested_gems

# Treasury (law 76) holds at most this many gems: a fact printed on the card.
TREASURY_GEMS = 8
CHOICE_PURPOSES = ("pass", "reward", "discard", "store", "decide")


def is_choice(number: int) -> bool:
    """A "choose one of three" law: the base game's, or one a module adds (Times of Darkness' Court of Honour)."""
    return is_choice_law(number)


def plays(ctx: SeatCtx) -> dict[str, dict]:
    """Where each card in hand may go (the development prompt's and a re-plan's choices): a character's
    places with their cost and payment (None: cannot be paid there), a law's places or the cards it acts on."""
    return {str(k): v for k, v in (ctx.choices.get("plays") or {}).items()}


def discard_gems(ctx: SeatCtx) -> int:
    return int(ctx.choices.get("discard_gems", 2))


def pass_gems(ctx: SeatCtx) -> int:
    return int(ctx.choices.get("pass_gems", 3))


def placement(ctx: SeatCtx, number: int, slot: str) -> dict | None:
    """The prompt's entry for a character at a place (with its payment), if that place is offered."""
    entry = plays(ctx).get(str(number), {})
    return next((s for s in entry.get("slots", []) if isinstance(s, dict) and s["slot"] == slot), None)


def items_for(number: int, level: int, reward: Mapping[str, Any]) -> list[dict]:
    if level == 5:
        if reward.get("level5") == "pp":
            return [{"type": "power_points", "amount": LEVEL5_PP}]
        return [i for lv in (1, 2, 3) for i in C.rewards(number, lv)]
    return list(C.rewards(number, level))


def choice_items(number: int, option: int | None) -> list[dict]:
    if option is None:
        return []
    chosen = C.card(number)["effect"]["options"][option]
    return chosen if isinstance(chosen, list) else [chosen]


def _planned_items(draft: dict) -> list[dict] | None:
    kind = draft.get("action")
    if kind == "setup" and draft.get("start"):
        return list(C.rewards(draft["start"], 1))
    if kind != "play" or not draft.get("card"):
        return None
    number = draft["card"]
    if C.is_law(number):
        return choice_items(number, draft.get("reward", {}).get("option"))
    lines = C.card(number).get("lines")
    if lines is not None:  # a card played on one of its lines (a criminal): that line's reward
        return None if draft.get("line") is None else list(lines[draft["line"]]["reward"])
    if not draft.get("slot"):
        return None
    return items_for(number, P.level_of(draft["slot"]), draft.get("reward", {}))


def gem_need(ctx: SeatCtx, draft: dict) -> tuple[str, int] | None:
    """Which gem choice the current plan needs (purpose, count), if any."""
    if draft.get("action") == "discard":
        return ("discard", discard_gems(ctx))
    if draft.get("action") == "play" and draft.get("card") == 76:
        return ("store", TREASURY_GEMS)
    items = _planned_items(draft)
    n = sum(i["amount"] for i in items or [] if i["type"] == "gems")
    return ("reward", n) if n else None


def draw_need(draft: dict) -> int:
    return sum(i["amount"] for i in _planned_items(draft) or [] if i["type"] == "cards")


def gem_choice_count(ctx: SeatCtx, draft: dict, purpose: str) -> int:
    """How many gems a gem choice of this purpose takes (for Treasury: the most it may hold)."""
    if purpose == "pass":
        return pass_gems(ctx)
    if purpose == "decide":
        return int(ctx.choices.get("count", 0))
    if purpose == "discard":
        return discard_gems(ctx)
    need = gem_need(ctx, draft)
    return need[1] if need else 0


def gems_choice(ctx: SeatCtx, draft: dict, purpose: str, count: int | None = None) -> dict[str, int]:
    """The gems chosen so far for this purpose, or the suggestion."""
    chosen = draft.get("gems", {}).get(purpose)
    if chosen is not None:
        return chosen
    if count is None:
        count = gem_choice_count(ctx, draft, purpose)
    view, seat = ctx.view, ctx.seat
    if purpose == "store":
        own = view["players"][seat].get("gems", {})
        return M.balanced_gems(dict(own), min(count, sum(own.values())))
    if purpose == "decide":
        return suggested_gems(view, seat, count, ctx.choices.get("reserve"))
    return suggested_gems(view, seat, count)


def check_gem_choice(ctx: SeatCtx, draft: dict, purpose: str, gems: dict[str, int]) -> None:
    """Refuse a gem choice with the wrong number of gems (raises PlanIncomplete with the reason)."""
    total = sum(gems.values())
    count = gem_choice_count(ctx, draft, purpose)
    if purpose == "store":
        if total > count:
            raise PlanIncomplete(f"Treasury holds at most {count} gems.")
        return
    reserve = ctx.choices.get("reserve") if purpose == "decide" else None
    due = min(count, sum((reserve or ctx.view["reserve"]).values()))
    if total != due:
        raise PlanIncomplete(f"Choose exactly {due} gems (you chose {total}).")


def parse_gems(values: dict[str, str]) -> dict[str, int]:
    out = {}
    for c in C.COLORS:
        raw = (values.get(c) or "0").strip() or "0"
        if not raw.isdigit():
            raise PlanIncomplete(f"'{raw}' is not a number of {c} gems.")
        out[c] = int(raw)
    return out


def _reward_from_draft(ctx: SeatCtx, draft: dict) -> dict:
    reward = dict(draft.get("reward", {}))
    need = gem_need(ctx, draft)
    if need and need[0] == "reward":
        reward["gems"] = gems_choice(ctx, draft, "reward", need[1])
    n = draw_need(draft)
    if n:
        laws = min(draft.get("draw_law", 0), n)
        criminals = min(draft.get("draw_criminal", 0), n - laws)  # the criminal deck (underworld)
        reward["draw"] = ["law"] * laws + ["criminal"] * criminals + ["small"] * (n - laws - criminals)
    return reward


def build_action(ctx: SeatCtx, draft: dict) -> dict:
    """Turn a finished draft into the engine action (raises PlanIncomplete naming what is missing)."""
    kind = draft.get("action")
    view, seat = ctx.view, ctx.seat
    me = view["players"][seat]
    if kind == "setup":
        if not draft.get("start"):
            raise PlanIncomplete("Choose your starting card first.")
        keep = draft.get("keep")
        if int(ctx.choices.get("deal", view["options"]["deal"])) == 2:
            keep = next((c for c in me["hand"] if c != draft["start"]), draft["start"])
        if not keep:
            raise PlanIncomplete("Choose the card to keep in your hand.")
        return {"type": "setup", "start": draft["start"], "keep": keep, "reward": _reward_from_draft(ctx, draft)}
    if kind == "discard":
        return {"type": "discard", "card": draft["card"], "gems": gems_choice(ctx, draft, "discard")}
    if kind == "pass":
        return {"type": "pass"}
    if kind != "play" or not draft.get("card"):
        raise PlanIncomplete("Choose a card to play, one to discard, or pass.")
    number = draft["card"]
    action: dict = {"type": "play", "card": number, "reward": _reward_from_draft(ctx, draft)}
    if C.is_law(number):
        if number in (65, 66):
            if not draft.get("target"):
                raise PlanIncomplete("Choose the card it acts on.")
            action["target"] = draft["target"]
            action["archive"] = False
            return action
        if not draft.get("slot"):
            raise PlanIncomplete("Choose where the law goes.")
        action["slot"] = draft["slot"]
        if is_choice(number):
            option = draft.get("reward", {}).get("option")
            if option is None:
                raise PlanIncomplete("Choose one of the law's three options.")
            if any(i["type"] == "infinite_gem" for i in choice_items(number, option)):
                action["reward"].setdefault("color", draft.get("reward", {}).get("color") or "red")
        if number == 69:
            if not draft.get("take"):
                raise PlanIncomplete("Choose the auction card to take.")
            action["take"] = draft["take"]
            action["archive"] = False
        if number == 72:
            action["tuck"] = list(draft.get("tuck", []))
        if number == 74:
            action["tuck"] = draft.get("tuck1")
        if number == 76:
            action["store"] = gems_choice(ctx, draft, "store", TREASURY_GEMS)
        if number == 67 and draft.get("give") and draft.get("swap"):
            give_slot, give_i = draft["give"].split("#")
            other, take_slot, take_i = draft["swap"].split("#")
            action["give"] = {"slot": give_slot, "token": int(give_i)}
            action["take"] = {"seat": int(other), "slot": take_slot, "token": int(take_i)}
            action["pay"] = M.balanced_gems(me.get("gems", {}), 3, None)
        return action
    if not draft.get("slot"):
        raise PlanIncomplete("Choose where the card goes in your pyramid.")
    action["slot"] = draft["slot"]
    place = placement(ctx, number, draft["slot"])
    payment = place["payment"] if place else None
    if payment is None:
        raise PlanIncomplete("You cannot pay for that card there.")
    action.update(payment)
    action["archive"] = False
    return action
