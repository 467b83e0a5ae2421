"""What the bot shows: message specs built from engine views and prompts. No discord import.

The cogs turn these specs into discord.py messages and views. Keeping the choice of buttons, options and
texts here means it is tested without Discord, and the cogs stay thin adapters.

Custom ids (all under 100 characters) carry the game, the seat, the prompt key and the control:
``vg:<game>:<seat>:<key>:<op>`` for buttons, ``vs:...`` for selects, ``vm:...`` for modals, where ``key`` is
the engine's prompt key with ':' written as '.'. A control whose key is no longer the seat's prompt key
is stale and answers so.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.viceroy import cards as C
from engine.viceroy import game as G
from engine.viceroy import moves as M
from engine.viceroy import pyramid as P
from engine.viceroy.laws import token_name
from engine.viceroy.painting import best_painting

COLOR_LETTER = {"red": "R", "green": "G", "blue": "B", "yellow": "Y"}
COLOR_EMOJI = {"red": "🔴", "green": "🟢", "blue": "🔵", "yellow": "🟡"}
EMBED_COLOR = 0x8E5B2E
MAX_OPTIONS = 25


# ------------------------------------------------------------------------------------------------ specs


@dataclass
class Button:
    label: str
    custom_id: str
    style: str = "secondary"  # primary | secondary | success | danger
    disabled: bool = False


@dataclass
class Option:
    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass
class Select:
    custom_id: str
    placeholder: str
    options: list[Option]
    min_values: int = 1
    max_values: int = 1


@dataclass
class Image:
    filename: str
    render: Callable[[], bytes]


@dataclass
class MessageSpec:
    content: str = ""
    title: str | None = None
    description: str | None = None
    fields: list[tuple[str, str]] = field(default_factory=list)
    image: Image | None = None
    rows: list[list[Button | Select]] = field(default_factory=list)
    footer: str | None = None


@dataclass
class ModalSpec:
    custom_id: str
    title: str
    fields: list[tuple[str, str, str]]  # (field id, label, default value)


# ------------------------------------------------------------------------------------------------ texts


def names_map(seats: list) -> dict[int, str]:
    return {s.seat: s.display_name for s in seats}


def fill_names(text: str, names: dict[int, str]) -> str:
    for seat, name in names.items():
        text = text.replace("{p" + str(seat) + "}", name)
    return text


def gems_text(gems: dict[str, int]) -> str:
    parts = [f"{n}{COLOR_LETTER[c]}" for c, n in gems.items() if n]
    return " ".join(parts) if parts else "none"


def gems_long(gems: dict[str, int]) -> str:
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


def encode_key(prompt_key: str) -> str:
    return prompt_key.replace(":", ".")


def decode_key(key: str) -> str:
    return key.replace(".", ":")


def cid(prefix: str, game: int, seat: int, key: str, op: str) -> str:
    return f"{prefix}:{game}:{seat}:{encode_key(key)}:{op}"


def _cut(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ------------------------------------------------------------------------------------------------ drafts


def fresh_draft(prompt_key: str) -> dict:
    return {"key": prompt_key}


def load_draft(raw: str | None, prompt_key: str) -> dict:
    """A seat's unfinished plan for its current prompt (a draft for an older prompt is dropped)."""
    if raw:
        try:
            draft = json.loads(raw)
        except ValueError:
            draft = None
        if isinstance(draft, dict) and draft.get("key") == prompt_key:
            return draft
    return fresh_draft(prompt_key)


# ----------------------------------------------------------------------------------------- suggestions


def _needed_colours(view: dict, seat: int) -> list[str]:
    me = view["players"][seat]
    need = dict.fromkeys(C.COLORS, 0)
    for number in me.get("hand", []):
        if not C.is_law(number):
            for c, n in C.cost(number, 2).items():
                need[c] += n
    return sorted(C.COLORS, key=lambda c: me.get("gems", {}).get(c, 0) - need[c])


def pass_gem_count(view: dict, seat: int) -> int:
    """Gems a pass brings: 3 plus 1 per science token in the pyramid (§4)."""
    return G.PASS_GEMS + P.token_count(view["players"][seat]["pyramid"], "science")


def gem_choice_count(view: dict, seat: int, draft: dict, purpose: str) -> int:
    """How many gems a gem choice of this purpose takes (for Treasury: the most it may hold)."""
    if purpose == "pass":
        return pass_gem_count(view, seat)
    if purpose == "decide":
        return (view.get("prompt") or {}).get("count", 0)
    if purpose == "discard":
        return G.DISCARD_GEMS
    need = gem_need(view, draft)
    return need[1] if need else 0


def current_gem_choice(view: dict, seat: int, draft: dict, purpose: str) -> dict[str, int]:
    """The gems chosen so far for this purpose, or the suggestion."""
    count = gem_choice_count(view, seat, draft, purpose)
    if purpose == "decide":
        return draft.get("gems", {}).get("decide") or suggested_gems(view, seat, count)
    return _gems_choice(view, seat, draft, purpose, count)


def check_gem_choice(view: dict, seat: int, draft: dict, purpose: str, gems: dict[str, int]) -> None:
    """Refuse a gem choice with the wrong number of gems (raises PlanIncomplete with the reason)."""
    total = sum(gems.values())
    count = gem_choice_count(view, seat, draft, purpose)
    if purpose == "store":
        if total > count:
            raise PlanIncomplete(f"Treasury holds at most {count} gems.")
        return
    due = min(count, sum(view["reserve"].values()))
    if total != due:
        raise PlanIncomplete(f"Choose exactly {due} gems (you chose {total}).")


def suggested_gems(view: dict, seat: int, count: int) -> dict[str, int]:
    return M.balanced_gems(view["reserve"], count, _needed_colours(view, seat))


def _items_for(draft_card: int, level: int, reward: dict) -> list[dict]:
    if level == 5:
        if reward.get("level5") == "pp":
            return [{"type": "power_points", "amount": G.LEVEL5_PP}]
        return [i for lv in (1, 2, 3) for i in C.rewards(draft_card, lv)]
    return list(C.rewards(draft_card, level))


def _choice_items(number: int, option: int | None) -> list[dict]:
    if option is None:
        return []
    chosen = C.card(number)["effect"]["options"][option]
    return chosen if isinstance(chosen, list) else [chosen]


def gem_need(view: dict, draft: dict) -> tuple[str, int] | None:
    """Which gem choice the current plan needs (purpose, count), if any."""
    kind = draft.get("action")
    if kind == "discard":
        return ("discard", G.DISCARD_GEMS)
    if kind == "setup" and draft.get("start"):
        n = sum(i["amount"] for i in C.rewards(draft["start"], 1) if i["type"] == "gems")
        return ("reward", n) if n else None
    if kind != "play" or not draft.get("card"):
        return None
    number = draft["card"]
    if C.is_law(number):
        if number == 76:
            return ("store", 8)
        items = _choice_items(number, draft.get("reward", {}).get("option"))
    else:
        if not draft.get("slot"):
            return None
        items = _items_for(number, P.level_of(draft["slot"]), draft.get("reward", {}))
    n = sum(i["amount"] for i in items if i["type"] == "gems")
    return ("reward", n) if n else None


def draw_need(draft: dict) -> int:
    kind = draft.get("action")
    if kind == "setup" and draft.get("start"):
        return sum(i["amount"] for i in C.rewards(draft["start"], 1) if i["type"] == "cards")
    if kind != "play" or not draft.get("card"):
        return 0
    number = draft["card"]
    if C.is_law(number):
        items = _choice_items(number, draft.get("reward", {}).get("option"))
    else:
        if not draft.get("slot"):
            return 0
        items = _items_for(number, P.level_of(draft["slot"]), draft.get("reward", {}))
    return sum(i["amount"] for i in items if i["type"] == "cards")


# ------------------------------------------------------------------------------------- plan -> action


class PlanIncomplete(Exception):
    """The plan lacks a choice; ``message`` says which."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _gems_choice(view: dict, seat: int, draft: dict, purpose: str, count: int) -> dict[str, int]:
    chosen = draft.get("gems", {}).get(purpose)
    if chosen is not None:
        return chosen
    if purpose == "store":
        return M.balanced_gems(view["players"][seat].get("gems", {}), min(count, sum(view["players"][seat].get("gems", {}).values())))
    return suggested_gems(view, seat, count)


def _reward_from_draft(view: dict, seat: int, draft: dict) -> dict:
    reward = dict(draft.get("reward", {}))
    need = gem_need(view, draft)
    if need and need[0] == "reward":
        reward["gems"] = _gems_choice(view, seat, draft, "reward", need[1])
    n = draw_need(draft)
    if n:
        laws = min(draft.get("draw_law", 0), n)
        reward["draw"] = ["law"] * laws + ["small"] * (n - laws)
    return reward


def build_action(view: dict, seat: int, draft: dict) -> dict:
    """Turn a finished draft into the engine action (raises PlanIncomplete naming what is missing)."""
    kind = draft.get("action")
    me = view["players"][seat]
    if kind == "setup":
        if not draft.get("start"):
            raise PlanIncomplete("Choose your starting card first.")
        keep = draft.get("keep")
        if view["options"]["deal"] == 2:
            keep = next((c for c in me["hand"] if c != draft["start"]), draft["start"])
        if not keep:
            raise PlanIncomplete("Choose the card to keep in your hand.")
        return {"type": "setup", "start": draft["start"], "keep": keep, "reward": _reward_from_draft(view, seat, draft)}
    if kind == "discard":
        return {"type": "discard", "card": draft["card"], "gems": _gems_choice(view, seat, draft, "discard", G.DISCARD_GEMS)}
    if kind == "pass":
        return {"type": "pass"}
    if kind != "play" or not draft.get("card"):
        raise PlanIncomplete("Choose a card to play, one to discard, or pass.")
    number = draft["card"]
    action: dict = {"type": "play", "card": number, "reward": _reward_from_draft(view, seat, draft)}
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
        if number in G.CHOICE_LAWS:
            option = draft.get("reward", {}).get("option")
            if option is None:
                raise PlanIncomplete("Choose one of the law's three options.")
            if any(i["type"] == "infinite_gem" for i in _choice_items(number, option)):
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
            action["store"] = _gems_choice(view, seat, draft, "store", 8)
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
    player = {"gems": me.get("gems", {}), "used_infinite": me.get("used_infinite", []), "pyramid": me["pyramid"]}
    payment = G.auto_payment(player, number, P.level_of(draft["slot"]))
    if payment is None:
        raise PlanIncomplete("You cannot pay for that card there.")
    action.update(payment)
    action["archive"] = False
    return action


def describe_action(action: dict | None) -> str:
    if not action:
        return "nothing yet"
    kind = action["type"]
    if kind == "bid":
        return f"bid {action['color']} for {C.label(action['card'])}"
    if kind == "attack":
        return f"attack for {C.label(action['card'])}"
    if kind == "pass":
        gems = action.get("gems")
        return "pass" + (f" and take {gems_long(gems)}" if gems else "")
    if kind == "discard":
        return f"discard {C.label(action['card'])} for {gems_long(action.get('gems') or {})}"
    if kind == "play":
        if action.get("slot"):
            return f"play {C.label(action['card'])} on level {P.level_of(action['slot'])}"
        return f"play {C.label(action['card'])} on a card of your pyramid"
    if kind == "setup":
        return f"start with {C.label(action['start'])}, keep {C.label(action['keep'])}"
    return kind


# ---------------------------------------------------------------------------------------- prompt view


def _screen_line(me: dict) -> str:
    return f"Your gems: **{gems_long(me.get('gems', {}))}** · attack tokens: {me.get('attacks', 0)}"


def _card_option(number: int, prefix: str = "", value: str | None = None, description: str | None = None) -> Option:
    return Option(_cut(prefix + C.label(number)), value or str(number), _cut(description) if description else None)


def prompt_spec(game_id: int, seat: int, view: dict, prompt_key: str, draft: dict, names: dict[int, str]) -> MessageSpec:
    """The private prompt for one seat: what to decide now, with its controls."""
    prompt = view.get("prompt") or {}
    kind = prompt.get("kind")
    me = view["players"][seat]
    spec = MessageSpec(title=f"Viceroy game #{game_id}: your move")

    def b(label: str, op: str, style: str = "secondary", disabled: bool = False) -> Button:
        return Button(_cut(label, 80), cid("vg", game_id, seat, prompt_key, op), style, disabled)

    def s(op: str, placeholder: str, options: list[Option], lo: int = 1, hi: int = 1) -> Select:
        options = options[:MAX_OPTIONS]
        return Select(cid("vs", game_id, seat, prompt_key, op), _cut(placeholder, 150), options, lo, min(hi, len(options)))

    lines = [_screen_line(me)]
    if kind == "setup":
        return _setup_prompt(spec, view, seat, draft, b, s, lines)
    if kind == "auction":
        return _auction_prompt(spec, view, seat, draft, b, s, lines)
    if kind == "development":
        return _development_prompt(spec, view, seat, draft, b, s, lines, names, replan=False)
    if kind == "paint":
        spec.title = f"Viceroy game #{game_id}: painting"
        lines.append("The game is over. You may paint circle sections with your leftover gems; each gem turns one "
                     "section to its colour. The best painting for your score is worked out for you.")
        paint, gain = best_painting({"players": view["players"]}, seat)
        label = f"Paint the best way ({len(paint)} sections, +{gain} points)" if paint else "Nothing worth painting: finish"
        spec.rows = [[b(label, "paint", "primary"), b("Skip painting", "skip")]]
        spec.description = "\n".join(lines)
        return spec
    if kind is not None:
        return _decision_prompt(spec, view, seat, prompt, draft, b, s, lines, names)
    spec.description = "Nothing to decide right now."
    return spec


def _setup_prompt(spec: MessageSpec, view: dict, seat: int, draft: dict, b, s, lines: list[str]) -> MessageSpec:
    me = view["players"][seat]
    hand = me.get("hand", [])
    draft.setdefault("action", "setup")
    spec.title = "Viceroy: choose your starting card"
    lines.append("Choose the card that starts your pyramid (you gain its level-1 reward) and the card you keep in hand; "
                 "the others go back to the deck.")
    if view.get("my_choice"):
        lines.append(f"Chosen: **{describe_action(view['my_choice'])}** (you can change it until everyone has chosen).")
    start_opts = [
        _card_option(n, description=f"Level 1: {reward_text(C.rewards(n, 1))}", value=str(n)) for n in hand
    ]
    for o in start_opts:
        o.default = draft.get("start") == int(o.value)
    spec.rows.append([s("start", "Starting card", start_opts)])
    if view["options"]["deal"] != 2:
        keep_opts = [_card_option(n) for n in hand if n != draft.get("start")]
        for o in keep_opts:
            o.default = draft.get("keep") == int(o.value)
        spec.rows.append([s("keep", "Card to keep", keep_opts)])
    _reward_controls(spec, view, seat, draft, b, s, lines)
    spec.rows.append([b("Confirm", "confirm", "success")])
    spec.description = "\n".join(lines)
    spec.image = Image("dealt.png", lambda: _render_screen(view))
    return spec


def _render_screen(view: dict) -> bytes:
    from rendering import render_screen

    return render_screen(view)


def _reward_controls(spec: MessageSpec, view: dict, seat: int, draft: dict, b, s, lines: list[str]) -> list[Button]:
    """Controls for the gems and cards a plan takes; returns buttons for the last row."""
    buttons: list[Button] = []
    need = gem_need(view, draft)
    if need:
        purpose, count = need
        chosen = _gems_choice(view, seat, draft, purpose, count)
        what = {"reward": "Reward gems", "discard": "Gems for discarding", "store": "Gems to store on Treasury"}[purpose]
        lines.append(f"{what}: **{gems_long(chosen)}**" + (" (suggested)" if purpose not in draft.get("gems", {}) else ""))
        buttons.append(b("Change gems", f"gems.{purpose}"))
    n = draw_need(draft)
    if n:
        opts = [Option(f"{k} from the law deck, {n - k} from the small deck", str(k), default=draft.get("draw_law", 0) == k)
                for k in range(n + 1)]
        spec.rows.append([s("draw", "Where the drawn cards come from", opts)])
    if buttons and draft.get("action") == "setup":
        spec.rows.append(buttons)
        return []
    return buttons


def _auction_prompt(spec: MessageSpec, view: dict, seat: int, draft: dict, b, s, lines: list[str]) -> MessageSpec:
    me = view["players"][seat]
    spec.title = f"Turn {view['turn']}: auction round {view['round']}"
    opts: list[Option] = []
    auction = view["auction"]
    for colour in C.COLORS:
        there = [c for c in (auction[colour]["base"], auction[colour]["tip"]) if c is not None]
        if there and me.get("gems", {}).get(colour, 0) > 0:
            for card in there:
                opts.append(Option(_cut(f"Bid {colour} for {C.label(card)}"), f"bid:{colour}:{card}", COLOR_EMOJI[colour]))
    if me.get("attacks", 0) > 0:
        for colour in C.COLORS:
            for card in (auction[colour]["base"], auction[colour]["tip"]):
                if card is not None:
                    opts.append(Option(_cut(f"Attack for {C.label(card)}"), f"attack:{card}", "spend an attack token"))
    count = pass_gem_count(view, seat)
    pass_gems = draft.get("gems", {}).get("pass") or suggested_gems(view, seat, count)
    opts.append(Option(f"Pass and take {count} gems", "pass", gems_long(pass_gems)))
    current = view.get("my_choice")
    if current:
        lines.append(f"Your sealed choice: **{describe_action(current)}**. You can change it until everyone has chosen.")
    else:
        lines.append("Choose secretly: bid one gem for a character, attack, or pass. Everyone's choice is revealed together.")
    lines.append(f"If you pass you take: **{gems_long(pass_gems)}**" + (" (suggested)" if "pass" not in draft.get("gems", {}) else ""))
    spec.rows.append([s("choose", "Bid, attack or pass", opts)])
    row = [b("Change pass gems", "gems.pass")]
    if any(e["card"] == 78 for e in me["pyramid"]["cards"].values()):
        on = draft.get("archive", False)
        row.append(b(f"Archive a won card: {'yes' if on else 'no'}", "archive", "primary" if on else "secondary"))
    spec.rows.append(row)
    auction_view = view["auction"]
    spec.image = Image("auction.png", lambda: _render_auction(auction_view))
    spec.description = "\n".join(lines)
    return spec


def _render_auction(auction_view: dict) -> bytes:
    from rendering import render_auction

    return render_auction(auction_view)


def _development_prompt(spec: MessageSpec, view: dict, seat: int, draft: dict, b, s, lines: list[str],
                        names: dict[int, str], replan: bool) -> MessageSpec:
    me = view["players"][seat]
    hand = me.get("hand", [])
    spec.title = f"Turn {view['turn']}: development round {view['round']}" if not replan else "Choose again"
    current = view.get("my_choice")
    if current and not replan:
        lines.append(f"Your sealed plan: **{describe_action(current)}**. You can change it until everyone has chosen.")
    if not draft.get("action"):
        lines.append("Play a card (character or law), discard one for 2 gems, or pass (out of the development phase this turn).")
        if hand:
            spec.rows.append([s("card", "Play a card", [_card_option(n, "Play ", f"play:{n}") for n in hand])])
            spec.rows.append([s("discard", "Discard a card for 2 gems",
                                [_card_option(n, "Discard ", f"discard:{n}", "take 2 gems") for n in hand])])
        spec.rows.append([b("Pass (out of this development phase)", "pass")])
        spec.description = "\n".join(lines)
        return spec
    kind = draft["action"]
    number = draft.get("card")
    buttons: list[Button] = []
    if kind == "discard":
        lines.append(f"Discard **{C.label(number)}** and take 2 gems.")
    elif kind == "play" and number is not None:
        lines.append(f"Play **{C.label(number)}**.")
        _play_controls(spec, view, seat, draft, s, lines, names)
    buttons = _reward_controls(spec, view, seat, draft, b, s, lines)
    ready = True
    try:
        build_action(view, seat, draft)
    except PlanIncomplete as exc:
        ready = False
        lines.append(f"*{exc.message}*")
    buttons.append(b("Confirm", "confirm", "success", disabled=not ready))
    buttons.append(b("Back", "back"))
    spec.rows = spec.rows[:4]
    spec.rows.append(buttons[:5])
    spec.description = "\n".join(lines)
    return spec


def _play_controls(spec: MessageSpec, view: dict, seat: int, draft: dict, s, lines: list[str], names: dict[int, str]) -> None:
    from rendering import render_pyramid, slot_labels

    me = view["players"][seat]
    number = draft["card"]
    pyramid = me["pyramid"]
    if C.is_law(number) and number in (65, 66):
        cards = pyramid["cards"]
        targets = sorted(t for t, e in cards.items() if (number == 65 and P.level_of(t) < 5) or (number == 66 and not C.is_law(e["card"])))
        opts = [Option(_cut(f"{t}: {C.label(cards[t]['card'])}"), t, default=draft.get("target") == t) for t in targets]
        if opts:
            spec.rows.append([s("target", "Which card of your pyramid", opts)])
        else:
            lines.append("There is no card it can act on.")
        spec.image = Image("pyramid.png", lambda: render_pyramid(pyramid, names.get(seat, "You")))
        return
    slots = P.legal_slots(pyramid, number)
    labels = slot_labels(slots)
    player = {"gems": me.get("gems", {}), "used_infinite": me.get("used_infinite", []), "pyramid": pyramid}
    opts = []
    for slot in slots:
        level = P.level_of(slot)
        if C.is_law(number):
            opts.append(Option(f"{labels[slot]}: level {level}", slot, default=draft.get("slot") == slot))
            continue
        payment = G.auto_payment(player, number, level)
        if payment is None:
            continue
        cost = C.cost(number, level)
        paid = gems_text(payment["pay"])
        note = f"cost {gems_text(cost)}" + (f", you pay {paid} (infinite gems cover the rest)" if payment["infinite"] else "")
        opts.append(Option(_cut(f"{labels[slot]}: level {level}, {reward_text(_items_for(number, level, draft.get('reward', {})))}"), slot, _cut(note), draft.get("slot") == slot))
    if opts:
        spec.rows.append([s("slot", "Where it goes (letters on the picture)", opts)])
    else:
        lines.append("You cannot pay for this card anywhere in your pyramid.")
    spec.image = Image("placement.png", lambda: render_pyramid(pyramid, names.get(seat, "You"), None, slots))
    slot = draft.get("slot")
    if not C.is_law(number) and slot and P.level_of(slot) == 5:
        choice = draft.get("reward", {}).get("level5", "rows")
        spec.rows.append([s("lvl5", "Level-5 reward", [
            Option("Rewards of rows 1, 2 and 3", "rows", _cut(reward_text([i for lv in (1, 2, 3) for i in C.rewards(number, lv)])), choice == "rows"),
            Option("A 15-PP token", "pp", None, choice == "pp")])])
    if number in G.CHOICE_LAWS:
        options = C.card(number)["effect"]["options"]
        chosen = draft.get("reward", {}).get("option")
        spec.rows.append([s("opt", "Choose one option", [Option(_cut(option_text(o)), str(i), None, chosen == i) for i, o in enumerate(options)])])
        if any(i["type"] == "infinite_gem" for i in _choice_items(number, chosen)):
            colour = draft.get("reward", {}).get("color")
            spec.rows.append([s("color", "Colour of the infinite gem", [Option(c, c, None, colour == c) for c in C.COLORS])])
    if number == 69:
        offer = [c for col in C.COLORS for c in (view["auction"][col]["base"], view["auction"][col]["tip"]) if c is not None]
        spec.rows.append([s("take", "Auction card to take", [_card_option(c) for c in offer])])
    if number == 72:
        others = [c for c in me.get("hand", []) if c != 72]
        if others:
            spec.rows.append([s("tuck", "Cards to put under Secret Service (5 PP each)", [_card_option(c) for c in others], 0, len(others))])
    if number == 74:
        free = P.free_cards(pyramid)
        if free:
            spec.rows.append([s("tuck1", "Free card to put under Royal Favor", [Option(_cut(f"{t}: {C.label(pyramid['cards'][t]['card'])}"), t) for t in free])])
    if number == 67:
        mine = [Option(_cut(f"{t}: {token_name(tok)} on {C.label(e['card'])}"), f"{t}#{i}")
                for t, e in sorted(pyramid["cards"].items()) for i, tok in enumerate(e["tokens"])]
        theirs = [Option(_cut(f"{names.get(p['seat'], 'Seat ' + str(p['seat']))}: {token_name(tok)} on {C.label(e['card'])}"), f"{p['seat']}#{t}#{i}")
                  for p in view["players"] if p["seat"] != seat for t, e in sorted(p["pyramid"]["cards"].items()) for i, tok in enumerate(e["tokens"])]
        if mine and theirs:
            lines.append("Exchange of Favors: optionally pick one of your tokens and one of another player's (you pay them 3 gems).")
            spec.rows.append([s("give", "Your token to give", mine)])
            spec.rows.append([s("swap", "Their token to take", theirs)])


def _decision_prompt(spec: MessageSpec, view: dict, seat: int, prompt: dict, draft: dict, b, s, lines: list[str],
                     names: dict[int, str]) -> MessageSpec:
    kind = prompt["kind"]
    spec.title = "A question during resolution"
    lines.append(prompt.get("text", ""))
    if kind == "gems":
        chosen = draft.get("gems", {}).get("decide") or M.balanced_gems(prompt["reserve"], prompt["count"], _needed_colours(view, seat))
        lines.append(f"Reserve: {gems_long(prompt['reserve'])}. Your choice: **{gems_long(chosen)}**")
        spec.rows.append([b("Take these gems", "take", "success"), b("Change gems", "gems.decide")])
    elif kind in ("attack_pick", "solo_discard"):
        spec.rows.append([s("pick", "Choose a character", [_card_option(c) for c in prompt["options"]])])
    elif kind == "royal_favor":
        cards = view["players"][seat]["pyramid"]["cards"]
        spec.rows.append([s("pick", "Choose a free card", [Option(_cut(f"{t}: {C.label(cards[t]['card'])}"), t) for t in prompt["options"]])])
    elif kind == "archive":
        spec.rows.append([b("Yes, tuck it under Archive", "yes", "primary"), b("No, into my hand", "no")])
    elif kind == "chancery_return":
        n = prompt["count"]
        spec.rows.append([s("return", f"Choose {n} laws to return (first chosen goes on top)", [_card_option(c) for c in prompt["options"]], n, n)])
    elif kind == "replan":
        return _development_prompt(spec, view, seat, draft, b, s, lines, names, replan=True)
    spec.description = "\n".join(lines)
    return spec


def gems_modal(game_id: int, seat: int, prompt_key: str, purpose: str, count: int, current: dict[str, int]) -> ModalSpec:
    title = {"pass": "Gems to take when passing", "reward": "Reward gems", "discard": "Gems for discarding",
             "store": "Gems to store on Treasury", "decide": "Gems to take"}.get(purpose, "Gems")
    title = _cut(f"{title} ({'up to ' if purpose == 'store' else ''}{count})", 45)
    return ModalSpec(cid("vm", game_id, seat, prompt_key, f"gems.{purpose}"), title,
                     [(c, f"{c.capitalize()} gems", str(current.get(c, 0))) for c in C.COLORS])


def parse_gems_modal(values: dict[str, str]) -> dict[str, int]:
    out = {}
    for c in C.COLORS:
        raw = (values.get(c) or "0").strip() or "0"
        if not raw.isdigit():
            raise PlanIncomplete(f"'{raw}' is not a number of {c} gems.")
        out[c] = int(raw)
    return out


def apply_control(view: dict, seat: int, draft: dict, op: str, values: list[str]) -> dict | None:
    """Record a select/button choice in the draft. Returns an action to submit at once, if the control is final."""
    prompt = view.get("prompt") or {}
    kind = prompt.get("kind")
    value = values[0] if values else None
    if kind == "auction" and op == "choose" and value:
        if value == "pass":
            gems = draft.get("gems", {}).get("pass") or suggested_gems(view, seat, pass_gem_count(view, seat))
            return {"type": "pass", "gems": gems}
        parts = value.split(":")
        if parts[0] == "bid":
            return {"type": "bid", "color": parts[1], "card": int(parts[2]), "archive": draft.get("archive", False)}
        return {"type": "attack", "card": int(parts[1]), "archive": draft.get("archive", False)}
    if op == "archive":
        draft["archive"] = not draft.get("archive", False)
        return None
    if op == "pass" and kind in ("development", "replan"):
        return _wrap(kind, {"type": "pass"})
    if op in ("card", "discard") and value:
        for k in list(draft):
            if k != "key":
                del draft[k]
        what, number = value.split(":")
        draft["action"] = what
        draft["card"] = int(number)
        return None
    if op == "back":
        for k in list(draft):
            if k != "key":
                del draft[k]
        return None
    if op in ("start", "keep") and value:
        draft["action"] = "setup"
        draft[op] = int(value)
        if op == "start" and draft.get("keep") == draft["start"]:
            draft.pop("keep")
        return None
    if op == "slot" and value:
        draft["slot"] = value
    elif op == "target" and value:
        draft["target"] = value
    elif op == "draw" and value is not None:
        draft["draw_law"] = int(value)
    elif op == "lvl5" and value:
        draft.setdefault("reward", {})["level5"] = value
    elif op == "opt" and value is not None:
        draft.setdefault("reward", {})["option"] = int(value)
    elif op == "color" and value:
        draft.setdefault("reward", {})["color"] = value
    elif op == "take" and value and kind != "gems":
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
        return _wrap(kind, build_action(view, seat, draft))
    elif kind == "gems" and op == "take":
        gems = draft.get("gems", {}).get("decide") or M.balanced_gems(prompt["reserve"], prompt["count"], _needed_colours(view, seat))
        return {"type": "decide", "gems": gems}
    elif op == "pick" and value:
        if kind == "royal_favor":
            return {"type": "decide", "slot": value}
        return {"type": "decide", "card": int(value)}
    elif op in ("yes", "no"):
        return {"type": "decide", "archive": op == "yes"}
    elif op == "return":
        return {"type": "decide", "cards": [int(v) for v in values]}
    elif op == "skip":
        return {"type": "paint", "paint": []}
    elif op == "paint":
        paint, _gain = best_painting({"players": view["players"]}, seat)
        return {"type": "paint", "paint": paint}
    return None


def _wrap(kind: str | None, action: dict) -> dict:
    """A replan answer carries the new plan inside a decision."""
    if kind == "replan":
        return {"type": "decide", "plan": action}
    return action
