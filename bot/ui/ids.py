"""One codec for every control id, for every game.

Discord gives a component a custom id of at most 100 characters and sends it back on every click, even
after a restart: everything a click needs is in it. The game id leads to the game's kind (so the format is
the same for every game), the seat and the prompt key make a click on an old prompt recognisably stale.

    p:<game>:<seat>:<key>:<op>   a prompt control (button or select menu)
    f:<game>:<seat>:<key>:<op>   a form (modal) opened from a prompt
    l:<game>:<op>                a lobby button
    t:<game>:<op>                a table (channel) message button, e.g. "My screen"

`key` is the prompt key with ':' written as '.'. Ids written before this codec (`vg:`/`vs:` prompt controls,
`vm:` modals, `vl:` lobby, `vc:` channel) are still on live messages and keep decoding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Surface = Literal["prompt", "form", "lobby", "table"]
MAX_ID = 100

_PREFIX: dict[Surface, str] = {"prompt": "p", "form": "f", "lobby": "l", "table": "t"}
_DECODE_PREFIX = {"p": "prompt", "f": "form", "l": "lobby", "t": "table",
                  "vg": "prompt", "vs": "prompt", "vm": "form", "vl": "lobby", "vc": "table"}
_SEATED = re.compile(r"^(p|f|vg|vs|vm):(\d+):(\d+):([^:]+):([\w.\-]+)$")
_UNSEATED = re.compile(r"^(l|t|vl|vc):(\d+):([\w.\-]+)$")
# The regexes the discord.py DynamicItems are registered with (one per component type, same codec).
SEATED_TEMPLATE = r"(?:p|vg|vs):(?P<game>\d+):(?P<seat>\d+):(?P<key>[^:]+):(?P<op>[\w.\-]+)"
UNSEATED_TEMPLATE = r"(?:l|t|vl|vc):(?P<game>\d+):(?P<op>[\w.\-]+)"
FORM_PREFIXES = ("f:", "vm:")


def encode_key(prompt_key: str) -> str:
    return prompt_key.replace(":", ".")


def decode_key(key: str) -> str:
    return key.replace(".", ":")


@dataclass(frozen=True)
class ControlId:
    surface: Surface
    game: int
    op: str
    seat: int | None = None
    key: str | None = None  # the prompt key, decoded (with ':')

    def encode(self) -> str:
        prefix = _PREFIX[self.surface]
        if self.surface in ("prompt", "form"):
            text = f"{prefix}:{self.game}:{self.seat}:{encode_key(self.key or '')}:{self.op}"
        else:
            text = f"{prefix}:{self.game}:{self.op}"
        if len(text) > MAX_ID:
            raise ValueError(f"control id over {MAX_ID} characters: {text}")
        return text

    def matches(self, prompt_key: str | None) -> bool:
        """True when this control belongs to the seat's current prompt."""
        return prompt_key is not None and encode_key(prompt_key) == encode_key(self.key or "")

    @classmethod
    def decode(cls, text: str) -> ControlId | None:
        m = _SEATED.match(text)
        if m:
            return cls(_DECODE_PREFIX[m[1]], int(m[2]), m[5], int(m[3]), decode_key(m[4]))  # type: ignore[arg-type]
        m = _UNSEATED.match(text)
        if m:
            return cls(_DECODE_PREFIX[m[1]], int(m[2]), m[3])  # type: ignore[arg-type]
        return None


def prompt_id(game: int, seat: int, key: str, op: str) -> str:
    return ControlId("prompt", game, op, seat, key).encode()


def form_id(game: int, seat: int, key: str, op: str) -> str:
    return ControlId("form", game, op, seat, key).encode()


def lobby_id(game: int, op: str) -> str:
    return ControlId("lobby", game, op).encode()


def table_id(game: int, op: str) -> str:
    return ControlId("table", game, op).encode()
