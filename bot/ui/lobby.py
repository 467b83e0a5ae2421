"""The lobby's controls that come from game data: one multi-select per "flags" option of the game type (e.g.
Viceroy's expansion modules) and the AI level of the AI seats. Pure: specs and texts, no Discord.

Everything is derived from the game's OptionSpecs and engine.search's levels, so a game with flag options gets
the menus without code of its own, and a module added to an option's choices shows up by itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot import ai
from bot.ui import ids
from bot.ui.spec import MAX_OPTIONS, MAX_ROWS, Option, Select, cut
from engine.api import GameType, OptionSpec

OPTION_OP = "opt."  # lobby op of an option's menu: "opt.<option name>"
AI_LEVEL_OP = "ailevel"

NOT_HOST = "Only the host (<@{host}>) or a server admin can change {what}."
NOT_IN_LOBBY = "This game has started: its options can no longer change."
UNKNOWN_OPTION = "This lobby menu is no longer offered; nothing was changed."


def is_menu(op: str) -> bool:
    return op.startswith(OPTION_OP) or op == AI_LEVEL_OP


def flag_options(game_type: GameType) -> list[OptionSpec]:
    """The options the lobby offers as menus (each fits one menu: Discord's 25 options)."""
    return [spec for spec in game_type.options if spec.kind == "flags" and 0 < len(spec.choices) <= MAX_OPTIONS]


def option_select(game_id: int, spec: OptionSpec, value: Iterable[Any]) -> Select:
    chosen = set(value or [])
    options = [Option(cut(str(label)), str(v), default=v in chosen) for v, label in spec.choices]
    return Select(ids.lobby_id(game_id, OPTION_OP + spec.name), cut(f"{spec.label} (host chooses)", 150),
                  options, min_values=0, max_values=len(options))


def ai_level_select(game_id: int, current: str | None) -> Select:
    options = [Option(cut(ai.level_label(name)), name, default=name == current) for name in ai.level_names()]
    return Select(ids.lobby_id(game_id, AI_LEVEL_OP), "AI level of the AI seats (host chooses)", options)


def control_rows(game_id: int, game_type: GameType, options: dict, seats: Sequence[Any]) -> list[list]:
    """The rows under the lobby's buttons: a menu per flag option, then the AI level once there are AI seats
    (at most what fits beside the buttons' row)."""
    rows: list[list] = [[option_select(game_id, spec, options.get(spec.name, spec.default))]
                        for spec in flag_options(game_type)]
    levels = {s.ai_level for s in seats if s.is_ai}
    if levels:
        rows.append([ai_level_select(game_id, next(iter(levels)) if len(levels) == 1 else None)])
    return rows[: MAX_ROWS - 1]


def option_from_values(spec: OptionSpec, values: Sequence[str]) -> list[Any]:
    """A flags option's value from a menu's string values (the spec's own values, in its order)."""
    by_text = {str(v): v for v, _ in spec.choices}
    return [by_text[v] for v in values if v in by_text]


def active_flags(game_type: GameType, options: dict) -> list[str]:
    """Lines naming what each flag option has switched on, e.g. "Times of Darkness modules: Aristocrats"."""
    lines = []
    for spec in game_type.options:
        if spec.kind != "flags":
            continue
        chosen = options.get(spec.name) or []
        labels = [str(label) for v, label in spec.choices if v in chosen]
        if labels:
            lines.append(f"{spec.label}: {', '.join(labels)}")
    return lines


def seat_mark(seat: Any) -> str:
    """What the lobby says after a seat's name: an AI's level when its name does not already say it."""
    if not seat.is_ai:
        return ""
    level = seat.ai_level or ai.LEGACY_LEVEL
    return " (AI)" if f"{level})" in seat.display_name else f" (AI, {level})"
