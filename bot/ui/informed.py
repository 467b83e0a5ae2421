"""Informed choices: every option says what it costs and what it gives, and one that cannot be taken now is
shown (marked, last, with the reason) instead of being left out.

A presenter builds ``Choice``s from the prompt's structured choices and turns them into menu options with
``options()``. An option with ``blocked`` set stays on the menu; the cog answers a pick of it with the reason
(bot/ui/checks.py ``blocked_problem``) and changes nothing, so a player never meets a dead end after choosing it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from bot.ui.spec import Option, cut
from bot.ui.texts import BLOCKED_MARK, GIVES_ARROW, cannot_afford_text, costs_gives_text


@dataclass
class Choice:
    """One thing a player may pick: what it is, what it costs, what it gives, or why it cannot be taken."""

    label: str
    value: str
    costs: str = ""  # "1G 1B 1Y"
    gives: str = ""  # "magic token"
    note: str = ""  # anything else worth saying (shown after costs and gives)
    blocked: str | None = None  # the reason it cannot be taken now ("cannot afford: needs 2Y, you have 1")
    default: bool = False

    def description(self) -> str:
        if self.blocked:
            return self.blocked
        text = costs_gives_text(self.costs, self.gives)
        if self.note:
            text = f"{text} · {self.note}" if text else self.note
        return text

    def option(self) -> Option:
        label = f"{BLOCKED_MARK} {self.label}" if self.blocked else self.label
        description = self.description()
        return Option(cut(label, 100), self.value, cut(description, 100) if description else None, self.default,
                      self.blocked)


def options(choices: Iterable[Choice]) -> list[Option]:
    """Menu options: what can be taken first (in the given order), then what cannot, each with its reason."""
    items = list(choices)
    return [c.option() for c in items if not c.blocked] + [c.option() for c in items if c.blocked]


def shortfall(need: Mapping[str, int], have: Mapping[str, int], short: Callable[[str], str]) -> str:
    """'needs 2Y, you have 1' for every kind the player has too few of (``short`` names one kind: 'Y')."""
    missing = [k for k, n in need.items() if n > have.get(k, 0)]
    if not missing:
        return ""
    needs = " ".join(f"{need[k]}{short(k)}" for k in missing)
    has = " ".join(f"{have.get(k, 0)}{short(k) if len(missing) > 1 else ''}" for k in missing)
    return cannot_afford_text(needs, has)


__all__ = ["BLOCKED_MARK", "Choice", "GIVES_ARROW", "options", "shortfall"]
