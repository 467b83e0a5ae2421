"""An Underworld game through the real bot on the strict fake Discord, to the final scores, with every public
message scanned for judgement tokens before they are revealed."""

from __future__ import annotations

from bot.autoplay import SimulatedPlayer, game_over, play_together
from engine.viceroy.modules.criminals import JUDGEMENT, token_text
from tests.bot.harness import new_table
from tests.bot.test_e2e_games import assert_no_secrets_in_public, engine_totals, open_lobby, posted_totals

PHRASES = sorted({token_text(i) for i in range(len(JUDGEMENT))} - {"no penalty"}) + ["no penalty"]
REVEAL = "Judgement tokens are revealed"


def _text(msg) -> str:  # noqa: ANN001
    return msg.content + " ".join((e.get("title") or "") + (e.get("description") or "") for e in msg.embeds)


async def test_three_player_underworld_game_to_the_final_scores(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        host, other = table.users
        lobby = await open_lobby(table, host, seats=3, ai=1, modules="darkness,underworld")
        assert "Underworld" in world.messages[lobby.id].embeds[0]["description"]
        await other.click(lobby, label="Join")
        await table.settle()
        await host.click(lobby, label="Start")
        sims = [SimulatedPlayer(world, u, table.channel, seed=i) for i, u in enumerate(table.users)]
        await play_together(sims, timeout=900)
        await world.idle(timeout=60)
        assert game_over(table.channel)
        game = (await table.bot.service.list_games(statuses=("finished",)))[0]
        assert sorted(game.options["modules"]) == ["darkness", "underworld"]
        assert posted_totals(table.channel) == await engine_totals(table, game.id)
        assert_no_secrets_in_public(world, table.channel, table.users)
        public = table.channel.messages()
        texts = [_text(m) for m in public]
        revealed = next(i for i, t in enumerate(texts) if REVEAL in t)
        for text in texts[:revealed]:
            for phrase in PHRASES:
                assert phrase not in text, f"a judgement token named in public before the end: {text[:300]}"
        joined = " ".join(texts)
        assert "on level 0" in joined and "judgement token" in joined  # criminals were played
        final = next(m for m in public for e in m.embeds if "final scores" in (e.get("title") or ""))
        assert "Judgement tokens" in _text(final) or final.filenames
        # The players' own DMs did show their tokens (face up for the owner).
        assert any("Your judgement tokens" in dm.content for u in table.users for dm in u.dms() + u.ephemerals())
    finally:
        await table.stop_bot()
