"""The Times of Darkness parts of the Viceroy prompts: diamonds in the end-of-game painting (the exact best
painting spends them where gems fall short, and the one-click button uses them) and the aristocrat laws' options."""

from __future__ import annotations

import random

import pytest

import engine.viceroy as V
from bot.presenters.viceroy import PRESENTER
from bot.ui.drafts import fresh_draft
from bot.ui.presenter import SeatCtx
from engine.viceroy import apply_action
from engine.viceroy import pyramid as P
from engine.viceroy.modules import common
from engine.viceroy.modules.common import best_painting_with_diamonds
from engine.viceroy.painting import best_painting
from engine.viceroy.rules import rules_for
from tests.darkness.helpers import give_diamonds, started
from tests.darkness.test_darkness import with_domain
from tests.engine.helpers import gems

# Mentor | Boatswain over the Arcanist: one circle whose top-right section (Mentor) must turn red.
LAYOUT = {"1:2": 4, "1:4": 1, "2:3": 13}


def _at_painting(diamonds: int, seat_gems: dict) -> dict:
    state = started(["darkness"], 2)
    with_domain(state, 0, LAYOUT, domain_slot="1:0")
    give_diamonds(state, 0, diamonds)
    state["players"][0]["gems"] = seat_gems
    rules_for(state).phases["painting"].start(state, [])
    state["players"][1]["painted"] = []
    return state


def _red_circle(state: dict) -> dict:
    return next(c for c in P.circles(state["players"][0]["pyramid"]) if c["slot"] == "2:3")


def test_best_painting_uses_a_diamond_where_gems_fall_short():
    state = _at_painting(1, gems())
    assert best_painting(state, 0) == ([], 0)  # no gems: nothing to paint without the diamond
    paint, gain = best_painting_with_diamonds(state, 0, common.held(state, 0))
    assert gain > 0 and [i.get("diamond") for i in paint] == [True] and paint[0]["color"] == "red"
    apply_action(state, 0, {"type": "paint", "paint": paint})
    assert _red_circle(state)["single"] and common.held(state, 0) == 0


def test_best_painting_keeps_the_diamond_when_a_gem_does_the_job():
    state = _at_painting(1, gems(1, 0, 0, 0))
    paint, gain = best_painting_with_diamonds(state, 0, 1)
    assert gain > 0 and paint and not any(i.get("diamond") for i in paint)
    assert (paint, gain) == best_painting(state, 0)


def test_best_painting_with_no_diamonds_is_the_gem_painting():
    for seed in range(6):
        state = _at_painting(0, gems(*[random.Random(seed).randint(0, 2) for _ in range(4)]))
        assert best_painting_with_diamonds(state, 0, 0) == best_painting(state, 0)


def test_diamonds_are_split_between_colours_when_that_paints_more():
    """Exact, not one colour for every diamond: each diamond takes the colour its section needs. Two circles,
    each one section short: red at 2:3, blue at 2:5 (Mentor | Boatswain | Ambassador under Arcanist, Paladin)."""
    state = started(["darkness"], 2)
    with_domain(state, 0, {**LAYOUT, "1:6": 2, "2:5": 8}, domain_slot="1:0")
    give_diamonds(state, 0, 2)
    state["players"][0]["gems"] = gems()
    player = state["players"][0]
    colours = {c["slot"]: c["colors"] for c in P.circles(player["pyramid"])}
    assert colours == {"2:3": ["blue", "red", "red", "red"], "2:5": ["red", "blue", "blue", "blue"]}
    paint, gain = best_painting_with_diamonds(state, 0, 2)
    assert sorted(i["color"] for i in paint) == ["blue", "red"] and all(i["diamond"] for i in paint)
    for colour in ("red", "blue"):
        one = {c: (2 if c == colour else 0) for c in ("red", "green", "blue", "yellow")}
        assert best_painting({"players": {0: {"pyramid": player["pyramid"], "gems": one}}}, 0)[1] < gain
    rules_for(state).phases["painting"].start(state, [])
    state["players"][1]["painted"] = []
    apply_action(state, 0, {"type": "paint", "paint": paint})
    assert all(c["single"] for c in P.circles(player["pyramid"])) and common.held(state, 0) == 0


def test_the_painting_button_paints_with_diamonds():
    state = _at_painting(1, gems())
    prompt = V.GAME.pending(state)[0]
    assert prompt.kind == "paint" and prompt.choices["diamonds"] == 1
    ctx = SeatCtx(7, 0, "viceroy", V.view(state, 0), prompt, {0: "Ann", 1: "Bo"})
    kind = PRESENTER.prompt_kind(prompt)
    spec = kind.render(ctx, fresh_draft(ctx.key))
    button = next(c for row in spec.rows for c in row if getattr(c, "custom_id", "") == ctx.control_id("paint"))
    assert "1 with diamonds" in button.label and "diamond" in spec.description
    action = kind.on_control(ctx, fresh_draft(ctx.key), "paint", [])
    assert action == {"type": "paint", "paint": best_painting_with_diamonds(state, 0, 1)[0]}
    apply_action(state, 0, action)
    assert state["phase"] == "over" and _red_circle(state)["single"]


def test_the_ai_paints_with_diamonds_as_well_as_the_exact_painting():
    state = _at_painting(1, gems())
    action = rules_for(state).ai["painting"](state, 0, random.Random(1))
    assert action["paint"] == best_painting_with_diamonds(state, 0, 1)[0]


def _dev_ctx(state: dict, seat: int) -> tuple[SeatCtx, object]:
    prompt = V.GAME.pending(state)[seat]
    ctx = SeatCtx(7, seat, "viceroy", V.view(state, seat), prompt, {0: "Ann", 1: "Bo"})
    return ctx, PRESENTER.prompt_kind(prompt)


def _menu(spec, op: str, ctx: SeatCtx):  # noqa: ANN001, ANN202
    return next((c for row in spec.rows for c in row if getattr(c, "custom_id", "") == ctx.control_id(op)), None)


def test_the_choice_laws_options_read_as_words():
    """Court of Honour's options name what they give ("any-colour circle bonus +1"), never a data key."""
    from tests.darkness.test_darkness import dev_game

    state = dev_game(modules=("aristocrats",), hand=[102], layout={"1:2": 4})
    state["players"][0]["gems"] = gems(3, 3, 3, 3)
    ctx, kind = _dev_ctx(state, 0)
    draft = fresh_draft(ctx.key)
    kind.on_control(ctx, draft, "card", ["play:102"])
    kind.on_control(ctx, draft, "slot", [_menu(kind.render(ctx, draft), "slot", ctx).options[0].value])
    labels = [o.label for o in _menu(kind.render(ctx, draft), "opt", ctx).options]
    assert labels == ["2 diamonds", "any-colour circle bonus +1", "4 gems"]


@pytest.mark.parametrize("number", [102, 103])
def test_aristocrat_choice_laws_are_played_from_the_development_prompt(number: int):
    """The aristocrats' "choose one" laws offer their three options on the prompt, like the base game's."""
    from tests.darkness.test_darkness import dev_game

    state = dev_game(modules=("aristocrats",), hand=[number], layout={"1:2": 4})
    state["players"][0]["gems"] = gems(3, 3, 3, 3)
    ctx, kind = _dev_ctx(state, 0)
    draft = fresh_draft(ctx.key)
    kind.on_control(ctx, draft, "card", [f"play:{number}"])
    spec = kind.render(ctx, draft)
    slot = _menu(spec, "slot", ctx)
    kind.on_control(ctx, draft, "slot", [slot.options[0].value])
    spec = kind.render(ctx, draft)
    options = _menu(spec, "opt", ctx)
    assert options is not None and len(options.options) == 3, "the three options are offered"
    kind.on_control(ctx, draft, "opt", ["1"])
    action = kind.on_control(ctx, draft, "confirm", [])
    assert action["reward"]["option"] == 1
    apply_action(state, 0, action)
    assert any(e["card"] == number for e in state["players"][0]["pyramid"]["cards"].values())
