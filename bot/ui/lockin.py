"""Nothing final by accident: a sealed choice is drafted by the menu and committed by a **Lock in** button.

A prompt kind with ``lock_in = True`` (a secret choice revealed together: a bid, a pass) has every action its
controls make kept in the seat's draft (``draft[LOCK]``) instead of being submitted; the prompt then shows the
choice in words and a Lock in button. Lock in submits it. Until everyone has locked in, a new pick drafts a
change, shown with "Lock in the change". Ops listed in the kind's ``commit_ops`` (a plan's Confirm, which
already follows a summary of the plan) still submit at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.ui.presenter import SeatCtx
from bot.ui.spec import MAX_ROWS, Button, MessageSpec
from bot.ui.texts import LOCK_IN, LOCK_IN_CHANGE, drafted_line

LOCK = "lock"  # the draft key of the drafted action (cleared with the rest of a plan)
LOCK_OP = "lock"  # the Lock in button's op
COMMIT_OPS: tuple[str, ...] = ("confirm",)


def uses_lock_in(kind: Any) -> bool:
    return bool(getattr(kind, "lock_in", False))


def commits(kind: Any, op: str) -> bool:
    """True when the op submits at once (a plan's Confirm) instead of drafting."""
    return op in getattr(kind, "commit_ops", COMMIT_OPS)


def on_control(kind: Any, ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
    """The action a control submits now, or None: the draft changed (a sealed choice drafted, a plan step
    taken) or, for Lock in, nothing was drafted. Lock in commits the drafted choice; a plan's Confirm commits at
    once and drops any drafted choice. ``draft`` is updated in place."""
    if not uses_lock_in(kind):
        return kind.on_control(ctx, draft, op, values)
    if op == LOCK_OP:
        return draft.pop(LOCK, None)
    action = kind.on_control(ctx, draft, op, values)
    if action is None:
        return None
    if commits(kind, op):
        draft.pop(LOCK, None)
        return action
    draft[LOCK] = action  # the player locks it in (or changes it) next
    return None


def render(kind: Any, ctx: SeatCtx, draft: dict, describe: Callable[[dict], str]) -> MessageSpec:
    """The kind's prompt, with the drafted choice and its Lock in button when there is one."""
    spec = kind.render(ctx, draft)
    action = draft.get(LOCK) if uses_lock_in(kind) else None
    if action is None:
        return spec
    changing = ctx.prompt is not None and not ctx.prompt.waiting
    spec.description = f"{drafted_line(describe(action), changing)}\n{spec.description or ''}".rstrip()
    button = ctx.button(LOCK_IN_CHANGE if changing else LOCK_IN, LOCK_OP, "success")
    rows = spec.rows
    last = rows[-1] if rows else None
    if last and all(isinstance(c, Button) for c in last) and len(last) < 5:
        last.insert(0, button)
    elif len(rows) < MAX_ROWS:
        rows.append([button])
    else:
        rows[-1] = [button]
    return spec
