"""What a language's catalogue still lacks: plays whole games through the real bot on the local fake Discord,
records every text of every message as it was sent or edited (content, embeds, buttons, menus), and lists the
parts the catalogue leaves in English, most frequent first, with numbers and player names made placeholders
so that one template covers them all.

    python scripts/i18n_missing.py --locale sv --game viceroy --seats 2 --games 2 [--modules darkness,aristocrats]
    python scripts/i18n_missing.py --locale sv --game splendorduel
    python scripts/i18n_missing.py --locale sv --game pyramido --seats 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import GameMasterBot  # noqa: E402
from bot.autoplay import SimulatedPlayer  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.i18n import catalogue  # noqa: E402
from bot.localdiscord import FakeDiscord, close_client, connect_client, restore_discord_py  # noqa: E402
from tests.i18n.english import ENGLISH, PYRAMIDO, SPLENDOR_DUEL, english_left, message_texts  # noqa: E402

NAMES = ("Ann", "Bo", "Cy", "Di")


def normalise(part: str, names: tuple[str, ...]) -> str:
    for name in names:
        part = re.sub(rf"\b{re.escape(name)}\b", "{who}", part)
    return re.sub(r"\d+", "{n}", part)


def neutral(template: str) -> bool:
    """A part with no words once names, numbers and board squares (B3) are taken out reads the same in every
    language ("Ann 12", "C4")."""
    return not re.search(r"[^\W\d_]", re.sub(r"\{who\}|\{n\}|\b[A-E]\{n\}", "", template))


def player_for(game: str, world: FakeDiscord, user: Any, channel: Any, seed: int) -> SimulatedPlayer:
    """A simulated person for the game (the games' own test players know their prompts)."""
    if game == "splendorduel":
        from tests.splendor_duel.sim import SplendorPlayer

        return SplendorPlayer(world, user, channel, seed=seed)
    if game == "pyramido":
        from tests.pyramido.test_e2e import architect

        return SimulatedPlayer(world, user, channel, seed=seed, strategy=architect)
    return SimulatedPlayer(world, user, channel, seed=seed)


async def play(game: str, seed: int, seats: int, modules: list[str], tmp: Path, seen: list[str]) -> None:
    world = FakeDiscord()
    await world.start()
    guild = world.add_guild("Language check")
    channel = world.add_text_channel(guild, game)
    users = [world.add_user(NAMES[i], guild) for i in range(seats)]
    original = world._apply_edit

    def recording(msg: Any, body: dict, files: dict, *, creating: bool = False) -> None:
        original(msg, body, files, creating=creating)
        seen.extend(message_texts(msg))

    world._apply_edit = recording  # type: ignore[method-assign]
    settings = Settings(token=world.token, db_path=tmp / f"lang{seed}.db", dev_guild_id=guild.id, sync_global=False,
                        default_time_limit=None, log_level="WARNING", demo_dir=tmp / "demo",
                        fake_discord=f"{world.host}:{world.port}")
    bot = GameMasterBot(settings, poll_interval=1.0)
    task = await connect_client(world, bot)
    try:
        await world.wait_for(lambda: bool(world.commands(guild)), timeout=10, what="command sync")
        options: dict[str, Any] = {"seats": seats} if game != "splendorduel" else {}
        if modules:
            options["modules"] = ",".join(modules)
        rec = await users[0].slash(channel, f"{game} new", **options)
        await world.idle()
        for user in users[1:]:
            await user.click(rec.reply, label="Join")
            await world.idle()
        await users[0].click(rec.reply, label="Start")
        await world.idle()
        players = [player_for(game, world, u, channel, seed * 10 + i) for i, u in enumerate(users)]
        await asyncio.gather(*(p.run(timeout=600) for p in players))
        await world.idle(timeout=30)
        await users[0].slash(channel, f"{game} rules")
        await world.idle()
        await bot.drain()
    finally:
        await close_client(bot, task, world)
        await world.stop()
        restore_discord_py()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locale", default="sv")
    parser.add_argument("--game", default="viceroy", help="the game's command: viceroy, splendorduel, pyramido")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--modules", default="")
    parser.add_argument("--json", type=Path, default=None, help="write the missing parts and counts here")
    args = parser.parse_args()
    modules = [m for m in args.modules.split(",") if m]
    seen: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.games):
            asyncio.run(play(args.game, seed, args.seats, modules, Path(tmp), seen))
    package = {"splendorduel": "splendor_duel"}.get(args.game, args.game)
    cat = catalogue(args.locale, package)
    # The rules page is translated as a whole file (data/<game>/rules.<locale>.md, checked by
    # tests/i18n/test_rules_pages.py), not through the catalogue: its lines are not missing entries.
    rules_page = " ".join((ROOT / "data" / package / "rules.md").read_text(encoding="utf-8").split())
    names = NAMES[: args.seats]
    missing: Counter[str] = Counter()
    for text in seen:
        for part in cat.missing(text, known=names):
            template = normalise(part, names)
            if " ".join(part.split()) not in rules_page and not neutral(template):
                missing[template] += 1
    total = len(seen)
    print(f"{total} texts seen, {len(missing)} distinct parts not in the {args.locale} catalogue"
          f" (left out: the rules page's lines, which it translates as a whole, and parts with no words)")
    for part, count in missing.most_common():
        print(f"{count:6d}  {part}")
    # A template with a wide placeholder ("{x}: a diamond") can carry English through in its value, which the
    # catalogue does not count as missing: the translated lines are also scanned for the English words the
    # whole-game tests look for (tests/i18n/english.py).
    words = ENGLISH | {"pyramido": PYRAMIDO, "splendor_duel": SPLENDOR_DUEL}.get(package, frozenset())
    leaks: Counter[str] = Counter()
    for text in seen:
        for line in text.split("\n"):
            translated = cat.text(line)
            if english_left(translated, set(names), words) and " ".join(line.split()) not in rules_page:
                leaks[normalise(translated, names)] += 1
    print(f"{len(leaks)} distinct translated lines with English words left in them")
    for line, count in leaks.most_common():
        print(f"{count:6d}  {line}")
    if args.json:
        args.json.write_text(json.dumps(dict(missing.most_common()), indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
