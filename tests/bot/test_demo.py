"""The offline demo (`python -m bot` with no token, or `python -m bot --demo GAME`): a whole game of each
hosted game through the real bot on the local fake Discord, its transcript, pictures and scores written."""

from __future__ import annotations

import json

import pytest

from bot.__main__ import main
from bot.config import Settings
from bot.demo import demo_games, run_demo

GAMES = [("viceroy", "Viceroy", 4), ("splendorduel", "Splendor Duel", 2), ("pyramido", "Pyramido", 4)]


def test_the_demo_offers_every_hosted_game_by_its_command():
    offered = {(command, title, seats) for command, _, title, seats in demo_games()}
    assert set(GAMES) <= offered


@pytest.mark.parametrize(("command", "title", "seats"), GAMES)
async def test_the_demo_plays_a_whole_game(tmp_path, capsys, command, title, seats):
    settings = Settings(token=None, db_path=tmp_path / "unused.db", dev_guild_id=None, sync_global=False,
                        default_time_limit=None, log_level="WARNING", demo_dir=tmp_path / "demo", fake_discord=None)
    assert await run_demo(settings, game=command) == 0
    out = tmp_path / "demo"
    transcript = (out / "transcript.md").read_text(encoding="utf-8")
    assert transcript.startswith(f"# Viceroy GM offline demo: {title}\n")
    assert f"## The channel #{command}" in transcript and "## Ann's direct messages" in transcript
    scores = json.loads((out / "scores.json").read_text(encoding="utf-8"))
    assert len(scores) == seats and any(s["winner"] for s in scores)
    pictures = [p.name for p in (out / "images").iterdir()]
    assert any(name.startswith("channel-") and name.endswith(".png") for name in pictures)
    # Bo's DMs are closed: he played through "My screen", privately, and was pinged in the channel
    assert "**[" in transcript.split("## What Bo saw privately")[1]
    assert "press **My screen** (I cannot DM you)" in transcript.split("## Ann's direct messages")[0]
    assert f"of {title} is played on a local fake Discord" in capsys.readouterr().out


def test_an_unknown_demo_game_is_named_with_the_choices(capsys):
    assert main(["--demo", "chess"]) == 2
    err = capsys.readouterr().err
    assert "'chess'" in err and "pyramido" in err and "splendorduel" in err and "Traceback" not in err
