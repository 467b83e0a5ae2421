"""Discord traffic of a 4-player game: REST requests per decision and bytes uploaded per game.

    python benchmarks/bench_traffic.py [--games 1] [--seed 5]

Four simulated people play a whole game through the real bot on the local fake Discord (strict, rate limits
on). Counted: every REST request the bot sends after Start (callbacks, follow-ups, DMs, edits), every file
it uploads, and every decision a player made (one answered prompt, however many clicks it took).
Targets (issue 16): at most 5 requests per decision, at most 15 MB uploaded per game.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fake_game import play_game  # noqa: E402

TARGET_REQUESTS_PER_DECISION = 5.0
TARGET_MB_PER_GAME = 15.0


async def play_one(seed: int, tmp: Path) -> dict:
    game = await play_game(["Ann", "Bo", "Cy", "Di"], seed, tmp, label="traffic")
    world = game.world
    requests = world.requests[game.first_request:]
    uploads = world.uploads[game.first_upload:]
    mb_by_file: Counter[str] = Counter()
    for name, size in uploads:
        mb_by_file[name] += size / 1e6
    decisions = game.decisions
    return {
        "decisions": decisions,
        "requests": len(requests),
        "per_decision": len(requests) / max(decisions, 1),
        "uploads": len(uploads),
        "mb": sum(size for _, size in uploads) / 1e6,
        "by_route": Counter(f"{r.method} {_route(r.path)}" for r in requests),
        "by_file": Counter(name for name, _ in uploads),
        "mb_by_file": mb_by_file,
        "violations": len(world.violations),
        "seconds": game.seconds,
    }


def _route(path: str) -> str:
    parts = path.split("/")
    return "/".join("{id}" if p.isdigit() or len(p) > 40 else p for p in parts)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = [asyncio.run(play_one(args.seed + g, Path(tmp))) for g in range(args.games)]
    per_decision = statistics.median(r["per_decision"] for r in results)
    mb = statistics.median(r["mb"] for r in results)
    print("| game | decisions | REST requests | per decision | uploads | MB uploaded | refused | seconds |")
    print("|-----:|----------:|--------------:|-------------:|--------:|------------:|--------:|--------:|")
    for i, r in enumerate(results):
        print(f"| {i + 1} | {r['decisions']} | {r['requests']} | {r['per_decision']:.2f} | {r['uploads']} | "
              f"{r['mb']:.1f} | {r['violations']} | {r['seconds']:.0f} |")
    print(f"\nmedian: {per_decision:.2f} requests per decision (target <= {TARGET_REQUESTS_PER_DECISION}), "
          f"{mb:.1f} MB uploaded per game (target <= {TARGET_MB_PER_GAME})")
    last = results[-1]
    print("\nrequests by route:", ", ".join(f"{k} {v}" for k, v in last["by_route"].most_common(8)))
    print("uploads by file:", ", ".join(f"{k} {v} ({last['mb_by_file'][k]:.1f} MB)"
                                        for k, v in last["by_file"].most_common(8)))


if __name__ == "__main__":
    main()
