"""The game remembered: a server's finished games and its players' results, as texts (no discord import)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.ui.texts import timestamp

HISTORY_SIZE = 10  # finished games listed by /<game> history
STATS_GAMES = 200  # the newest finished games counted by /<game> stats
LEADERBOARD_SIZE = 10


def history_line(info: Any, scores: list[dict]) -> str:
    """'#12 · <date> · Ann 74 🏆, Bo 61' (people and AIs by their seat names)."""
    names = {s.seat: s.display_name for s in info.seats}
    ranked = sorted(scores, key=lambda r: (-int(r.get("winner", False)), -r["total"]))
    who = ", ".join(f"{names.get(r['seat'], r['seat'])} {r['total']}" + (" 🏆" if r.get("winner") else "")
                    for r in ranked)
    return f"**#{info.id}** · {timestamp(info.updated_at, 'd')} · {who or 'no scores'}"


def history_text(title: str, command: str, lines: list[str]) -> str:
    if not lines:
        return f"No {title} game has finished on this server yet."
    return (f"**Finished {title} games on this server** (newest first)\n" + "\n".join(lines)
            + f"\n`/{command} log game:<number>`, `/{command} status game:<number>` and "
              f"`/{command} export game:<number>` show one of them.")


@dataclass
class PlayerStats:
    user_id: int
    name: str
    played: int = 0
    wins: int = 0
    total: int = 0
    best: int | None = None

    @property
    def average(self) -> float:
        return self.total / self.played if self.played else 0.0


def stats_table(results: Iterable[tuple[Any, list[dict]]]) -> list[PlayerStats]:
    """Per person (AIs left out): games played, wins, average and best total; best first (wins, then
    average)."""
    table: dict[int, PlayerStats] = {}
    for info, scores in results:
        by_seat = {r["seat"]: r for r in scores}
        for s in info.seats:
            r = by_seat.get(s.seat)
            if s.is_ai or s.user_id is None or r is None:
                continue
            row = table.setdefault(s.user_id, PlayerStats(s.user_id, s.display_name))
            row.name = s.display_name
            row.played += 1
            row.wins += bool(r.get("winner"))
            row.total += int(r["total"])
            row.best = int(r["total"]) if row.best is None else max(row.best, int(r["total"]))
    return sorted(table.values(), key=lambda p: (-p.wins, -p.average, p.name))


def _row(place: int, p: PlayerStats) -> str:
    return (f"{place}. **{p.name}**: {p.wins} win{'s' if p.wins != 1 else ''} in {p.played} game"
            f"{'s' if p.played != 1 else ''} · average {p.average:.1f} · best {p.best}")


def stats_text(title: str, table: list[PlayerStats], user_id: int | None = None, name: str | None = None) -> str:
    if user_id is not None:
        place = next((i for i, p in enumerate(table, 1) if p.user_id == user_id), None)
        if place is None:
            return f"{name or 'That player'} has not finished a {title} game on this server yet."
        return f"**{title} on this server: {table[place - 1].name}**\n" + _row(place, table[place - 1]) \
            + f" (place {place} of {len(table)})"
    if not table:
        return f"No {title} game has finished on this server yet."
    return f"**{title} leaderboard on this server**\n" + "\n".join(
        _row(i, p) for i, p in enumerate(table[:LEADERBOARD_SIZE], 1))
