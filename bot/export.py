"""Export a game's record: ``python -m bot.export GAME_ID [--db PATH] [-o FILE]``.

The record is the game contract's (engine/api.py ``Game.replay``): the game kind, options, seed, number of
seats, every action still in force as ``[seat, action]`` in order (moves cancelled by an undo are left out),
plus the players' names. ``engine.registry.load_game(record["game"]).replay(record)`` rebuilds the game's
current state exactly, whatever the game.

Exit status: 0 when written, 1 when there is no such started game, 2 when the database does not exist.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot.storage import Storage, Tx

RECORD_FORMAT = 1
# Log entries that are moves (a player's, a timeout's default, an admin's); "undo" entries cancel moves.
MOVE_KINDS = ("action", "timeout", "admin")


class ExportError(LookupError):
    """The game cannot be exported (unknown, or still in its lobby)."""


async def game_record(tx: Tx, game_id: int) -> dict[str, Any]:
    """The replayable record of ``game_id`` as stored now."""
    game = await tx.game(game_id)
    if game is None:
        raise ExportError(f"there is no game #{game_id} in this database")
    if game.seed is None:
        raise ExportError(f"game #{game_id} has not started yet (it is in its lobby)")
    seats = sorted(await tx.seats(game_id), key=lambda s: s.seat)
    moves: dict[int, list[Any]] = {}
    for row in await tx.actions(game_id):
        if row.kind == "undo":
            for seq in row.action.get("undo", []):
                moves.pop(seq, None)
        elif row.kind in MOVE_KINDS:
            moves[row.seq] = [row.seat, row.action]
    return {
        "game": game.kind,
        "format": RECORD_FORMAT,
        "options": game.options,
        "seed": game.seed,
        "seats": len(seats),
        "names": [s.display_name for s in seats],
        "actions": [moves[seq] for seq in sorted(moves)],
        "game_id": game.id,
        "status": game.status,
    }


async def export_game(db: str | Path, game_id: int) -> dict[str, Any]:
    storage = await Storage.open(db)
    try:
        async with storage.reading() as tx:
            return await game_record(tx, game_id)
    finally:
        await storage.close()


def replay_file(path: str | Path) -> dict[str, Any]:
    """Replay an exported record with its game's engine; returns the final public view."""
    from engine.registry import load_game

    record = json.loads(Path(path).read_text(encoding="utf-8"))
    game = load_game(record["game"])
    return game.view(game.replay(record), None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.export", description=__doc__.splitlines()[0])
    parser.add_argument("game_id", type=int, nargs="?", help="the game's number (as in 'Viceroy game #12')")
    parser.add_argument("--db", default=None,
                        help="SQLite file or postgresql:// URL (default: VICEROY_DB, else var/viceroy.db)")
    parser.add_argument("-o", "--output", default=None, help="file to write (default: standard output)")
    parser.add_argument("--replay", metavar="FILE", default=None,
                        help="instead: replay an exported record and print the final public view")
    args = parser.parse_args(argv)
    if args.replay is not None:
        try:
            view = replay_file(args.replay)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"error: cannot replay {args.replay}: {exc}", file=sys.stderr)
            return 1
        sys.stdout.write(json.dumps(view, indent=1, ensure_ascii=False) + "\n")
        return 0
    if args.game_id is None:
        parser.error("give a GAME_ID (or --replay FILE)")
    if args.db is None:
        from bot.config import load_settings

        args.db = str(load_settings().db_path)
    from bot.storage.base import is_postgres_url

    if not is_postgres_url(str(args.db)) and not Path(args.db).exists():
        print(f"error: no database at {args.db}", file=sys.stderr)
        return 2
    try:
        record = asyncio.run(export_game(args.db, args.game_id))
    except ExportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    # Key order is kept: engines may iterate over the action dicts.
    text = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
