"""Viceroy texts and small helpers shared by the prompt kinds: gems, rewards, cards, pictures."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ui.informed import Choice, shortfall
from bot.ui.spec import Option, cut
from engine.viceroy import cards as C
from engine.viceroy import moves as M
from engine.viceroy import pyramid as P

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
        elif kind == "any_circle_bonus":  # Times of Darkness
            out.append(f"any-colour circle bonus +{item['value']}")
        else:  # tokens and diamonds: the key is the word ("science", "2 diamonds")
            amount = item.get("amount", 1)
            word = kind.replace("_", " ")
            out.append(f"{amount} {word}" if amount > 1 else word)
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
        what = {"gems": "4 gems", "science": "a science token", "attack": "an attack token"}.get(str(reward), str(reward))
        return "domain reward: " + (f"a {action.get('deck', 'character')} card" if reward == "card" else what)
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


def render_table(view: dict, names: dict[int, str], *, narrow: bool = False) -> bytes:
    from rendering import render_table as draw

    return draw(view, names, narrow=narrow)


def slot_labels(slots: list[str]) -> dict[str, str]:
    from rendering import slot_labels as labels

    return labels(slots)


def render_plan_start(view: dict, seat: int, name: str | None = None) -> bytes:
    from rendering import render_plan_start as draw

    return draw(view, seat, name)


def render_places(pyramid: dict, name: str, slots: list[str], letters: Mapping[str, str]) -> bytes:
    """The pyramid with the offered places framed, lettered as the prompt's menus letter them."""
    from rendering import render_pyramid as draw

    return draw(pyramid, name, None, slots, letters)


# ------------------------------------------------------------------ places and informed choices


def place_letters(pyramid: Mapping[str, Any], plays: Mapping[str, Any] | None = None) -> dict[str, str]:
    """One set of letters for the places of one pyramid, used by every menu and picture of a prompt: every
    card in it and every open place any card in hand may take, bottom level first, left to right."""
    places = set(pyramid.get("cards", {}))
    for entry in (plays or {}).values():
        for place in entry.get("slots", []) if isinstance(entry, Mapping) else []:
            places.add(place["slot"] if isinstance(place, Mapping) else place)
    ordered = sorted(places, key=lambda s: (P.parse_slot(s)[0], P.parse_slot(s)[1]))
    return slot_labels(ordered)


def place_text(slot: str, letters: Mapping[str, str]) -> str:
    """A place as players see it: its letter and level ("B, level 2"), never the engine's coordinates."""
    return f"{letters.get(slot, '?')}, level {P.level_of(slot)}"


def card_at_text(pyramid: Mapping[str, Any], slot: str, letters: Mapping[str, str]) -> str:
    return f"{letters.get(slot, '?')}: {C.label(pyramid['cards'][slot]['card'])} (level {P.level_of(slot)})"


def level_reward_text(number: int, level: int) -> str:
    """What a character gives on a level (level 5: rows 1-3, or a 15-PP token)."""
    if level == 5:
        return "rows 1-3 or 15 PP"
    return reward_text(list(C.rewards(number, level)))


def afford_reason(cost: Mapping[str, int], gems: Mapping[str, int], level: int) -> str:
    """Why a character cannot be paid on a level: 'cannot afford level 2: needs 2Y, you have 1'."""
    text = shortfall({c: n for c, n in cost.items() if n}, gems, lambda c: COLOR_LETTER[c])
    if not text:
        return f"cannot pay for level {level} there (infinite gems count once per turn)"
    return text.replace("cannot afford:", f"cannot afford level {level}:", 1)


def character_choice(number: int, places: list, me: Mapping[str, Any], letters: Mapping[str, str],
                     value: str, prefix: str = "Play ") -> Choice:
    """The first step's option for a character: where it can go, for what, giving what; or why it cannot."""
    payable = [p for p in places if isinstance(p, Mapping) and p.get("payment") is not None]
    if payable:
        parts = []
        for p in sorted(payable, key=lambda p: -p["level"]):
            parts.append(f"L{p['level']} ({letters.get(p['slot'], '?')}) {gems_text(p['cost'])} → "
                         f"{level_reward_text(number, p['level'])}")
        return Choice(prefix + C.label(number), value, note=" · ".join(parts))
    if not places:
        return Choice(prefix + C.label(number), value, blocked="no place for it in your pyramid")
    gems = me.get("gems", {})
    cheapest = min(places, key=lambda p: sum(max(0, n - gems.get(c, 0)) for c, n in p["cost"].items()))
    return Choice(prefix + C.label(number), value, blocked=afford_reason(cheapest["cost"], gems, cheapest["level"]))


def law_choice(number: int, entry: Mapping[str, Any], value: str, prefix: str = "Play ") -> Choice:
    # What the law does is on its card (the picture, `/viceroy card`): the menu says what it costs.
    if "targets" in entry:
        if not entry["targets"]:
            return Choice(prefix + C.label(number), value, blocked="no card in your pyramid it can act on")
        return Choice(prefix + C.label(number), value, note="a law, free: it acts on a card of your pyramid")
    if not entry.get("slots"):
        return Choice(prefix + C.label(number), value, blocked="no open place for a law (levels 1-4)")
    return Choice(prefix + C.label(number), value, note="a law, free")


# ------------------------------------------------------------------ /viceroy card


def card_lines(number: int) -> list[str]:
    """A card in words: a line per row (the row's gem, the total cost on that level, the reward) or its text."""
    data = C.card(number)
    kind = "law" if C.is_law(number) else "character" if C.is_character(number) else "card"
    sections = data.get("sections") or {}
    lines = [f"**{C.label(number)}** ({kind})"]
    if sections:
        lines.append("Sections: " + ", ".join(f"{where.replace('_', '-')} {colour}" for where, colour in sections.items()))
    if C.is_character(number):
        for level in range(1, 5):
            row = data["rows"][level - 1]
            gem = COLOR_LETTER.get(row["cost"], str(row["cost"]))
            if row["cost"] == C.ANY:
                gem = f"{row.get('count', 1)} of any colour"
            lines.append(f"Level {level}: row gem {gem}, costs {cost_text(number, level)} in all "
                         f"→ {level_reward_text(number, level) or 'nothing'}")
        lines.append(f"Level 5: costs {cost_text(number, 5)} in all → rows 1-3, or a 15-PP token")
    if data.get("text"):
        lines.append(str(data["text"]))
    for option in data.get("rewards", []):  # a card of printed choices (a domain card)
        if isinstance(option, dict) and option.get("text"):
            lines.append(f"• {option['text']}")
    return lines


def cost_text(number: int, level: int) -> str:
    """What a character costs on a level, with the gems of any colour some cards ask for."""
    text = gems_text(C.cost(number, level))
    extra = C.any_cost(number, level)
    if extra:
        text = (f"{text} + " if text != "none" else "") + f"{extra} of any colour"
    return text


def render_card(number: int) -> bytes:
    from rendering import render_card as draw

    return draw(number)
