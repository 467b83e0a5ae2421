"""A prompt message that shows an out-of-date picture of its prompt (the bot stopped after saving a half-made
choice and before showing it) is brought up to date by the next click on it, so the player can go on.

Found by the SIGKILL benchmark: killed between storing a development plan's first step and editing the DM,
the restarted bot answered every later click with "not part of your current prompt" and the game waited
for ever.
"""

from __future__ import annotations

from bot.autoplay import SimulatedPlayer, controls
from bot.ui import checks
from tests.bot.test_bot_interactions import past_setup, two_player_game


async def _to_development(table, sims: list[SimulatedPlayer]) -> None:
    """Both players answer their prompts until Ann's is a development prompt with a card to play."""
    ann = sims[0]
    for _ in range(20):
        prompt = ann.current_prompt()
        if prompt is not None and "card" in controls(prompt):
            return
        for sim in sims:
            if sim.current_prompt() is not None:
                await sim.step()
        await table.settle()
    raise AssertionError("no development prompt with a card to play")


async def test_a_click_on_an_out_of_date_prompt_shows_it_as_it_stands(fake_discord, tmp_path):
    world = fake_discord
    table, _ = await two_player_game(world, tmp_path)
    try:
        sims = await past_setup(table)
        await _to_development(table, sims)
        ann = sims[0]
        prompt = ann.current_prompt()
        menu = controls(prompt)["card"]
        card = menu["options"][0]["value"]
        # The plan's first step is stored, but the edit that would show it never reaches Discord.
        edits = prompt.edits
        world.fail("POST", "/interactions/*/callback", status=404, code=10062, message="Unknown interaction")
        await ann.user.select(prompt, menu["custom_id"], [card], wait=False)
        await table.settle()
        assert prompt.edits == edits and "card" in controls(prompt)
        game_id = (await table.bot.service.list_games(statuses=("active",)))[0].id
        version = (await table.bot.service.game(game_id)).version

        # The player picks from the picture they see: the bot shows the prompt as it stands now.
        rec = await ann.user.select(prompt, menu["custom_id"], [card])
        await table.settle()
        assert rec.response_type == 7 and prompt.edits == edits + 1
        assert checks.UNKNOWN_CONTROL in prompt.embeds[0]["description"]
        assert "card" not in controls(prompt) and "back" in controls(prompt)
        assert (await table.bot.service.game(game_id)).version == version  # nothing was changed

        # From there the decision can be made.
        assert await ann.step()
        await table.settle()
        assert (await table.bot.service.game(game_id)).version > version
    finally:
        await table.stop_bot()
