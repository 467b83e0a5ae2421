"""Slash commands in Swedish: every command and option the bot syncs carries a Swedish name and description
(Discord shows them to Swedish clients), and the fake refuses localisations Discord would refuse."""

from __future__ import annotations

import pytest

from bot.i18n import command_names
from tests.bot.harness import new_table
from tests.localdiscord.test_strictness import api, error_at

GAME_GROUPS = {"viceroy", "splendorduel", "pyramido"}  # proper names: the same in every language


def _walk(item: dict, path: tuple[str, ...] = ()):
    yield path + (item["name"],), item
    for option in item.get("options") or []:
        yield from _walk(option, path + (item["name"],))


async def test_every_synced_command_and_option_has_a_swedish_name_and_description(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        synced = fake_discord.commands(table.guild)
    finally:
        await table.stop_bot()
    assert {c["name"] for c in synced} >= GAME_GROUPS
    names = command_names("sv")
    for cmd in synced:
        if cmd["name"] not in GAME_GROUPS:
            continue  # a test-only game registered by other tests (the toy game) ships no translations
        for path, item in _walk(cmd):
            if item["name"] not in GAME_GROUPS:
                assert item["name"] in names, f"/{' '.join(path)} has no Swedish name in data/i18n/sv/commands.json"
                if names[item["name"]] != item["name"]:
                    assert item.get("name_localizations", {}).get("sv-SE") == names[item["name"]], path
            assert "sv-SE" in (item.get("description_localizations") or {}), f"/{' '.join(path)}: no Swedish description"
    new = next(o for o in next(c for c in synced if c["name"] == "viceroy")["options"] if o["name"] == "new")
    assert new["name_localizations"] == {"sv-SE": "ny"}
    assert new["description_localizations"]["sv-SE"] == "Öppna en Viceroy-lobby i den här kanalen"


def _command(**extra) -> dict:
    return {"type": 1, "name": "viceroy", "description": "Play", **extra}


@pytest.mark.parametrize(("case", "command", "path"), [
    ("upper-case localised name", _command(name_localizations={"sv-SE": "Ny"}), (0, "name_localizations", "sv-SE")),
    ("unknown locale", _command(name_localizations={"sv": "ny"}), (0, "name_localizations", "sv")),
    ("localised description over 100", _command(description_localizations={"sv-SE": "x" * 101}),
     (0, "description_localizations", "sv-SE")),
    ("option name with a space", _command(options=[{"type": 3, "name": "time limit", "description": "d"}]),
     (0, "options", 0, "name")),
    ("empty description", _command(description=""), (0, "description")),
])
async def test_command_localisations_discord_refuses_are_refused(fake_discord, case, command, path):
    fake_discord.strict = False  # planted on purpose
    status, body, _ = await api(fake_discord, "PUT", f"/applications/{fake_discord.application_id}/commands", [command])
    assert status == 400 and body["code"] == 50035, case
    assert error_at(body, path), case
    assert fake_discord.global_commands == []


async def test_valid_localisations_are_stored(fake_discord):
    command = _command(name_localizations={"sv-SE": "viceroy"}, description_localizations={"sv-SE": "Spela"},
                       options=[{"type": 1, "name": "new", "description": "Open", "name_localizations": {"sv-SE": "ny"},
                                 "description_localizations": {"sv-SE": "Öppna"}}])
    status, body, _ = await api(fake_discord, "PUT", f"/applications/{fake_discord.application_id}/commands", [command])
    assert status == 200, body
    assert fake_discord.global_commands[0]["options"][0]["name_localizations"] == {"sv-SE": "ny"}
