"""The one error type an illegal action raises."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules do not allow. ``message`` is written for the player; the state is unchanged."""

    def __init__(self, message: str, code: str = "illegal") -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
