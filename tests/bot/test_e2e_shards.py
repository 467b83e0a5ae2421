"""Three bot processes over three shards on one PostgreSQL database, killed (SIGKILL) at random while six
games are played, and started again.

Every server is on another shard; half the players have their DMs open (their prompts and clicks are DMs,
which reach shard 0 whatever the game's server), the others play from the channel ("My screen", their
server's shard).  Some players let prompts run out, so deadlines fire while processes die and return.

At the end: every game is finished; every stored player action is a click that player made, every click
the bot confirmed is stored, once; no prompt was answered twice; every prompt a player let run out was
answered by exactly one timeout; and every game replays to its stored state (python -m bot.check).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

from bot.autoplay import parse_id, prompt_key
from bot.check import check_database
from bot.localdiscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionRecord, WaitTimeout
from bot.storage import Storage
from bot.ui.ids import encode_key
from tests.bot import turngame
from tests.bot.harness import ROOT

SHARDS = 3
SPEED = 10.0  # the bots' clocks run ten times faster: a one-minute deadline passes in six seconds
TARGET = 10  # Nim: whoever brings the total to 10 loses (4 to 10 moves)
KILLS = 4
BUDGET = 600.0  # seconds of wall clock for the whole play; only a guard against a hang


def _title(msg: FakeMessage | None) -> str:
    return (msg.embeds[0].get("title") or "") if msg is not None and msg.embeds else ""


def _text(msg: FakeMessage) -> str:
    return msg.content + "".join(f"{e.get('title', '')}\n{e.get('description', '')}" for e in msg.embeds)


@dataclass
class Click:
    user: FakeUser
    game: int
    key: str  # the prompt key it answered
    rec: InteractionRecord

    @property
    def confirmed(self) -> bool:
        """The bot said the move is in (the prompt became "Done")."""
        return "Done" in _title(self.rec.original)


@dataclass
class Fleet:
    """The three bot processes, one shard each."""

    world: FakeDiscord
    url: str
    origin: float = field(default_factory=time.time)
    procs: dict[int, subprocess.Popen] = field(default_factory=dict)
    logs: dict[int, list[str]] = field(default_factory=dict)
    starts: int = 0

    def start(self, shard: int) -> None:
        env = dict(os.environ)
        env.update(self.world.env())
        env.update({"VICEROY_DB": self.url, "VICEROY_SHARDS": str(SHARDS), "VICEROY_SHARD_IDS": str(shard),
                    "VICEROY_SYNC_GLOBAL": "1", "VICEROY_TIME_LIMIT_HOURS": str(61 / 3600),
                    "VICEROY_LOG_LEVEL": "WARNING", "VICEROY_TEST_CLOCK_SPEED": str(SPEED),
                    "VICEROY_TEST_CLOCK_ORIGIN": str(self.origin), "VICEROY_TEST_POLL": "20"})
        log = open(self.world_log(shard), "a")  # noqa: SIM115  (kept open for the process's life)
        self.procs[shard] = subprocess.Popen([sys.executable, "-m", "tests.bot.shard_bot"], cwd=ROOT, env=env,
                                             stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.starts += 1

    def world_log(self, shard: int) -> str:
        return os.path.join(self.logdir, f"shard{shard}.log")

    logdir: str = ""

    async def wait_live(self, shard: int, before: set[str]) -> None:
        """Until a new gateway session of `shard` is connected (READY sent, guilds delivered)."""
        proc = self.procs[shard]

        def live() -> bool:
            if proc.poll() is not None:
                raise AssertionError(f"the shard {shard} process exited with {proc.returncode}:\n{self.tail(shard)}")
            return any(s.id not in before for s in self.world.sessions_on(shard))

        await self.world.wait_for(live, timeout=180, what=f"the shard {shard} process's gateway session")

    def tail(self, shard: int) -> str:
        with open(self.world_log(shard)) as f:
            return f.read()[-3000:]

    def kill(self, shard: int) -> None:
        proc = self.procs.pop(shard, None)
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)

    def kill_all(self) -> None:
        for shard in list(self.procs):
            self.kill(shard)


@dataclass
class Player:
    """Plays one seat of Nim through the bot's Discord interface; lets some prompts run out."""

    world: FakeDiscord
    user: FakeUser
    channel: FakeChannel
    game: int
    rng: random.Random
    clicks: list[Click]
    lapse: float = 0.25  # the share of prompts left to the deadline
    done: set[str] = field(default_factory=set)  # prompt keys answered, refused or let run out
    lapsed: set[str] = field(default_factory=set)

    def _mine(self, msg: FakeMessage) -> str | None:
        key = prompt_key(msg)
        if key is None or key in self.done:
            return None
        parsed = next((parse_id(c.get("custom_id", "")) for c in msg.iter_components()
                       if parse_id(c.get("custom_id", ""))), None)
        return key if parsed and parsed[1] == self.game else None

    def dm_prompt(self) -> FakeMessage | None:
        return next((m for m in reversed(self.user.dms()) if self._mine(m)), None)

    async def screen_prompt(self) -> FakeMessage | None:
        status = next((m for m in reversed(self.channel.messages())
                       if any(c.get("custom_id", "").endswith(":screen") for c in m.iter_components())), None)
        if status is None:
            return None
        try:
            rec = await self.user.click(status, label="My screen", timeout=10)
            await self.world.wait_for(lambda: rec.messages and not any(m.loading for m in rec.messages)
                                      or self.finished(), timeout=10, what="My screen")
        except (WaitTimeout, TimeoutError, LookupError):
            return None  # the channel's process is down: look again
        return next((m for m in reversed(rec.messages) if self._mine(m)), None)

    def finished(self) -> bool:
        return any("final scores" in _title(m) or "Game over" in _title(m) for m in self.channel.messages()[-3:])

    async def play(self, over: asyncio.Event) -> None:
        while not over.is_set():
            msg = self.dm_prompt() if self.user.dms_open else await self.screen_prompt()
            if msg is None:
                with contextlib.suppress(TimeoutError):
                    # A new prompt, or the end; the timeout only makes the closed-DM players look again.
                    await self.world.wait_for(lambda: over.is_set() or (self.user.dms_open and self.dm_prompt()),
                                              timeout=2 if not self.user.dms_open else 10, what="a prompt")
                continue
            key = self._mine(msg)
            if self.rng.random() < self.lapse:
                self.done.add(key)
                self.lapsed.add(key)  # let it run out: its deadline must answer it, once
                continue
            takes = [c for c in msg.buttons() if c.get("custom_id", "").split(":")[-1].startswith("take")]
            button = self.rng.choice(takes)
            try:
                rec = await self.user.click(msg, custom_id=button["custom_id"], wait=False)
            except LookupError:
                continue  # the prompt lost its buttons meanwhile
            # Recorded before any answer: a process may store the move and die before it answers.
            self.clicks.append(Click(self.user, self.game, key, rec))
            try:
                await rec.wait_response(10)
            except (WaitTimeout, TimeoutError):
                continue  # nobody answered (the process is down): the prompt is still there, try again
            with contextlib.suppress(TimeoutError):
                await self.world.wait_for(lambda rec=rec: "Done" in _title(rec.original) or rec.followup_ids or over.is_set(),
                                          timeout=15, what="the bot's answer")
            self.done.add(key)  # confirmed, refused (the deadline came first) or lost with its process


def _lobby(channel: FakeChannel) -> FakeMessage | None:
    return next((m for m in channel.messages() if any(b.get("label") == "Join" for b in m.buttons())), None)


def _started(channel: FakeChannel) -> bool:
    return any(c.get("custom_id", "").endswith(":screen") for m in channel.messages() for c in m.iter_components())


async def _answered(world: FakeDiscord, start, *, retry_unless) -> InteractionRecord:
    """Start an interaction until the bot acknowledges one: on a busy machine a process may miss Discord's
    3 s window, and the user then simply tries again (unless the first try did its work after all)."""
    for _ in range(5):
        rec = await start()
        try:
            return await rec.wait_response(timeout=20)
        except (WaitTimeout, TimeoutError):
            if retry_unless():
                return rec
    raise AssertionError(f"no answer to {rec} after five tries")


async def _db_games(url: str) -> list:
    storage = await Storage.open(url)
    try:
        async with storage.reading() as tx:
            games = await tx.games()
            return [(g, await tx.actions(g.id), await tx.seats(g.id)) for g in games]
    finally:
        await storage.close()


async def _all_finished(url: str, count: int) -> bool:
    games = await _db_games(url)
    return len(games) == count and all(g.status == "finished" for g, _, _ in games)


async def test_three_processes_over_three_shards_survive_random_kills(fake_discord, pg_cluster, tmp_path):
    assert turngame.KIND.name == "nim"  # registered here too, for the replay check at the end
    world = fake_discord
    world.shard_count = SHARDS
    url = pg_cluster.database_url(await pg_cluster.create_database(template=pg_cluster.template))
    rng = random.Random(18)
    guilds = [world.add_guild(f"Club {k}", shard=k) for k in range(SHARDS)]
    tables = []
    for k, guild in enumerate(guilds):
        for t in range(2):
            channel = world.add_text_channel(guild, f"nim-{t}")
            host = world.add_user(f"H{k}{t}", guild)  # DMs open: plays by DM (shard 0)
            guest = world.add_user(f"G{k}{t}", guild, dms_open=(t == 0))  # t=1: plays from the channel
            tables.append((channel, host, guest))
    assert {world.shard_of(g) for g in guilds} == set(range(SHARDS))

    fleet = Fleet(world, url)
    fleet.logdir = str(tmp_path)
    try:
        for shard in range(SHARDS):
            fleet.start(shard)
        for shard in range(SHARDS):
            await fleet.wait_live(shard, set())
        await world.wait_for(lambda: any(c["name"] == "nim" for c in world.global_commands), timeout=120,
                             what="the commands")

        # Six lobbies, one per channel, each set up through its server's shard.
        for channel, host, guest in tables:
            rec = await _answered(world, lambda channel=channel, host=host: host.slash(
                channel, "nim new", seats=2, target=TARGET, wait=False), retry_unless=lambda channel=channel: _lobby(channel))
            lobby = _lobby(channel) or rec.reply
            await world.wait_for(lambda lobby=lobby: any(b.get("label") == "Join" for b in lobby.buttons()),
                                 timeout=60, what="the lobby")
            await _answered(world, lambda lobby=lobby, guest=guest: guest.click(lobby, label="Join", wait=False),
                            retry_unless=lambda lobby=lobby: "2/2" in _text(lobby))
            await world.wait_for(lambda lobby=lobby: "2/2" in _text(lobby), timeout=60, what="the guest seated")
            await _answered(world, lambda lobby=lobby, host=host: host.click(lobby, label="Start", wait=False),
                            retry_unless=lambda channel=channel: _started(channel))
        games = await _db_games(url)
        assert len(games) == len(tables)
        by_channel = {g.channel_id: g.id for g, _, _ in games}

        clicks: list[Click] = []
        players = [Player(world, user, channel, by_channel[channel.id], random.Random(f"{channel.id}{user.name}"),
                          clicks) for channel, host, guest in tables for user in (host, guest)]
        over = asyncio.Event()
        plays = [asyncio.create_task(p.play(over)) for p in players]

        async def chaos() -> None:
            for _ in range(KILLS):
                seen = len(clicks)
                with contextlib.suppress(TimeoutError):
                    await world.wait_for(lambda seen=seen: len(clicks) >= seen + 4 or over.is_set(), timeout=120,
                                         what="some play before the next kill")
                if over.is_set():
                    return
                shard = rng.randrange(SHARDS)
                before = {s.id for s in world.sessions.values()}
                fleet.kill(shard)
                fleet.start(shard)
                await fleet.wait_live(shard, before)

        chaos_task = asyncio.create_task(chaos())
        deadline = time.monotonic() + BUDGET
        while not await _all_finished(url, len(tables)):
            if time.monotonic() > deadline:
                raise AssertionError("the games did not finish: " + "; ".join(
                    f"#{g.id} {g.status} v{g.version}" for g, _, _ in await _db_games(url)))
            posted = sum(p.finished() for p in players)
            with contextlib.suppress(TimeoutError):  # a score sheet posted, else look at the database again
                await world.wait_for(lambda posted=posted: sum(p.finished() for p in players) > posted, timeout=5,
                                     what="a game's end")
        over.set()
        await chaos_task
        await asyncio.gather(*plays)
    finally:
        fleet.kill_all()

    games = await _db_games(url)
    click_of = {f"i{c.rec.id}": c for c in clicks}
    for game, actions, seats in games:
        assert game.status == "finished", game
        user_of = {s.seat: s.user_id for s in seats}
        seqs = [a.seq for a in actions]
        assert seqs == list(range(1, len(actions) + 1)), f"game {game.id}: gaps or repeats in {seqs}"
        for a in actions:
            key = encode_key(f"turn:{a.seq - 1}")  # Nim's prompt key: the number of moves before it
            if a.kind == "action":
                click = click_of.get(a.idempotency_key)
                assert click is not None, f"game {game.id} move {a.seq}: stored, but nobody clicked it"
                assert click.user.id == user_of[a.seat] and click.game == game.id and click.key == key
            else:
                assert a.kind == "timeout", a
        timeouts = {a.seq for a in actions if a.kind == "timeout"}
        for p in players:
            if p.game != game.id:
                continue
            for lapsed in p.lapsed:
                seq = int(re.search(r"\d+$", lapsed).group()) + 1
                assert seq in timeouts, f"game {game.id}: {p.user.name} let {lapsed} run out, no timeout answered it"
    stored = {a.idempotency_key for _, actions, _ in games for a in actions}
    confirmed = [c for c in clicks if c.confirmed]
    assert confirmed, "no click was confirmed"
    lost = [f"{c.user.name} {c.key}" for c in confirmed if f"i{c.rec.id}" not in stored]
    assert not lost, f"confirmed but not stored: {lost}"
    assert sum(a.kind == "timeout" for _, actions, _ in games for a in actions) >= 1
    assert fleet.starts > SHARDS, "no process was killed and started again"
    moves = [a.kind for _, actions, _ in games for a in actions]
    print(f"{len(games)} games, {len(moves)} moves ({moves.count('timeout')} timeouts), {len(clicks)} clicks"
          f" ({len(confirmed)} confirmed), {fleet.starts - SHARDS} kills")
    storage = await Storage.open(url)
    try:
        verdicts = await check_database(storage)
    finally:
        await storage.close()
    assert [v.verdict for v in verdicts] == ["OK"] * len(tables), verdicts


