"""Counting what a game cost its players on the fake Discord, per turn: taps (and how many of them were on
Back: dead ends), new DMs (and how many of them notified), channel posts, bytes uploaded.
Used by the message-budget test and benchmarks/bench_messages.py.

A channel post belongs to the turn of the newest table message (an embed titled "... turn N ...") posted
before it: snowflakes grow with time, so ids order messages and interactions alike. A DM is sent on its own
lane, beside the channel's, so it may reach Discord before the table message of its turn: a DM created with a
title naming its turn ("Turn 3: auction round 1") belongs to that turn, any other DM to the turn of the newest
such DM before it in the same channel (one lane keeps its own order), and a tap to the turn of the message it
was made on, each falling back to the table's order.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .model import FakeChannel, FakeMessage
from .users import FakeUser

if TYPE_CHECKING:
    from .server import FakeDiscord

MESSAGE_FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
TURN = re.compile(r"\bturn (\d+)\b", re.IGNORECASE)
TAP_TYPES = (3, 5)  # a component (button, menu) or a modal submitted
# A tap on Back: the player went down a road the menus let them take and could not finish it (a dead end).
BACK = ":back"


@dataclass
class Tally:
    turns: list[int]
    taps: Counter[tuple[int, int]] = field(default_factory=Counter)  # (user id, turn) -> taps
    dead_ends: Counter[tuple[int, int]] = field(default_factory=Counter)  # ... of them on Back
    dms: Counter[tuple[int, int]] = field(default_factory=Counter)  # (user id, turn) -> new DMs from the bot
    notifying_dms: Counter[tuple[int, int]] = field(default_factory=Counter)  # ... of them without "silent"
    posts: Counter[int] = field(default_factory=Counter)  # turn -> new channel messages from the bot
    uploaded: int = 0  # bytes of every file the bot uploaded

    def per_player_turn(self, counter: Counter[tuple[int, int]], users: list[FakeUser]) -> list[int]:
        return [counter[(u.id, t)] for u in users for t in self.turns]

    def median_taps(self, users: list[FakeUser]) -> float:
        """Median over (player, turn) of the taps a player made in a turn in which they made any."""
        taps = [n for n in self.per_player_turn(self.taps, users) if n]
        return statistics.median(taps) if taps else 0.0

    def median_posts(self) -> float:
        return statistics.median(self.posts[t] for t in self.turns) if self.turns else 0.0

    def max_dms(self, users: list[FakeUser]) -> int:
        return max(self.per_player_turn(self.dms, users), default=0)

    def max_notifying_dms(self, users: list[FakeUser]) -> int:
        return max(self.per_player_turn(self.notifying_dms, users), default=0)

    def max_posts(self) -> int:
        return max((self.posts[t] for t in self.turns), default=0)


def _turn_starts(world: FakeDiscord, channel: FakeChannel) -> list[tuple[int, int]]:
    """(message id, turn) of each table message that opened a turn, oldest first."""
    starts: list[tuple[int, int]] = []
    for msg in channel.messages():
        if msg.author_id != world.bot.id:
            continue
        turn = _turn_named_in(str(embed.get("title") or "") for embed in msg.embeds)
        if turn is not None and (not starts or starts[-1][1] != turn):
            starts.append((msg.id, turn))
    return starts


def tally(world: FakeDiscord, channel: FakeChannel, users: list[FakeUser], *, since: int = 0,
          uploads_since: int = 0) -> Tally:
    """Count everything after snowflake ``since`` (and the uploads after index ``uploads_since``)."""
    starts = _turn_starts(world, channel)

    def turn_of(snowflake: int) -> int | None:
        turn = None
        for sid, t in starts:
            if sid > snowflake:
                break
            turn = t
        return turn

    named: dict[int, int] = {}  # DM id -> the turn the DM names or follows
    for user in users:
        last = None
        for msg in _bot_messages(world, user.dm_channel, 0):
            turn = _turn_named_in(msg.first_titles)
            last = last if turn is None else turn
            if last is not None:
                named[msg.id] = last

    def turn_at(message_id: int | None, snowflake: int) -> int | None:
        """The turn of a DM (by what it names or follows), else of the table's order at ``snowflake``."""
        return named[message_id] if message_id in named else turn_of(snowflake)

    out = Tally(turns=sorted({t for _, t in starts}))
    ids = {u.id for u in users}
    for rec in world.interactions.values():
        if rec.id > since and rec.user_id in ids and rec.type in TAP_TYPES:
            turn = turn_at(rec.source_message_id, rec.id)
            if turn is not None:
                out.taps[(rec.user_id, turn)] += 1
                if str((rec.data or {}).get("custom_id", "")).endswith(BACK):
                    out.dead_ends[(rec.user_id, turn)] += 1
    for user in users:
        for msg in _bot_messages(world, user.dm_channel, since):
            turn = turn_at(msg.id, msg.id)
            if turn is not None:
                out.dms[(user.id, turn)] += 1
                if not msg.flags & MESSAGE_FLAG_SUPPRESS_NOTIFICATIONS:
                    out.notifying_dms[(user.id, turn)] += 1
    for msg in _bot_messages(world, channel, since):
        turn = turn_of(msg.id)
        if turn is not None:
            out.posts[turn] += 1
    out.uploaded = sum(size for _, size in world.uploads[uploads_since:])
    return out


def _turn_named_in(titles: Iterable[str]) -> int | None:
    """The turn the first title naming one names ("... turn N ...", "Turn N: ...")."""
    for title in titles:
        match = TURN.search(title)
        if match:
            return int(match.group(1))
    return None


def _bot_messages(world: FakeDiscord, channel: FakeChannel | None, since: int) -> list[FakeMessage]:
    if channel is None:
        return []
    return [m for m in channel.messages() if m.author_id == world.bot.id and m.id > since and not m.ephemeral]
