"""The Splendor Duel presenter without Discord: every menu offers only choices the engine accepts, a turn is
one plan confirmed once, replenishing is its own step, and games are played to the end through the prompts."""

from __future__ import annotations

import json
import random

import pytest

from bot.presenters import presenter_for
from bot.ui.presenter import SeatCtx, TableCtx, Waiting
from bot.ui.spec import MAX_OPTIONS, MAX_ROWS, Button, PlanIncomplete, Select
from engine.api import IllegalAction
from engine.splendor_duel import GAME
from tests.splendor_duel.helpers import fresh, set_board, set_tokens, to_pyramid

PRESENTER = presenter_for("splendor_duel")
NAMES = {0: "Ann", 1: "Bo"}


def ctx_for(state: dict, seat: int, game_id: int = 7) -> SeatCtx:
    prompts = GAME.pending(state)
    return SeatCtx(game_id=game_id, seat=seat, kind="splendor_duel", view=GAME.view(state, seat),
                   prompt=prompts.get(seat), names=NAMES, deadline=None)


def controls(spec) -> list:
    assert len(spec.rows) <= MAX_ROWS
    for row in spec.rows:
        assert len(row) <= 5
        for c in row:
            if isinstance(c, Select):
                assert 1 <= len(c.options) <= MAX_OPTIONS and c.min_values <= c.max_values <= len(c.options)
                assert len({o.value for o in c.options}) == len(c.options)
    return spec.controls()


def op_of(control) -> str:
    return control.custom_id.rsplit(":", 1)[1]


def click(ctx: SeatCtx, draft: dict, op: str, values: list[str] | None = None) -> dict | None:
    kind = PRESENTER.prompt_kind(ctx.prompt)
    return kind.on_control(ctx, draft, op, values or [])


def play_turn_through_prompts(state: dict, rng: random.Random, max_clicks: int = 60) -> dict:
    """A player clicking random offered controls until Confirm (or Replenish) gives an action."""
    (seat,) = GAME.pending(state)
    ctx = ctx_for(state, seat)
    draft: dict = {"key": ctx.key}
    for _ in range(max_clicks):
        spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
        items = controls(spec)
        confirm = next((c for c in items if isinstance(c, Button) and op_of(c) == "confirm"), None)
        if confirm is not None and not confirm.disabled and rng.random() < 0.6:
            return click(ctx, draft, "confirm")
        offered = [c for c in items if not (isinstance(c, Button) and (c.disabled or op_of(c) in ("confirm", "clear")))]
        selects = [c for c in offered if isinstance(c, Select) and op_of(c) != "priv"]
        # Mostly answer the newest question; sometimes change an earlier choice or the mode.
        choice = selects[-1] if selects and rng.random() < 0.75 else rng.choice(offered)
        if isinstance(choice, Button):
            action = click(ctx, draft, op_of(choice))
        else:
            k = rng.randint(choice.min_values, choice.max_values)
            sample = rng.sample(choice.options, k)
            if any(o.blocked for o in sample):
                # The bot answers a pick of an option marked as impossible with its reason; nothing changes.
                assert all(o.label.startswith("✖") and o.description == o.blocked for o in sample if o.blocked)
                continue
            action = click(ctx, draft, op_of(choice), [o.value for o in sample])
        if action is not None:
            return action
    raise AssertionError(f"no action after {max_clicks} clicks: {draft}")


@pytest.mark.parametrize("seed", range(12))
def test_presenter_games_played_to_the_end_through_the_prompts(seed):
    rng = random.Random(seed)
    state = GAME.new_game({}, seed, 2)
    turns = 0
    while not GAME.is_over(state) and turns < 600:
        (seat,) = GAME.pending(state)
        if seat == 1:
            action = GAME.choose_action(state, seat, rng)
        else:
            action = play_turn_through_prompts(state, rng)
        GAME.apply(state, seat, action)  # never refused: only legal plans are offered
        turns += 1
    assert GAME.is_over(state)


def test_presenter_take_line_menus_follow_the_first_token():
    state = set_board(fresh(), {"A1": "red", "B1": "blue", "C1": "green", "B2": "gold"})
    ctx = ctx_for(state, 0)
    draft = {"key": ctx.key}
    click(ctx, draft, "mode.take")
    spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
    first = next(c for c in controls(spec) if isinstance(c, Select) and op_of(c) == "first")
    assert [o.value for o in first.options] == ["A1", "B1", "C1"]
    click(ctx, draft, "first", ["B1"])
    spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
    line = next(c for c in controls(spec) if isinstance(c, Select) and op_of(c) == "line")
    assert sorted(o.value for o in line.options) == sorted(["B1", "A1-B1", "B1-C1", "A1-B1-C1"])
    click(ctx, draft, "line", ["A1-B1-C1"])
    assert click(ctx, draft, "confirm") == {"type": "take", "tokens": ["A1", "B1", "C1"]}


def test_presenter_one_confirm_for_privileges_buy_answers_and_discard():
    # Privilege on the missing green, buy L1-04 (take a white), return the token over 10.
    state = to_pyramid(set_board(fresh(), {"A1": "white", "C3": "green", "E5": "gold"}), "L1-14", 0)
    set_tokens(state, 0, white=2, blue=2, red=3, black=3)  # 10 tokens
    state["players"][0]["privileges"], state["supply"] = 1, 1
    ctx = ctx_for(state, 0)
    draft = {"key": ctx.key}
    click(ctx, draft, "priv", ["A1"])
    click(ctx, draft, "mode.buy")
    click(ctx, draft, "card", ["L1-14"])  # green: 2 white 2 blue, take a green
    spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
    question = next(c for c in controls(spec) if isinstance(c, Select) and op_of(c).startswith("q."))
    assert op_of(question) == "q.take" and [o.value for o in question.options] == ["C3"]
    click(ctx, draft, "q.take", ["C3"])
    spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
    assert not next(c for c in controls(spec) if isinstance(c, Button) and op_of(c) == "confirm").disabled
    action = click(ctx, draft, "confirm")
    assert action == {"type": "buy", "card": "L1-14", "take": "C3", "privileges": ["A1"]}
    GAME.apply(state, 0, action)
    assert state["players"][0]["cards"] == [["L1-14", "green"]]


def test_presenter_discard_select_when_the_plan_goes_over_ten():
    state = set_board(fresh(), {"A1": "red", "B1": "green", "C1": "blue"})
    set_tokens(state, 0, white=4, blue=2, black=3, pearl=1)
    ctx = ctx_for(state, 0)
    draft = {"key": ctx.key}
    click(ctx, draft, "mode.take")
    click(ctx, draft, "first", ["A1"])
    click(ctx, draft, "line", ["A1-B1-C1"])
    spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
    discard = next(c for c in controls(spec) if isinstance(c, Select) and op_of(c) == "discard")
    assert discard.min_values == discard.max_values == 3 and len(discard.options) == 13
    with pytest.raises(PlanIncomplete):
        click(ctx, draft, "confirm")
    click(ctx, draft, "discard", ["white:1", "white:2", "black:1"])
    action = click(ctx, draft, "confirm")
    assert action["discard"] == {"white": 2, "black": 1}
    GAME.apply(state, 0, action)


def test_presenter_replenish_is_its_own_step():
    state = fresh()
    state["board"][12] = None
    set_board(state, keep=True)
    ctx = ctx_for(state, 0)
    assert click(ctx, {"key": ctx.key}, "replenish") == {"type": "replenish"}
    GAME.apply(state, 0, {"type": "replenish"})
    ctx = ctx_for(state, 0)
    spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, {"key": ctx.key})
    ops = {op_of(c) for c in controls(spec)}
    assert "replenish" not in ops and "priv" not in ops


def test_presenter_forced_replenish_offers_only_that():
    state = set_board(fresh(), {"A1": "gold"})
    from tests.splendor_duel.helpers import give_reserved

    for c in ("L3-01", "L3-03", "L3-05"):
        give_reserved(state, 0, c)
    ctx = ctx_for(state, 0)
    spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, {"key": ctx.key})
    assert [op_of(c) for c in controls(spec)] == ["replenish"]


def test_presenter_refuses_choices_not_offered():
    state = set_board(fresh(), {"A1": "red"})
    ctx = ctx_for(state, 0)
    with pytest.raises(PlanIncomplete):
        click(ctx, {"key": ctx.key}, "priv", ["A1"])  # holds no privilege
    with pytest.raises(PlanIncomplete):
        click(ctx, {"key": ctx.key}, "mode.steal")


def test_presenter_table_and_screens_keep_blind_reserves_private():
    state = set_board(fresh(), {"A1": "gold", "B1": "red"})
    from tests.splendor_duel.helpers import to_deck_top

    to_deck_top(state, "L3-09")
    GAME.apply(state, 0, {"type": "reserve", "gold": "A1", "deck": 3})
    public = GAME.view(state, None)
    table = PRESENTER.table(TableCtx(7, GAME.type, public, NAMES, [Waiting(1, "Bo", None, True)]), True)
    assert "Bo" in table.description and "L3-09" not in json.dumps(table.description)
    assert "L3-09" not in json.dumps(GAME.view(state, 1))
    own = PRESENTER.screen(7, GAME.view(state, 0), 0, NAMES)
    assert "L3-09" in own.description and "blind" in own.description
    other = PRESENTER.screen(7, GAME.view(state, 1), 1, NAMES)
    assert "L3-09" not in other.description
    assert PRESENTER.screen_key(GAME.view(state, 0), 0) != PRESENTER.screen_key(GAME.view(state, 1), 1)


def test_presenter_rules_page_topics():
    assert "privilege" in PRESENTER.rules_text("privileges").lower()
    assert "Ruling" in PRESENTER.rules_text("rulings")
    assert "/splendorduel" in PRESENTER.rules_text("bot") or "Confirm" in PRESENTER.rules_text("bot")
    for topic in PRESENTER.rules_topics:
        assert "No rules section" not in PRESENTER.rules_text(topic), topic


def test_presenter_final_scores_and_default_action():
    from engine.splendor_duel.ai import play_game

    state, _ = play_game({}, 3)
    specs = PRESENTER.final(7, GAME.outcome(state), GAME.view(state, None), NAMES)
    assert "🏆" in specs[0].description and specs[0].image is not None
    fresh_state = GAME.new_game({}, 1, 2)
    (seat,) = GAME.pending(fresh_state)
    try:
        GAME.apply(fresh_state, seat, GAME.default_action(fresh_state, seat))
    except IllegalAction as exc:  # pragma: no cover - a failure message for the assert below
        raise AssertionError(exc.message) from exc


def test_presenter_counts_one_crown_and_one_privilege_in_the_singular():
    state = fresh()
    public = GAME.view(state, None)
    public["players"][0].update(crowns=1, privileges=1)
    public["players"][1].update(crowns=2, privileges=0)
    table = PRESENTER.table(TableCtx(7, GAME.type, public, NAMES, [Waiting(0, "Ann", None, True)]), False)
    ann, bo = table.description.splitlines()[1:3]
    assert ann.startswith("Ann: ") and "1 crown," in ann and ", 1 privilege," in ann and "crowns" not in ann
    assert "2 crowns," in bo and ", 0 privileges," in bo
    mine = GAME.view(state, 0)
    mine["players"][0].update(crowns=1, privileges=1)
    line = PRESENTER.screen(7, mine, 0, NAMES).description.splitlines()[0]
    assert "1 crown," in line and line.endswith("· 1 privilege"), line
