"""Message specs: what a message shows, as plain data. cogs/discord_ui.py turns them into discord.py objects.

A presenter builds these from views and prompts; tests read them without Discord.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

MAX_OPTIONS = 25  # Discord: options per select menu
MAX_ROWS = 5  # Discord: component rows per message
DEFAULT_EMBED_COLOR = 0x5865F2


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
    # Why this option cannot be taken now (shown in its description; choosing it answers with this and changes
    # nothing). Never sent to Discord as such: see bot/ui/informed.py.
    blocked: str | None = None


@dataclass
class Select:
    custom_id: str
    placeholder: str
    options: list[Option]
    min_values: int = 1
    max_values: int = 1


@dataclass
class Image:
    """An attachment drawn on demand (off the event loop). `stable`: the picture does not change while the
    same decision is open, so an edit of the message may keep the attachment it already has."""

    filename: str
    render: Callable[[], bytes]
    stable: bool = False
    alt: str = ""  # alt text (the attachment's description); empty: the message's title stands in
    shows_screen: bool = False  # it draws the seat's private screen: a prompt with it needs no screen picture


@dataclass
class MessageSpec:
    content: str = ""
    title: str | None = None
    description: str | None = None
    fields: list[tuple[str, str]] = field(default_factory=list)
    image: Image | None = None
    rows: list[list[Button | Select]] = field(default_factory=list)
    footer: str | None = None
    color: int | None = None  # embed colour; None: the presenter's colour

    def controls(self) -> list[Button | Select]:
        return [c for row in self.rows for c in row]


@dataclass
class FormField:
    id: str
    label: str
    default: str = ""
    max_length: int = 2
    required: bool = False


@dataclass
class FormSpec:
    """A modal form (Discord: up to 5 text inputs). The custom id is a form ControlId."""

    custom_id: str
    title: str
    fields: list[FormField]


class PlanIncomplete(Exception):
    """A choice a player cannot make as it stands; ``message`` says why (shown to the player privately)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def cut(text: str, limit: int = 100) -> str:
    """Text shortened to Discord's limit for labels and option texts."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
