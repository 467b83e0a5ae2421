"""An Invasion game through the real bot on the strict fake Discord, to the final scores."""

from __future__ import annotations

from tests.darkness.test_e2e_discord import _game


async def test_three_player_game_with_invasion_to_the_final_scores(fake_discord, tmp_path):
    result = await _game(fake_discord, tmp_path, ["Ann", "Bo", "Cy"], 3, "invasion")
    assert result["options"]["modules"] == ["invasion"]
    public = result["public"]
    assert public.count("Combat revealed:") == 3 and "A monster joins the stack" in public
