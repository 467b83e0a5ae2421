"""The per-turn tally of bot/localdiscord/tally.py counts a DM in the turn it belongs to, whichever of the
bot's lanes (the channel's, the player's DMs) reached Discord first."""

from __future__ import annotations

from bot.localdiscord import FakeDiscord
from bot.localdiscord.model import InteractionRecord
from bot.localdiscord.tally import tally


def _world() -> tuple[FakeDiscord, object, object, object]:
    world = FakeDiscord()
    guild = world.add_guild("Guild")
    channel = world.add_text_channel(guild, "table")
    ann = world.add_user("Ann", guild)
    return world, channel, ann, world._get_or_create_dm(ann)


def _post(world: FakeDiscord, channel, title: str = "", content: str = "") -> int:
    body = {"content": content, "embeds": [{"title": title}] if title else []}
    return world.bot_posts(channel, body).id


def _table(world: FakeDiscord, channel, turn: int) -> int:
    return _post(world, channel, f"Viceroy game #1 · turn {turn} · auction round 1")


def _tap(world: FakeDiscord, user, channel, message_id: int) -> None:
    iid = world.snowflake()
    world.interactions[iid] = InteractionRecord(id=iid, token="t", type=3, user_id=user.id, channel_id=channel.id,
                                                guild_id=None, data={"custom_id": "x"}, world=world,
                                                source_message_id=message_id)


def test_a_prompt_that_beats_its_table_message_counts_in_its_own_turn() -> None:
    world, channel, ann, dm = _world()
    _table(world, channel, 1)
    _post(world, dm, "Turn 1: auction round 1")
    prompt = _post(world, dm, "Turn 2: auction round 1")  # sent before the table of turn 2 was posted
    _table(world, channel, 2)
    t = tally(world, channel, [ann])
    assert t.dms[(ann.id, 1)] == 1 and t.dms[(ann.id, 2)] == 1
    # A closed prompt, edited to "Done", still belongs to the turn it was created for.
    world.messages[prompt].embeds = [{"title": "✔ Done"}]
    assert tally(world, channel, [ann]).dms[(ann.id, 2)] == 1


def test_a_dm_without_a_turn_follows_the_newest_prompt_before_it_in_its_channel() -> None:
    world, channel, ann, dm = _world()
    _table(world, channel, 1)
    prompt = _post(world, dm, "Turn 1: development round 1")
    _table(world, channel, 2)
    _post(world, dm, content="You take 1 red.")  # the end of turn 1, told after turn 2's table went up
    _tap(world, ann, dm, prompt)  # a late click on turn 1's prompt
    t = tally(world, channel, [ann])
    assert t.dms[(ann.id, 1)] == 2 and t.dms[(ann.id, 2)] == 0
    assert t.taps[(ann.id, 1)] == 1 and t.taps[(ann.id, 2)] == 0


def test_dms_and_taps_with_no_prompt_before_them_keep_the_tables_order() -> None:
    world, channel, ann, dm = _world()
    _table(world, channel, 1)
    _post(world, dm, content="Your screen")
    table = _table(world, channel, 2)
    _post(world, dm, content="Welcome back")
    _tap(world, ann, channel, table)
    t = tally(world, channel, [ann])
    assert t.dms[(ann.id, 1)] == 1 and t.dms[(ann.id, 2)] == 1
    assert t.taps[(ann.id, 2)] == 1
    assert t.turns == [1, 2] and t.posts[1] == 1 and t.posts[2] == 1
