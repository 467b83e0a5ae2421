"""``python -m bot.export GAME_ID``: the record replays to the game's stored state."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys

import pytest

from bot.clock import ManualClock
from bot.export import ExportError, export_game, main
from bot.games import canonical_json, get_kind
from bot.service import GameService
from bot.storage import Storage
from engine.registry import load_game
from tests.bot.harness import ROOT


async def _played_game(db, *, moves: int, undo: bool) -> tuple[int, dict]:
    """A 2-human + 1-AI Viceroy game with ``moves`` human moves (default actions), optionally one undo."""
    storage = await Storage.open(db)
    try:
        seeds = itertools.count(4242)
        service = GameService(storage, clock=ManualClock(1_800_000_000.0), seed_source=lambda: next(seeds))
        game = await service.create_lobby(1, 10, 100, "Ann", kind="viceroy")
        await service.join(game.id, 101, "Bo")
        await service.add_ai(game.id, 100)
        await service.start(game.id, 100)
        kind = get_kind("viceroy")
        counter = itertools.count()
        done = 0
        while done < moves:
            pending = await service.pending(game.id)
            humans = [p for p in pending.values() if not p.is_ai and p.waiting]
            if not humans:
                break
            state = await service.full_state(game.id)
            for p in humans:
                action = kind.default_action(state, p.seat)
                await service.submit(game.id, p.user_id, action, idempotency_key=f"k{next(counter)}")
                done += 1
                if done == 3 and undo:
                    await service.undo(game.id, 100)
                break
        return game.id, await service.full_state(game.id)
    finally:
        await storage.close()


@pytest.mark.parametrize("undo", [False, True])
async def test_exported_record_replays_to_the_same_state(tmp_path, undo):
    db = tmp_path / "v.db"
    game_id, state = await _played_game(db, moves=12, undo=undo)
    record = await export_game(db, game_id)
    assert record["game"] == "viceroy" and record["seats"] == 3 and record["names"][:2] == ["Ann", "Bo"]
    assert record["seed"] == 4242 and record["actions"]
    assert canonical_json(load_game(record["game"]).replay(record)) == canonical_json(state)
    assert canonical_json(get_kind(record["game"]).replay(record)) == canonical_json(state)


async def test_undone_moves_are_left_out(tmp_path):
    db = tmp_path / "v.db"
    game_id, _ = await _played_game(db, moves=12, undo=True)
    storage = await Storage.open(db)
    try:
        async with storage.reading() as tx:
            logged = [r for r in await tx.actions(game_id) if r.kind != "undo"]
    finally:
        await storage.close()
    record = await export_game(db, game_id)
    assert len(record["actions"]) < len(logged)


async def test_lobby_and_unknown_games_are_refused(tmp_path):
    db = tmp_path / "v.db"
    storage = await Storage.open(db)
    try:
        lobby = await GameService(storage).create_lobby(1, 10, 100, "Ann", kind="viceroy")
    finally:
        await storage.close()
    with pytest.raises(ExportError, match="has not started"):
        await export_game(db, lobby.id)
    with pytest.raises(ExportError, match="no game #999"):
        await export_game(db, 999)


def test_command_line_writes_a_file_that_replays(tmp_path):
    db = tmp_path / "v.db"
    game_id, state = asyncio.run(_played_game(db, moves=6, undo=False))
    out = tmp_path / "game.json"
    assert main([str(game_id), "--db", str(db), "-o", str(out)]) == 0
    record = json.loads(out.read_text())
    assert canonical_json(load_game(record["game"]).replay(record)) == canonical_json(state)
    cli = subprocess.run([sys.executable, "-m", "bot.export", str(game_id), "--db", str(db)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0 and json.loads(cli.stdout) == record, cli.stderr
    game = load_game("viceroy")
    cli = subprocess.run([sys.executable, "-m", "bot.export", "--replay", str(out)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0, cli.stderr
    assert canonical_json(json.loads(cli.stdout)) == canonical_json(game.view(state, None))


def test_command_line_exit_codes(tmp_path, capsys):
    assert main(["1", "--db", str(tmp_path / "missing.db")]) == 2
    assert "no database" in capsys.readouterr().err
