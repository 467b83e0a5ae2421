"""The Invasion prompts and pictures without Discord: the combat plan offers only what the engine accepts."""

from __future__ import annotations

import copy

from bot.presenters import presenter_for
from bot.presenters.viceroy.invasion import parse_recolours
from bot.presenters.viceroy.rules import rules_text
from bot.ui.presenter import SeatCtx
from bot.ui.spec import PlanIncomplete, Select
from engine.viceroy import GAME, apply_action
from engine.viceroy.modules.invasion import combat_card
from engine.viceroy.modules.invasion_data import MONSTER_CARDS, RAW
from rendering import render_table
from rendering.invasion import invasion_image, render_invasion
from tests.engine.helpers import submit
from tests.invasion.helpers import at_combat, gems, set_screen, settle

PRESENTER = presenter_for("viceroy")
NAMES = {0: "Ann", 1: "Bo"}
STACK = [201, 207, 208, 217]


def ctx_for(state: dict, seat: int) -> SeatCtx:
    return SeatCtx(game_id=7, seat=seat, kind="viceroy", view=GAME.view(state, seat),
                   prompt=GAME.pending(state).get(seat), names=NAMES)


def kind_of(state: dict, seat: int):  # noqa: ANN201
    return PRESENTER.kinds[GAME.pending(state)[seat].kind]


def pick(spec) -> Select:  # noqa: ANN001
    return next(c for row in spec.rows for c in row if isinstance(c, Select) and c.custom_id.endswith(":pick"))


def test_every_combat_option_is_a_plan_the_engine_accepts():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=3, green=2, blue=2, yellow=1))
    ctx = ctx_for(state, 0)
    kind = kind_of(state, 0)
    spec = kind.render(ctx, {})
    values = [o.value for o in pick(spec).options]
    assert values[0] == "3" and values[-1] == "0"  # the most that can be paid first, none last
    for value in values:
        action = kind.on_control(ctx, {}, "pick", [value])
        apply_action(copy.deepcopy(state), 0, action)
    assert "Orc Warband" in spec.description and "penalty card" in spec.description


def test_the_combat_plan_with_own_gems_and_recolours():
    state = at_combat(stack=STACK)
    combat_card(state, 0)["tokens"].append({"type": "science"})
    set_screen(state, 0, gems(red=1, green=1, yellow=1))
    ctx = ctx_for(state, 0)
    kind = kind_of(state, 0)
    draft: dict = {}
    kind.on_form(ctx, draft, "gems.combat_screen", {"red": "1", "green": "1", "blue": "0", "yellow": "1", "diamonds": "0"})
    kind.on_form(ctx, draft, "gems.combat_recolour", {"recolour": "yellow>blue"})
    action = kind.on_control(ctx, draft, "pick", ["1"])
    assert action["recolour"] == [{"from": "yellow", "to": "blue"}] and action["gems"] == gems(1, 1, 0, 1)
    apply_action(state, 0, action)
    assert state["choices"]["0"]["defeat"] == 1
    assert "Your sealed plan: **defeat 1**" in kind.render(ctx_for(state, 0), {}).description


def test_recolours_are_written_colour_to_colour():
    assert parse_recolours("Yellow>blue; red > green") == [{"from": "yellow", "to": "blue"}, {"from": "red", "to": "green"}]
    assert parse_recolours("  ") is None
    try:
        parse_recolours("purple>blue")
    except PlanIncomplete as exc:
        assert "colour>colour" in exc.message
    else:
        raise AssertionError("a bad recolour was accepted")


def test_the_fallback_question_offers_the_lower_reward_or_what_there_is():
    state = at_combat(stack=[202, 208, 207, 217])
    set_screen(state, 0, gems(green=3, yellow=1, blue=1))
    for c in gems():
        state["players"][1]["gems"][c] += state["reserve"][c]
        state["reserve"][c] = 0
    submit(state, {0: {"type": "combat", "defeat": 2, "gems": gems(green=3, yellow=1, blue=1)},
                   1: {"type": "combat", "defeat": 0}})
    ctx = ctx_for(state, 0)
    kind = kind_of(state, 0)
    spec = kind.render(ctx, {})
    assert [o.value for o in pick(spec).options] == ["lower", "take"]
    apply_action(state, 0, kind.on_control(ctx, {}, "pick", ["lower"]))
    settle(state)
    assert {"type": "power_points", "value": 5} in combat_card(state, 0)["tokens"]


def test_rules_topic_invasion_names_every_designed_card():
    text = rules_text("invasion")
    assert "designed by this project" in text and "no partial defeat" in text and "-4 PP" in text
    for card in list(MONSTER_CARDS.values()) + RAW["laws"]:
        assert card["name"] in text
    assert "invasion" in PRESENTER.rules_topics


def test_the_table_picture_shows_the_monster_stack_and_the_combat_cards():
    state = at_combat(stack=STACK)
    combat_card(state, 1)["tokens"].append({"type": "power_points", "value": 8})
    public = GAME.view(state, None)
    panel = invasion_image(public, NAMES)
    assert panel.width == 1100 and panel.height > 4 * 64
    assert render_invasion(public, NAMES).startswith(b"\x89PNG")
    assert render_table(public, NAMES).startswith(b"\x89PNG")
