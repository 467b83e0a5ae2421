"""Nothing final by accident: a sealed choice is drafted by the menu and sealed by Lock in; it can be changed
until everyone has locked in, the last chooser included; Pass out of a phase asks once; the Archive toggle
after a bid changes the bid."""

from __future__ import annotations

from bot.autoplay import controls
from bot.presenters.viceroy import PRESENTER
from bot.ui import lockin
from bot.ui.presenter import SeatCtx
from engine.viceroy import GAME
from tests.bot.harness import Table
from tests.bot.test_bot_interactions import past_setup, two_player_game


def prompt_of(user):
    return next((m for m in reversed(user.dms()) if controls(m)), None)


def described(world, msg) -> str:
    return world.messages[msg.id].embeds[0]["description"]


def revealed(table: Table) -> bool:
    return any("bids:" in m.content for m in table.channel.messages())


async def pick(table: Table, user, value: str):
    msg = prompt_of(user)
    await user.select(msg, controls(msg)["choose"]["custom_id"], [value])
    await table.settle()
    return msg


async def lock(table: Table, user, label: str = "Lock in"):
    msg = prompt_of(user)
    await user.click(msg, label=label)
    await table.settle()
    return msg


async def pass_the_auction(table: Table) -> None:
    """Everyone passes every auction round: the development phase begins."""
    for _ in range(8):
        if "choose" not in controls(prompt_of(table.users[0])):
            break
        for user in table.users[:2]:
            await pick(table, user, "pass")
            await lock(table, user)
        await table.settle()


async def test_the_last_chooser_sees_the_choice_and_can_change_it_before_it_resolves(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        await past_setup(table)
        await pick(table, ann, "pass")
        await lock(table, ann)
        assert "Your choice is in" in described(fake_discord, prompt_of(ann))
        # Bo chooses last: the menu drafts, nothing resolves yet.
        bids = [o["value"] for o in controls(prompt_of(bo))["choose"]["options"] if o["value"].startswith("bid:")]
        msg = await pick(table, bo, bids[0])
        text = described(fake_discord, msg)
        assert "Your choice: **bid" in text and "Press **Lock in**" in text
        assert not revealed(table), "a pick in the menu resolved the round"
        assert (await table.bot.service.pending(1))[1].waiting, "Bo's choice was submitted before Lock in"
        # Bo changes his mind, then locks in: the reveal shows the second choice.
        msg = await pick(table, bo, "pass")
        assert "Your choice: **pass" in described(fake_discord, msg) and not revealed(table)
        await lock(table, bo)
        await fake_discord.wait_for(lambda: revealed(table), timeout=15, what="the reveal")
        reveal = next(m.content for m in table.channel.messages() if "bids:" in m.content)
        assert "Bo passes" in reveal
    finally:
        await table.stop_bot()


async def test_a_locked_in_choice_can_be_changed_until_everyone_has_locked_in(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        await past_setup(table)
        bids = [o["value"] for o in controls(prompt_of(ann))["choose"]["options"] if o["value"].startswith("bid:")]
        await pick(table, ann, bids[0])
        await lock(table, ann)
        msg = await pick(table, ann, "pass")
        assert "Your new choice: **pass" in described(fake_discord, msg)
        assert "Lock in the change" in {c["label"] for c in msg.buttons()}
        view = await table.bot.service.view(1, ann.id)
        assert view["my_choice"]["type"] == "bid", "the sealed bid stays until the change is locked in"
        await lock(table, ann, "Lock in the change")
        view = await table.bot.service.view(1, ann.id)
        assert view["my_choice"]["type"] == "pass"
    finally:
        await table.stop_bot()


async def test_a_mis_tap_on_pass_asks_once(fake_discord, tmp_path):
    table, _ = await two_player_game(fake_discord, tmp_path)
    try:
        ann, bo = table.users
        await past_setup(table)
        await pass_the_auction(table)
        msg = prompt_of(ann)
        assert "pass" in controls(msg), "the development prompt"
        await ann.click(msg, custom_id=controls(msg)["pass"]["custom_id"])
        await table.settle()
        text = described(fake_discord, msg)
        assert "Your choice: **pass**" in text and "nothing is final" in text
        assert (await table.bot.service.pending(1))[0].waiting, "the Pass button passed at once"
        # The player thinks again: a card instead (the drafted pass is forgotten with the plan).
        card = controls(msg)["card"]
        playable = [o["value"] for o in card["options"] if not o["label"].startswith("✖")]
        await ann.select(msg, card["custom_id"], [playable[0]])
        await table.settle()
        assert "Lock in" not in {c["label"] for c in fake_discord.messages[msg.id].buttons()}
        await ann.click(msg, label="Back")
        await table.settle()
        await ann.click(msg, custom_id=controls(fake_discord.messages[msg.id])["pass"]["custom_id"])
        await table.settle()
        await lock(table, ann)
        view = await table.bot.service.view(1, ann.id)
        assert view["my_choice"] == {"type": "pass"}
    finally:
        await table.stop_bot()


def test_the_archive_toggle_after_a_bid_changes_the_bid():
    state = GAME.new_game(GAME.options_for({}, 2), 11, 2)
    for seat in (0, 1):
        GAME.apply(state, seat, GAME.default_action(state, seat))
    prompt = GAME.pending(state)[0]
    view = GAME.view(state, 0)
    # Archive (law 78) in the seat's pyramid: its toggle is offered.
    view["players"][0]["pyramid"]["cards"]["1:9"] = {"card": 78, "tokens": [], "tucked": []}
    ctx = SeatCtx(1, 0, "viceroy", view, prompt, {0: "Ann", 1: "Bo"})
    kind = PRESENTER.prompt_kind(prompt)
    draft = {"key": prompt.key}
    bid = next(f"bid:{b['color']}:{b['cards'][0]}" for b in prompt.choices["bids"])
    action = kind.on_control(ctx, draft, "choose", [bid])
    assert action["type"] == "bid" and action["archive"] is False
    toggled = kind.on_control(ctx, draft, "archive", [])
    assert toggled == {**action, "archive": True}, "the toggle makes the bid again with Archive on"
    draft[lockin.LOCK] = toggled
    spec = lockin.render(kind, ctx, draft, PRESENTER.describe)
    assert "Lock in" in [c.label for row in spec.rows for c in row if hasattr(c, "label")]
    # With a pass chosen the toggle changes nothing to submit.
    kind.on_control(ctx, draft, "choose", ["pass"])
    assert kind.on_control(ctx, draft, "archive", []) is None


class _Kind:
    """A sealed prompt kind whose controls give back what they are told ("pick" drafts, "confirm" commits)."""

    lock_in = True
    commit_ops = ("confirm",)

    def on_control(self, ctx, draft, op, values):  # noqa: ANN001, ANN201
        return {"op": op, "values": values} if values else None


def test_a_sealed_pick_is_drafted_and_lock_in_commits_it():
    draft: dict = {}
    assert lockin.on_control(_Kind(), None, draft, "pick", ["3"]) is None
    assert draft[lockin.LOCK] == {"op": "pick", "values": ["3"]}
    assert lockin.on_control(_Kind(), None, draft, lockin.LOCK_OP, []) == {"op": "pick", "values": ["3"]}
    assert lockin.LOCK not in draft
    assert lockin.on_control(_Kind(), None, draft, lockin.LOCK_OP, []) is None  # nothing drafted any more


def test_a_commit_op_submits_at_once_and_drops_the_drafted_choice():
    draft: dict = {lockin.LOCK: {"op": "pick", "values": ["1"]}}
    assert lockin.on_control(_Kind(), None, draft, "confirm", ["plan"]) == {"op": "confirm", "values": ["plan"]}
    assert lockin.LOCK not in draft


def test_a_kind_without_lock_in_submits_what_its_control_gives():
    kind = _Kind()
    kind.lock_in = False
    draft: dict = {}
    assert lockin.on_control(kind, None, draft, "pick", ["2"]) == {"op": "pick", "values": ["2"]}
    assert draft == {}
