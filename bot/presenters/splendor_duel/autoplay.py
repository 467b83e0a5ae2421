"""A simulated Splendor Duel player for the fake Discord: plays its seat through the bot's real prompts (the
end-to-end tests and the offline demo; bot.autoplay.player_class finds it as PLAYER)."""

from __future__ import annotations

from bot.autoplay import SimulatedPlayer, controls
from bot.localdiscord import FakeMessage


class SplendorPlayer(SimulatedPlayer):
    """Builds each turn as a person would: a mode, the first token and a line, or a card and its answers,
    the tokens to return, then Confirm. Replenishes when that is the only choice (or now and then).
    ``blind``: reserve from deck tops whenever reserving (to exercise the secret)."""

    blind = False

    async def decide(self, msg: FakeMessage) -> None:
        ctl = controls(msg)
        if "confirm" not in ctl and "replenish" in ctl:
            await self._click(msg, ctl["replenish"])
            return
        if "discard" in ctl and "mode.take" not in ctl:  # the discard step
            n = ctl["discard"].get("min_values", 1)
            # Which tokens go back is random: always the first ones kept the same colours turn after turn, and
            # two such players could hold hands that buy nothing and take and return tokens for ever.
            await self._select(msg, ctl["discard"], self.rng.sample(self._options(ctl["discard"]), n))
            await self._click(msg, controls(msg)["confirm"])
            return
        if "replenish" in ctl and self.rng.random() < 0.05:
            await self._click(msg, ctl["replenish"])
            return
        # Buys when it can, most turns, as a person would: a game ends when someone scores enough.
        modes = ["mode.buy", "mode.reserve", "mode.take"] if self.rng.random() < 0.8 else ["mode.take"]
        if self.blind and self.rng.random() < 0.5:
            modes = ["mode.reserve", "mode.buy", "mode.take"]
        for mode in modes:
            ctl = controls(msg)
            if mode not in ctl:
                continue
            await self._click(msg, ctl[mode])
            if await self._complete(msg):
                return
        ctl = controls(msg)
        if "replenish" in ctl:  # nothing to do on this board: refill it first
            await self._click(msg, ctl["replenish"])
            return
        raise AssertionError(f"{self.user.name}: no plan could be made on {list(ctl)}")

    async def _complete(self, msg: FakeMessage) -> bool:
        """Answer every open menu (first option; the longest line), then Confirm. False: nothing to do."""
        for _ in range(10):
            ctl = controls(msg)
            if "confirm" not in ctl:
                return True  # the prompt moved on: the plan went in
            for op, comp in ctl.items():
                if comp.get("type") != 3 or op == "priv" or self._chosen(comp) or not self._options(comp):
                    continue
                options = self._options(comp)
                if op == "line":
                    value = [max(options, key=lambda v: v.count("-"))]
                elif op == "target" and self.blind and any(v.startswith("deck:") for v in options):
                    value = [self.rng.choice([v for v in options if v.startswith("deck:")])]
                elif op == "discard":
                    value = self.rng.sample(options, comp.get("min_values", 1))
                else:
                    value = [self.rng.choice(options)]
                await self._select(msg, comp, value)
                break
            else:
                if ctl["confirm"].get("disabled"):
                    return False
                await self._click(msg, ctl["confirm"])
                return True
        return False


PLAYER = SplendorPlayer
