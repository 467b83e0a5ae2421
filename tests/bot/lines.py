"""What the channel should show of a game's public log, and what it does show (for the durability tests)."""

from __future__ import annotations

import re
from itertools import groupby
from pathlib import Path

from bot.localdiscord import FakeChannel

LINE_NONCE = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")  # game.version.part: a chunk of a commit's public lines


def shown_lines(channel: FakeChannel, game_id: int) -> list[str]:
    """The public event lines the channel shows for the game, in order (messages the outbox posted)."""
    out: list[str] = []
    for msg in channel.messages():
        m = LINE_NONCE.match(msg.nonce or "")
        if m and int(m.group(1)) == game_id:
            out += msg.content.split("\n")
    return out


async def expected_lines(db: Path, game_id: int) -> list[str]:
    """Every public line of the game's stored log, rendered as the announcer renders it, in order."""
    from bot.games import game_type
    from bot.presenters import presenter_for
    from bot.service import GameService
    from bot.storage import Storage
    from bot.ui.texts import names_map
    from cogs.announcer import Announcer

    storage = await Storage.open(db)
    try:
        service = GameService(storage)
        info = await service.game(game_id)
        log = await service.public_log(game_id)
    finally:
        await storage.close()
    announcer = Announcer(None, service, game_type)  # type: ignore[arg-type]  (renders only)
    presenter = presenter_for(info.kind)
    names = names_map(info.seats)
    lines: list[str] = []
    for _, group in groupby(log, key=lambda e: e.version):
        lines += announcer.notice_lines(presenter, info.kind, [e.event for e in group], names, [])
    return "\n".join(lines).split("\n") if lines else []
