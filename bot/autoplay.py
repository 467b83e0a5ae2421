"""Simulated players for the local fake Discord: they play a seat through the bot's real Discord UI.

Used by the end-to-end tests and the offline demo. A simulated player reads its prompt (a DM, or the
ephemeral "My screen" reply when its DMs are closed), picks options the way a person would (select menus,
buttons, the gem modal), and waits for its next prompt, until the final score sheet is posted.
"""

from __future__ import annotations

import asyncio
import importlib
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.i18n import LANGUAGES, catalogue
from bot.localdiscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionRecord
from bot.ui.ids import ControlId, encode_key
from bot.ui.texts import BLOCKED_MARK


def parse_id(custom_id: str) -> tuple[str, int, int, str, str] | None:
    """(surface, game, seat, encoded prompt key, op) of a prompt control, None for anything else."""
    control = ControlId.decode(custom_id)
    if control is None or control.surface != "prompt":
        return None
    return control.surface, control.game, control.seat or 0, encode_key(control.key or ""), control.op


def controls(msg: FakeMessage) -> dict[str, dict[str, Any]]:
    """Prompt controls on a message, by operation name."""
    out = {}
    for comp in msg.iter_components():
        parsed = parse_id(comp.get("custom_id", ""))
        if parsed:
            out[parsed[4]] = comp
    return out


def prompt_key(msg: FakeMessage) -> str | None:
    for comp in msg.iter_components():
        parsed = parse_id(comp.get("custom_id", ""))
        if parsed:
            return parsed[3]
    return None


# The final score sheet's title word in every language the bot speaks.
FINAL_TITLES = tuple({catalogue(code).text("final scores") or "final scores" for code in LANGUAGES})


def game_over(channel: FakeChannel) -> bool:
    return any(any(t in (e.get("title") or "") for t in FINAL_TITLES) for m in channel.messages() for e in m.embeds)


# Seconds a simulated player waits for the bot to answer a click. Generous: on a loaded machine a prompt
# with a picture takes a while to redraw, and acting on the old one would make a decision on a stale prompt.
ANSWER_TIMEOUT = 60.0

Strategy = Callable[["SimulatedPlayer", FakeMessage], Awaitable[None]]


async def any_control(player: SimulatedPlayer, msg: FakeMessage) -> None:
    """A strategy for any game: a random option of the first menu, else a random enabled button."""
    ctl = controls(msg)
    menus = [c for c in ctl.values() if c.get("type") == 3 and player._options(c)]
    if menus:
        menu = menus[0]
        n = max(1, menu.get("min_values", 1))
        await player._select(msg, menu, player.rng.sample(player._options(menu), n))
        return
    buttons = [c for c in ctl.values() if c.get("type") == 2 and not c.get("disabled")]
    if not buttons:
        raise AssertionError(f"{player.user.name}: a prompt with no control to use")
    await player._click(msg, player.rng.choice(buttons))


async def play_together(players: list[SimulatedPlayer], *, timeout: float = 300.0) -> list[int]:
    """Run every simulated player of a game until it is over; the decisions each made. When one fails, the
    others are stopped and the error says what every player saw last (a stuck game is usually stuck on
    someone else's side)."""
    tasks = [asyncio.ensure_future(p.run(timeout=timeout)) for p in players]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    failed = next((t for t in tasks if t in done and t.exception() is not None), None)
    if failed is None:
        return [t.result() for t in tasks]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    everyone = "\n".join(f"  {p.user.name}: {p._situation()}" for p in players)
    raise AssertionError(f"{failed.exception()}\nevery player:\n{everyone}") from failed.exception()


def takeable(comp: dict) -> list[str]:
    """The values of a select a person would pick: options marked as not possible now (kept on the menu with
    their reason, answered with it in a reply of its own) are read, not chosen."""
    return [o["value"] for o in comp.get("options", []) if not str(o.get("label", "")).startswith(BLOCKED_MARK)]


class SimulatedPlayer:
    """Plays one seat through the bot's Discord interface."""

    def __init__(self, world: FakeDiscord, user: FakeUser, channel: FakeChannel, seed: int = 0,
                 strategy: Strategy | None = None) -> None:
        self.strategy = strategy  # how to answer a prompt; None: play Viceroy like a person would
        self.world = world
        self.user = user
        self.channel = channel
        self.rng = random.Random(seed)
        self.done_keys: set[str] = set()
        self.decisions = 0
        self._look: InteractionRecord | None = None  # the interaction of the last "My screen" look (closed DMs)
        self.unanswered: list[str] = []  # controls whose click got no answer in ANSWER_TIMEOUT

    # ------------------------------------------------------------------ finding the prompt

    def _dm_prompt(self) -> FakeMessage | None:
        for msg in reversed(self.user.dms()):
            key = prompt_key(msg)
            if key is not None:
                return None if key in self.done_keys else msg
        return None

    async def _screen_prompt(self) -> FakeMessage | None:
        status = next((m for m in reversed(self.channel.messages())
                       if any(c.get("custom_id", "").endswith(":screen") for c in m.iter_components())), None)
        if status is None:
            return None
        rec = await self.user.click(status, label="My screen", timeout=10)
        self._look = rec
        await rec.wait_done(timeout=10)
        # The screen comes first, the prompt (if any) in a second follow-up: wait for it until the bot has gone
        # quiet. Quiet is no proof (the bot draws the prompt's picture before sending it): a prompt that comes
        # later is still picked up from this look (see `run`).
        await self.world.wait_for(lambda: self._looked_prompt() is not None or self.world.is_idle(quiet=0.25),
                                  timeout=10, what=f"{self.user.name}'s prompt copy or a quiet Discord")
        await self.world.idle(quiet=0.02, timeout=10)
        return self._looked_prompt()

    def _looked_prompt(self) -> FakeMessage | None:
        """The newest prompt not answered yet among the private answers to the last "My screen" look."""
        if self._look is None:
            return None
        for msg in reversed(self._look.messages):
            key = prompt_key(msg)
            if key is not None and key not in self.done_keys:
                return msg
        return None

    def _situation(self) -> str:
        """What this player sees last, for a failure message: the newest DMs (with their controls, disabled
        ones marked), the newest private answers, the last interactions and how the bot answered them, the
        keys answered and the clicks that got no answer."""
        def control(c: dict[str, Any]) -> str:
            return str(c.get("custom_id", c.get("label"))) + (" (disabled)" if c.get("disabled") else "")

        seen = [f"{prompt_key(m)}:{(m.embeds[0].get('title') if m.embeds else m.content)!r}:"
                f"{[control(c) for c in m.iter_components()]}" for m in self.user.dms()[-3:]]
        notes = [m.content[:120] for m in self.user.ephemerals()[-2:]]
        now = time.monotonic()
        clicks = [f"{r.data.get('custom_id', r.data.get('name'))} -> response {r.response_type} "
                  f"{now - r.created:.0f}s ago" for r in self.user.interactions()[-3:]]
        return (f"newest DMs {seen}; private answers {notes}; last interactions {clicks}; "
                f"answered {sorted(self.done_keys)[-5:]}; clicks the bot never answered {self.unanswered[-3:]}")

    async def run(self, *, timeout: float = 300.0, max_decisions: int = 2000) -> int:
        """Play until the game is over; returns the number of decisions made."""
        loop_deadline = self.world_time() + timeout
        while not game_over(self.channel):
            if self.world_time() > loop_deadline or self.decisions > max_decisions:
                raise TimeoutError(f"{self.user.name} did not finish the game; {self._situation()}")
            if self.user.dms_open:
                msg = self._dm_prompt()
                if msg is None:
                    try:
                        await self.world.wait_for(lambda: self._dm_prompt() is not None or game_over(self.channel),
                                                  timeout=30, what=f"a prompt for {self.user.name}")
                    except TimeoutError:
                        await asyncio.sleep(0.05)
                    continue
            else:
                table = self._channel_mark()
                msg = await self._screen_prompt()
                if msg is None:
                    # Nothing to do yet: look again when the table changes (someone else moved), act at once
                    # when the prompt comes after all (the look above stopped waiting when Discord went quiet),
                    # or look again after a while.
                    try:
                        await self.world.wait_for(lambda seen=table: self._looked_prompt() is not None
                                                  or self._channel_mark() != seen, timeout=2,
                                                  what=f"a change at the table for {self.user.name}")
                    except TimeoutError:
                        pass
                    msg = self._looked_prompt()
                    if msg is None:
                        continue
            key = prompt_key(msg)
            await self.decide(msg)
            if key is not None:
                self.done_keys.add(key)
            self.decisions += 1
        return self.decisions

    async def step(self) -> bool:
        """Make the decision waiting for this player, if there is one (DM path). True if one was made."""
        msg = self._dm_prompt()
        if msg is None:
            return False
        key = prompt_key(msg)
        await self.decide(msg)
        if key is not None:
            self.done_keys.add(key)
        self.decisions += 1
        return True

    def current_prompt(self) -> FakeMessage | None:
        """The newest prompt message this player has not answered yet (DM path)."""
        return self._dm_prompt()

    def _channel_mark(self) -> tuple[int, int]:
        """Changes whenever a message is posted to or edited in the channel."""
        messages = self.channel.messages()
        return len(messages), sum(m.edits for m in messages)

    def world_time(self) -> float:
        return time.monotonic()

    # ------------------------------------------------------------------ acting

    async def _answered(self, msg: FakeMessage, rec: InteractionRecord, edits: int) -> None:
        """Wait until the bot has answered this click: the prompt edited in the answer itself, a private reply
        or a form, or after a deferral the prompt edited or a follow-up sent. Never act on a stale picture: an
        edit or a private message that is not this click's answer (a late answer to an earlier click, say)
        does not count."""

        def answered() -> bool:
            if rec.response_type in (4, 7, 9):
                return True
            return rec.response_type in (5, 6) and (msg.edits > edits or bool(rec.followups))

        try:
            await self.world.wait_for(answered, timeout=ANSWER_TIMEOUT, what=f"the bot's answer to {self.user.name}")
        except TimeoutError:
            self.unanswered.append(str(rec.data.get("custom_id")))
        await self.world.idle(quiet=0.02, timeout=10)

    async def _select(self, msg: FakeMessage, comp: dict, values: list[str]) -> None:
        edits = msg.edits
        rec = await self.user.select(msg, comp["custom_id"], values, timeout=10)
        await self._answered(msg, rec, edits)

    async def _click(self, msg: FakeMessage, comp: dict) -> Any:
        edits = msg.edits
        rec = await self.user.click(msg, custom_id=comp["custom_id"], timeout=10)
        await self._answered(msg, rec, edits)
        return rec

    def _options(self, comp: dict) -> list[str]:
        return takeable(comp)

    def _chosen(self, comp: dict) -> bool:
        return any(o.get("default") for o in comp.get("options", []))

    async def decide(self, msg: FakeMessage) -> None:
        """Make one complete decision on a prompt message (several clicks for a development plan), and lock
        it in when the prompt drafts it (a sealed choice: bot/ui/lockin.py)."""
        if self.strategy is not None:
            await self.strategy(self, msg)
        else:
            await self._decide(msg)
        lock = controls(msg).get("lock")
        if lock is not None and not lock.get("disabled"):
            await self._click(msg, lock)

    async def _decide(self, msg: FakeMessage) -> None:
        ctl = controls(msg)
        if "choose" in ctl:  # auction
            opts = self._options(ctl["choose"])
            bids = [o for o in opts if o.startswith("bid:")]
            attacks = [o for o in opts if o.startswith("attack:")]
            r = self.rng.random()
            if attacks and r < 0.15:
                value = self.rng.choice(attacks)
            elif bids and r < 0.75:
                value = self.rng.choice(bids)
            else:
                value = "pass"
            await self._select(msg, ctl["choose"], [value])
            return
        if "start" in ctl:  # setup
            await self._select(msg, ctl["start"], [self._options(ctl["start"])[0]])
            ctl = controls(msg)
            if "keep" in ctl:
                await self._select(msg, ctl["keep"], [self._options(ctl["keep"])[0]])
                ctl = controls(msg)
            await self._fill_and_confirm(msg)
            return
        if "back" in ctl:  # a plan half made (e.g. before a restart): start it again
            await self._click(msg, ctl["back"])
            ctl = controls(msg)
        if "pass" in ctl:  # development (or a re-plan)
            await self._development(msg)
            return
        if "paint" in ctl:
            await self._click(msg, ctl["paint"])
            return
        if "take" in ctl and ctl["take"].get("type") == 2:
            await self._click(msg, ctl["take"])
            return
        if "pick" in ctl:
            await self._select(msg, ctl["pick"], [self._options(ctl["pick"])[0]])
            return
        if "no" in ctl:
            await self._click(msg, ctl["yes" if self.rng.random() < 0.5 else "no"])
            return
        if "return" in ctl:
            n = ctl["return"].get("min_values", 1)
            await self._select(msg, ctl["return"], self._options(ctl["return"])[:n])
            return
        raise AssertionError(f"{self.user.name}: a prompt with no control I know: {list(ctl)}")

    async def _development(self, msg: FakeMessage) -> None:
        ctl = controls(msg)
        plays = self._options(ctl["card"]) if "card" in ctl else []
        discards = self._options(ctl["discard"]) if "discard" in ctl else []
        self.rng.shuffle(plays)
        r = self.rng.random()
        tries = [("card", v) for v in plays] if r < 0.8 else []
        tries += [("discard", self.rng.choice(discards))] if discards and r < 0.95 else []
        for op, value in tries:
            ctl = controls(msg)
            if op not in ctl:
                await self._click(msg, ctl["back"])
            await self._select(msg, controls(msg)[op], [value])
            if await self._fill_and_confirm(msg):
                return
        ctl = controls(msg)
        if "pass" not in ctl:
            await self._click(msg, ctl["back"])
        await self._click(msg, controls(msg)["pass"])

    async def _fill_and_confirm(self, msg: FakeMessage) -> bool:
        """Pick the first option of every unset menu, then press Confirm. False if the plan cannot be made."""
        for _ in range(12):
            ctl = controls(msg)
            confirm = ctl.get("confirm")
            if confirm is None:
                # No Confirm: either the prompt was replaced (the choice went in) or a step still asks for
                # something first (a menu of its own, e.g. which gems a discard gives): answer that menu.
                waiting = [c for op, c in ctl.items() if op not in ("card", "discard") and c.get("type") == 3
                           and not c.get("disabled") and not self._chosen(c) and c.get("options")]
                if not waiting:
                    return True
                await self._select(msg, waiting[0], self._options(waiting[0])[:max(1, waiting[0].get("min_values", 1))])
                continue
            for op in ("slot", "target", "opt", "color", "take", "tuck1", "lvl5", "draw"):
                comp = ctl.get(op)
                if comp is not None and comp.get("type") == 3 and not self._chosen(comp) and self._options(comp):
                    options = self._options(comp)
                    # Places are listed from level 1 upwards: a player builds up when they can.
                    await self._select(msg, comp, [options[-1] if op == "slot" else options[0]])
                    break
            else:
                if confirm.get("disabled"):
                    return False
                await self._click(msg, confirm)
                return True
        return False


def player_class(kind: str) -> type[SimulatedPlayer]:
    """The simulated person who plays ``kind``: ``PLAYER`` of bot.presenters.<kind>.autoplay (each game's
    prompts are its presenter's), else the one above, who plays Viceroy."""
    name = f"bot.presenters.{kind}.autoplay"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name not in (name, f"bot.presenters.{kind}"):
            raise  # the module exists but something it imports is missing
        return SimulatedPlayer
    return module.PLAYER
