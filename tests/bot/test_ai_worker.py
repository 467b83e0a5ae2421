"""AI seats think in a worker: the bot goes on answering while an AI decides, the level chosen in the lobby
is the level the engine plays, a restart mid-thinking loses nothing, and the same seed gives the same moves
whether AI seats move inline or in the worker."""

from __future__ import annotations

import threading

import pytest

import bot.ai
from bot.ai_runner import AIRunner
from bot.games import get_kind
from bot.service import AI_KEY_PREFIX, GameService
from bot.storage import Storage
from engine import registry
from engine.search import ai_for as real_ai_for
from tests.bot.harness import new_table
from tests.service import toygame  # noqa: F401  (registers the toy game)


class GatedAI:
    """Stands in for engine.search.ai_for: records the levels asked for and, while `gate` is shut, holds
    every decision in the worker thread until the test opens it (no timing involved)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.thinking = threading.Event()
        self.asked: list[tuple[str, str]] = []

    def __call__(self, game, level):  # noqa: ANN001, ANN204
        self.asked.append((game.type.name, level))
        baseline = real_ai_for(game, "easy")

        def choose(state, seat, rng):  # noqa: ANN001, ANN202
            self.thinking.set()
            self.gate.wait(timeout=300)
            return baseline(state, seat, rng)

        return choose


@pytest.fixture
def gated(monkeypatch):  # noqa: ANN001, ANN201
    fake = GatedAI()
    monkeypatch.setattr(bot.ai, "ai_for", fake)
    yield fake
    fake.gate.set()  # never leave a worker thread waiting


async def _ai_waiting(service: GameService, game_id: int) -> bool:
    return any(p.is_ai and p.waiting for p in (await service.pending(game_id)).values())


async def _ai_moves(service: GameService, game_id: int) -> int:
    async with service.storage.reading() as tx:
        return sum(1 for a in await tx.actions(game_id) if (a.idempotency_key or "").startswith(AI_KEY_PREFIX))


async def test_the_bot_answers_while_an_ai_thinks_and_the_lobby_level_reaches_the_engine(fake_discord, tmp_path,
                                                                                          gated):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        ann = table.users[0]
        rec = await ann.slash(table.channel, "viceroy new", seats=2, ai=1, ai_level="hard")
        await table.settle()
        await ann.click(rec.reply, label="Start")
        service = table.bot.service
        game = (await service.list_games(statuses=("active",)))[0]
        await world.wait_for(gated.thinking.is_set, timeout=60, what="the AI to start thinking")
        # The AI's decision is held in its worker: the bot still answers, and nothing of the AI is stored.
        waiting = await ann.slash(table.channel, "viceroy waiting", timeout=30)
        assert "AI 1 (hard): to decide" in waiting.reply.content
        rules = await ann.slash(table.channel, "viceroy rules", timeout=30)
        assert rules.reply is not None and rules.reply.content
        assert await _ai_waiting(service, game.id) and await _ai_moves(service, game.id) == 0
        gated.gate.set()
        await table.settle()
        assert not await _ai_waiting(service, game.id) and await _ai_moves(service, game.id) == 1
        assert ("viceroy", "hard") in gated.asked and all(level == "hard" for _, level in gated.asked)
    finally:
        gated.gate.set()
        await table.stop_bot()


async def test_a_restart_while_an_ai_thinks_loses_nothing(fake_discord, tmp_path, gated):
    world = fake_discord
    table = await new_table(world, tmp_path, ["Ann"])
    await table.start_bot()
    ann = table.users[0]
    try:
        rec = await ann.slash(table.channel, "viceroy new", seats=2, ai=1)
        await table.settle()
        await ann.click(rec.reply, label="Start")
        await world.wait_for(gated.thinking.is_set, timeout=60, what="the AI to start thinking")
        game = (await table.bot.service.list_games(statuses=("active",)))[0]
        await table.stop_bot()  # the worker is still deciding: nothing of it was stored
    finally:
        gated.gate.set()
    try:
        await table.start_bot()
        service = table.bot.service
        await world.wait_for(lambda: table.bot.ai_runner.batches >= 1, timeout=60, what="the AI to move again")
        await table.settle()
        assert not await _ai_waiting(service, game.id)
        assert await _ai_moves(service, game.id) == 1  # computed again after the restart, stored once
        assert gated.asked.count(("viceroy", "normal")) >= 2  # thought once before the restart, once after
    finally:
        await table.stop_bot()


async def _toy_record(tmp_path, name: str, *, inline: bool) -> list:  # noqa: ANN001
    """A toy game, one person (always the first card) and two hard AI seats, to the end; its action log."""
    storage = await Storage.open(tmp_path / f"{name}.db")
    service = GameService(storage, default_time_limit=None, ai_inline=inline)

    async def announce(result) -> None:  # noqa: ANN001
        runner.on_result(result)

    runner = AIRunner(service, announce)
    try:
        game = await service.create_lobby(1, 1, 100, "Ann", kind="toy", options={"rounds": 4})
        await service.add_ai(game.id, 100, level="hard")
        await service.add_ai(game.id, 100, level="hard")
        result = await service.start(game.id, 100, seed=1234)
        for _ in range(100):
            await announce(result)
            await runner.idle()
            pending = await service.pending(game.id)
            if not pending:
                break
            mine = pending.get(0)
            assert mine is not None and mine.waiting, "the AI seats have moved"
            view = await service.view(game.id, 100)
            action = ({"type": "decide", "take": "points"} if mine.prompt.kind == "decide"
                      else {"type": "choose", "card": view["hand"][0]})
            result = await service.submit(game.id, 100, action, idempotency_key=f"k{_}", prompt_key=mine.prompt_key)
        info = await service.game(game.id)
        assert info.status == "finished"
        async with storage.reading() as tx:
            return [(a.seat, a.action) for a in await tx.actions(game.id)]
    finally:
        await runner.close()
        await storage.close()


async def test_ai_moves_are_the_same_for_the_same_seed_inline_or_in_the_worker(tmp_path):
    inline = await _toy_record(tmp_path, "inline", inline=True)
    worker = await _toy_record(tmp_path, "worker", inline=False)
    again = await _toy_record(tmp_path, "again", inline=False)
    assert inline == worker == again
    assert sum(1 for seat, _ in worker if seat != 0) >= 8  # the AI seats really played


@pytest.mark.parametrize("name", registry.GAMES)
async def test_every_game_plays_a_normal_ai_seat_from_the_worker(tmp_path, name: str):
    """The lobby's default level (normal: the search) decides for each hosted game through the worker."""
    storage = await Storage.open(tmp_path / f"{name}.db")
    service = GameService(storage, default_time_limit=None, ai_inline=False)
    runner = AIRunner(service, _rewake(lambda: runner))
    try:
        kind = get_kind(name)
        seats = max(2, kind.min_seats)
        game = await service.create_lobby(1, 1, 100, "Ann", kind=name, options={"seats": seats})
        for _ in range(seats - 1):
            info = await service.add_ai(game.id, 100)
        assert {s.ai_level for s in info.seats if s.is_ai} == {"normal"}
        result = await service.start(game.id, 100, seed=99)
        for step in range(40):
            runner.on_result(result)
            await runner.idle()
            if await _ai_moves(service, game.id):
                break
            mine = (await service.pending(game.id)).get(0)
            assert mine is not None and mine.waiting, "nobody to move"
            state = await service.full_state(game.id)
            result = await service.submit(game.id, 100, kind.default_action(state, 0), idempotency_key=f"s{step}",
                                          prompt_key=mine.prompt_key)
        assert await _ai_moves(service, game.id) >= 1
        assert not await _ai_waiting(service, game.id)  # the worker made every AI move that was due
    finally:
        await runner.close()
        await storage.close()


def _rewake(get_runner):  # noqa: ANN001, ANN202
    async def announce(result) -> None:  # noqa: ANN001
        get_runner().on_result(result)

    return announce
