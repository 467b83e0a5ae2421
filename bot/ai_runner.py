"""Plays the AI seats of the bot's games in a bounded worker pool, never on the event loop.

After every announced result that leaves an AI seat to decide (and at start-up, for every active game), the
runner reads the game (no transaction is held), computes the AI moves in a worker thread (bot/ai.py: `think`),
then stores them in one transaction (`GameService.commit_ai`, which keeps only moves still owed) and announces
them like any other result. A crash or restart while a worker thinks loses nothing: nothing was stored, and the
same moves (same seeds) are computed again at start-up.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Awaitable, Callable

from bot import ai
from bot.service import ActionResult, AIWork, GameService, Reminder

log = logging.getLogger(__name__)

# Wall-clock limit of one batch of AI moves: only a hung engine reaches it (a level's own cap is in CPU seconds
# of the worker thread); the game then goes on with the default action of the seat that was deciding.
BATCH_TIMEOUT = 120.0


class AIRunner:
    def __init__(self, service: GameService, announce: Callable[[ActionResult], Awaitable[None]], *,
                 workers: int = 1, executor: concurrent.futures.Executor | None = None,
                 think: Callable[[AIWork], list[ai.AIMove]] | None = None) -> None:
        self.service = service
        self.announce = announce
        # Bounded: games wait their turn for a worker rather than piling threads on the machine's cores.
        self.executor = executor or concurrent.futures.ThreadPoolExecutor(max_workers=workers,
                                                                          thread_name_prefix="gm-ai")
        self._own_executor = executor is None
        self.think = think or think_work
        self._tasks: dict[int, asyncio.Task] = {}
        self._again: set[int] = set()
        self._thinking: set[int] = set()  # games whose task waits on a worker (the only safe place to cancel)
        self._closing = False
        self.batches = 0  # AI batches committed (tests and logs)

    def busy(self) -> bool:
        return any(not t.done() for t in self._tasks.values())

    async def idle(self) -> None:
        """Wait until no game's AI is thinking or storing (tools and tests)."""
        while tasks := [t for t in self._tasks.values() if not t.done()]:
            await asyncio.gather(*tasks, return_exceptions=True)

    def on_result(self, result: ActionResult | Reminder) -> None:
        """Announcer hook: a result that leaves an AI seat to decide wakes that game's AI."""
        if isinstance(result, ActionResult) and any(p.is_ai and p.waiting for p in result.pending.values()):
            self.wake(result.game_id)

    def wake(self, game_id: int) -> None:
        if self._closing:
            return
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)  # looked at again before the running task ends
            return
        self._tasks[game_id] = asyncio.create_task(self._run(game_id), name=f"gm-ai-{game_id}")

    async def catch_up(self, owns: Callable[[int | None], bool] = lambda guild_id: True) -> None:
        """At start-up: every active game whose AI seats owe a move (a restart mid-thinking) moves on; with
        several processes over shards, only the games of this process's servers (`owns`)."""
        for game in await self.service.list_games(statuses=("active",)):
            if any(s.is_ai for s in game.seats) and owns(game.guild_id):
                self.wake(game.id)

    async def _run(self, game_id: int) -> None:
        loop = asyncio.get_running_loop()
        while not self._closing:
            self._again.discard(game_id)
            try:
                work = await self.service.ai_work(game_id)
                if work is None:
                    if game_id in self._again:
                        continue
                    return
                future = loop.run_in_executor(self.executor, self.think, work)
                self._thinking.add(game_id)
                try:
                    moves = await asyncio.wait_for(future, BATCH_TIMEOUT)
                except TimeoutError:
                    log.error("game %s: the AI took over %ss; playing the default action", game_id, BATCH_TIMEOUT)
                    moves = _default_moves(work)
                finally:
                    self._thinking.discard(game_id)
                if self._closing:
                    return
                result = await self.service.commit_ai(game_id, moves) if moves else None
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("AI seats of game %s failed", game_id)
                return
            if result is None:
                current = await self.service.ai_work(game_id)
                if current is not None and current.version == work.version:
                    log.error("game %s: the AI found no move it could make; waiting for the next change", game_id)
                    return
                continue  # the game moved on while the worker thought: think again from the new state
            self.batches += 1
            await self.announce(result)

    async def close(self) -> None:
        """Stop. A game whose AI is thinking stops waiting (the worker finishes unseen; nothing was stored);
        one that is storing or announcing moves finishes that first (cancelling inside a transaction would
        leave the database connection in it)."""
        self._closing = True
        tasks = [t for t in self._tasks.values() if not t.done()]
        for game_id, task in self._tasks.items():
            if game_id in self._thinking and not task.done():
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._own_executor:
            self.executor.shutdown(wait=False, cancel_futures=True)


def think_work(work: AIWork) -> list[ai.AIMove]:
    """In the worker: the AI seats' next moves on a private copy of the state."""
    state = ai._plain(work.state)
    return ai.think(work.kind, state, work.levels, work.seed)


def _default_moves(work: AIWork) -> list[ai.AIMove]:
    prompts = work.kind.pending(work.state)
    seat = next((s for s in sorted(prompts) if s in work.levels and prompts[s].waiting), None)
    if seat is None:
        return []
    action = work.kind.default_action(work.state, seat)
    return [ai.AIMove(seat, prompts[seat].key, action, work.levels[seat])]
