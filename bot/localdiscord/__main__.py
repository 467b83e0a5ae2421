"""Run the fake Discord on its own for the offline demo: ``python -m bot.localdiscord --port 8765``.

It creates one guild with a game channel and a few players, prints the environment a bot needs
(VICEROY_FAKE_DISCORD and DISCORD_TOKEN) and logs what the bot posts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from .server import FakeDiscord


async def _serve(port: int, players: list[str], token: str | None) -> None:
    world = FakeDiscord(token=token)
    guild = world.add_guild("Viceroy Demo")
    chan = world.add_text_channel(guild, "game-1")
    for name in players:
        world.add_user(name, guild)
    host, real_port = await world.start(port=port)
    print(f"fake Discord listening on {host}:{real_port}", flush=True)
    for key, value in world.env().items():
        print(f"export {key}={value}", flush=True)
    print(f"guild {guild.id}, channel #{chan.name} {chan.id}, players "
          + ", ".join(f"{u.name}={u.id}" for u in world.users.values() if not u.bot and u is not world.owner), flush=True)
    seen: set[tuple[int, int]] = set()
    try:
        while True:
            await asyncio.sleep(0.5)
            for msg in list(world.messages.values()):
                key = (msg.id, msg.edits)
                if key in seen:
                    continue
                seen.add(key)
                where = f"DM {world.users[world.channels[msg.channel_id].recipient_id or 0].name}" \
                    if world.channels[msg.channel_id].type == 1 else f"#{world.channels[msg.channel_id].name}"
                tag = " (ephemeral)" if msg.ephemeral else ""
                print(f"[{where}]{tag} {msg.content!r} files={msg.filenames} embeds={len(msg.embeds)}", flush=True)
    finally:
        await world.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--token", default=None, help="token the fake accepts (default: random)")
    parser.add_argument("--players", default="Ann,Bob,Cid", help="comma-separated player names")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args.port, [p for p in args.players.split(",") if p], args.token))


if __name__ == "__main__":
    main()
