"""Times of Darkness games through the real bot on the strict fake Discord, to the final scores."""

from __future__ import annotations

from bot.autoplay import SimulatedPlayer, game_over, play_together
from tests.bot.harness import new_table, open_lobby, posted_totals
from tests.bot.test_e2e_games import assert_no_secrets_in_public, engine_totals


async def _game(world, tmp_path, names: list[str], seats: int, modules: str, ai: int = 0) -> dict:  # noqa: ANN001
    table = await new_table(world, tmp_path, names)
    await table.start_bot()
    try:
        host, *others = table.users
        lobby = await open_lobby(table, host, seats=seats, ai=ai, ai_level="easy", modules=modules)
        assert "Times of Darkness modules:" in world.messages[lobby.id].embeds[0]["description"]
        for user in others:
            await user.click(lobby, label="Join")
            await table.settle()
        await host.click(lobby, label="Start")
        # The simulated players run until the final score sheet; the deadline only guards against a hang (a
        # four-seat expansion game on a loaded machine takes minutes).
        sims = [SimulatedPlayer(world, u, table.channel, seed=i) for i, u in enumerate(table.users)]
        await play_together(sims, timeout=900)
        await world.idle(timeout=60)
        assert game_over(table.channel)
        game = (await table.bot.service.list_games(statuses=("finished",)))[0]
        assert posted_totals(table.channel) == await engine_totals(table, game.id)
        assert_no_secrets_in_public(world, table.channel, table.users)
        public = " ".join(m.content for m in table.channel.messages())
        return {"options": game.options, "public": public}
    finally:
        await table.stop_bot()


async def test_two_player_duo_game_with_darkness_and_aristocrats(fake_discord, tmp_path):
    result = await _game(fake_discord, tmp_path, ["Ann", "Bo"], 2, "duo,darkness,aristocrats")
    assert sorted(result["options"]["modules"]) == ["aristocrats", "darkness", "duo"]
    assert "Domain card rewards:" in result["public"] and "at the red/green auction card" in result["public"]


async def test_four_player_game_with_darkness_and_aristocrats(fake_discord, tmp_path):
    result = await _game(fake_discord, tmp_path, ["Ann", "Bo"], 4, "darkness,aristocrats", ai=2)
    assert sorted(result["options"]["modules"]) == ["aristocrats", "darkness"]
    assert "Domain card rewards:" in result["public"]
