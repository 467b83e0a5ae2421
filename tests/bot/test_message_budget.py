"""Messages and notifications per turn of a whole 2-player Viceroy game stay within the player-experience
targets (issue 15), counted as benchmarks/bench_messages.py counts them: taps per turn (median <= 5, no dead
end), new DMs per player per turn (median <= 2), channel posts per turn (median <= 3); no turn floods anyone;
the end is one post; every picture has alt text; routine posts do not notify; every private line is shown
once, in the prompt it opens or in a DM of its own, and stays there."""

from __future__ import annotations

import asyncio
import statistics
from collections import Counter

from bot.autoplay import SimulatedPlayer, game_over
from bot.localdiscord.tally import tally
from bot.presenters.viceroy import PRESENTER
from tests.bot.harness import new_table, open_lobby

TAPS_PER_TURN = 5  # median over (player, turn)
# One DM per decision: what a step gives a player privately (gems, drawn cards) opens the player's next prompt
# (its recap, kept when the prompt closes); a DM of its own only when the step brings the player no prompt. The
# mean is above the median: each development round is a decision of its own (a turn with three rounds brings
# four prompts).
DMS_PER_PLAYER_TURN = 2  # median over (player, turn)
MEAN_DMS_PER_PLAYER_TURN = 3
POSTS_PER_TURN = 3  # median over turns
MOST_POSTS_IN_A_TURN = 7
MOST_DMS_IN_A_TURN = 6  # the busiest turns (several development rounds; the last: painting and the result)


async def _private_parts(service) -> list[tuple[dict, dict]]:
    """(payload, recorded parts) of every announcement of the finished game (its outbox is packed by now)."""
    (game,) = await service.list_games(statuses=("finished",))
    return [(row.payload, row.sent) for row in await service.outbox_record(game.id)]


async def test_a_two_player_game_stays_within_the_message_budget(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    table.bot.service._seed_source = lambda: 20261207  # one fixed deal
    try:
        ann, bo = users = table.users
        lobby = await open_lobby(table, ann, seats=2)
        await bo.click(lobby, label="Join")
        await table.settle()
        since, uploads = world.snowflake(), len(world.uploads)
        await ann.click(lobby, label="Start")
        await table.settle()
        players = [SimulatedPlayer(world, u, table.channel, seed=7 + i) for i, u in enumerate(users)]
        await asyncio.gather(*(p.run(timeout=600) for p in players))  # a dead end would stall a player here
        await table.settle()
        assert game_over(table.channel)
        t = tally(world, table.channel, users, since=since, uploads_since=uploads)
        assert len(t.turns) > 5
        assert t.median_taps(users) <= TAPS_PER_TURN
        assert not t.dead_ends, "a careful player had to go back"
        dms = t.per_player_turn(t.dms, users)
        notifying = t.per_player_turn(t.notifying_dms, users)
        assert statistics.median(dms) <= DMS_PER_PLAYER_TURN, dms
        assert statistics.mean(dms) <= MEAN_DMS_PER_PLAYER_TURN, dms
        assert max(notifying) <= max(dms) <= MOST_DMS_IN_A_TURN, (max(dms), dms)
        posts = {x: t.posts[x] for x in t.turns}
        assert t.median_posts() <= POSTS_PER_TURN, posts
        # Beyond the median: a turn posts its table, its bids' reveal with the development table, and one post
        # per further step it resolves (a tied auction round, a development round, a law's question); the last
        # turn adds each painting and the final post. Never a flood.
        assert max(posts.values()) <= MOST_POSTS_IN_A_TURN, posts
        # One final post: the score sheet and the final pyramids together.
        finals = [m for m in table.channel.messages() if any("final scores" in (e.get("title") or "") for e in m.embeds)]
        assert len(finals) == 1 and len(finals[0].embeds) == 2 and len(finals[0].attachments) == 2
        # Every picture the bot posted has alt text; routine channel posts are silent.
        pictures = [a for m in world.messages.values() if m.author_id == world.bot.id for a in m.attachments]
        assert pictures and all(a.description for a in pictures)
        routine = [m for m in table.channel.messages() if m.author_id == world.bot.id and m.id > since
                   and m.id != finals[0].id and not m.ephemeral]
        assert routine and all(m.flags & (1 << 12) for m in routine)
        # Each seat's private lines are shown where the outbox recorded them (most often the top of the seat's
        # next prompt, closed since) and, line for line, as many times as the game gave them.
        in_prompts = 0
        shown: Counter[tuple[int, str]] = Counter()
        for payload, sent in await _private_parts(table.bot.service):
            names = {int(k): v for k, v in payload["names"].items()}
            for seat, events in payload["private"].items():
                texts = [x for x in (PRESENTER.private_line(e, names) for e in events) if x]
                user = payload["users"][seat]
                where = world.messages.get(sent.get(f"p{seat}", 0))
                assert texts == [] or (where is not None and all(x in where.content for x in texts)), (texts, sent)
                in_prompts += bool(texts and where is not None and where.embeds)
                shown.update((user, x) for x in texts)
        assert in_prompts >= 5, "private lines did not open the prompts"
        for (user, text), times in shown.items():
            dm = world.users[user].dm_channel
            assert sum(m.content.count(text) for m in dm.messages() if m.author_id == world.bot.id) == times, text
    finally:
        await table.stop_bot()
