"""Informed choices: every option says what it costs and gives; what cannot be taken now is marked, listed
last and answered with its reason (never silently left out); places have one set of letters; the first line
of a new prompt is what the previous round brought the player."""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.autoplay import SimulatedPlayer, controls, game_over, play_together
from bot.presenters.viceroy import PRESENTER
from bot.presenters.viceroy.common import place_letters
from bot.ui import checks, informed
from bot.ui.presenter import SeatCtx
from bot.ui.spec import Select
from bot.ui.texts import BLOCKED_MARK
from engine.viceroy import GAME
from engine.viceroy import cards as C
from tests.bot.harness import new_table

COORDINATES = re.compile(r"(?<![\d#])-?\d+:-?\d+(?!\d)")  # an engine place such as "1:-2"


def test_a_blocked_choice_is_marked_last_and_says_why():
    opts = informed.options([informed.Choice("Bid green", "g", blocked="cannot afford: needs 1G, you have 0"),
                             informed.Choice("Bid red", "r", costs="1R", gives="#11 Crossbowwoman"),
                             informed.Choice("Pass", "pass", gives="3 gems")])
    assert [o.value for o in opts] == ["r", "pass", "g"]
    assert opts[0].description == "for 1R → #11 Crossbowwoman" and opts[1].description == "→ 3 gems"
    assert opts[2].label == f"{BLOCKED_MARK} Bid green" and opts[2].description.startswith("cannot afford")
    spec_select = Select("id", "menu", opts)
    from bot.ui.spec import MessageSpec

    spec = MessageSpec(rows=[[spec_select]])
    assert checks.blocked_problem(spec, "id", ["r"]) is None
    assert checks.blocked_problem(spec, "id", ["g"]) == ("Cannot afford: needs 1G, you have 0. Nothing was changed: "
                                                          "choose another option.")


def test_shortfall_names_what_is_missing():
    assert informed.shortfall({"yellow": 2}, {"yellow": 1}, lambda c: c[0].upper()) == \
        "cannot afford: needs 2Y, you have 1"
    assert informed.shortfall({"yellow": 2, "red": 1}, {"red": 0}, lambda c: c[0].upper()) == \
        "cannot afford: needs 2Y 1R, you have 0Y 0R"
    assert informed.shortfall({"red": 1}, {"red": 3}, str) == ""


def _menus(spec):
    return {c.custom_id.rsplit(":", 1)[-1]: c for row in spec.rows for c in row if isinstance(c, Select)}


def _ctx(state, seat, prompt):
    return SeatCtx(1, seat, "viceroy", GAME.view(state, seat), prompt, {0: "Ann", 1: "Bo", 2: "Cy"})


def check_development(state, seat, prompt) -> None:
    """The first step offers every card in hand; a card is marked exactly when it cannot be played; each
    unmarked card leads to a place menu with a place to take; every offered place is in the menu."""
    ctx = _ctx(state, seat, prompt)
    kind = PRESENTER.prompt_kind(prompt)
    spec = kind.render(ctx, {"key": prompt.key})
    hand = ctx.view["players"][seat]["hand"]
    if not hand:
        return
    cards = _menus(spec)["card"].options
    assert sorted(int(o.value.split(":")[1]) for o in cards) == sorted(hand), "a card in hand is missing"
    seen_blocked = False
    plays = ctx.choices["plays"]
    for o in cards:
        number = int(o.value.split(":")[1])
        entry = plays.get(number, plays.get(str(number), {}))
        if C.is_law(number):
            possible = bool(entry.get("targets") or entry.get("slots"))
        else:
            possible = any(p["payment"] is not None for p in entry.get("slots", []))
        assert bool(o.blocked) == (not possible), (o.label, o.description)
        assert o.description, f"{o.label} says nothing about what it costs or gives"
        if o.blocked:
            seen_blocked = True
            assert o.label.startswith(BLOCKED_MARK)
            continue
        assert not seen_blocked, "a playable card is listed after one that cannot be played"
        draft = {"key": prompt.key}
        kind.on_control(ctx, draft, "card", [o.value])
        second = kind.render(ctx, draft)
        menus = _menus(second)
        places = menus.get("slot") or menus.get("target")
        assert places is not None and any(not p.blocked for p in places.options), f"a dead end after {o.label}"
        offered = [p["slot"] if isinstance(p, dict) else p for p in entry.get("slots", [])] or entry.get("targets")
        assert sorted(p.value for p in places.options) == sorted(offered), "a place was left out"
        letters = place_letters(ctx.view["players"][seat]["pyramid"], plays)
        for p in places.options:
            assert not COORDINATES.search(p.label + (p.description or "")), p.label
            assert p.label.lstrip(BLOCKED_MARK + " ").startswith(letters[p.value] + ":")
            if p.blocked:
                assert "cannot" in p.blocked


def check_auction(state, seat, prompt) -> None:
    ctx = _ctx(state, seat, prompt)
    spec = PRESENTER.prompt_kind(prompt).render(ctx, {"key": prompt.key})
    menu = _menus(spec)["choose"]
    gems = ctx.view["players"][seat]["gems"]
    for colour in C.COLORS:
        spot = ctx.view["auction"][colour]
        for card in (spot["base"], spot["tip"]):
            if card is None:
                continue
            o = next((o for o in menu.options if o.value == f"bid:{colour}:{card}"), None)
            assert o is not None, f"the {colour} bid for #{card} was left out"
            assert bool(o.blocked) == (gems[colour] == 0)
            assert (o.blocked or o.description).strip()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3]))
def test_every_viceroy_option_says_why_it_cannot_be_taken(seed, players):
    state = GAME.new_game(GAME.options_for({}, players), seed, players)
    rng = random.Random(seed)
    for _ in range(3000):
        if GAME.is_over(state):
            break
        pending = GAME.pending(state)
        for seat, prompt in pending.items():
            if prompt.waiting and prompt.kind == "development":
                check_development(state, seat, prompt)
            elif prompt.waiting and prompt.kind == "auction":
                check_auction(state, seat, prompt)
        seat = next(s for s in sorted(pending) if pending[s].waiting)
        GAME.apply(state, seat, GAME.choose_action(state, seat, rng))
    assert GAME.is_over(state)


async def careful(player: SimulatedPlayer, msg) -> None:
    """A careful player: reads every option; tries one marked as impossible (and is told why, nothing
    changes); then plays on like a person would."""
    texts = player.seen.setdefault("texts", [])
    for comp in controls(msg).values():
        for o in comp.get("options", []):
            texts.append(o["label"] + " " + (o.get("description") or ""))
    blocked = [(c, o) for c in controls(msg).values() for o in c.get("options", [])
               if o["label"].startswith(BLOCKED_MARK)]
    if blocked:
        comp, option = blocked[0]
        notes, edits = len(player.user.ephemerals()), msg.edits
        await player.user.select(msg, comp["custom_id"], [option["value"]], timeout=10)
        await player.world.wait_for(lambda: len(player.user.ephemerals()) > notes, timeout=15, what="the reason")
        answer = player.user.ephemerals()[-1].content
        assert answer.startswith(option["description"][0].upper() + option["description"][1:]), answer
        assert "Nothing was changed" in answer and msg.edits == edits
        player.seen["blocked"] = player.seen.get("blocked", 0) + 1
    player.seen.setdefault("sent", []).append(msg.content)
    await player._decide(msg)
    if "Your move in" in msg.content and msg.edits:
        player.seen.setdefault("edited", []).append(msg.content)


async def test_a_whole_game_offers_nothing_impossible_without_saying_why(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        rec = await ann.slash(table.channel, "viceroy new", seats=2)
        await table.settle()
        await bo.click(rec.reply, label="Join")
        await table.settle()
        await ann.click(rec.reply, label="Start")
        sims = [SimulatedPlayer(fake_discord, u, table.channel, seed=i + 3, strategy=careful) for i, u in enumerate((ann, bo))]
        for sim in sims:
            sim.seen = {}
        await play_together(sims, timeout=300)
        await table.settle()
        assert game_over(table.channel)
        for sim in sims:
            for text in sim.seen["texts"]:
                assert not COORDINATES.search(text), f"an engine coordinate in a menu: {text}"
        for user in (ann, bo):
            for m in user.dms():
                assert "You cannot pay for this card anywhere" not in " ".join(
                    (e.get("description") or "") for e in m.embeds), "a dead end after choosing a card"
        # The previous round's outcome opens later prompts, and stays there after clicks (edits).
        assert sum(sim.seen.get("blocked", 0) for sim in sims) >= 1, "nobody met an option marked impossible"
        sent = [c for sim in sims for c in sim.seen["sent"]]
        assert sum(c.startswith("Last round:") for c in sent) >= 4, sent[:6]
        assert all(c.startswith("Last round:") or c.startswith("Your move in") for c in sent)
        edited = [c for sim in sims for c in sim.seen.get("edited", [])]
        assert any(c.startswith("Last round:") for c in edited), edited[:6]
    finally:
        await table.stop_bot()
