"""The sync plan: which of a game's Discord messages to close, send and edit so they match its state.

Pure (no I/O): the announcer (cogs/announcer.py) gathers the game's pending seats and its recorded
messages, asks `plan()` what to do, and carries it out. Running the same plan twice does nothing the
second time, so the plan is also what catches a game up after a crash.

Rules:
* a prompt (or the channel ping that stands in for it when DMs are closed) whose (seat, prompt key) is no
  longer pending is closed;
* a human seat that must decide and has no open prompt for its current key gets one. Sealed games prompt
  every waiting seat; sequential games only the seat whose turn it is (the first waiting seat);
* a private screen is kept per human seat only when the game has hidden information; when its fingerprint
  changes it is listed, and the announcer shows it with the seat's next prompt (not for closed DMs);
* the table message is edited in place while its table key stays the same, otherwise the old ones lose
  their buttons and a new one (with the picture) is posted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

PROMPT_PURPOSES = ("prompt", "ping")


class MessageRecord(Protocol):
    id: int
    seat: int | None
    message_id: int
    channel_id: int
    purpose: str
    prompt_key: str | None


@dataclass(frozen=True)
class SeatState:
    """What the plan needs to know about one seat."""

    seat: int
    user_id: int | None
    is_ai: bool
    dm_closed: bool
    prompt_key: str | None = None  # None: nothing to decide
    waiting: bool = False  # still owes a choice (False: chose already, or nothing to decide)
    screen_key: str | None = None  # fingerprint of the private screen (None: no screen)


@dataclass
class Plan:
    close: list[Any] = field(default_factory=list)  # prompt/ping records to disable and retire
    send: list[SeatState] = field(default_factory=list)  # seats to send a prompt to
    screens: list[tuple[SeatState, Any | None]] = field(default_factory=list)  # (seat, old record or None)
    table_post: bool = False  # post a new table message (retiring `table_retire`)
    table_retire: list[Any] = field(default_factory=list)
    table_edit: Any | None = None  # the table message record to edit in place

    def empty(self) -> bool:
        return not (self.close or self.send or self.screens or self.table_post or self.table_edit is not None)


def plan(seats: Sequence[SeatState], messages: Sequence[Any], *, dynamics: str, hidden_information: bool,
         table_key: str | None, active: bool = True) -> Plan:
    """What to do so the messages match the seats. `table_key` None: no table message wanted."""
    out = Plan()
    current = {(s.seat, s.prompt_key) for s in seats if s.prompt_key is not None} if active else set()
    out.close = [m for m in messages if m.purpose in PROMPT_PURPOSES and (m.seat, m.prompt_key) not in current]
    if not active:
        return out
    closed = {m.id for m in out.close}
    open_prompts = {(m.seat, m.prompt_key) for m in messages if m.purpose in PROMPT_PURPOSES and m.id not in closed}
    waiting = [s for s in seats if s.prompt_key is not None and s.waiting]
    if dynamics == "sequential":
        waiting = waiting[:1]
    for s in waiting:
        if s.is_ai or s.user_id is None or (s.seat, s.prompt_key) in open_prompts:
            continue
        out.send.append(s)
    if hidden_information:
        screens: Mapping[int | None, Any] = {m.seat: m for m in messages if m.purpose == "screen"}
        for s in seats:
            if s.is_ai or s.user_id is None or s.dm_closed or s.screen_key is None:
                continue
            old = screens.get(s.seat)
            if old is None or old.prompt_key != s.screen_key:
                out.screens.append((s, old))
    if table_key is not None:
        tables = [m for m in messages if m.purpose == "status"]
        keep = next((m for m in tables if m.prompt_key == table_key), None)
        if keep is None:
            out.table_post = True
            out.table_retire = tables
        else:
            out.table_edit = keep
    return out
