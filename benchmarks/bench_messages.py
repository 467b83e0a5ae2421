"""What a 2-player Viceroy game costs its players: taps per turn, new DMs per player per turn, channel posts
per turn, bytes uploaded per game.

    python benchmarks/bench_messages.py [--games 3] [--seed 11]

Two simulated people (bot/autoplay.py: they read each prompt and answer through the bot's real menus,
buttons and forms, one complete decision at a time) play whole games on the local fake Discord (strict,
rate limits on). Counted from Start to the final post (bot/localdiscord/tally.py): every tap (button,
menu choice, form), every new DM and whether it notified (messages sent `silent` do not), every channel
post, every uploaded byte. Targets (issue 15): taps per turn median <= 5, new DMs per player per turn <= 2,
channel posts per turn <= 3, <= 8 MB uploaded per game.
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

from bot.app import GameMasterBot  # noqa: E402
from bot.autoplay import SimulatedPlayer  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.localdiscord import FakeDiscord, close_client, connect_client, restore_discord_py  # noqa: E402
from bot.localdiscord.tally import tally  # noqa: E402

TARGET_TAPS = 5
TARGET_DMS = 2
TARGET_POSTS = 3
TARGET_MB = 8.0


async def play_one(seed: int, tmp: Path) -> dict:
    world = FakeDiscord()
    await world.start()
    guild = world.add_guild("Messages")
    channel = world.add_text_channel(guild, "viceroy")
    users = [world.add_user(name, guild) for name in ("Ann", "Bo")]
    settings = Settings(token=world.token, db_path=tmp / f"messages-{seed}.db", dev_guild_id=guild.id,
                        sync_global=False, default_time_limit=None, log_level="WARNING", demo_dir=tmp,
                        fake_discord=f"{world.host}:{world.port}")
    bot = GameMasterBot(settings, poll_interval=1.0)
    task = await connect_client(world, bot)
    try:
        await world.wait_for(lambda: bool(world.commands(guild)), timeout=30, what="command sync")
        rec = await users[0].slash(channel, "viceroy new", seats=2, timeout=30)
        await world.idle()
        await users[1].click(rec.reply, label="Join", timeout=30)
        await world.idle()
        since, uploads = world.snowflake(), len(world.uploads)
        await users[0].click(rec.reply, label="Start", timeout=30)
        await world.idle()
        players = [SimulatedPlayer(world, u, channel, seed=seed * 10 + i) for i, u in enumerate(users)]
        await asyncio.gather(*(p.run(timeout=1200) for p in players))
        await world.idle(timeout=60)
        await bot.drain()
        await world.idle(timeout=60)
    finally:
        await close_client(bot, task, world)
        await world.stop()
        restore_discord_py()
    t = tally(world, channel, users, since=since, uploads_since=uploads)
    return {
        "turns": len(t.turns),
        "taps": t.median_taps(users),
        "dms": t.max_dms(users),
        "dms_mean": statistics.mean(t.per_player_turn(t.dms, users)),
        "notifying": t.max_notifying_dms(users),
        "posts": t.max_posts(),
        "posts_mean": statistics.mean(t.posts[x] for x in t.turns),
        "mb": t.uploaded / 1e6,
        "refused": len(world.violations),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = [asyncio.run(play_one(args.seed + g, Path(tmp))) for g in range(args.games)]
    print("| game | turns | taps per turn (median) | new DMs per player per turn (max / mean) | of them notifying (max) "
          "| channel posts per turn (max / mean) | MB uploaded | refused |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for i, r in enumerate(results):
        print(f"| {i + 1} | {r['turns']} | {r['taps']:g} | {r['dms']} / {r['dms_mean']:.1f} | {r['notifying']} | "
              f"{r['posts']} / {r['posts_mean']:.1f} | {r['mb']:.1f} | {r['refused']} |")
    print(f"\ntargets: taps per turn median <= {TARGET_TAPS}, new DMs per player per turn <= {TARGET_DMS}, "
          f"channel posts per turn <= {TARGET_POSTS}, <= {TARGET_MB:g} MB per game")


if __name__ == "__main__":
    main()
