"""A second game played end to end through the real bot and the fake Discord, by the same generic code.

The toy game (tests/service/toygame.py) and its 80-line presenter (tests/bot/toy_presenter.py) are all it
takes: commands, lobby, DM prompts, the table message, screens, deadlines and the final score sheet come
from the shared layer, which therefore holds nothing specific to Viceroy.
"""

from __future__ import annotations

import pytest

import tests.service.toygame as toygame
from bot.autoplay import SimulatedPlayer, any_control, controls, game_over, play_together
from bot.presenters import register_presenter
from tests.bot.harness import new_table, open_lobby, posted_totals
from tests.bot.toy_presenter import PRESENTER


@pytest.fixture(autouse=True)
def toy_registered():
    assert toygame.KIND.name == "toy"  # importing the module registered the engine
    register_presenter(PRESENTER)


async def test_the_toy_game_is_offered_with_its_own_commands_and_options(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        names = {c["name"] for c in fake_discord.commands(table.guild)}
        assert {"viceroy", "toy"} <= names
        toy = next(c for c in fake_discord.commands(table.guild) if c["name"] == "toy")
        new = next(o for o in toy["options"] if o["name"] == "new")
        assert {o["name"] for o in new["options"]} == {"seats", "rounds", "ai", "ai_level", "time_limit"}
        lobby = await open_lobby(table, table.users[0], "toy", seats=3, rounds=2, ai=1)
        text = lobby.embeds[0]["description"]
        assert "Rounds: 2" in text and "AI 1 (easy) (AI)" in text and lobby.embeds[0]["title"].startswith("Toy game #")
    finally:
        await table.stop_bot()


async def test_a_toy_game_end_to_end_through_the_bot(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        lobby = await open_lobby(table, ann, "toy", seats=3, rounds=3, ai=1)
        await bo.click(lobby, label="Join")
        await table.settle()
        await ann.click(lobby, label="Start")
        await table.settle()
        sims = [SimulatedPlayer(fake_discord, u, table.channel, seed=i, strategy=any_control)
                for i, u in enumerate((ann, bo))]
        counts = await play_together(sims, timeout=120)
        await table.settle()
        assert game_over(table.channel) and all(c >= 3 for c in counts)
        game = (await table.bot.service.list_games(statuses=("finished",)))[0]
        assert game.kind == "toy"
        engine = {s["seat"]: s["total"] for s in await table.bot.service.final_scores(game.id)}
        names = {s.seat: s.display_name for s in game.seats}
        assert posted_totals(table.channel) == {names[s]: t for s, t in engine.items()}
        # The channel saw the reveals and whom the game waited for, never a hand.
        channel = [m.content + " ".join((e.get("title") or "") + (e.get("description") or "") for e in m.embeds)
                   for m in table.channel.messages()]
        assert any(t.startswith("Revealed:") for t in channel)
        assert any("Waiting for:" in t for t in channel)
        assert not any("Your hand" in t for t in channel)
        # Hidden information: each prompt shows the player's screen under it, in their DMs only (an answer that
        # closes a prompt replaces it with "Done", so look at both players' prompts).
        prompts = [m for user in (ann, bo) for m in user.dms()
                   if len(m.embeds) > 1 and "Your screen in Toy" in (m.embeds[1].get("title") or "")]
        assert prompts and all("Your hand" in (m.embeds[1].get("description") or "") for m in prompts)
        # Every prompt was closed when its decision was over.
        assert all(not controls(m) for u in (ann, bo) for m in u.dms())
    finally:
        await table.stop_bot()


async def test_a_stale_toy_prompt_is_refused_and_a_stranger_cannot_play(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Eve"])
    await table.start_bot()
    try:
        ann, eve = table.users
        lobby = await open_lobby(table, ann, "toy", seats=2, rounds=2, ai=1)
        await ann.click(lobby, label="Start")
        await table.settle()
        sim = SimulatedPlayer(fake_discord, ann, table.channel, strategy=any_control)
        await fake_discord.wait_for(lambda: sim.current_prompt() is not None, timeout=15, what="Ann's first prompt")
        first = sim.current_prompt()
        menu = controls(first)["number"]
        status = await fake_discord.wait_message(
            table.channel, lambda m: any(c.get("label") == "My screen" for c in m.buttons()), timeout=10)
        rec = await eve.click(status, label="My screen")
        await rec.wait_done()
        assert "no seat" in eve.ephemerals()[-1].content
        # Ann opens her prompt privately too (an ephemeral copy nobody can disable later).
        rec = await ann.click(status, label="My screen")
        await rec.wait_done()
        # The screen comes first, the prompt in a second follow-up: wait for the one with controls.
        await table.world.wait_for(lambda: any(controls(m) for m in rec.messages), timeout=15, what="the prompt copy")
        copy = next(m for m in reversed(rec.messages) if controls(m))
        assert controls(copy)["number"]["custom_id"] == menu["custom_id"]
        assert await sim.step()  # the AI has chosen already: the round is revealed
        await table.settle()
        assert controls(fake_discord.messages[first.id]) == {}, "the answered prompt was closed"
        await ann.select(copy, menu["custom_id"], [menu["options"][0]["value"]])
        await table.settle()
        assert "earlier step" in ann.ephemerals()[-1].content
    finally:
        await table.stop_bot()
