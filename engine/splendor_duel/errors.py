"""The error an illegal Splendor Duel action raises (the contract's base type, so generic code catches it)."""

from __future__ import annotations

from engine.api import IllegalAction as _BaseIllegal


class IllegalAction(_BaseIllegal):
    """An action the rules refuse. ``message`` is written for the player; the state is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
