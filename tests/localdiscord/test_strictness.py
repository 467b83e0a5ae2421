"""The strict fake refuses what Discord refuses: each documented rule is planted as a violation and must come
back with Discord's status, error code and error shape, and pass once its check is switched off."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import discord
import pytest

from bot.localdiscord import FakeDiscord, close_client, connect_client
from bot.localdiscord import rules as R
from bot.localdiscord.model import ATTACH_FILES, EMBED_LINKS, SEND_MESSAGES, VIEW_CHANNEL
from bot.localdiscord.ratelimit import RateLimiter
from bot.localdiscord.server import DEFAULT_CHECKS

PNG = bytes.fromhex("89504e470d0a1a0a") + b"strict" * 20


# ------------------------------------------------------------------------------------------- helpers
async def api(world: FakeDiscord, method: str, path: str, body: Any = None,
              files: dict[str, bytes] | None = None) -> tuple[int, Any, dict[str, str]]:
    """One raw REST request as the bot (no client-side checks in the way)."""
    url = f"{world.http_base}/api/v10{path}"
    headers = {"Authorization": f"Bot {world.token}"}
    async with aiohttp.ClientSession() as session:
        if files:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body or {}), content_type="application/json")
            for i, (name, data) in enumerate(files.items()):
                form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
            kwargs: dict[str, Any] = {"data": form}
        else:
            kwargs = {"json": body} if body is not None else {}
        async with session.request(method, url, headers=headers, **kwargs) as resp:
            text = await resp.text()
            return resp.status, (json.loads(text) if text else None), dict(resp.headers)


def button(cid: str, label: str = "Go", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": cid, "label": label, **extra}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(cid: str = "s", n: int = 3, **extra: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": cid, "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)], **extra}


def error_at(body: dict[str, Any], path: tuple[Any, ...]) -> list[dict[str, str]]:
    node: Any = body["errors"]
    for key in path:
        node = node[str(key)]
    return node["_errors"]


@pytest.fixture
def world(fake_discord: FakeDiscord) -> FakeDiscord:
    fake_discord.strict = False  # these tests plant violations on purpose
    return fake_discord


def _place(world: FakeDiscord):
    guild = world.add_guild("Strict")
    chan = world.add_text_channel(guild, "table")
    ann = world.add_user("Ann", guild)
    return guild, chan, ann


def test_every_check_is_on_by_default():
    assert DEFAULT_CHECKS == R.ALL_CHECKS
    assert FakeDiscord().checks == set(R.ALL_CHECKS)


# ------------------------------------------------------------------------------------ message bodies
LONG_FIELDS = [{"name": f"f{i}", "value": "v"} for i in range(26)]

BODY_CASES: list[tuple[str, str, dict[str, Any], tuple[Any, ...]]] = [
    # (case, check, body, path of the error)
    ("embed title 257", R.LIMITS, {"embeds": [{"title": "t" * 257}]}, ("embeds", 0, "title")),
    ("embed description 4097", R.LIMITS, {"embeds": [{"description": "d" * 4097}]}, ("embeds", 0, "description")),
    ("26 embed fields", R.LIMITS, {"embeds": [{"title": "x", "fields": LONG_FIELDS}]}, ("embeds", 0, "fields")),
    ("field name 257", R.LIMITS, {"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]},
     ("embeds", 0, "fields", 0, "name")),
    ("field value 1025", R.LIMITS, {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
     ("embeds", 0, "fields", 0, "value")),
    ("empty field value", R.LIMITS, {"embeds": [{"fields": [{"name": "n", "value": ""}]}]},
     ("embeds", 0, "fields", 0, "value")),
    ("footer 2049", R.LIMITS, {"embeds": [{"footer": {"text": "f" * 2049}}]}, ("embeds", 0, "footer", "text")),
    ("author 257", R.LIMITS, {"embeds": [{"author": {"name": "a" * 257}}]}, ("embeds", 0, "author", "name")),
    ("embeds over 6000 in total", R.LIMITS,
     {"embeds": [{"description": "d" * 3500}, {"description": "d" * 3500}]}, ("embeds",)),
    ("6 action rows", R.COMPONENTS, {"components": [row(button(f"b{i}")) for i in range(6)]}, ("components",)),
    ("6 buttons in a row", R.COMPONENTS, {"components": [row(*(button(f"b{i}") for i in range(6)))]},
     ("components", 0, "components")),
    ("empty action row", R.COMPONENTS, {"components": [row()]}, ("components", 0, "components")),
    ("duplicate custom ids", R.COMPONENTS, {"components": [row(button("same"), button("same"))]},
     ("components", 0, "components", 1, "custom_id")),
    ("button label 81", R.COMPONENTS, {"components": [row(button("b", "l" * 81))]},
     ("components", 0, "components", 0, "label")),
    ("button without custom id", R.COMPONENTS, {"components": [row({"type": 2, "style": 1, "label": "x"})]},
     ("components", 0, "components", 0, "custom_id")),
    ("link button with a custom id", R.COMPONENTS,
     {"components": [row({"type": 2, "style": 5, "label": "x", "url": "https://x.example", "custom_id": "c"})]},
     ("components", 0, "components", 0, "custom_id")),
    ("select with 0 options", R.COMPONENTS, {"components": [row(select(n=0))]},
     ("components", 0, "components", 0, "options")),
    ("select with 26 options", R.COMPONENTS, {"components": [row(select(n=26))]},
     ("components", 0, "components", 0, "options")),
    ("select min > max", R.COMPONENTS, {"components": [row(select(min_values=3, max_values=2))]},
     ("components", 0, "components", 0, "min_values")),
    ("select max > options", R.COMPONENTS, {"components": [row(select(n=3, min_values=1, max_values=4))]},
     ("components", 0, "components", 0, "max_values")),
    ("select placeholder 151", R.COMPONENTS, {"components": [row(select(placeholder="p" * 151))]},
     ("components", 0, "components", 0, "placeholder")),
    ("select option label 101", R.COMPONENTS,
     {"components": [row({"type": 3, "custom_id": "s", "options": [{"label": "l" * 101, "value": "v"}]})]},
     ("components", 0, "components", 0, "options", 0, "label")),
    ("select beside a button", R.COMPONENTS, {"components": [row(select(), button("b"))]},
     ("components", 0, "components")),
    ("V2 component without the flag", R.COMPONENTS_V2, {"components": [{"type": 10, "content": "hi"}]},
     ("components", 0, "type")),
    ("V2 with content", R.COMPONENTS_V2,
     {"flags": R.FLAG_COMPONENTS_V2, "content": "hi", "components": [{"type": 10, "content": "x"}]}, ("content",)),
    ("V2 with embeds", R.COMPONENTS_V2,
     {"flags": R.FLAG_COMPONENTS_V2, "embeds": [{"title": "t"}], "components": [{"type": 10, "content": "x"}]},
     ("embeds",)),
    ("V2 with 41 components", R.COMPONENTS_V2,
     {"flags": R.FLAG_COMPONENTS_V2, "components": [{"type": 17, "components": [
         {"type": 10, "content": "x"} for _ in range(40)]}]}, ("components",)),
    ("V2 text display 4001", R.COMPONENTS_V2,
     {"flags": R.FLAG_COMPONENTS_V2, "components": [{"type": 10, "content": "x" * 4001}]},
     ("components", 0, "content")),
    ("V2 section with 4 texts", R.COMPONENTS_V2,
     {"flags": R.FLAG_COMPONENTS_V2, "components": [{"type": 9, "components": [
         {"type": 10, "content": "x"} for _ in range(4)], "accessory": button("a")}]},
     ("components", 0, "components")),
    ("V2 section without accessory", R.COMPONENTS_V2,
     {"flags": R.FLAG_COMPONENTS_V2, "components": [{"type": 9, "components": [{"type": 10, "content": "x"}]}]},
     ("components", 0, "accessory")),
    ("V2 container in a container", R.COMPONENTS_V2,
     {"flags": R.FLAG_COMPONENTS_V2, "components": [{"type": 17, "components": [
         {"type": 17, "components": [{"type": 10, "content": "x"}]}]}]},
     ("components", 0, "components", 0, "type")),
    ("V2 gallery of 11", R.COMPONENTS_V2,
     {"flags": R.FLAG_COMPONENTS_V2, "components": [{"type": 12, "items": [
         {"media": {"url": "https://x.example/a.png"}} for _ in range(11)]}]}, ("components", 0, "items")),
    ("embed image attachment:// without the file", R.ATTACHMENTS,
     {"embeds": [{"title": "t", "image": {"url": "attachment://table.png"}}]}, ("embeds", 0, "image", "url")),
    ("V2 gallery attachment:// without the file", R.ATTACHMENTS,
     {"flags": R.FLAG_COMPONENTS_V2, "components": [{"type": 12, "items": [{"media": {"url": "attachment://a.png"}}]}]},
     ("components", 0, "items", 0, "media", "url")),
]


@pytest.mark.parametrize("case, check, body, path", BODY_CASES, ids=[c[0] for c in BODY_CASES])
async def test_message_body_violation_is_refused_like_discord(world, case, check, body, path):
    world.checks.add(check)  # planted whether or not the check is on by default
    _, chan, _ = _place(world)
    status, data, _ = await api(world, "POST", f"/channels/{chan.id}/messages", body)
    assert status == 400, data
    assert data["code"] == 50035 and data["message"] == "Invalid Form Body"
    errors = error_at(data, path)
    assert errors and all(set(e) == {"code", "message"} for e in errors)
    assert [v.check for v in world.violations] == [check]
    assert chan.messages() == []
    # Off, the same request goes through.
    world.checks.discard(check)
    status, _, _ = await api(world, "POST", f"/channels/{chan.id}/messages", body)
    assert status == 200


async def test_valid_bodies_at_the_limits_pass(world):
    world.checks |= R.ALL_CHECKS
    _, chan, _ = _place(world)
    at_limits = {
        "content": "c" * 2000,
        "embeds": [{"title": "t" * 256, "description": "d" * 4096,
                    "fields": [{"name": "n" * 20, "value": "v" * 20} for _ in range(25)],
                    "footer": {"text": "f" * 100}, "author": {"name": "a" * 256}}],
        "components": [row(*(button(f"r{r}b{b}", "l" * 80) for b in range(5))) for r in range(4)]
        + [row(select("s", n=25, min_values=0, max_values=25, placeholder="p" * 150))],
    }
    status, data, _ = await api(world, "POST", f"/channels/{chan.id}/messages", at_limits)
    assert status == 200, data
    v2 = {"flags": R.FLAG_COMPONENTS_V2, "components": [
        {"type": 17, "components": [{"type": 10, "content": "x" * 1000},
                                    {"type": 9, "components": [{"type": 10, "content": "y"}], "accessory": button("a")},
                                    row(button("b"))]}]}
    status, data, _ = await api(world, "POST", f"/channels/{chan.id}/messages", v2)
    assert status == 200, data
    assert world.violations == []


async def test_components_v2_flag_cannot_be_removed(world):
    _, chan, _ = _place(world)
    status, msg, _ = await api(world, "POST", f"/channels/{chan.id}/messages",
                               {"flags": R.FLAG_COMPONENTS_V2, "components": [{"type": 10, "content": "x"}]})
    assert status == 200
    status, data, _ = await api(world, "PATCH", f"/channels/{chan.id}/messages/{msg['id']}",
                                {"flags": 0, "content": "now plain"})
    assert status == 400 and data["code"] == 50035
    assert error_at(data, ("flags",))
    # An edit that leaves the flag alone keeps the V2 rules: content is still refused.
    status, data, _ = await api(world, "PATCH", f"/channels/{chan.id}/messages/{msg['id']}", {"content": "x"})
    assert status == 400 and error_at(data, ("content",))


async def test_discord_py_shows_the_field_that_was_refused(world):
    guild, chan, _ = _place(world)

    client = discord.Client(intents=discord.Intents.none())
    task = await connect_client(world, client)
    try:
        channel = client.get_partial_messageable(chan.id)
        with pytest.raises(discord.HTTPException) as err:
            await channel.send(embed=discord.Embed(title="t" * 257))
        assert err.value.code == 50035
        assert "In embeds.0.title: Must be 256 or fewer in length." in str(err.value)
    finally:
        await close_client(client, task, world)


# ----------------------------------------------------------------------------------------- modals
def _modal(**data: Any) -> dict[str, Any]:
    base = {"custom_id": "m", "title": "Gems",
            "components": [{"type": 18, "label": "Red", "component": {"type": 4, "custom_id": "red", "style": 1}}]}
    base.update(data)
    return {"type": 9, "data": base}


def _label(cid: str, label: str = "Red", **extra: Any) -> dict[str, Any]:
    return {"type": 18, "label": label, "component": {"type": 4, "custom_id": cid, "style": 1, **extra}}


MODAL_CASES = [
    ("title 46", _modal(title="t" * 46), ("data", "title")),
    ("6 components", _modal(components=[_label(f"c{i}") for i in range(6)]), ("data", "components")),
    ("label 46", _modal(components=[_label("c", "l" * 46)]), ("data", "components", 0, "label")),
    ("row text input label 46", _modal(components=[row({"type": 4, "custom_id": "c", "style": 1, "label": "l" * 46})]),
     ("data", "components", 0, "components", 0, "label")),
    ("duplicate ids", _modal(components=[_label("same"), _label("same")]),
     ("data", "components", 1, "component", "custom_id")),
    ("value 4001", _modal(components=[_label("c", value="v" * 4001)]), ("data", "components", 0, "component", "value")),
    ("button in a modal", _modal(components=[{"type": 18, "label": "x", "component": button("b")}]),
     ("data", "components", 0, "component")),
]


@pytest.mark.parametrize("case, body, path", MODAL_CASES, ids=[c[0] for c in MODAL_CASES])
async def test_modal_violation_is_refused(world, case, body, path):
    _, chan, ann = _place(world)
    rec = world._interaction_base(ann, chan, 2, {"id": "1", "name": "x", "type": 1}, None)
    status, data, _ = await api(world, "POST", f"/interactions/{rec.id}/{rec.token}/callback", body)
    assert status == 400 and data["code"] == 50035, data
    assert error_at(data, path)
    assert not rec.acknowledged and rec.modal is None


async def test_label_modal_passes_and_action_row_inputs_are_noted_as_deprecated(world):
    _, chan, ann = _place(world)
    rec = world._interaction_base(ann, chan, 2, {"id": "1", "name": "x", "type": 1}, None)
    status, _, _ = await api(world, "POST", f"/interactions/{rec.id}/{rec.token}/callback",
                             _modal(components=[_label(c) for c in ("red", "green", "blue", "yellow")]))
    assert status == 204 and rec.modal is not None and world.warnings == []
    rec2 = world._interaction_base(ann, chan, 2, {"id": "1", "name": "x", "type": 1}, None)
    status, _, _ = await api(world, "POST", f"/interactions/{rec2.id}/{rec2.token}/callback",
                             _modal(components=[row({"type": 4, "custom_id": "c", "style": 1, "label": "Red"})]))
    assert status == 204
    assert any("deprecated" in w for w in world.warnings)


# ------------------------------------------------------------------------------------ attachments
async def test_attachment_reference_resolves_only_against_the_request(world):
    world.checks.add(R.ATTACHMENTS)
    _, chan, _ = _place(world)
    embed = {"title": "t", "image": {"url": "attachment://table.png"}}
    status, msg, _ = await api(world, "POST", f"/channels/{chan.id}/messages", {"embeds": [embed]},
                               files={"table.png": PNG})
    assert status == 200
    stored = world.messages[int(msg["id"])]
    assert stored.embed_image() == PNG
    att_id = stored.attachments[0].id
    path = f"/channels/{chan.id}/messages/{msg['id']}"
    # Re-sending the embed without the file or an attachments list: refused.
    status, data, _ = await api(world, "PATCH", path, {"embeds": [embed]})
    assert status == 400 and error_at(data, ("embeds", 0, "image", "url"))
    # Keeping the file through the attachments list: accepted, picture intact.
    status, _, _ = await api(world, "PATCH", path, {"embeds": [embed], "attachments": [{"id": str(att_id)}]})
    assert status == 200 and stored.embed_image() == PNG
    # Re-uploading it: accepted.
    status, _, _ = await api(world, "PATCH", path, {"embeds": [embed], "attachments": [{"id": "0"}]},
                             files={"table.png": b"v2" + PNG})
    assert status == 200 and stored.embed_image() == b"v2" + PNG
    # Only content changes: nothing to resolve, the picture stays.
    status, _, _ = await api(world, "PATCH", path, {"content": "waiting for Bo"})
    assert status == 200 and stored.embed_image() == b"v2" + PNG


async def test_files_not_kept_by_an_edit_are_removed(world):
    _, chan, _ = _place(world)
    status, msg, _ = await api(world, "POST", f"/channels/{chan.id}/messages", {"content": "two files"},
                               files={"a.png": PNG, "b.png": PNG})
    assert status == 200
    stored = world.messages[int(msg["id"])]
    keep = next(a for a in stored.attachments if a.filename == "a.png")
    status, _, _ = await api(world, "PATCH", f"/channels/{chan.id}/messages/{msg['id']}",
                             {"attachments": [{"id": str(keep.id)}]})
    assert status == 200 and stored.filenames == ["a.png"]


async def test_embedded_files_are_not_listed_among_attachments(world):
    world.checks.add(R.EMBEDDED_FILES)
    _, chan, _ = _place(world)
    status, msg, _ = await api(world, "POST", f"/channels/{chan.id}/messages",
                               {"embeds": [{"image": {"url": "attachment://t.png"}}]}, files={"t.png": PNG, "x.png": PNG})
    assert status == 200
    assert [a["filename"] for a in msg["attachments"]] == ["x.png"]
    assert msg["embeds"][0]["image"]["url"].endswith("/t.png")
    assert not msg["embeds"][0]["image"]["url"].startswith("attachment://")
    world.checks.discard(R.EMBEDDED_FILES)
    status, msg, _ = await api(world, "GET", f"/channels/{chan.id}/messages/{msg['id']}")
    assert sorted(a["filename"] for a in msg["attachments"]) == ["t.png", "x.png"]


# ------------------------------------------------------------------------------------ permissions
@pytest.mark.parametrize("permission, body, files, code", [
    (SEND_MESSAGES, {"content": "hi"}, None, 50013),
    (EMBED_LINKS, {"embeds": [{"title": "t"}]}, None, 50013),
    (ATTACH_FILES, {"content": "pic"}, {"p.png": PNG}, 50013),
    (VIEW_CHANNEL, {"content": "hi"}, None, 50001),
])
async def test_missing_channel_permission_is_refused(world, permission, body, files, code):
    _, chan, _ = _place(world)
    world.revoke(permission, channel=chan)
    status, data, _ = await api(world, "POST", f"/channels/{chan.id}/messages", body, files=files)
    assert status == 403 and data["code"] == code
    assert data["message"] == ("Missing Access" if code == 50001 else "Missing Permissions")
    world.grant(permission, channel=chan)
    status, _, _ = await api(world, "POST", f"/channels/{chan.id}/messages", body, files=files)
    assert status == 200


async def test_permissions_lacking_for_some_posts_only(world):
    guild, chan, _ = _place(world)
    other = world.add_text_channel(guild, "other")
    world.revoke(EMBED_LINKS, channel=chan)
    assert (await api(world, "POST", f"/channels/{chan.id}/messages", {"content": "plain"}))[0] == 200
    assert (await api(world, "POST", f"/channels/{other.id}/messages", {"embeds": [{"title": "t"}]}))[0] == 200
    status, msg, _ = await api(world, "POST", f"/channels/{other.id}/messages", {"content": "x"})
    world.revoke(VIEW_CHANNEL, guild=guild)
    status, data, _ = await api(world, "PATCH", f"/channels/{other.id}/messages/{msg['id']}", {"content": "y"})
    assert status == 403 and data["code"] == 50001


async def test_revoked_permission_shows_in_app_permissions_and_the_client_cache(world):
    guild, chan, ann = _place(world)
    client = discord.Client(intents=discord.Intents(guilds=True))
    task = await connect_client(world, client)
    try:
        world.revoke(ATTACH_FILES, channel=chan)
        cached = client.get_channel(chan.id)
        await world.wait_for(lambda: not cached.permissions_for(cached.guild.me).attach_files,
                             what="CHANNEL_UPDATE in the client's cache")
        assert cached.permissions_for(cached.guild.me).send_messages
        rec = world._interaction_base(ann, chan, 2, {"id": "1", "name": "x", "type": 1}, None)
        assert not int(rec.payload["app_permissions"]) & ATTACH_FILES
        assert int(rec.payload["app_permissions"]) & SEND_MESSAGES
    finally:
        await close_client(client, task, world)


# ---------------------------------------------------------------------------------------------- DMs
async def test_dm_to_a_user_sharing_no_guild_is_50278(world):
    guild, _, ann = _place(world)
    _, dm, _ = await api(world, "POST", "/users/@me/channels", {"recipient_id": str(ann.id)})
    assert (await api(world, "POST", f"/channels/{dm['id']}/messages", {"content": "hi"}))[0] == 200
    world.remove_member(guild, ann)
    status, data, _ = await api(world, "POST", f"/channels/{dm['id']}/messages", {"content": "hi"})
    assert status == 403 and data["code"] == 50278
    ann.close_dms()
    world.add_member(guild, ann)
    status, data, _ = await api(world, "POST", f"/channels/{dm['id']}/messages", {"content": "hi"})
    assert status == 403 and data["code"] == 50007


async def test_opening_dms_too_fast_is_40003(world):
    guild, _, _ = _place(world)
    world.dm_open_limit = (2, 60.0)
    users = [world.add_user(f"U{i}", guild) for i in range(3)]
    codes = []
    for user in users:
        status, data, _ = await api(world, "POST", "/users/@me/channels", {"recipient_id": str(user.id)})
        codes.append(status if status == 200 else (status, data["code"]))
    assert codes == [200, 200, (403, 40003)]
    # Opening a DM channel that exists already is not a new one.
    assert (await api(world, "POST", "/users/@me/channels", {"recipient_id": str(users[0].id)}))[0] == 200


# ------------------------------------------------------------------------------------- rate limits
async def test_every_answer_carries_rate_limit_headers(world):
    _, chan, _ = _place(world)
    status, _, headers = await api(world, "POST", f"/channels/{chan.id}/messages", {"content": "1"})
    assert status == 200
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "4"
    assert float(headers["X-RateLimit-Reset-After"]) > 0 and float(headers["X-RateLimit-Reset"]) > 1e9
    assert headers["X-RateLimit-Bucket"]


async def test_a_burst_over_a_route_bucket_gets_429_and_other_channels_do_not(world):
    guild, chan, _ = _place(world)
    other = world.add_text_channel(guild, "other")
    world.rate_limiter = RateLimiter(scale=1.0)  # Discord's own window: the burst surely lands inside it
    results = [await api(world, "POST", f"/channels/{chan.id}/messages", {"content": str(i)}) for i in range(6)]
    assert [r[0] for r in results] == [200] * 5 + [429]
    status, body, headers = results[-1]
    assert body["global"] is False and body["retry_after"] > 0 and body["message"] == "You are being rate limited."
    assert headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Remaining"] == "0"
    assert "Via" in headers and float(headers["Retry-After"]) > 0
    assert (await api(world, "POST", f"/channels/{other.id}/messages", {"content": "x"}))[0] == 200
    assert len(chan.messages()) == 5


async def test_global_limit_spares_interaction_callbacks(world):
    _, chan, ann = _place(world)
    world.rate_limiter = RateLimiter(scale=1.0, global_limit=(3, 1.0))
    statuses = [(await api(world, "GET", f"/channels/{chan.id}"))[0] for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    status, body, headers = await api(world, "GET", f"/channels/{chan.id}")
    assert status == 429 and body["global"] is True and headers["X-RateLimit-Global"] == "true"
    rec = world._interaction_base(ann, chan, 2, {"id": "1", "name": "x", "type": 1}, None)
    status, _, _ = await api(world, "POST", f"/interactions/{rec.id}/{rec.token}/callback",
                             {"type": 4, "data": {"content": "still answered"}})
    assert status == 204


async def test_discord_py_paces_itself_on_the_headers(world):
    _, chan, _ = _place(world)
    world.rate_limiter = RateLimiter(scale=0.1)  # 5 messages per 0.5 s in a channel
    client = discord.Client(intents=discord.Intents.none())
    task = await connect_client(world, client)
    try:
        channel = client.get_partial_messageable(chan.id)
        for i in range(12):
            await channel.send(f"message {i}")
        assert [m.content for m in chan.messages()] == [f"message {i}" for i in range(12)]
        assert [r for r in world.rate_limiter.refused if r[0] == "POST"] == []  # it waited instead
    finally:
        await close_client(client, task, world)


# ------------------------------------------------------------------------------- interaction window
async def test_three_seconds_count_from_the_click_not_the_delivery(world):
    _, chan, ann = _place(world)
    world.interaction_deadline = 1.0
    world.gateway_latency = 1.1  # the click reaches the bot after its window is already over
    rec = world._interaction_base(ann, chan, 2, {"id": "1", "name": "x", "type": 1}, None)
    await world._deliver_interaction(rec)
    status, data, _ = await api(world, "POST", f"/interactions/{rec.id}/{rec.token}/callback",
                                {"type": 4, "data": {"content": "too late"}})
    assert status == 404 and data["code"] == 10062
    world.gateway_latency = 0.0
    world.interaction_deadline = 3.0
    rec = world._interaction_base(ann, chan, 2, {"id": "1", "name": "x", "type": 1}, None)
    await world._deliver_interaction(rec)
    status, _, _ = await api(world, "POST", f"/interactions/{rec.id}/{rec.token}/callback",
                             {"type": 4, "data": {"content": "in time"}})
    assert status == 204


# --------------------------------------------------------------------------------- old message edits
async def test_messages_older_than_an_hour_take_few_edits(world):
    _, chan, _ = _place(world)
    world.checks.discard(R.RATE_LIMITS)  # only the old-message limit is under test
    world.old_edit_limit = (2, 60.0)
    _, msg, _ = await api(world, "POST", f"/channels/{chan.id}/messages", {"content": "table"})
    path = f"/channels/{chan.id}/messages/{msg['id']}"
    for i in range(3):  # a young message: no such limit
        assert (await api(world, "PATCH", path, {"content": f"young {i}"}))[0] == 200
    world.age_message(world.messages[int(msg["id"])], 3700)
    results = [await api(world, "PATCH", path, {"content": f"old {i}"}) for i in range(3)]
    assert [r[0] for r in results] == [200, 200, 429]
    status, body, headers = results[-1]
    assert body["code"] == 30046 and "Via" not in headers  # not a bucket to wait out


async def test_strict_fixture_reports_violations(fake_discord):
    world = fake_discord
    _, chan, _ = _place(world)
    status, _, _ = await api(world, "POST", f"/channels/{chan.id}/messages", {"embeds": [{"title": "t" * 300}]})
    assert status == 400
    from bot.localdiscord.pytest_plugin import strict_problems

    problems = strict_problems(world)
    assert len(problems) == 1 and problems[0].startswith("refused (limits): POST /api/v10/channels/")
    world.violations.clear()  # planted: do not fail this test


async def test_all_planted_violations_leave_the_world_unchanged(world):
    world.checks |= R.ALL_CHECKS
    world.checks.discard(R.RATE_LIMITS)  # a burst of requests, each refused on its body
    _, chan, _ = _place(world)
    for _, _, body, _ in BODY_CASES:
        status, _, _ = await api(world, "POST", f"/channels/{chan.id}/messages", body)
        assert status == 400
    assert chan.messages() == [] and len(world.violations) == len(BODY_CASES)
