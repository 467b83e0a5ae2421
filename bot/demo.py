"""The offline demo: a whole game through the real bot, service, storage and rendering, on a local fake Discord.

Two simulated people play through the bot's buttons and menus (one of them with DMs closed, so the
"My screen" path is shown too), with AI seats filling the rest of the table. Any hosted game can be played
(`python -m bot --demo pyramido`; Viceroy without a choice). The channel transcript, every DM and every image
are written to a folder.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import time
from pathlib import Path

from bot.app import GameMasterBot
from bot.autoplay import player_class
from bot.config import Settings
from bot.games import game_types
from bot.localdiscord import FakeDiscord, FakeMessage, close_client, connect_client, restore_discord_py

log = logging.getLogger(__name__)

DEFAULT_GAME = "viceroy"
HUMANS = 2  # Ann, and Bo with his DMs closed


class UnknownDemoGame(ValueError):
    """The demo was asked for a game this bot does not host; the message lists those it does."""


def demo_games() -> list[tuple[str, str, str, int]]:
    """Each hosted game a demo can play: (its slash-command group's name, its kind, its title, its seats)."""
    from bot.presenters import UnknownPresenter, presenter_for

    out = []
    for t in game_types():
        try:
            p = presenter_for(t.name)
        except UnknownPresenter:  # a game without a presenter is not offered on Discord either
            continue
        if t.max_seats >= HUMANS:
            out.append((getattr(p, "command_name", None) or t.name, t.name, p.display_name or t.display_name,
                        t.max_seats))
    return out


def demo_game(name: str) -> tuple[str, str, str, int]:
    """The game called ``name`` (its command's name or its kind's): (command, kind, title, seats)."""
    games = demo_games()
    key = name.strip().lower()
    for entry in games:
        if key in (entry[0], entry[1]):
            return entry
    raise UnknownDemoGame(f"there is no game called {name!r} to play: choose one of "
                          f"{', '.join(command for command, *_ in games)}")


def _write_messages(out: list[str], messages: list[FakeMessage], images: Path, prefix: str) -> None:
    for msg in messages:
        stamp = time.strftime("%H:%M:%S", time.localtime(msg.created_at))
        out.append(f"**[{stamp}]**" + (f" {msg.content}" if msg.content else ""))
        for embed in msg.embeds:
            if embed.get("title"):
                out.append(f"> **{embed['title']}**")
            for line in (embed.get("description") or "").splitlines():
                out.append(f"> {line}")
        for att in msg.attachments:
            name = f"{prefix}-{msg.id}-{att.filename}"
            (images / name).write_bytes(att.data)
            out.append(f"![{att.filename}](images/{name})")
        labels = [c.get("label") or c.get("placeholder") for c in msg.iter_components()]
        if labels:
            out.append("> controls: " + " | ".join(str(x) for x in labels if x))
        out.append("")


async def run_demo(settings: Settings, *, game: str = DEFAULT_GAME, seed: int = 7) -> int:
    """Play a demo game of ``game`` and write the transcript; returns a process exit code."""
    command, kind, title, seats = demo_game(game)
    ai = seats - HUMANS
    out_dir = settings.demo_dir
    if out_dir.exists():
        shutil.rmtree(out_dir)
    images = out_dir / "images"
    images.mkdir(parents=True)
    world = FakeDiscord()
    await world.start()
    guild = world.add_guild("Demo server")
    channel = world.add_text_channel(guild, command)
    ann = world.add_user("Ann", guild)
    bo = world.add_user("Bo", guild, dms_open=False)
    settings = Settings(token=world.token, db_path=out_dir / "demo.db", dev_guild_id=guild.id, sync_global=False,
                        default_time_limit=None, log_level=settings.log_level, demo_dir=out_dir,
                        fake_discord=f"{world.host}:{world.port}")
    print(f"Viceroy GM offline demo: a game of {title} is played on a local fake Discord"
          + ("." if settings.token else " (no DISCORD_TOKEN is set)."))
    bot = GameMasterBot(settings, poll_interval=1.0)
    task = await connect_client(world, bot)
    try:
        await world.wait_for(lambda: bool(world.commands(guild)), timeout=10, what="command sync")
        rec = await ann.slash(channel, f"{command} new", seats=seats, ai=ai)
        await world.idle()
        await bo.click(rec.reply, label="Join")
        await world.idle()
        await ann.click(rec.reply, label="Start")
        await world.idle()
        person = player_class(kind)
        players = [person(world, u, channel, seed=seed + i) for i, u in enumerate((ann, bo))]
        started = time.monotonic()
        await asyncio.gather(*(p.run(timeout=600) for p in players))
        await world.idle(timeout=30)
        elapsed = time.monotonic() - started
        game = await bot.service.game_in_channel(channel.id) if bot.service else None  # type: ignore[union-attr]
        games = await bot.service.list_games(statuses=("finished",))  # type: ignore[union-attr]
        scores = await bot.service.final_scores(games[0].id) if games else None  # type: ignore[union-attr]
        names = {s.seat: s.display_name for s in games[0].seats} if games else {}
        await bot.drain()
    finally:
        await close_client(bot, task, world)
        await world.stop()
        restore_discord_py()
    seated = f"Ann, Bo with DMs closed, {ai} AI seat{'s' if ai != 1 else ''}" if ai else "Ann, Bo with DMs closed"
    lines = [f"# Viceroy GM offline demo: {title}", "",
             f"A {seats}-seat game ({seated}) played in {elapsed:.1f} s.", "", f"## The channel #{command}", ""]
    _write_messages(lines, channel.messages(), images, "channel")
    lines += ["", "## Ann's direct messages", ""]
    _write_messages(lines, ann.dms(), images, "dm-ann")
    lines += ["", "## What Bo saw privately (ephemeral replies to My screen)", ""]
    _write_messages(lines, bo.ephemerals()[-6:], images, "eph-bo")
    (out_dir / "transcript.md").write_text("\n".join(lines), encoding="utf-8")
    (out_dir / "scores.json").write_text(json.dumps(scores, indent=2), encoding="utf-8")
    print(f"Game finished in {elapsed:.1f} s (still open: {game is not None}).")
    for s in scores or []:
        print(f"  {names.get(s['seat'], s['seat'])}: {s['total']} points" + ("  (winner)" if s["winner"] else ""))
    print(f"Transcript: {out_dir / 'transcript.md'}")
    print(f"Images:     {images} ({len(list(images.iterdir()))} files)")
    return 0 if scores else 1
