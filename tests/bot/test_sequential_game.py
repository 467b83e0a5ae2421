"""A sequential game without hidden information through the real bot: only the seat whose turn it is gets a
prompt, the table message names it, and nobody gets a private screen message (delivery follows GameType)."""

from __future__ import annotations

import asyncio

import pytest

from bot.autoplay import SimulatedPlayer, any_control, controls, game_over
from bot.presenters import register_presenter
from tests.bot import turngame
from tests.bot.harness import new_table


@pytest.fixture(autouse=True)
def nim_registered():
    assert turngame.KIND.name == "nim"
    register_presenter(turngame.PRESENTER)


def open_prompts(users) -> list[str]:
    return [u.name for u in users for m in u.dms() if controls(m)]


async def test_a_sequential_game_prompts_only_the_seat_whose_turn_it_is(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        rec = await ann.slash(table.channel, "nim new", seats=2, target=9)
        await table.settle()
        lobby = rec.reply
        assert "Target: 9" in lobby.embeds[0]["description"]
        await bo.click(lobby, label="Join")
        await table.settle()
        await ann.click(lobby, label="Start")
        await table.settle()
        # Ann plays first: she alone has a prompt, and the table message says it is her turn.
        assert open_prompts([ann, bo]) == ["Ann"]
        status = next(m for m in reversed(table.channel.messages())
                      if any(c.get("label") == "My screen" for c in m.buttons()))
        assert "Turn: **Ann**" in status.embeds[0]["description"]
        sim_ann, sim_bo = (SimulatedPlayer(fake_discord, u, table.channel, seed=i, strategy=any_control)
                           for i, u in enumerate((ann, bo)))
        assert await sim_ann.step()
        await table.settle()
        assert open_prompts([ann, bo]) == ["Bo"]
        assert "Turn: **Bo**" in fake_discord.messages[status.id].embeds[0]["description"]
        await asyncio.gather(sim_ann.run(timeout=120), sim_bo.run(timeout=120))
        await table.settle()
        assert game_over(table.channel)
        assert open_prompts([ann, bo]) == []
        # No hidden information: no private screen message for anyone.
        assert not any("Your screen" in (e.get("title") or "") for u in (ann, bo) for m in u.dms() for e in m.embeds)
        game = (await table.bot.service.list_games(statuses=("finished",)))[0]
        state = await table.bot.service.full_state(game.id)
        announced = [line for m in table.channel.messages() for line in m.content.splitlines() if " adds " in line]
        # Every turn was announced once, and each was made by its player through their own prompt.
        assert game.kind == "nim" and len(announced) == state["moves"] == sim_ann.decisions + sim_bo.decisions
    finally:
        await table.stop_bot()
