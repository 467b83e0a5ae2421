"""Texts every game uses: seat names, Discord timestamps, message splitting."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

MESSAGE_LIMIT = 1900  # below Discord's 2000 characters, with room for a prefix


def names_map(seats: Iterable[Any]) -> dict[int, str]:
    """Seat number -> display name, from SeatInfo-like objects."""
    return {s.seat: s.display_name for s in seats}


def fill_names(text: str, names: dict[int, str]) -> str:
    """Engine texts name seats as {p0}, {p1}, ...: the players' names go in."""
    for seat, name in names.items():
        text = text.replace("{p" + str(seat) + "}", name)
    return text


def timestamp(when: float | None, style: str = "R") -> str:
    """A Discord timestamp (shown in each reader's time zone), or 'no time limit'."""
    return f"<t:{int(when)}:{style}>" if when else "no time limit"


def hours(seconds: int | None) -> str:
    return "none" if seconds is None else f"{seconds / 3600:g} h"


def split_text(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines packed into as few messages as fit (a single over-long line is cut)."""
    chunks: list[str] = []
    cur = ""
    for line in lines:
        line = line[:limit]
        if cur and len(cur) + len(line) + 1 > limit:
            chunks.append(cur)
            cur = ""
        cur = f"{cur}\n{line}" if cur else line
    if cur:
        chunks.append(cur)
    return chunks
