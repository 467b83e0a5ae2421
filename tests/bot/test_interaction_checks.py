"""Every interaction is checked against its game: where it comes from, whose seat, which prompt, and whether
its control and values are ones the bot offered. Forged interactions (as a modified client could send) go
through the real bot and the fake Discord; none may change anything or end in an unhandled exception."""

from __future__ import annotations

import random

from bot.autoplay import SimulatedPlayer
from bot.localdiscord import FakeChannel, FakeDiscord, FakeMessage
from bot.ui import checks
from bot.ui.spec import Button, Option, Select
from tests.bot.harness import Table, new_table
from tests.bot.test_bot_interactions import last_ephemeral, two_player_game

FAILED = "Something went wrong"

def forged(world: FakeDiscord, channel: FakeChannel, components: list[dict]) -> FakeMessage:
    """A message carrying controls the bot never sent there (what a modified client can click)."""
    return world.bot_posts(channel, {"content": "forged", "components": components})

def select_row(custom_id: str, values: list[str]) -> list[dict]:
    options = [{"label": v[:100] or "-", "value": v[:100]} for v in values]
    return [{"type": 1, "components": [{"type": 3, "custom_id": custom_id, "options": options,
                                         "min_values": 1, "max_values": min(len(options), 25)}]}]

def button_row(custom_id: str) -> list[dict]:
    return [{"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}]

async def version_and_log(table: Table, game_id: int) -> tuple[int, int]:
    info = await table.bot.service.game(game_id)
    return info.version, len(await table.bot.service.public_log(game_id))

async def test_a_lobby_takes_no_more_seats_than_it_was_opened_for(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo", "Cy", "Di"])
    await table.start_bot()
    try:
        ann, *others = table.users
        rec = await ann.slash(table.channel, "viceroy new", seats=2)
        await table.settle()
        lobby = rec.reply
        replies = []
        for user in others:
            click = await user.click(lobby, label="Join")
            await table.settle()
            replies.append(click)
        text = fake_discord.messages[lobby.id].embeds[0]["description"]
        assert "Seats: 2/2" in text and "Cy" not in text and "Di" not in text
        assert "full (2 seats)" in last_ephemeral(others[1]) and "full (2 seats)" in last_ephemeral(others[2])
        add = await ann.click(lobby, label="Add AI")
        await table.settle()
        assert add.ephemeral and "full" in add.reply.content
        await ann.click(lobby, label="Start")
        await table.settle()
        info = (await table.bot.service.list_games(statuses=("active",)))[0]
        assert len(info.seats) == 2
    finally:
        await table.stop_bot()

async def test_solo_with_two_virtual_opponents_is_refused_and_short_time_limits_too(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        ann = table.users[0]
        rec = await ann.slash(table.channel, "viceroy new", seats=1, virtual=2)
        await table.settle()
        assert rec.ephemeral and "exactly one virtual opponent" in rec.reply.content
        rec = await ann.slash(table.channel, "viceroy new", seats=1, time_limit=0.01)
        await table.settle()
        assert rec.ephemeral and "at least 1 minute" in rec.reply.content
        assert await table.bot.service.list_games() == []
    finally:
        await table.stop_bot()

async def test_a_lobby_button_from_another_server_is_refused(fake_discord, tmp_path):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann"])
    other = world.add_guild("Elsewhere")
    elsewhere = world.add_text_channel(other, "games")
    eve = world.add_user("Eve", other)
    await table.start_bot()
    try:
        ann = table.users[0]
        rec = await ann.slash(table.channel, "viceroy new", seats=2)
        await table.settle()
        lobby = world.messages[rec.reply.id]
        copy = forged(world, elsewhere, lobby.components)
        for label in ("Join", "Add AI", "Start"):
            click = await eve.click(copy, label=label)
            await table.settle()
            assert click.ephemeral and click.reply.content == checks.WRONG_PLACE
        info = (await table.bot.service.list_games())[0]
        assert [s.display_name for s in info.seats] == ["Ann"] and info.status == "lobby"
    finally:
        await table.stop_bot()

def _mutations(rng: random.Random, custom_id: str, offered: set[str]) -> tuple[str, list[str]]:
    """A forged (custom id, values) pair derived from a real select; never a value the prompt offers."""
    parts = custom_id.split(":")
    junk = ["play:999", "play:abc", "zzz", "9:99", "²", "9" * 5000, "9" * 4000, "", ":", "bid:red:99999",
            "card:-1", "card:" + "9" * 30, "slot:0:0:0", "0", "-1", "1e9", "None", "🙂", "a" * 100]
    kind = rng.randrange(6)
    if kind == 0:  # the real control, values it does not offer
        values = [v for v in rng.sample(junk, 2) if v not in offered] or ["zzz"]
        return custom_id, values
    if kind == 1:  # another game id
        parts[1] = rng.choice(["0", "999999", "9" * 18, "9" * 40])
    elif kind == 2:  # another seat
        parts[2] = rng.choice(["1", "7", "99", "9" * 5])
    elif kind == 3:  # another prompt key
        parts[3] = rng.choice(["x", "setup.0", "9" * 20, "auction.99"])
    elif kind == 4:  # an unknown operation
        parts[-1] = rng.choice(["nope", "confirm.x", "gems.zzz", "page99999", "opt"])
    else:  # missing or extra parts
        parts = parts[: rng.randrange(1, len(parts))] if rng.random() < 0.5 else [*parts, "extra"]
    return ":".join(parts)[:100], [v for v in rng.sample(junk, 1) if v not in offered] or ["zzz"]

async def test_forged_prompt_interactions_change_nothing_and_answer_clearly(fake_discord, tmp_path):
    world = fake_discord
    table, _ = await two_player_game(world, tmp_path)
    try:
        ann, bo = table.users
        prompt = SimulatedPlayer(world, ann, table.channel).current_prompt()
        assert prompt is not None
        real = [c for c in prompt.iter_components() if c.get("custom_id")]
        game_id = (await table.bot.service.list_games(statuses=("active",)))[0].id
        before = await version_and_log(table, game_id)
        rng = random.Random(17)
        for i in range(60):
            comp = rng.choice(real)
            offered = {o["value"] for o in comp.get("options", [])}
            custom_id, values = _mutations(rng, comp["custom_id"], offered)
            user = ann if i % 3 else bo
            if comp.get("type") == 3 or rng.random() < 0.3:
                msg = forged(world, ann.open_dm() if user is ann else bo.open_dm(), select_row(custom_id, values))
                rec = await user.select(msg, custom_id, [v[:100] for v in values][:25])
            else:
                msg = forged(world, ann.open_dm() if user is ann else bo.open_dm(), button_row(custom_id))
                rec = await user.click(msg, custom_id=custom_id)
            await table.settle()
            answers = [m.content for m in user.ephemerals() if m.interaction_id == rec.id] + \
                      ([rec.reply.content] if rec.reply is not None else []) + \
                      ([rec.original.content] if rec.response_type == 7 and rec.original is not None else [])
            answers = [a for a in answers if a]
            assert answers, f"no answer to {custom_id!r} {values[:1]!r}"
            assert not any(FAILED in a for a in answers), (custom_id, values, answers)
            assert await version_and_log(table, game_id) == before, (custom_id, values)
            msg.deleted = True  # out of the way of the player's real prompt
        # And the real prompt still works afterwards.
        assert await SimulatedPlayer(world, ann, table.channel).step()
        await table.settle()
        assert (await version_and_log(table, game_id))[0] > before[0]
    finally:
        await table.stop_bot()

def test_control_problem_accepts_only_what_the_prompt_offers():
    from bot.ui.spec import MessageSpec

    spec = MessageSpec(rows=[[Select("p:1:0:k:choose", "Pick", [Option("A", "a"), Option("B", "b")])],
                             [Button("Go", "p:1:0:k:go"), Button("Off", "p:1:0:k:off", disabled=True)]])
    assert checks.control_problem(spec, "p:1:0:k:choose", ["a"]) is None
    assert checks.control_problem(spec, "p:1:0:k:choose", ["c"]) == checks.BAD_VALUE
    assert checks.control_problem(spec, "p:1:0:k:choose", ["a", "b"]) == checks.BAD_VALUE
    assert checks.control_problem(spec, "p:1:0:k:choose", []) == checks.BAD_VALUE
    assert checks.control_problem(spec, "p:1:0:k:go", []) is None
    assert checks.control_problem(spec, "p:1:0:k:off", []) == checks.UNKNOWN_CONTROL
    assert checks.control_problem(spec, "p:1:0:k:gone", []) == checks.UNKNOWN_CONTROL

def test_origin_problem():
    assert checks.origin_problem(1, 10, 1, 10, dm_ok=False) is None
    assert checks.origin_problem(1, 10, 2, 10, dm_ok=True) == checks.WRONG_PLACE
    assert checks.origin_problem(1, 10, 1, 11, dm_ok=True) == checks.WRONG_PLACE
    assert checks.origin_problem(1, 10, None, 99, dm_ok=True) is None
    assert checks.origin_problem(1, 10, None, 99, dm_ok=False) == checks.WRONG_PLACE

def test_control_ids_with_huge_or_unicode_numbers_do_not_decode():
    from bot.ui.ids import ControlId

    assert ControlId.decode("p:" + "9" * 5000 + ":0:k:go") is None
    assert ControlId.decode("p:²:0:k:go") is None
    assert ControlId.decode("l:" + "9" * 19 + ":join") is None
    assert ControlId.decode("p:12:0:k:go") == ControlId("prompt", 12, "go", 0, "k")

