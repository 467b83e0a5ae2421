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
