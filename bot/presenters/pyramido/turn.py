"""A Pyramido turn as one plan: domino -> position (a lettered cell, then a direction) -> gem -> optional
single block card -> refill pile -> Confirm. Typically four taps: domino, cell, direction, Confirm (the gem
is preset when only one block can take it, the refill pile is preset to the fuller one).

Everything offered comes from the prompt's choices (``engine.pyramido`` turn prompt): only legal positions,
each with the gaps it would leave; the presenter never re-derives a rule.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from bot.ui.presenter import BasePromptKind, SeatCtx
from bot.ui.spec import MAX_OPTIONS, Image, MessageSpec, Option, PlanIncomplete
from engine.pyramido import describe
from engine.pyramido.geometry import DIR_NAME
from engine.pyramido.tiles import DOMINOES, QUADRANT_LABEL, QUADRANTS
from engine.pyramido.views import domino_view, laid_blocks
from rendering.pyramido import position_labels, render_plan

ARROW = {"E": "→ East", "S": "↓ South", "W": "← West", "N": "↑ North"}
PAGE = MAX_OPTIONS - 1  # positions per menu page (a 25th option would not leave room for clarity)
# The letter the chosen position had on the prompt, carried in the submitted action: the bot echoes a move
# ("You chose: ...") from the action alone, and only the prompt knew the letters. The engine reads only its
# own keys, so this one is a note for the player's eyes.
LETTER = "letter"


def _domino_text(d: Mapping) -> str:
    def block(b: Mapping) -> str:
        n = len(b["icons"])
        return f"{b['colour']} ({n} icon{'' if n == 1 else 's'})"

    return f"#{d['domino']} {block(d['a'])} + {block(d['b'])}"


def _domino_gives(d: Mapping) -> str:
    """What taking a domino brings: where a gem of yours can go, and the piles the quarry is refilled from."""
    view = domino_view(d["domino"])
    gems = [view[w]["colour"] for w in d.get("gem_blocks", [])]
    text = ("gem: on " + " or ".join(gems)) if gems else "no gem (none of yours matches its colours)"
    refill = d.get("refill") or []
    if refill:
        text += " · refill from pile " + " or ".join(str(p + 1) for p in refill)
    return text


def describe_action(action: Mapping[str, Any]) -> str:
    """A move told to its player in the prompt's own words: the position by the letter it had on the picture,
    the direction by its button's word. A move without a letter (the bot's, when time ran out) leaves the
    position to the pictures rather than give engine coordinates nobody was shown."""
    if action.get("type") != "place" or action.get("domino") not in range(len(DOMINOES)):
        return describe(action)
    d = domino_view(action["domino"])
    head = f"domino #{action['domino']} ({d['a']['colour']}/{d['b']['colour']})"
    letter = action.get(LETTER)
    if isinstance(letter, str) and letter:
        head += f" at position {letter}"
    parts = [head]
    if action.get("dir") in DIR_NAME:
        # the button's word without its arrow: " → " marks the plan's steps (and the catalogue's "{x} → {y}")
        parts.append(f"second block {DIR_NAME[action['dir']]}")
    gem = action.get("gem")
    if gem in ("a", "b"):
        parts.append(f"{d[gem]['colour']} gem")
    card = action.get("card")
    if isinstance(card, dict) and card.get("block") in ("a", "b"):
        parts.append(f"{card.get('side')} single block card on block {1 if card['block'] == 'a' else 2} "
                     f"(icon {QUADRANT_LABEL.get(card.get('icon', 'tl'), '?')})")
    if isinstance(action.get("refill"), int):
        parts.append(f"refill from pile {action['refill'] + 1}")
    return ", ".join(parts)


def _cell_key(cell: Any) -> str:
    return f"{cell[0]},{cell[1]}"


def _parse_cell(value: str) -> list[int]:
    try:
        x, y = value.split(",")
        return [int(x), int(y)]
    except ValueError:
        raise PlanIncomplete("Choose a position from the list.") from None


def _gaps_note(gaps: int, cards: int) -> str:
    if gaps == 0:
        return "floor stays completable"
    if gaps > cards:
        return f"leaves {gaps} gaps: you hold {cards} cards and would lose"
    return f"leaves {gaps} gaps: {gaps} single block cards needed"


class TurnKind(BasePromptKind):
    """The "turn" prompt."""

    # ------------------------------------------------------------------ reading the choices

    @staticmethod
    def _dominoes(ctx: SeatCtx) -> dict[int, dict]:
        return {d["domino"]: d for d in ctx.choices["dominoes"]}

    @staticmethod
    def _anchors(ctx: SeatCtx) -> dict[str, list[dict]]:
        """Legal placements grouped by their first block's cell, in the picture's letter order."""
        out: dict[str, list[dict]] = {}
        labels = position_labels([p["at"] for p in ctx.choices["placements"]])
        for cell in labels:  # letter order
            out[_cell_key(cell)] = [p for p in ctx.choices["placements"] if tuple(p["at"]) == cell]
        return out

    @staticmethod
    def _labels(ctx: SeatCtx) -> dict[tuple[int, int], str]:
        return position_labels([p["at"] for p in ctx.choices["placements"]])

    def _placement(self, ctx: SeatCtx, draft: dict) -> dict | None:
        at, direction = draft.get("at"), draft.get("dir")
        if at is None or direction is None:
            return None
        return next((p for p in ctx.choices["placements"] if p["at"] == at and p["dir"] == direction), None)

    @staticmethod
    def _cards_left(ctx: SeatCtx) -> int:
        return len(ctx.choices["cards"])

    def _gem_options(self, ctx: SeatCtx, draft: dict) -> list[str]:
        d = self._dominoes(ctx).get(draft.get("domino"))
        return list(d["gem_blocks"]) if d else []

    def _gem(self, ctx: SeatCtx, draft: dict) -> str | None:
        options = self._gem_options(ctx, draft)
        chosen = draft.get("gem")
        if chosen in options:
            return chosen
        if not options:
            return None
        if len(options) == 1:
            return options[0]
        # both blocks could take a gem: preset the one with more icons
        view = domino_view(draft["domino"])
        return max(options, key=lambda w: (len(view[w]["icons"]), w == "a"))

    def _refill(self, ctx: SeatCtx, draft: dict) -> int | None:
        d = self._dominoes(ctx).get(draft.get("domino"))
        if not d or not d["refill"]:
            return None
        if draft.get("refill") in d["refill"]:
            return draft["refill"]
        piles = {p["pile"]: p["count"] for p in ctx.view["piles"]}
        return max(d["refill"], key=lambda p: (piles.get(p, 0), -p))

    def _card_options(self, ctx: SeatCtx, draft: dict) -> list[tuple[str, str]]:
        """(value, label) for every single block card face on every block without the gem."""
        if draft.get("domino") is None:
            return []
        gem = self._gem(ctx, draft)
        view = domino_view(draft["domino"])
        out = []
        for card in ctx.choices["cards"]:
            for side in card["faces"]:
                for block in ("a", "b"):
                    if block == gem:
                        continue
                    covered = view[block]["colour"]
                    n = 1 if block == "a" else 2
                    out.append((f"{card['card']}:{side}:{block}", f"{side.title()} card on block {n} ({covered})"))
        return out

    # ------------------------------------------------------------------ the action

    def action(self, ctx: SeatCtx, draft: dict) -> dict:
        if draft.get("domino") not in self._dominoes(ctx):
            raise PlanIncomplete("Choose a domino from the quarry first.")
        placement = self._placement(ctx, draft)
        if placement is None:
            raise PlanIncomplete("Choose where the domino goes: a lettered position, then a direction.")
        card = draft.get("card")
        if card is not None:
            card = {"card": card["card"], "side": card["side"], "block": card["block"],
                    "icon": draft.get("icon", "tl")}
            if card["block"] == self._gem(ctx, draft):
                raise PlanIncomplete("The single block card goes on the block without the gem: choose it again.")
        return {"type": "place", "domino": draft["domino"], "at": list(placement["at"]), "dir": placement["dir"],
                "gem": self._gem(ctx, draft), "card": card, "refill": self._refill(ctx, draft),
                LETTER: self._labels(ctx)[tuple(placement["at"])]}

    # ------------------------------------------------------------------ clicks

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        if op == "domino":
            value = int(values[0]) if values and values[0].isdigit() else None
            if value not in self._dominoes(ctx):
                raise PlanIncomplete("That domino is not in the quarry.")
            if draft.get("domino") != value:
                draft["domino"] = value
                for key in ("gem", "card", "icon", "refill"):
                    draft.pop(key, None)
            return None
        if op == "anchor":
            cell = _parse_cell(values[0] if values else "")
            options = self._anchors(ctx).get(_cell_key(cell))
            if not options:
                raise PlanIncomplete("That position is not free for a domino.")
            draft["at"] = cell
            dirs = [p["dir"] for p in options]
            draft["dir"] = dirs[0] if len(dirs) == 1 else (draft.get("dir") if draft.get("dir") in dirs else None)
            return None
        if op.startswith("dir."):
            direction = op[4:]
            if draft.get("at") is None or not any(p["dir"] == direction for p in
                                                  self._anchors(ctx).get(_cell_key(draft["at"]), [])):
                raise PlanIncomplete("That direction does not fit there.")
            draft["dir"] = direction
            return None
        if op.startswith("page."):
            draft["page"] = int(op[5:]) if op[5:].isdigit() else 0
            return None
        if op.startswith("gem."):
            if op[4:] not in self._gem_options(ctx, draft):
                raise PlanIncomplete("No gem of yours can go on that block.")
            draft["gem"] = op[4:]
            if (draft.get("card") or {}).get("block") == draft["gem"]:
                draft.pop("card", None)
            return None
        if op == "card":
            value = values[0] if values else "none"
            if value == "none":
                draft.pop("card", None)
                draft.pop("card_pick", None)
            elif value == "pick":
                draft["card_pick"] = True
            elif value.startswith("icon:") and value[5:] in QUADRANTS:
                draft["icon"] = value[5:]
            else:
                if value not in {v for v, _ in self._card_options(ctx, draft)}:
                    raise PlanIncomplete("That single block card cannot go there.")
                card, side, block = value.split(":")
                draft["card"] = {"card": int(card), "side": side, "block": block}
                draft.pop("card_pick", None)
            return None
        if op.startswith("refill."):
            d = self._dominoes(ctx).get(draft.get("domino"))
            pile = int(op[7:]) if op[7:].isdigit() else -1
            if not d or pile not in d["refill"]:
                raise PlanIncomplete("Refill the quarry from one of the two piles behind the domino's space.")
            draft["refill"] = pile
            return None
        if op == "confirm":
            return self.action(ctx, draft)
        raise PlanIncomplete("This control is not available.")

    # ------------------------------------------------------------------ the message

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        view = ctx.view
        floor = ctx.choices["floor"]
        dominoes = self._dominoes(ctx)
        labels = self._labels(ctx)
        anchors = self._anchors(ctx)
        cards_left = self._cards_left(ctx)
        chosen = draft.get("domino") if draft.get("domino") in dominoes else None
        placement = self._placement(ctx, draft) if chosen is not None else None

        lines = [f"**Floor {floor}** · your gems: {', '.join(ctx.choices['gems']) or 'none'} · "
                 f"single block cards: {cards_left}"]
        if not ctx.choices["completable"]:
            lines.append(f"⚠ Your floor can no longer be completed: it will need {ctx.choices['gaps_now']} "
                         "single block cards.")
        plan = []
        if chosen is not None:
            plan.append(_domino_text(domino_view(chosen)))
        if draft.get("at") is not None:
            letter = labels.get(tuple(draft["at"]), "?")
            plan.append(f"at {letter}" + (f", second block {DIR_NAME[draft['dir']]}" if draft.get("dir") else ""))
        if placement is not None:
            plan.append(_gaps_note(placement["gaps"], cards_left))
            gem = self._gem(ctx, draft)
            if gem is not None:
                plan.append(f"gem on block {1 if gem == 'a' else 2} ({domino_view(chosen)[gem]['colour']})")
            else:
                plan.append("no gem (none of yours matches)")
            card = draft.get("card")
            if card:
                plan.append(f"{card['side']} single block card on block {1 if card['block'] == 'a' else 2}, "
                            f"icon {QUADRANT_LABEL[draft.get('icon', 'tl')]}")
            refill = self._refill(ctx, draft)
            if refill is not None:
                plan.append(f"refill from pile {refill + 1}")
        lines.append("Plan: " + (" → ".join(plan) if plan else "choose a domino from the quarry."))

        rows: list[list[Any]] = []
        rows.append([ctx.select("domino", "Domino from the quarry", [
            Option(f"Space {d['slot'] + 1}: {_domino_text(domino_view(d['domino']))}"[:100], str(d["domino"]),
                   _domino_gives(d)[:100], default=d["domino"] == chosen) for d in ctx.choices["dominoes"]])])
        if chosen is not None:
            keys = list(anchors)
            pages = [keys[i:i + PAGE] for i in range(0, len(keys), PAGE)] or [[]]
            current = _cell_key(draft["at"]) if draft.get("at") is not None else None
            page = draft.get("page", 0)
            if current in keys:
                page = next(i for i, p in enumerate(pages) if current in p) if "page" not in draft else page
            page = min(max(page, 0), len(pages) - 1)
            options = []
            for key in pages[page]:
                group = anchors[key]
                cell = tuple(group[0]["at"])
                safe = [p["dir"] for p in group if p["gaps"] == 0]
                desc = ("directions " + " ".join(p["dir"] for p in group)
                        + ("" if len(safe) == len(group) else f"; completable: {' '.join(safe) or 'none'}"))
                # Legal, but every direction leaves more gaps than the seat holds cards: said in the label.
                losing = all(p["gaps"] > cards_left for p in group)
                options.append(Option(f"Position {labels[cell]}" + (" ⚠ you would lose" if losing else ""), key,
                                      desc[:100], default=key == current))
            if options:
                rows.append([ctx.select("anchor", f"Position (page {page + 1}/{len(pages)})" if len(pages) > 1
                                        else "Position on the picture", options)])
            buttons = []
            if current in anchors:
                for p in anchors[current]:
                    style = ("primary" if draft.get("dir") == p["dir"] else
                             "success" if p["gaps"] == 0 else "danger" if p["gaps"] > cards_left else "secondary")
                    buttons.append(ctx.button(ARROW[p["dir"]], f"dir.{p['dir']}", style))
            if len(pages) > 1:
                buttons.append(ctx.button(f"More positions ({(page + 1) % len(pages) + 1}/{len(pages)})",
                                          f"page.{(page + 1) % len(pages)}"))
            if buttons:
                rows.append(buttons)
        if placement is not None:
            card_opts = self._card_options(ctx, draft)
            if draft.get("card") and not draft.get("card_pick"):
                icon = draft.get("icon", "tl")
                opts = [Option(f"Card's gem icon: {QUADRANT_LABEL[q]}", f"icon:{q}", default=q == icon)
                        for q in QUADRANTS]
                opts += [Option("Choose another single block card", "pick"), Option("No single block card", "none")]
                rows.append([ctx.select("card", "Single block card", opts)])
            elif card_opts:
                opts = [Option("No single block card", "none", default=not draft.get("card"))]
                opts += [Option(label, value) for value, label in card_opts][:MAX_OPTIONS - 1]
                rows.append([ctx.select("card", "Single block card (optional)", opts)])
            last = []
            gem_options = self._gem_options(ctx, draft)
            if len(gem_options) > 1:
                gem = self._gem(ctx, draft)
                for w in gem_options:
                    colour = domino_view(chosen)[w]["colour"]
                    last.append(ctx.button(f"Gem on {colour}", f"gem.{w}", "primary" if w == gem else "secondary"))
            d = dominoes[chosen]
            if len(d["refill"]) > 1:
                refill = self._refill(ctx, draft)
                counts = {p["pile"]: p["count"] for p in view["piles"]}
                for p in d["refill"]:
                    last.append(ctx.button(f"Refill: pile {p + 1} ({counts.get(p, 0)})", f"refill.{p}",
                                           "primary" if p == refill else "secondary"))
            last.append(ctx.button("Confirm", "confirm", "success"))
            rows.append(last)

        preview = ()
        if placement is not None:
            card = draft.get("card")
            preview = laid_blocks(chosen, placement["at"], placement["dir"], self._gem(ctx, draft),
                                  None if not card else {**card, "icon": draft.get("icon", "tl")})
        shown = [] if placement is not None else [p["at"] for p in ctx.choices["placements"]]
        image = Image("turn.png", functools.partial(render_plan, view, ctx.seat, ctx.name, shown, preview))
        return MessageSpec(title=f"Pyramido game #{ctx.game_id}: your turn", description="\n".join(lines),
                           image=image, rows=rows,
                           footer="Positions are lettered on the picture; green arrows keep your floor completable.")


class FillKind(BasePromptKind):
    """The "fill_gaps" prompt: no domino fits, every gap takes a single block card (no gem on them)."""

    def render(self, ctx: SeatCtx, draft: dict) -> MessageSpec:
        gaps = ctx.choices["gaps"]
        labels = position_labels(gaps)
        chosen = draft.get("fills", {})
        lines = [f"No domino fits your floor {ctx.choices['floor']} any more: fill each of its {len(gaps)} gaps "
                 "with one of your single block cards (no gem goes on them)."]
        rows = []
        for i, gap in enumerate(gaps):
            key = str(i)
            options = [Option(f"{side.title()} card, icon {QUADRANT_LABEL[q]}", f"{c['card']}:{side}:{q}",
                              default=chosen.get(key) == f"{c['card']}:{side}:{q}")
                       for c in ctx.choices["cards"] for side in c["faces"] for q in QUADRANTS]
            rows.append([ctx.select(f"fill.{i}", f"Gap {labels[tuple(gap)]}", options[:MAX_OPTIONS])])
        rows.append([ctx.button("Confirm", "confirm", "success")])
        image = Image("gaps.png", functools.partial(render_plan, ctx.view, ctx.seat, ctx.name, gaps, ()))
        return MessageSpec(title=f"Pyramido game #{ctx.game_id}: fill the gaps", description="\n".join(lines),
                           image=image, rows=rows[:5])

    def on_control(self, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
        gaps = {str(i): g for i, g in enumerate(ctx.choices["gaps"])}  # ops name gaps by index
        if op.startswith("fill."):
            key = op[5:]
            if key not in gaps or not values:
                raise PlanIncomplete("Choose a card for that gap.")
            draft.setdefault("fills", {})[key] = values[0]
            return None
        if op != "confirm":
            raise PlanIncomplete("This control is not available.")
        fills = draft.get("fills", {})
        if set(fills) != set(gaps):
            raise PlanIncomplete("Choose a single block card for every gap.")
        cards = []
        for key, value in fills.items():
            card, side, icon = value.split(":")
            cards.append({"card": int(card), "side": side, "at": list(gaps[key]), "icon": icon})
        if len({c["card"] for c in cards}) != len(cards):
            raise PlanIncomplete("Each gap needs a different single block card.")
        return {"type": "fill", "cards": cards}
