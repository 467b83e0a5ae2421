"""Messages and notifications per turn of a whole 2-player game stay within the player-experience targets
(issue 15): taps per turn, new DMs and notifications per player per turn, channel posts per turn; the end is
one post; every picture has alt text."""

from __future__ import annotations

import asyncio
import statistics

from bot.autoplay import SimulatedPlayer, game_over
from bot.localdiscord.tally import tally
from tests.bot.harness import new_table, open_lobby


async def test_a_two_player_game_stays_within_the_message_budget(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        lobby = await open_lobby(table, ann, seats=2)
        await bo.click(lobby, label="Join")
        await table.settle()
        since, uploads = world.snowflake(), len(world.uploads)
        await ann.click(lobby, label="Start")
        await table.settle()
        players = [SimulatedPlayer(world, u, table.channel, seed=7 + i) for i, u in enumerate((ann, bo))]
        await asyncio.gather(*(p.run(timeout=600) for p in players))
        await table.settle()
        assert game_over(table.channel)
        t = tally(world, table.channel, [ann, bo], since=since, uploads_since=uploads)
        assert len(t.turns) > 5
        assert t.median_taps([ann, bo]) <= 5
        dms = t.per_player_turn(t.dms, [ann, bo])
        notifying = t.per_player_turn(t.notifying_dms, [ann, bo])
        assert statistics.median(dms) <= 2 and statistics.median(notifying) <= 2
        assert max(notifying) <= 4, "no turn floods a player's DMs"
        assert statistics.median(t.posts[x] for x in t.turns) <= 3
        # One final post: the score sheet and the final pyramids together.
        finals = [m for m in table.channel.messages() if any("final scores" in (e.get("title") or "") for e in m.embeds)]
        assert len(finals) == 1 and len(finals[0].embeds) == 2 and len(finals[0].attachments) == 2
        # Every picture the bot posted has alt text; routine channel posts are silent.
        pictures = [a for m in world.messages.values() if m.author_id == world.bot.id for a in m.attachments]
        assert pictures and all(a.description for a in pictures)
        routine = [m for m in table.channel.messages() if m.author_id == world.bot.id and m.id > since
                   and m.id != finals[0].id and not m.ephemeral]
        assert routine and all(m.flags & (1 << 12) for m in routine)
    finally:
        await table.stop_bot()
