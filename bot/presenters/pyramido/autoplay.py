"""A simulated Pyramido architect for the fake Discord: plays its seat through the bot's real prompts (the
end-to-end tests and the offline demo; bot.autoplay.player_class finds it as PLAYER)."""

from __future__ import annotations

from bot.autoplay import SimulatedPlayer, controls
from bot.localdiscord import FakeMessage

SAFE_STYLE = 3  # Discord's "success" (green) button: a direction that keeps the floor completable


async def architect(player: SimulatedPlayer, msg: FakeMessage) -> None:
    """Plays a Pyramido prompt like a person: domino, a lettered position, a green direction, Confirm."""
    for _ in range(16):
        ctl = controls(msg)
        if not ctl:
            return
        fills = sorted(op for op in ctl if op.startswith("fill."))
        if fills:
            used: set[str] = set()
            for op in fills:
                comp = controls(msg)[op]
                value = next(o["value"] for o in comp["options"] if o["value"].split(":")[0] not in used)
                used.add(value.split(":")[0])
                await player._select(msg, comp, [value])
            await player._click(msg, controls(msg)["confirm"])
            return
        if "confirm" in ctl:
            await player._click(msg, ctl["confirm"])
            return
        domino = ctl.get("domino")
        if domino is not None and not player._chosen(domino):
            await player._select(msg, domino, [player.rng.choice(player._options(domino))])
            continue
        dirs = [c for op, c in ctl.items() if op.startswith("dir.")]
        anchor = ctl.get("anchor")
        if dirs and anchor is not None and player._chosen(anchor):
            safe = [c for c in dirs if c.get("style") == SAFE_STYLE] or dirs
            await player._click(msg, player.rng.choice(safe))
            continue
        if anchor is not None:
            options = anchor["options"]
            safe = [o["value"] for o in options if "completable:" not in (o.get("description") or "")]
            await player._select(msg, anchor, [player.rng.choice(safe or [o["value"] for o in options])])
            continue
        raise AssertionError(f"{player.user.name}: a Pyramido prompt with nothing to do: {sorted(ctl)}")
    raise AssertionError(f"{player.user.name}: no Confirm after 16 clicks")


class Architect(SimulatedPlayer):
    """A simulated person who plays Pyramido (see architect)."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        kwargs.setdefault("strategy", architect)
        super().__init__(*args, **kwargs)


PLAYER = Architect
