"""Forged interactions through the real table cog handlers and the service: none may end in an unhandled
exception ("Something went wrong"), none may go unanswered, none may change the game.

Run: python3 benchmarks/fuzz_interactions.py [--count 10000] [--seed 1]

A two-player Viceroy game is started in a fresh database; each interaction carries a custom id and values
derived from the seats' real prompt controls (another game, seat or prompt key, an unknown operation,
missing or extra parts, values the prompt does not offer: `play:999`, `play:abc`, `zzz`, `9:99`, `²`, 5,000
digits, ...), or a form submission with malformed fields, from the seat's DM, the game's channel or another
server. The interaction objects are stand-ins with discord.py's interface; the cog, presenter, service and
storage are the real ones. Reports the count, the unhandled and unanswered ones, and state changes.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord  # noqa: E402

from bot.games import game_type  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.storage import Storage  # noqa: E402
from bot.ui import checks, ids  # noqa: E402
from bot.ui.drafts import load_draft  # noqa: E402
from cogs.announcer import Announcer  # noqa: E402
from cogs.table import TableCog, _seat_ctx, registered_games  # noqa: E402

FAILED = "Something went wrong"
GUILD, CHANNEL, OTHER_GUILD = 1, 10, 2
JUNK = ["play:999", "play:abc", "zzz", "9:99", "²", "9" * 5000, "9" * 4000, "", ":", "bid:red:99999", "card:-1",
        "card:" + "9" * 30, "slot:0:0:0", "0", "-1", "1e9", "None", "🙂", "a" * 100, "discard:74", "start:0"]


class _Response:
    def __init__(self, out: list[str]) -> None:
        self.out, self.done = out, False

    def is_done(self) -> bool:
        return self.done

    async def defer(self, **_: Any) -> None:
        self.done = True

    async def send_message(self, content: str | None = None, **_: Any) -> None:
        self.done = True
        self.out.append(content or "")

    async def send_modal(self, _modal: Any) -> None:
        self.done = True
        self.out.append("(modal)")

    async def edit_message(self, **_: Any) -> None:
        self.done = True
        self.out.append("(edit)")


class _Followup:
    def __init__(self, out: list[str]) -> None:
        self.out = out

    async def send(self, content: str | None = None, **_: Any) -> None:
        self.out.append(content or "")


class _Interaction:
    """The parts of discord.Interaction the table cog uses."""

    _ids = iter(range(10**12, 10**13))

    def __init__(self, user_id: int, guild_id: int | None, channel_id: int, data: dict | None = None) -> None:
        self.id = next(self._ids)
        self.user = SimpleNamespace(id=user_id, display_name=f"u{user_id}", guild_permissions=None)
        self.guild_id, self.channel_id, self.data = guild_id, channel_id, data or {}
        self.answers: list[str] = []
        self.response = _Response(self.answers)
        self.followup = _Followup(self.answers)
        self.message = None
        self.attachment_size_limit = None
        self.extras: dict = {}
        # When Discord made it: the cog acknowledges a click before the 3 s window closes, counted from here.
        self.created_at = discord.utils.utcnow()
        self.locale = discord.Locale.american_english
        self.type = discord.InteractionType.modal_submit if data else discord.InteractionType.component

    async def edit_original_response(self, **_: Any) -> None:
        self.answers.append("(edit)")


def mutate(rng: random.Random, custom_id: str, offered: set[str]) -> tuple[str, list[str]]:
    parts = custom_id.split(":")
    kind = rng.randrange(7)
    values = [v for v in rng.sample(JUNK, rng.randint(1, 3)) if v not in offered] or ["zzz"]
    if kind == 0:
        return custom_id, values
    if kind == 1:
        parts[1] = rng.choice(["0", "999999", "9" * 18, "9" * 40, "²"])
    elif kind == 2:
        parts[2] = rng.choice(["1", "7", "99", "9" * 5, "-1"])
    elif kind == 3:
        parts[3] = rng.choice(["x", "setup.0", "9" * 20, "auction.99", ""])
    elif kind == 4:
        parts[-1] = rng.choice(["nope", "confirm.x", "gems.zzz", "page99999", "opt", "gems.pass.x"])
    elif kind == 5:
        parts = parts[: rng.randrange(1, len(parts))]
    else:
        parts = [*parts, rng.choice(["extra", "9" * 50])]
    return ":".join(parts), values


async def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    logging.basicConfig(level=logging.CRITICAL)
    report = await fuzz(args.count, args.seed, Path(tempfile.mkdtemp()))
    print(f"forged interactions: {report.count}, unhandled exceptions: {len(report.unhandled)}, "
          f"unanswered: {len(report.unanswered)}, game changed: {report.changed}, {report.seconds:.1f} s "
          f"({report.count / report.seconds:.0f}/s)")
    for item in (report.unhandled + report.unanswered)[:10]:
        print("  ", item)
    return 1 if report.unhandled or report.unanswered or report.changed else 0


async def fuzz(count: int, seed: int, tmp: Path) -> SimpleNamespace:
    """``count`` forged interactions against a new game in ``tmp``: the unhandled and unanswered ones, and
    whether the game changed."""
    storage = await Storage.open(tmp / "fuzz.db")
    service = GameService(storage)
    announcer = Announcer(SimpleNamespace(), service, game_type)
    bot = SimpleNamespace(service=service, announcer=announcer)
    cog = TableCog(bot, service, announcer, registered_games())  # type: ignore[arg-type]
    lobby = await service.create_lobby(GUILD, CHANNEL, 100, "Ann", kind="viceroy", options={"seats": 2})
    await service.join(lobby.id, 101, "Bo")
    await service.start(lobby.id, 100, seed=seed)
    game_id = lobby.id
    rng = random.Random(seed)

    async def snapshot() -> tuple[int, int]:
        info = await service.game(game_id)
        return info.version, len(await service.public_log(game_id))

    before = await snapshot()
    controls: list[tuple[int, str, set[str], list]] = []
    for user, seat in ((100, 0), (101, 1)):
        click = await service.click_context(game_id, user, seat, None)
        ctx, draft = _seat_ctx(click)
        kind = cog.game_of(ctx.kind).presenter.prompt_kind(ctx.prompt)  # type: ignore[arg-type]
        spec = kind.render(ctx, load_draft(click.draft, ctx.key))
        for c in spec.controls():
            offered = {o.value for o in getattr(c, "options", [])}
            controls.append((user, c.custom_id, offered, [f.id for f in (kind.form(ctx, draft, "gems.pass") or
                                                                        SimpleNamespace(fields=[])).fields]))
    unhandled, unanswered, started = [], [], time.perf_counter()
    n = -1
    for n in range(count):
        user, custom_id, offered, fields = rng.choice(controls)
        if rng.random() < 0.2:
            user = rng.choice([100, 101, 555])
        place = rng.random()
        guild, channel = (None, 900 + user) if place < 0.6 else (GUILD, CHANNEL) if place < 0.85 else (OTHER_GUILD, 77)
        forged, values = mutate(rng, custom_id, offered)
        if rng.random() < 0.25:  # a form submission
            control = ids.ControlId.decode(custom_id)
            form_id = f"f:{game_id}:{control.seat if control else 0}:{ids.encode_key(control.key or '') if control else 'x'}:gems.pass"
            form_id = rng.choice([form_id, forged, form_id + ":x", "f:" + "9" * 30])
            field_values = {f: rng.choice(JUNK + ["3", "0", "1"]) for f in rng.sample(fields or ["red"], k=max(1, len(fields) // 2))}
            if rng.random() < 0.3:
                field_values["nope"] = "1"
            interaction = _Interaction(user, guild, channel, {"custom_id": form_id})
            await cog._safe(interaction, cog._form_submit(interaction, form_id, field_values))  # type: ignore[arg-type]
        else:
            interaction = _Interaction(user, guild, channel)
            if ids.claimed(forged):
                await cog.on_prompt_control(interaction, forged, values)  # type: ignore[arg-type]
            else:
                await cog._safe(interaction, cog._refuse(checks.UNKNOWN_CONTROL))  # type: ignore[arg-type]
        if any(FAILED in a for a in interaction.answers):
            unhandled.append((forged, values[:2]))
        if not interaction.answers:
            unanswered.append((forged, values[:2]))
        if n % 500 == 0 and await snapshot() != before:
            break
    elapsed = time.perf_counter() - started
    changed = await snapshot() != before
    await storage.close()
    return SimpleNamespace(count=n + 1, unhandled=unhandled, unanswered=unanswered, changed=changed,
                           seconds=max(elapsed, 1e-9))


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
