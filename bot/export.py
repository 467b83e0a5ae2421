"""Export a game's record: ``python -m bot.export GAME_ID [--db PATH] [-o FILE]``.

The record holds the game kind, options, seed, seats (display names, seat 0 first) and every action still in
force, in order (moves cancelled by an undo are left out). It replays to the game's current state with the
engine's ``replay`` (``python -m engine.viceroy replay FILE`` for Viceroy); see docs/game-records.md.

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
    moves: dict[int, dict[str, Any]] = {}
    for row in await tx.actions(game_id):
        if row.kind == "undo":
            for seq in row.action.get("undo", []):
                moves.pop(seq, None)
        elif row.kind in MOVE_KINDS:
            moves[row.seq] = {"seat": row.seat, "action": row.action}
    return {
        "game": game.kind,
        "format": RECORD_FORMAT,
        "options": game.options,
        "seed": game.seed,
        "seats": [s.display_name for s in seats],
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.export", description=__doc__.splitlines()[0])
    parser.add_argument("game_id", type=int, help="the game's number (as in 'Viceroy game #12')")
    parser.add_argument("--db", default=None, help="SQLite database (default: VICEROY_DB, else var/viceroy.db)")
    parser.add_argument("-o", "--output", default=None, help="file to write (default: standard output)")
    args = parser.parse_args(argv)
    if args.db is None:
        from bot.config import load_settings

        args.db = str(load_settings().db_path)
    if not Path(args.db).exists():
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
