"""The end-to-end tests' game runner: a stuck game says what every player saw, not only the first to give up."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.autoplay import play_together


class Player:
    """Stands in for a SimulatedPlayer: a name, what it saw, and a run that ends, fails or waits."""

    def __init__(self, name: str, outcome: object) -> None:
        self.user = SimpleNamespace(name=name)
        self.outcome = outcome
        self.cancelled = False

    def _situation(self) -> str:
        return f"{self.user.name} waits for a prompt"

    async def run(self, *, timeout: float) -> int:
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        if self.outcome == "forever":
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.cancelled = True
                raise
        return int(self.outcome)


async def test_every_player_finishing_gives_each_ones_decisions_in_order():
    assert await play_together([Player("Ann", 14), Player("Bo", 12)], timeout=5) == [14, 12]


async def test_one_player_giving_up_stops_the_others_and_reports_what_everyone_saw():
    waiting = Player("Ann", "forever")
    players = [waiting, Player("Bo", TimeoutError("Bo did not finish the game"))]
    with pytest.raises(AssertionError) as failure:
        await play_together(players, timeout=5)
    text = str(failure.value)
    assert "Bo did not finish the game" in text
    assert "Ann: Ann waits for a prompt" in text and "Bo: Bo waits for a prompt" in text
    assert waiting.cancelled, "the player still waiting is stopped, not left running"
    assert isinstance(failure.value.__cause__, TimeoutError)
