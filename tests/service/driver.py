"""Crash-test driver: plays one toy game to the end against a database, printing a line after each commit.

    python -m tests.service.driver DB [--pause SECONDS]

Output: "ACK <key> <version>" once a submission is committed, "DUP <key>" when a retried key returned the
stored result, "DONE <version>" when the game is over.  Every choice is a pure function of the game's
version and the seat, so a restarted driver carries on exactly where the database says the game is.
"""

from __future__ import annotations

import argparse
import asyncio
import random

import tests.service.toygame  # noqa: F401  (registers "toy")
from bot.service import AlreadyJoined, GameService, NotInLobby
from bot.storage import Storage

CHANNEL = 1
HUMANS = (11, 12, 13)
ROUNDS = 50


async def ensure_game(service: GameService) -> int:
    games = await service.list_games(("lobby", "active", "finished"))
    if games and games[0].status == "finished":
        return games[0].id
    game = games[0] if games else await service.create_lobby(1, CHANNEL, HUMANS[0], "p11", kind="toy",
                                                              options={"rounds": ROUNDS}, time_limit=None)
    if game.status == "lobby":
        for user in HUMANS[1:]:
            try:
                await service.join(game.id, user, f"p{user}")
            except AlreadyJoined:
                pass
        if len(game.seats) <= len(HUMANS):
            info = await service.game(game.id)
            if not any(s.is_ai for s in info.seats):
                await service.add_ai(game.id, HUMANS[0])
        try:
            await service.start(game.id, HUMANS[0], seed=4242)
        except NotInLobby:
            pass
    return game.id


async def main(db: str, pause: float) -> None:
    storage = await Storage.open(db)
    service = GameService(storage, default_time_limit=None)
    gid = await ensure_game(service)
    last_key: str | None = None
    while True:
        info = await service.game(gid)
        if info.status != "active":
            print(f"DONE {info.version}", flush=True)
            break
        pend = await service.pending(gid)
        todo = sorted(s for s, p in pend.items() if p.waiting and not p.is_ai)
        seat = todo[0]
        p = pend[seat]
        rng = random.Random(f"{info.version}:{seat}")
        if p.prompt.kind == "choose":
            action = {"type": "choose", "card": rng.choice(p.prompt.choices["options"])}
        else:
            action = {"type": "decide", "take": rng.choice(["points", "draw"])}
        key = f"v{info.version}-s{seat}"
        result = await service.submit(gid, p.user_id, action, idempotency_key=key, prompt_key=p.prompt_key)
        print(f"ACK {key} {result.version}", flush=True)
        if last_key is not None and info.version % 7 == 0:
            again = await service.submit(gid, p.user_id, action, idempotency_key=key)
            assert again.duplicate and again.version == result.version
            print(f"DUP {key}", flush=True)
        last_key = key
        if pause:
            await asyncio.sleep(pause)
    await storage.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--pause", type=float, default=0.0)
    args = parser.parse_args()
    asyncio.run(main(args.db, args.pause))
