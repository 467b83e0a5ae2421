"""The fake Discord speaks shards: GET /gateway/bot recommends a count, IDENTIFY names [shard_id, shard_count],
a guild's events reach the shard ``(guild_id >> 22) % shard_count`` and everything else (DMs) shard 0."""

from __future__ import annotations

import json

import aiohttp
import discord
from hypothesis import given
from hypothesis import strategies as st

from bot.localdiscord import FakeDiscord, close_client, connect_client
from bot.localdiscord.model import SnowflakeFactory, shard_of


class ShardClient(discord.Client):
    """Records the MESSAGE_CREATE events it receives (guild id or None for a DM)."""

    def __init__(self, **options) -> None:
        super().__init__(intents=discord.Intents(guilds=True, guild_messages=True, dm_messages=True), **options)
        self.seen: list[int | None] = []

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message.guild.id if message.guild else None)


class AutoShardClient(discord.AutoShardedClient):
    def __init__(self, **options) -> None:
        super().__init__(intents=discord.Intents(guilds=True, guild_messages=True, dm_messages=True), **options)
        self.seen: list[int | None] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return  # the fake has no identify rate limit: no 5 s pause between shards

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message.guild.id if message.guild else None)


def _world_with_guilds(world: FakeDiscord, count: int = 3):
    world.shard_count = count
    guilds = [world.add_guild(f"server {k}", shard=k) for k in range(count)]
    channels = [world.add_text_channel(g, "games") for g in guilds]
    user = world.add_user("Ann", *guilds)
    return guilds, channels, user


@given(st.integers(min_value=1, max_value=64), st.data())
def test_a_snowflake_can_be_made_for_any_shard(count: int, data) -> None:
    factory = SnowflakeFactory()
    before = factory()
    shard = data.draw(st.integers(min_value=0, max_value=count - 1))
    value = factory.on_shard(shard, count)
    assert shard_of(value, count) == shard
    assert value > before and factory() > value  # still monotonic


async def test_gateway_bot_recommends_the_shard_count(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    world.shard_count = 4
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {world.token}"}) as http:
        async with http.get(world.http_base + "/api/v10/gateway/bot") as resp:
            body = await resp.json()
        async with http.get(world.http_base + "/api/v10/gateway") as resp:
            plain = await resp.json()
    assert body["shards"] == 4 and body["url"].startswith("ws://")
    assert body["session_start_limit"]["max_concurrency"] >= 1
    assert plain == {"url": body["url"]}  # GET /gateway has no shard advice, as on Discord


async def _identify(world: FakeDiscord, shard) -> tuple[list[dict], int | None]:
    """Raw IDENTIFY with `shard`: the dispatches up to READY and its GUILD_CREATEs, or the close code."""
    frames: list[dict] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(world.gateway_url + "?v=10&encoding=json") as ws:
        await ws.receive_json()  # HELLO
        d = {"token": world.token, "properties": {}, "intents": 1}
        if shard is not None:
            d["shard"] = shard
        await ws.send_json({"op": 2, "d": d})
        expected = None
        while expected is None or sum(f.get("t") == "GUILD_CREATE" for f in frames) < expected:
            msg = await ws.receive(timeout=30)  # only a guard against a hang
            if msg.type != aiohttp.WSMsgType.TEXT:
                return frames, ws.close_code
            frames.append(json.loads(msg.data))
            if frames[-1].get("t") == "READY":
                expected = len(frames[-1]["d"]["guilds"])
        return frames, None


async def test_identify_gets_only_its_shards_guilds(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guilds, _, _ = _world_with_guilds(world)
    frames, code = await _identify(world, [1, 3])
    assert code is None
    ready = next(f["d"] for f in frames if f.get("t") == "READY")
    assert ready["shard"] == [1, 3]
    assert [g["id"] for g in ready["guilds"]] == [str(guilds[1].id)]
    assert [f["d"]["id"] for f in frames if f.get("t") == "GUILD_CREATE"] == [str(guilds[1].id)]


async def test_identify_with_a_bad_shard_is_closed_4010(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    _world_with_guilds(world)
    for bad in ([3, 3], [-1, 3], [0, 0], [0], "0,3"):
        frames, code = await _identify(world, bad)
        assert code == 4010, bad
        assert not any(f.get("t") == "READY" for f in frames)


async def test_too_many_guilds_on_one_shard_is_closed_4011(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    _world_with_guilds(world)
    world.max_guilds_per_shard = 1
    _, code = await _identify(world, None)  # one shard for three guilds
    assert code == 4011
    _, code = await _identify(world, [2, 3])
    assert code is None


async def test_guild_events_reach_only_their_shard_and_dms_shard_zero(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guilds, channels, ann = _world_with_guilds(world)
    clients = [ShardClient(shard_id=k, shard_count=3) for k in range(3)]
    tasks = [await connect_client(world, c) for c in clients]
    try:
        for k, client in enumerate(clients):
            assert [g.id for g in client.guilds] == [guilds[k].id]
            assert client.ws.shard_id == k
        assert sorted(s.shard for s in world.sessions.values()) == [(0, 3), (1, 3), (2, 3)]
        for chan in channels:
            await world.user_message(ann, chan, "hello")
        dm = world._get_or_create_dm(ann)
        await world.user_message(ann, dm, "a private word")
        await world.wait_for(lambda: len(clients[0].seen) == 2 and all(c.seen for c in clients[1:]),
                             what="every shard's messages")
        await world.idle(quiet=0.1)
        assert clients[0].seen == [guilds[0].id, None]
        assert clients[1].seen == [guilds[1].id]
        assert clients[2].seen == [guilds[2].id]
    finally:
        for client, task in zip(clients, tasks, strict=True):
            await close_client(client, task, world)


async def test_an_auto_sharded_client_runs_a_range_of_shards(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guilds, channels, ann = _world_with_guilds(world)
    late = world.add_guild("joined later", shard=2)  # GUILD_CREATE once connected goes to shard 2 only
    client = AutoShardClient(shard_count=3, shard_ids=[1, 2])
    task = await connect_client(world, client)
    try:
        assert {g.id for g in client.guilds} == {guilds[1].id, guilds[2].id, late.id}
        assert sorted(s.shard for s in world.sessions.values()) == [(1, 3), (2, 3)]
        for chan in channels:
            await world.user_message(ann, chan, "hello")
        await world.user_message(ann, world._get_or_create_dm(ann), "not for these shards")
        await world.wait_for(lambda: len(client.seen) == 2, what="shards 1 and 2's messages")
        await world.idle(quiet=0.1)
        assert sorted(client.seen) == sorted([guilds[1].id, guilds[2].id])
    finally:
        await close_client(client, task)


async def test_an_auto_sharded_client_asks_for_the_count(fake_discord: FakeDiscord) -> None:
    world = fake_discord
    guilds, _, _ = _world_with_guilds(world, count=2)
    client = AutoShardClient()
    task = await connect_client(world, client)
    try:
        assert client.shard_count == 2
        assert {g.id for g in client.guilds} == {g.id for g in guilds}
        assert sorted(s.shard for s in world.sessions.values()) == [(0, 2), (1, 2)]
    finally:
        await close_client(client, task)
