"""The Pyramido presenter without Discord: a turn in four taps, only legal choices offered, Discord's limits."""

from __future__ import annotations

import copy
import random
import re

import pytest

from bot.i18n import catalogue
from bot.presenters.pyramido import PRESENTER, rules_text
from bot.ui.presenter import SeatCtx
from bot.ui.spec import Button, PlanIncomplete, Select
from engine.pyramido import GAME
from engine.pyramido import game as G

NAMES = {0: "Ann", 1: "Bo", 2: "Cy", 3: "Di"}


def _ctx(state, seat=None):
    seat = state["turn"] if seat is None else seat
    prompt = GAME.pending(state)[seat]
    return SeatCtx(game_id=7, seat=seat, kind="pyramido", view=GAME.view(state, seat), prompt=prompt,
                   names=NAMES)


def _kind(ctx):
    return PRESENTER.prompt_kind(ctx.prompt)


def _op(control) -> str:
    # the op is the last part of the control id
    return control.custom_id.split(":")[-1]


def _check_limits(spec):
    from bot.ui.ids import ControlId

    assert len(spec.rows) <= 5
    for control in spec.controls():
        assert ControlId.decode(control.custom_id) is not None, control.custom_id
    for row in spec.rows:
        assert row
        if any(isinstance(c, Select) for c in row):
            assert len(row) == 1
            assert 1 <= len(row[0].options) <= 25
            assert len({o.value for o in row[0].options}) == len(row[0].options)
            assert all(len(o.label) <= 100 for o in row[0].options)
        else:
            assert len(row) <= 5 and all(isinstance(c, Button) for c in row)


def _select(spec, op):
    return next(c for c in spec.controls() if isinstance(c, Select) and _op(c) == op)


def _buttons(spec, prefix):
    return [c for c in spec.controls() if isinstance(c, Button) and _op(c).startswith(prefix)]


def test_a_turn_takes_four_taps_domino_position_direction_confirm():
    state = GAME.new_game({"starter": "first"}, 3, 2)
    ctx = _ctx(state)
    kind = _kind(ctx)
    draft = {"key": ctx.key}
    spec = kind.render(ctx, draft)
    _check_limits(spec)
    domino = _select(spec, "domino").options[0].value
    assert kind.on_control(ctx, draft, "domino", [domino]) is None
    spec = kind.render(ctx, draft)
    anchor = _select(spec, "anchor").options[0].value
    assert kind.on_control(ctx, draft, "anchor", [anchor]) is None
    spec = kind.render(ctx, draft)
    direction = _buttons(spec, "dir.")[0]
    assert kind.on_control(ctx, draft, _op(direction), []) is None
    spec = kind.render(ctx, draft)
    _check_limits(spec)
    action = kind.on_control(ctx, draft, "confirm", [])
    assert action["type"] == "place" and action["domino"] == int(domino)
    GAME.apply(state, 0, action)


def test_confirm_before_the_plan_is_complete_is_refused():
    state = GAME.new_game({"starter": "first"}, 3, 2)
    ctx = _ctx(state)
    kind = _kind(ctx)
    with pytest.raises(PlanIncomplete):
        kind.on_control(ctx, {"key": ctx.key}, "confirm", [])
    draft = {"key": ctx.key, "domino": state["quarry"][0]}
    with pytest.raises(PlanIncomplete):
        kind.on_control(ctx, draft, "confirm", [])


@pytest.mark.parametrize("op, values", [("domino", ["999"]), ("anchor", ["40,40"]), ("anchor", ["x"]),
                                        ("dir.Q", []), ("refill.3", []), ("card", ["9:red:a"]), ("nope", [])])
def test_choices_outside_the_prompt_are_refused(op, values):
    state = GAME.new_game({"starter": "first"}, 3, 2)
    ctx = _ctx(state)
    draft = {"key": ctx.key, "domino": state["quarry"][0], "at": [0, 0]}
    with pytest.raises(PlanIncomplete):
        _kind(ctx).on_control(ctx, draft, op, values)


def test_positions_offered_are_exactly_the_legal_placements():
    state = GAME.new_game({"starter": "first"}, 5, 2)
    rng = random.Random(5)
    for _ in range(9):
        GAME.apply(state, state["turn"], GAME.choose_action(state, state["turn"], rng))
    ctx = _ctx(state)
    kind = _kind(ctx)
    draft = {"key": ctx.key, "domino": state["quarry"][1]}
    offered = set()
    page = 0
    while True:
        draft["page"] = page
        spec = kind.render(ctx, draft)
        for option in _select(spec, "anchor").options:
            d = dict(draft, at=[int(v) for v in option.value.split(",")], dir=None)
            d.pop("page")
            for b in _buttons(kind.render(ctx, d), "dir."):
                offered.add((option.value, _op(b)[4:]))
        more = _buttons(spec, "page.")
        if not more or int(_op(more[0])[5:]) == 0:
            break
        page = int(_op(more[0])[5:])
    legal = {(f"{p['at'][0]},{p['at'][1]}", p["dir"]) for p in ctx.choices["placements"]}
    assert offered == legal


COORDINATES = re.compile(r"\(\s*-?\d+\s*,\s*-?\d+\s*\)")  # an engine cell such as "(-3, -1)"


def test_the_chosen_move_is_echoed_with_the_letter_and_button_the_player_saw():
    state = GAME.new_game({"starter": "first"}, 5, 2)
    rng = random.Random(5)
    for _ in range(9):  # a grown floor: positions away from (0, 0), some at negative coordinates
        GAME.apply(state, state["turn"], GAME.choose_action(state, state["turn"], rng))
    ctx = _ctx(state)
    kind = _kind(ctx)
    draft = {"key": ctx.key}
    kind.on_control(ctx, draft, "domino", [_select(kind.render(ctx, draft), "domino").options[0].value])
    option = _select(kind.render(ctx, draft), "anchor").options[-1]  # not the first letter: no lucky "A"
    letter = option.label.split()[1]
    kind.on_control(ctx, draft, "anchor", [option.value])
    button = _buttons(kind.render(ctx, draft), "dir.")[-1]
    kind.on_control(ctx, draft, _op(button), [])
    action = kind.on_control(ctx, draft, "confirm", [])
    text = PRESENTER.describe(action)
    word = button.label.split()[-1]  # "→ East": the direction's word, as the player read it on the button
    assert f"at position {letter}, second block {word.lower()}," in text, text
    assert not COORDINATES.search(text), text
    # the letter is only a note for the player: the engine plays the action as it is
    GAME.apply(state, ctx.seat, action)
    # what the bot sends: "You chose: ...", in Swedish too, with nothing left in English
    chosen = f"You chose: **{text}**."
    swedish = catalogue("sv", "pyramido").text(chosen)
    direction = {"East": "öster", "South": "söder", "West": "väster", "North": "norr"}[word]
    assert f"**dominobricka #{action['domino']} (" in swedish, swedish
    assert f" vid position {letter}, andra blocket åt {direction}, " in swedish, swedish
    for english in ("domino #", "at position", "second block", "refill", " gem"):
        assert english not in swedish, swedish


def test_a_move_without_a_letter_is_told_in_plain_words_not_coordinates():
    # the bot's own move when time runs out (and any move not picked from a prompt) has no letter
    state = GAME.new_game({"starter": "first"}, 5, 2)
    rng = random.Random(5)
    for _ in range(9):
        GAME.apply(state, state["turn"], GAME.choose_action(state, state["turn"], rng))
    action = GAME.default_action(state, state["turn"])
    assert action["at"] != [0, 0]
    text = PRESENTER.describe(action)
    assert text.startswith(f"domino #{action['domino']} (") and "second block" in text, text
    assert not COORDINATES.search(text) and "at " not in text, text
    swedish = catalogue("sv", "pyramido").text(f"⌛ Time ran out for your decision in Pyramido. I chose for you: "
                                               f"**{text}**.")
    assert "Jag valde åt dig: **dominobricka #" in swedish and "andra blocket åt " in swedish, swedish
    assert "domino #" not in swedish and "second block" not in swedish, swedish


def test_single_block_card_and_its_icon_can_be_planned():
    state = GAME.new_game({"starter": "first"}, 3, 2)
    ctx = _ctx(state)
    kind = _kind(ctx)
    domino = state["quarry"][0]
    draft = {"key": ctx.key}
    kind.on_control(ctx, draft, "domino", [str(domino)])
    placement = ctx.choices["placements"][0]
    kind.on_control(ctx, draft, "anchor", [f"{placement['at'][0]},{placement['at'][1]}"])
    kind.on_control(ctx, draft, f"dir.{placement['dir']}", [])
    spec = kind.render(ctx, draft)
    card_value = _select(spec, "card").options[1].value
    kind.on_control(ctx, draft, "card", [card_value])
    spec = kind.render(ctx, draft)
    _check_limits(spec)
    kind.on_control(ctx, draft, "card", ["icon:br"])
    action = kind.on_control(ctx, draft, "confirm", [])
    assert action["card"]["icon"] == "br" and action["card"]["card"] == int(card_value.split(":")[0])
    GAME.apply(state, 0, action)
    assert state["players"][0]["cards"][action["card"]["card"]] is not None


@pytest.mark.parametrize("seats", [2, 4])
def test_random_clicks_through_the_presenter_play_whole_games(seats):
    """Every seat clicks at random among what the presenter offers; every confirmed plan is legal."""
    rng = random.Random(seats)
    state = GAME.new_game({}, 40 + seats, seats)
    turns = 0
    while not state["over"]:
        ctx = _ctx(state)
        kind = _kind(ctx)
        draft = {"key": ctx.key}
        for _ in range(40):
            spec = kind.render(ctx, draft)
            _check_limits(spec)
            controls = spec.controls()
            confirm = [c for c in controls if _op(c) == "confirm"]
            if confirm and rng.random() < 0.35:
                try:
                    action = kind.on_control(ctx, draft, "confirm", [])
                    break
                except PlanIncomplete:
                    continue
            control = rng.choice([c for c in controls if _op(c) != "confirm"] or confirm)
            values = [rng.choice(control.options).value] if isinstance(control, Select) else []
            try:
                result = kind.on_control(ctx, draft, _op(control), values)
            except PlanIncomplete:
                continue
            if result is not None:
                action = result
                break
        else:
            action = GAME.default_action(state, ctx.seat)
        before = copy.deepcopy(action)
        GAME.apply(state, ctx.seat, action)
        assert action == before
        turns += 1
    assert GAME.outcome(state) is not None and turns > 10


def test_fill_gaps_prompt_offers_a_card_per_gap():
    from .test_rules_floors import WALLED, _build

    state = GAME.new_game({"starter": "first"}, 4, 2)
    _build(state, 0, WALLED)
    ctx = _ctx(state, 0)
    assert ctx.prompt.kind == "fill_gaps"
    kind = _kind(ctx)
    draft = {"key": ctx.key}
    spec = kind.render(ctx, draft)
    _check_limits(spec)
    selects = [c for c in spec.controls() if isinstance(c, Select)]
    assert len(selects) == 2
    kind.on_control(ctx, draft, _op(selects[0]), [selects[0].options[0].value])
    with pytest.raises(PlanIncomplete):
        kind.on_control(ctx, draft, "confirm", [])
    kind.on_control(ctx, draft, _op(selects[1]), [selects[1].options[0].value])
    with pytest.raises(PlanIncomplete):  # the same card twice
        kind.on_control(ctx, draft, "confirm", [])
    other = next(o.value for o in selects[1].options if o.value.split(":")[0] != selects[0].options[0].value.split(":")[0])
    kind.on_control(ctx, draft, _op(selects[1]), [other])
    action = kind.on_control(ctx, draft, "confirm", [])
    GAME.apply(state, 0, action)
    assert len(state["players"][0]["fills"][0]) == 2


def test_turn_picture_renders_with_labels_and_preview():
    state = GAME.new_game({"starter": "first"}, 3, 3)
    ctx = _ctx(state)
    kind = _kind(ctx)
    draft = {"key": ctx.key}
    data = kind.render(ctx, draft).image.render()
    assert data[:4] == b"\x89PNG"
    p = ctx.choices["placements"][0]
    draft.update(domino=state["quarry"][0], at=p["at"], dir=p["dir"])
    assert kind.render(ctx, draft).image.render()[:4] == b"\x89PNG"


def _first_floor_scored() -> tuple[dict, list[dict]]:
    """A 2-seat game played by the AI until floor 1 is scored: the state and that last move's events."""
    state = GAME.new_game({}, 6, 2)
    rng = random.Random(6)
    events: list[dict] = []
    while state["floor"] == 1:
        events = GAME.apply(state, state["turn"], GAME.choose_action(state, state["turn"], rng))
    return state, events


def test_floor_scoring_gets_a_score_post_with_the_sheet():
    state, events = _first_floor_scored()
    spec = PRESENTER.results(events, GAME.view(state, None), NAMES)
    assert spec is not None and spec.title == "Floor 1 scoring"
    assert all(NAMES[s] in spec.description for s in range(2))
    assert spec.image.render()[:4] == b"\x89PNG"
    assert PRESENTER.results([], GAME.view(state, None), NAMES) is None


def test_rules_topics_come_from_the_rules_page():
    assert "Mino's bonus" in rules_text("scoring")
    assert "5×4" in rules_text("placing")
    assert "Ruling" in rules_text("rulings")
    assert "/pyramido new" in rules_text("bot")
    for topic in PRESENTER.rules_topics:
        assert not rules_text(topic).startswith("No rules page")


def test_table_key_changes_per_floor():
    state = GAME.new_game({}, 6, 2)
    assert PRESENTER.table_key(GAME.view(state, None)) == "floor1"
    assert G.prompt_key(state) != ""


def test_floor_scores_are_told_once_in_the_channel_with_their_parts():
    state, events = _first_floor_scored()
    public = [e for e in events if e.get("to") == "all"]
    lines = [line for e in public if (line := PRESENTER.event_line(e, NAMES))]
    # The score post carries each score, its parts and who starts next: the lines above it do not repeat them.
    assert not [line for line in lines if " on floor 1 (" in line or "begins" in line], lines
    post = PRESENTER.results(events, GAME.view(state, None), NAMES).description
    for seat in range(2):
        sheet = state["players"][seat]["sheets"][0]
        areas = len(sheet["areas"])
        assert (f"**{NAMES[seat]}**: {sheet['total']} points ({sheet['area_points']} in {areas} "
                f"area{'' if areas == 1 else 's'} + {sheet['mino_points']} Mino's bonus)") in post
    assert "Floor 2 begins:" in post
    # The seat's own recap still says what its floor brought.
    scored = next(e for e in public if e.get("type") == "floor_score" and e["seat"] == 0)
    assert "Ann scores" in PRESENTER.recap([scored], [], 0, NAMES)


def test_the_last_floor_post_gives_its_scores():
    state = GAME.new_game({}, 4, 2)
    rng = random.Random(4)
    while not state.get("over"):
        GAME.apply(state, state["turn"], GAME.choose_action(state, state["turn"], rng))
    specs = PRESENTER.final(7, GAME.outcome(state), GAME.view(state, None), NAMES)
    last = specs[-1]
    assert last.title == "Floor 4 scoring"
    for seat in range(2):
        assert f"**{NAMES[seat]}**: {state['players'][seat]['scores'][3]} point" in (last.description or "")
