"""The one error type an illegal action raises."""

from __future__ import annotations

from engine import api


class IllegalAction(api.IllegalAction):
    """An action the rules do not allow. ``message`` is written for the player; the state is unchanged."""

    def __init__(self, message: str, code: str = "illegal") -> None:
        super().__init__(code, message)

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
