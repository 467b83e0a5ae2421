"""Operator settings: VICEROY_DB_SYNC, and the permission integer / invite link."""

from __future__ import annotations

import discord
import pytest

from bot.config import ConfigError, load_settings
from bot.permissions import (
    CHANNEL_PERMISSIONS,
    INVITE_PERMISSIONS,
    THREAD_PERMISSIONS,
    invite_url,
    missing_permissions,
)
from tests.bot.harness import ROOT


def test_db_sync_defaults_to_normal():
    assert load_settings({}, dotenv=False).db_sync == "NORMAL"


@pytest.mark.parametrize("raw, mode", [("FULL", "FULL"), ("full", "FULL"), (" Normal ", "NORMAL"), ("", "NORMAL")])
def test_db_sync_accepts_full_and_normal(raw, mode):
    assert load_settings({"VICEROY_DB_SYNC": raw}, dotenv=False).db_sync == mode


@pytest.mark.parametrize("raw", ["OFF", "EXTRA", "yes", "2"])
def test_db_sync_refuses_other_modes_naming_the_setting(raw):
    with pytest.raises(ConfigError, match="VICEROY_DB_SYNC must be FULL or NORMAL"):
        load_settings({"VICEROY_DB_SYNC": raw}, dotenv=False)


def test_env_example_lists_db_sync():
    assert "VICEROY_DB_SYNC=" in (ROOT / ".env.example").read_text()


def test_permission_integers_match_discord_py():
    assert CHANNEL_PERMISSIONS == discord.Permissions(view_channel=True, send_messages=True, embed_links=True,
                                                      attach_files=True).value == 52224
    assert THREAD_PERMISSIONS == discord.Permissions(view_channel=True, send_messages_in_threads=True,
                                                     embed_links=True, attach_files=True).value
    assert INVITE_PERMISSIONS == 274877959168


def test_missing_permissions_are_named():
    assert missing_permissions(CHANNEL_PERMISSIONS) == []
    assert missing_permissions(1 << 3) == []  # administrator
    assert missing_permissions(CHANNEL_PERMISSIONS & ~(1 << 15)) == ["Attach Files"]
    assert missing_permissions(0) == ["View Channel", "Send Messages", "Embed Links", "Attach Files"]
    assert missing_permissions(CHANNEL_PERMISSIONS, thread=True) == ["Send Messages in Threads"]


def test_invite_url_carries_scopes_and_the_exact_integer():
    url = invite_url(1234)
    assert url.startswith("https://discord.com/oauth2/authorize?")
    assert "client_id=1234" in url and f"permissions={INVITE_PERMISSIONS}" in url
    assert "scope=bot+applications.commands" in url


def test_readme_names_the_permission_integer():
    readme = (ROOT / "README.md").read_text()
    assert f"permissions={INVITE_PERMISSIONS}" in readme
    for name in ("View Channel", "Send Messages", "Embed Links", "Attach Files", "Send Messages in Threads"):
        assert name in readme


PG = "postgresql://viceroy@db/viceroy"


def test_no_shard_settings_mean_one_plain_connection():
    from bot.app import GameMasterBot, ShardedGameMasterBot, make_bot

    s = load_settings({}, dotenv=False)
    assert (s.sharded, s.shard_count, s.shard_ids) == (False, None, None)
    assert s.owns_guild(12345 << 22) and s.owns_guild(None)
    bot = make_bot(s)
    assert type(bot) is GameMasterBot and not isinstance(bot, ShardedGameMasterBot)


@pytest.mark.parametrize(("raw", "ids"), [("0-2", (0, 1, 2)), ("3", (3,)), ("5, 1-2", (1, 2, 5)), ("0-1,7", (0, 1, 7))])
def test_shard_ids_take_ids_and_ranges(raw, ids):
    s = load_settings({"VICEROY_SHARDS": "8", "VICEROY_SHARD_IDS": raw, "VICEROY_DB": PG}, dotenv=False)
    assert (s.sharded, s.shard_count, s.shard_ids) == (True, 8, ids)


def test_a_sharded_process_owns_the_guilds_of_its_shards():
    from bot.app import ShardedGameMasterBot, make_bot

    s = load_settings({"VICEROY_SHARDS": "3", "VICEROY_SHARD_IDS": "1", "VICEROY_DB": PG}, dotenv=False)
    assert [s.owns_guild((n << 22) | 77) for n in range(6)] == [False, True, False, False, True, False]
    assert not s.owns_guild(None)  # DMs arrive on shard 0
    assert load_settings({"VICEROY_SHARDS": "3", "VICEROY_SHARD_IDS": "0", "VICEROY_DB": PG},
                         dotenv=False).owns_guild(None)
    bot = make_bot(s)
    assert isinstance(bot, ShardedGameMasterBot)
    assert (bot.shard_count, bot.shard_ids) == (3, [1])
    assert not bot.owns_guild(0) and bot.owns_guild(1 << 22)


def test_auto_shards_run_every_shard_in_this_process():
    from bot.app import make_bot

    s = load_settings({"VICEROY_SHARDS": "auto"}, dotenv=False)
    assert (s.sharded, s.shard_count, s.shard_ids) == (True, None, None)
    assert s.owns_guild(5 << 22)
    bot = make_bot(s)
    assert bot.shard_count is None and bot.shard_ids is None  # asked of GET /gateway/bot at connect


@pytest.mark.parametrize(("env", "message"), [
    ({"VICEROY_SHARD_IDS": "0"}, "needs VICEROY_SHARDS"),
    ({"VICEROY_SHARDS": "0"}, "auto or a number of shards"),
    ({"VICEROY_SHARDS": "many"}, "VICEROY_SHARDS must be a whole number"),
    ({"VICEROY_SHARDS": "auto", "VICEROY_SHARD_IDS": "0"}, "fixed VICEROY_SHARDS count"),
    ({"VICEROY_SHARDS": "3", "VICEROY_SHARD_IDS": "3", "VICEROY_DB": PG}, "from 0 to 2"),
    ({"VICEROY_SHARDS": "3", "VICEROY_SHARD_IDS": "2-1", "VICEROY_DB": PG}, "runs backwards"),
    ({"VICEROY_SHARDS": "3", "VICEROY_SHARD_IDS": "0,0", "VICEROY_DB": PG}, "names a shard twice"),
    ({"VICEROY_SHARDS": "3", "VICEROY_SHARD_IDS": "x", "VICEROY_DB": PG}, "ids or ranges"),
    ({"VICEROY_SHARDS": "3", "VICEROY_SHARD_IDS": "0"}, "PostgreSQL"),
])
def test_bad_shard_settings_are_refused_with_the_reason(env, message):
    with pytest.raises(ConfigError, match=message):
        load_settings(env, dotenv=False)


def test_all_shards_of_a_count_may_share_a_sqlite_file():
    s = load_settings({"VICEROY_SHARDS": "2", "VICEROY_SHARD_IDS": "0-1"}, dotenv=False)
    assert s.shard_ids == (0, 1)


def test_env_example_lists_the_shard_settings():
    text = (ROOT / ".env.example").read_text()
    assert "VICEROY_SHARDS=" in text and "VICEROY_SHARD_IDS=" in text
