"""Viceroy texts and small helpers shared by the prompt kinds: gems, rewards, cards, pictures."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ui.spec import Option, cut
from engine.viceroy import cards as C
from engine.viceroy import moves as M

COLOR_LETTER = {"red": "R", "green": "G", "blue": "B", "yellow": "Y"}
COLOR_EMOJI = {"red": "🔴", "green": "🟢", "blue": "🔵", "yellow": "🟡"}
EMBED_COLOR = 0x8E5B2E


def gems_text(gems: Mapping[str, int]) -> str:
    parts = [f"{n}{COLOR_LETTER[c]}" for c, n in gems.items() if n]
    return " ".join(parts) if parts else "none"


def gems_long(gems: Mapping[str, int]) -> str:
    parts = [f"{n} {c}" for c, n in gems.items() if n]
    return ", ".join(parts) if parts else "no gems"


def reward_text(items: list[dict]) -> str:
    out = []
    for item in items:
        kind = item["type"]
        if kind == "gems":
            out.append(f"{item['amount']} gems")
        elif kind == "power_points":
            out.append(f"{item['amount']} PP")
        elif kind == "cards":
            out.append(f"{item['amount']} card{'s' if item['amount'] > 1 else ''}")
        elif kind == "infinite_gem":
            out.append(f"infinite {item['color']} gem" if item["color"] != "any" else "infinite gem (any colour)")
        elif kind == "magic_bonus":
            out.append(f"magic bonus +{item['value']}")
        elif kind == "circle_bonus":
            out.append(f"{item['color']} circle bonus +{item['value']}")
        else:
            amount = item.get("amount", 1)
            out.append(f"{amount} {kind}" if amount > 1 else kind)
    return " + ".join(out)


def option_text(option: object) -> str:
    items = option if isinstance(option, list) else [option]
    text = reward_text([i for i in items if isinstance(i, dict)])
    if any(isinstance(i, dict) and i.get("note") for i in items):
        text += " (on this card)"
    return text


def card_option(number: int, prefix: str = "", value: str | None = None, description: str | None = None) -> Option:
    return Option(cut(prefix + C.label(number)), value or str(number), cut(description) if description else None)


def screen_line(me: Mapping[str, Any]) -> str:
    line = f"Your gems: **{gems_long(me.get('gems', {}))}** · attack tokens: {me.get('attacks', 0)}"
    if me.get("diamonds") is not None:  # Times of Darkness
        line += f" · diamonds: {me['diamonds']}"
    return line


def needed_colours(view: dict, seat: int) -> list[str]:
    """Colours the seat is shortest of for the characters in its hand (a suggestion's order)."""
    me = view["players"][seat]
    need = dict.fromkeys(C.COLORS, 0)
    for number in me.get("hand", []):
        if C.is_character(number):
            for c, n in C.cost(number, 2).items():
                need[c] += n
    return sorted(C.COLORS, key=lambda c: me.get("gems", {}).get(c, 0) - need[c])


def suggested_gems(view: dict, seat: int, count: int, reserve: Mapping[str, int] | None = None) -> dict[str, int]:
    return M.balanced_gems(dict(reserve if reserve is not None else view["reserve"]), count, needed_colours(view, seat))


def describe_action(action: dict | None) -> str:
    if not action:
        return "nothing yet"
    kind = action["type"]
    if kind == "bid" and action.get("diamond"):
        return "bid a diamond (you choose its colour after the reveal)"
    if kind == "bid":
        return f"bid {action['color']} for {C.label(action['card'])}"
    if kind == "attack":
        return f"attack for {C.label(action['card'])}"
    if kind == "pass":
        gems = action.get("gems")
        return "pass" + (f" and take {gems_long(gems)}" if gems else "")
    if kind == "discard":
        return f"discard {C.label(action['card'])} for {gems_long(action.get('gems') or {})}"
    if kind == "play" and action.get("line") is not None:  # a criminal (underworld) on one of its lines
        from .underworld import describe as module_describe

        return module_describe(action) or kind
    if kind == "play":
        from engine.viceroy import pyramid as P

        if action.get("slot"):
            return f"play {C.label(action['card'])} on level {P.level_of(action['slot'])}"
        return f"play {C.label(action['card'])} on a card of your pyramid"
    if kind == "setup" and isinstance(action.get("keep"), list):  # Times of Darkness: the kept characters
        return "keep " + ", ".join(C.label(c) for c in action["keep"])
    if kind == "setup":
        return f"start with {C.label(action['start'])}, keep {C.label(action['keep'])}"
    if kind == "domain":
        reward = action.get("reward")
        return "domain reward: " + (f"a {action.get('deck', 'character')} card" if reward == "card" else str(reward))
    if kind == "combat":  # Invasion
        n = action.get("defeat", 0)
        return f"defeat {n} monster{'s' if n != 1 else ''}" if n else "defeat no monster"
    if kind == "decide" and isinstance(action.get("plan"), dict):
        return describe_action(action["plan"])
    from .underworld import describe as module_describe  # (imports this file)

    return module_describe(action) or kind


# Pictures (imported lazily: rendering pulls in Pillow and fonts, which a presenter test may not need).

def render_auction(auction_view: dict) -> bytes:
    from rendering import render_auction as draw

    return draw(auction_view)


def render_screen(view: dict, name: str | None = None) -> bytes:
    from rendering import render_screen as draw

    return draw(view, name)


def render_pyramid(pyramid: dict, name: str, slots: list[str] | None = None) -> bytes:
    from rendering import render_pyramid as draw

    return draw(pyramid, name, None, slots) if slots is not None else draw(pyramid, name)


def render_table(view: dict, names: dict[int, str]) -> bytes:
    from rendering import render_table as draw

    return draw(view, names)


def slot_labels(slots: list[str]) -> dict[str, str]:
    from rendering import slot_labels as labels

    return labels(slots)
