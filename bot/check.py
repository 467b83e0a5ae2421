"""Audit: replay every game's action log and compare it with the stored snapshot.

    python -m bot.check --db var/viceroy.db [--repair] [--pack] [--plugin MODULE ...]

Prints one line per started game: OK, MISMATCH (snapshot differs from the replayed log), CORRUPT (snapshot
unreadable) or ERROR (the log itself does not replay).  --repair rewrites bad snapshots from the log.  --pack
packs the outboxes of games that ended before this version packed them at their last announcement (each
game's delivered entries but the newest into one compressed row; see docs/operations.md).
Exit status 0 when every game is OK (or was repaired), 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path

from bot.games import canonical_json
from bot.service import GameService
from bot.storage import CorruptSnapshot, Storage, is_postgres_url


@dataclass
class CheckResult:
    game_id: int
    kind: str
    status: str
    version: int
    verdict: str  # OK | MISMATCH | CORRUPT | MISSING | ERROR
    detail: str = ""
    repaired: bool = False


async def check_database(storage: Storage, *, repair: bool = False) -> list[CheckResult]:
    service = GameService(storage)
    results: list[CheckResult] = []
    async with storage.reading() as tx:
        games = [g for g in await tx.games() if g.seed is not None]
    for game in games:
        async with storage.reading() as tx:
            try:
                replayed = await service.rebuild_state(tx, game)
            except Exception as exc:  # a log that does not replay is the worst case: report it
                results.append(CheckResult(game.id, game.kind, game.status, game.version, "ERROR",
                                           f"{type(exc).__name__}: {exc}"))
                continue
            try:
                snap, problem = await tx.snapshot(game.id), ""
            except CorruptSnapshot as exc:
                snap, problem = None, str(exc)
            last_seq = await tx.last_seq(game.id)
        verdict, detail = "OK", ""
        if problem:
            verdict, detail = "CORRUPT", problem
        elif snap is None:
            verdict, detail = "MISSING", "no snapshot"
        else:
            version, seq, stored = snap
            # Versions also count changes that are not actions (abandoning, replacing a seat), so
            # only the action sequence says whether the snapshot is behind the log.
            if seq != last_seq:
                verdict, detail = "MISMATCH", f"snapshot at seq {seq} (v{version}), log at seq {last_seq}"
            elif canonical_json(stored) != canonical_json(replayed):
                verdict, detail = "MISMATCH", "snapshot differs from the replayed log"
        result = CheckResult(game.id, game.kind, game.status, game.version, verdict, detail)
        if verdict != "OK" and repair:
            async with storage.transaction() as tx:
                current = await tx.game(game.id)
                if current is not None and current.version == game.version:
                    await tx.save_snapshot(game.id, game.version, last_seq, replayed, service.clock.now())
                    result.repaired = True
        results.append(result)
    return results


async def pack_outboxes(storage: Storage) -> tuple[int, int]:
    """Pack the outbox of every game that is over and has nothing left to deliver: (games, entries) packed."""
    async with storage.reading() as tx:
        over = [g.id for g in await tx.games(status=("finished", "abandoned"))]
    games = entries = 0
    for game_id in over:  # one transaction per game: a long run holds no lock for long
        async with storage.transaction() as tx:
            packed = await tx.pack_outbox(game_id)
        games, entries = games + bool(packed), entries + packed
    return games, entries


async def _main(args: argparse.Namespace) -> int:
    for module in args.plugin:
        importlib.import_module(module)  # registers extra game kinds
    if not is_postgres_url(args.db) and not Path(args.db).exists():
        print(f"no database at {args.db}", file=sys.stderr)
        return 2
    storage = await Storage.open(args.db)
    try:
        results = await check_database(storage, repair=args.repair)
        if args.pack:
            games, entries = await pack_outboxes(storage)
            print(f"outboxes packed: {games} games, {entries} entries")
    finally:
        await storage.close()
    bad = 0
    for r in results:
        line = f"game {r.game_id} {r.kind} {r.status} v{r.version}: {r.verdict}"
        if r.detail:
            line += f" ({r.detail})"
        if r.repaired:
            line += " -> repaired from the log"
        print(line)
        if r.verdict != "OK" and not r.repaired:
            bad += 1
    print(f"{len(results)} games checked, {bad} bad")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.check", description=__doc__.splitlines()[1].strip())
    parser.add_argument("--db", required=True, help="a SQLite database path or a postgresql:// URL")
    parser.add_argument("--repair", action="store_true", help="rewrite bad snapshots from the action log")
    parser.add_argument("--pack", action="store_true",
                        help="pack the outboxes of finished games that ended before packing existed")
    parser.add_argument("--plugin", action="append", default=[], help="module to import that registers game kinds")
    args = parser.parse_args(argv)
    return asyncio.run(_main(args))


if __name__ == "__main__":
    sys.exit(main())
