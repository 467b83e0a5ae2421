"""Simulated Discord users: what a test does with its players."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .model import FakeChannel, FakeMessage, InteractionRecord

if TYPE_CHECKING:
    from .server import FakeDiscord


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    world: FakeDiscord = field(repr=False)
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    # --- faults -------------------------------------------------------------------------------------------
    def close_dms(self) -> None:
        """From now on the bot's messages to this user's DM channel fail with 403 / 50007."""
        self.dms_open = False

    def open_dms(self) -> None:
        self.dms_open = True

    # --- reading --------------------------------------------------------------------------------------------
    @property
    def dm_channel(self) -> FakeChannel | None:
        return self.world.dm_channel_of(self)

    def open_dm(self) -> FakeChannel:
        """This user's DM channel with the bot (created if needed), e.g. to run a command in DMs."""
        return self.world._get_or_create_dm(self)

    def dms(self) -> list[FakeMessage]:
        """Messages in this user's DM channel with the bot, oldest first."""
        chan = self.dm_channel
        return chan.messages() if chan else []

    def ephemerals(self) -> list[FakeMessage]:
        """Ephemeral messages this user received (only they can see them), oldest first."""
        return [m for m in self.world.messages.values()
                if m.ephemeral_to == self.id and not m.deleted]

    def interactions(self) -> list[InteractionRecord]:
        return [r for r in self.world.interactions.values() if r.user_id == self.id]

    async def wait_dm(self, predicate: Any = None, timeout: float = 5.0, *, after: int = 0) -> FakeMessage:
        """Wait for a DM (the newest one matching ``predicate``) beyond the first ``after`` DMs."""

        def check() -> FakeMessage | None:
            for msg in reversed(self.dms()[after:]):
                if msg.author_id == self.world.bot_user_id and (predicate is None or predicate(msg)):
                    return msg
            return None

        return await self.world.wait_for(check, timeout=timeout, what=f"a DM to {self.name}")

    # --- acting ---------------------------------------------------------------------------------------------
    async def slash(self, channel: FakeChannel, command: str, *, wait: bool = True, timeout: float = 5.0,
                    **options: Any) -> InteractionRecord:
        """Run ``/command`` (``"group sub"`` for subcommands) with options, like the Discord client would.

        The command must have been synced by the bot. With ``wait`` the call returns once the bot has
        acknowledged the interaction (TimeoutError otherwise); the record then holds the reply.
        """
        rec = await self.world.start_command(self, channel, command, options)
        if wait:
            await rec.wait_response(timeout)
        return rec

    async def autocomplete(self, channel: FakeChannel, command: str, focused: str, timeout: float = 5.0,
                           **options: Any) -> list[dict[str, Any]]:
        """Type into the option ``focused`` of ``/command``: the suggestions the bot answers with."""
        rec = await self.world.start_autocomplete(self, channel, command, options, focused)
        await rec.wait_response(timeout)
        return list(rec.choices or [])

    async def click(self, message: FakeMessage, *, custom_id: str | None = None, label: str | None = None,
                    wait: bool = True, timeout: float = 5.0) -> InteractionRecord:
        """Press a button on ``message`` (found by custom_id or label)."""
        comp = message.find_component(custom_id=custom_id, label=label)
        if comp.get("type") != 2:
            raise ValueError(f"component {comp.get('custom_id')!r} is not a button")
        rec = await self.world.start_component(self, message, comp, values=None)
        if wait:
            await rec.wait_response(timeout)
        return rec

    async def select(self, message: FakeMessage, custom_id: str, values: list[Any], *, wait: bool = True,
                     timeout: float = 5.0) -> InteractionRecord:
        """Choose ``values`` in the select menu ``custom_id`` on ``message``."""
        comp = message.find_component(custom_id=custom_id)
        if comp.get("type") not in (3, 5, 6, 7, 8):
            raise ValueError(f"component {custom_id!r} is not a select menu")
        rec = await self.world.start_component(self, message, comp, values=values)
        if wait:
            await rec.wait_response(timeout)
        return rec

    async def submit_modal(self, interaction: InteractionRecord, custom_id: str | None = None,
                           values: dict[str, Any] | None = None, *, wait: bool = True,
                           timeout: float = 5.0) -> InteractionRecord:
        """Fill in and submit the modal the bot opened in answer to ``interaction``."""
        rec = await self.world.start_modal_submit(self, interaction, custom_id, values or {})
        if wait:
            await rec.wait_response(timeout)
        return rec

    async def say(self, channel: FakeChannel, content: str) -> FakeMessage:
        """Post a plain message (dispatched to the bot as MESSAGE_CREATE)."""
        return await self.world.user_message(self, channel, content)

    async def react(self, message: FakeMessage, emoji: str) -> None:
        await self.world.user_reaction(self, message, emoji)
