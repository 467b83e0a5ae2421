"""Checks every interaction passes before it can change anything: where it comes from, and whether the
control and values it carries are ones the bot offered.

Discord only ever sends back controls and values the bot put on a message, but an interaction can be
forged (or replayed from another server), so the cog compares each click with the prompt as the bot
would show it now. Pure functions: no Discord objects, no storage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.ui.spec import Button, FormSpec, MessageSpec, Select
from bot.ui.texts import blocked_answer

WRONG_PLACE = "These controls belong to a game in another channel; nothing was changed."
UNKNOWN_CONTROL = "This control is not part of your current prompt; nothing was changed."
BAD_VALUE = "That choice is not one this prompt offers; nothing was changed."
BAD_FORM = "This form does not match your current prompt; nothing was changed."


def origin_problem(game_guild: int | None, game_channel: int, guild_id: int | None, channel_id: int | None,
                   *, dm_ok: bool) -> str | None:
    """Why an interaction from (guild_id, channel_id) may not act on a game hosted in (game_guild,
    game_channel); None when it may. A DM (no guild) is allowed where ``dm_ok``: the caller has checked
    that the user holds the seat, and a DM interaction always comes from the user's own DM with the bot."""
    if guild_id is None:
        return None if dm_ok else WRONG_PLACE
    if guild_id != game_guild or channel_id != game_channel:
        return WRONG_PLACE
    return None


def control_problem(spec: MessageSpec, custom_id: str, values: Sequence[str]) -> str | None:
    """Why a click on ``custom_id`` with ``values`` does not fit the prompt ``spec``; None when it does."""
    control = next((c for c in spec.controls() if c.custom_id == custom_id), None)
    if control is None:
        return UNKNOWN_CONTROL
    if isinstance(control, Button):
        if control.disabled or values:
            return UNKNOWN_CONTROL
        return None
    assert isinstance(control, Select)
    offered = {o.value for o in control.options}
    if not control.min_values <= len(values) <= control.max_values:
        return BAD_VALUE
    if len(set(values)) != len(values) or any(not isinstance(v, str) or v not in offered for v in values):
        return BAD_VALUE
    return None


def blocked_problem(spec: MessageSpec, custom_id: str, values: Sequence[str]) -> str | None:
    """The reason an offered option cannot be taken now (bot/ui/informed.py), as the answer to picking it."""
    control = next((c for c in spec.controls() if c.custom_id == custom_id), None)
    if not isinstance(control, Select):
        return None
    reason = next((o.blocked for o in control.options if o.value in values and o.blocked), None)
    if reason is None:
        return None
    return blocked_answer(reason)


def form_problem(form: FormSpec | None, custom_id: str, values: Mapping[str, str]) -> str | None:
    """Why submitted form ``values`` do not fit the form the prompt offers; None when they do."""
    if form is None or form.custom_id != custom_id:
        return BAD_FORM
    fields = {f.id: f for f in form.fields}
    if any(k not in fields for k in values):
        return BAD_FORM
    for key, value in values.items():
        if not isinstance(value, str) or len(value) > fields[key].max_length:
            return f"'{str(value)[:20]}' is too long for {fields[key].label}; nothing was changed."
    for f in form.fields:
        if f.required and not values.get(f.id, "").strip():
            return f"{f.label} is required; nothing was changed."
    return None
