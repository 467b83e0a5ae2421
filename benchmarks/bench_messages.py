"""What a 2-player Viceroy game costs its players: taps per turn, new DMs per player per turn, channel posts
per turn, bytes uploaded per game.

    python benchmarks/bench_messages.py [--games 3] [--seed 11]

Two simulated people (bot/autoplay.py: they read each prompt and answer through the bot's real menus,
buttons and forms, one complete decision at a time, never an option marked as not possible) play whole games
on the local fake Discord (strict, rate limits on). Counted from Start to the final post
(bot/localdiscord/tally.py): every tap (button, menu choice, form; a tap on Back is a dead end), every new DM
and whether it notified (messages sent `silent` do not), every channel post, every uploaded byte. Targets
(issue 15): taps per turn median <= 5 and no dead end, new DMs per player per turn <= 2, channel posts per
turn <= 3, <= 8 MB uploaded per game. A turn is counted from its table message (bot/localdiscord/tally.py).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fake_game import play_game  # noqa: E402
from bot.localdiscord.tally import tally  # noqa: E402

TARGET_TAPS = 5
TARGET_DMS = 2
TARGET_POSTS = 3
TARGET_MB = 8.0


async def play_one(seed: int, tmp: Path) -> dict:
    game = await play_game(["Ann", "Bo"], seed, tmp, label="messages")
    users = game.users
    t = tally(game.world, game.channel, users, since=game.since, uploads_since=game.first_upload)
    dms = t.per_player_turn(t.dms, users)
    return {
        "turns": len(t.turns),
        "taps": t.median_taps(users),
        "dead_ends": sum(t.dead_ends.values()),
        "dms": t.max_dms(users),
        "dms_median": statistics.median(dms),
        "dms_mean": statistics.mean(dms),
        "notifying": t.max_notifying_dms(users),
        "posts": t.max_posts(),
        "posts_median": t.median_posts(),
        "posts_mean": statistics.mean(t.posts[x] for x in t.turns),
        "mb": t.uploaded / 1e6,
        "refused": len(game.world.violations),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = [asyncio.run(play_one(args.seed + g, Path(tmp))) for g in range(args.games)]
    print("| game | turns | taps per turn (median) | dead ends | new DMs per player per turn (median / mean / max) "
          "| of them notifying (max) | channel posts per turn (median / mean / max) | MB uploaded | refused |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for i, r in enumerate(results):
        print(f"| {i + 1} | {r['turns']} | {r['taps']:g} | {r['dead_ends']} | {r['dms_median']:g} / {r['dms_mean']:.1f} / "
              f"{r['dms']} | {r['notifying']} | {r['posts_median']:g} / {r['posts_mean']:.1f} / {r['posts']} | "
              f"{r['mb']:.1f} | {r['refused']} |")
    print(f"\ntargets: taps per turn median <= {TARGET_TAPS}, new DMs per player per turn <= {TARGET_DMS}, "
          f"channel posts per turn <= {TARGET_POSTS}, <= {TARGET_MB:g} MB per game")


if __name__ == "__main__":
    main()
