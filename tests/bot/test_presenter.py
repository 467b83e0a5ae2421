"""The Viceroy presenter without Discord: what each seat is offered, and that finished plans are legal actions."""

from __future__ import annotations

import copy
import io
import random

from PIL import Image

import engine.viceroy as V
from bot.presenters.viceroy import PRESENTER
from bot.presenters.viceroy import plans as PL
from bot.presenters.viceroy.common import gems_long, suggested_gems
from bot.ui import ids
from bot.ui.drafts import fresh_draft, load_draft
from bot.ui.presenter import SeatCtx
from bot.ui.spec import Button, MessageSpec, PlanIncomplete, Select
from bot.ui.texts import fill_names
from engine.api import Prompt
from engine.viceroy import ai
from engine.viceroy import cards as C
from engine.viceroy import pyramid as P


def _prompt(state: dict, seat: int) -> Prompt:
    return V.GAME.pending(state)[seat]


def _game_at(phase: str, seed: int = 3, players: int = 2) -> dict:
    state = V.new_game({"players": players}, seed)
    rng = random.Random(seed)
    for _ in range(2000):
        prompts = V.pending(state)
        seat = min(s for s, p in prompts.items() if not p.get("submitted"))
        if prompts[seat]["kind"] == phase and state["decision"] is None:
            return state
        V.apply_action(state, seat, ai.choose_action(state, seat, rng))
    raise AssertionError(f"never reached {phase}")


def _ctx(state: dict, seat: int) -> SeatCtx:
    return SeatCtx(7, seat, "viceroy", V.view(state, seat), _prompt(state, seat), {0: "Ann", 1: "Bo"})


def _all_controls(spec: MessageSpec) -> list:
    return [c for row in spec.rows for c in row]


def _spec(state: dict, seat: int, draft: dict | None = None) -> MessageSpec:
    ctx = _ctx(state, seat)
    return PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft if draft is not None else fresh_draft(ctx.key))


def _control(ctx: SeatCtx, draft: dict, op: str, values: list[str]) -> dict | None:
    return PRESENTER.prompt_kind(ctx.prompt).on_control(ctx, draft, op, values)


def test_custom_ids_fit_discords_limit_and_name_the_prompt():
    state = _game_at("development")
    spec = _spec(state, 0)
    key = ids.encode_key(V.prompt_key(state, 0))
    for control in _all_controls(spec):
        assert len(control.custom_id) <= 100
        assert f":0:{key}:" in control.custom_id


def test_a_huge_hand_still_offers_pass_and_at_most_25_options():
    state = _game_at("development")
    state["players"][0]["hand"] = list(range(1, 31))
    spec = _spec(state, 0)
    controls = _all_controls(spec)
    assert any(isinstance(c, Button) and c.custom_id.endswith(":pass") for c in controls)
    assert all(len(c.options) <= 25 for c in controls if isinstance(c, Select))


def test_auction_prompt_lists_only_biddable_colours_and_pass():
    state = _game_at("auction")
    spec = _spec(state, 0)
    choose = next(c for c in _all_controls(spec) if isinstance(c, Select))
    me = state["players"][0]
    for option in choose.options:
        if option.value.startswith("bid:"):
            colour = option.value.split(":")[1]
            assert me["gems"][colour] > 0
    assert choose.options[-1].value == "pass"
    assert spec.image is not None and spec.image.filename == "auction.png"


def test_pass_from_the_auction_prompt_takes_the_right_number_of_gems():
    state = _game_at("auction")
    ctx = _ctx(state, 0)
    draft = fresh_draft(ctx.key)
    action = _control(ctx, draft, "choose", ["pass"])
    assert action["type"] == "pass" and sum(action["gems"].values()) == 3 + science_of(state, 0)
    before = copy.deepcopy(state)
    V.apply_action(state, 0, action)
    assert state != before


def science_of(state: dict, seat: int) -> int:
    return sum(1 for e in state["players"][seat]["pyramid"]["cards"].values() for t in e["tokens"] if t["type"] == "science")


def test_every_playable_character_plan_built_from_the_menus_is_legal():
    checked = 0
    for seed in range(12):
        state = _game_at("development", seed=seed)
        ctx = _ctx(state, 0)
        for number in state["players"][0]["hand"]:
            if C.is_law(number):
                continue
            draft = fresh_draft(ctx.key)
            _control(ctx, draft, "card", [f"play:{number}"])
            spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
            slot_menu = next((c for c in _all_controls(spec) if isinstance(c, Select) and c.custom_id.endswith(":slot")), None)
            if slot_menu is None:
                continue
            for option in slot_menu.options:
                trial = copy.deepcopy(state)
                d = copy.deepcopy(draft)
                _control(ctx, d, "slot", [option.value])
                action = PL.build_action(ctx, d)
                V.apply_action(trial, 0, action)  # raises IllegalAction if the menus offered something illegal
                checked += 1
    assert checked > 20


def test_a_plan_without_a_place_is_incomplete_with_a_clear_message():
    state = _game_at("development")
    ctx = _ctx(state, 0)
    number = next(n for n in state["players"][0]["hand"] if not C.is_law(n))
    draft = fresh_draft(ctx.key)
    _control(ctx, draft, "card", [f"play:{number}"])
    try:
        PL.build_action(ctx, draft)
    except PlanIncomplete as exc:
        assert "where the card goes" in exc.message
    else:
        raise AssertionError("an incomplete plan was accepted")


def test_gem_modal_rejects_words():
    try:
        PL.parse_gems({"red": "two"})
    except PlanIncomplete as exc:
        assert "not a number" in exc.message
    else:
        raise AssertionError("accepted a word as a number")
    assert PL.parse_gems({"red": "2", "blue": ""}) == {"red": 2, "green": 0, "blue": 0, "yellow": 0}


def test_an_image_over_the_upload_limit_degrades_to_jpeg():
    from cogs.discord_ui import file_for

    img = Image.effect_noise((900, 900), 80).convert("RGB")
    out = io.BytesIO()
    img.save(out, "PNG")
    data = out.getvalue()
    small = file_for(data, "table.png", len(data) // 4)
    assert small.filename == "table.jpg"
    small.fp.seek(0)
    assert len(small.fp.read()) <= len(data) // 4
    same = file_for(data, "table.png", len(data) + 1)
    assert same.filename == "table.png"


def test_fill_names_and_texts():
    assert fill_names("{p0} bids; {p1} passes", {0: "Ann", 1: "Bo"}) == "Ann bids; Bo passes"
    assert gems_long({"red": 2, "green": 0, "blue": 1, "yellow": 0}) == "2 red, 1 blue"
    assert load_draft('{"key": "old", "card": 3}', "new") == {"key": "new"}
    assert load_draft('{"key": "k", "card": 3}', "k")["card"] == 3


def test_reward_gem_choice_counts_the_planned_reward():
    for seed in range(30):
        state = _game_at("development", seed=seed)
        ctx = _ctx(state, 0)
        view = ctx.view
        for number in state["players"][0]["hand"]:
            if C.is_law(number):
                continue
            draft = fresh_draft(ctx.key)
            _control(ctx, draft, "card", [f"play:{number}"])
            for slot in P.legal_slots(state["players"][0]["pyramid"], number):
                level = P.level_of(slot)
                amount = sum(i["amount"] for i in C.rewards(number, level) if i["type"] == "gems") if level < 5 else 0
                if not amount:
                    continue
                draft["slot"] = slot
                assert PL.gem_choice_count(ctx, draft, "reward") == amount
                due = min(amount, sum(view["reserve"].values()))
                PL.check_gem_choice(ctx, draft, "reward", suggested_gems(view, 0, amount))
                try:
                    PL.check_gem_choice(ctx, draft, "reward", {"red": due + 1, "green": 0, "blue": 0, "yellow": 0})
                except PlanIncomplete as exc:
                    assert f"exactly {due}" in exc.message
                else:
                    raise AssertionError("a wrong number of reward gems was accepted")
                return
    raise AssertionError("no plan with a gem reward was found")


def test_royal_favor_offers_only_cards_still_free_once_it_is_placed():
    state = _game_at("development")
    seat = min(s for s in V.pending(state))
    me = state["players"][seat]
    first = me["pyramid"]["cards"]["1:0"]
    me["pyramid"]["cards"]["1:1"] = dict(copy.deepcopy(first), card=50, slot="1:1")
    me["hand"].append(74)
    ctx = _ctx(state, seat)
    draft = fresh_draft(ctx.key)
    _control(ctx, draft, "card", ["play:74"])
    for slot, offered in (("2:0", ["1:0"]), ("2:1", ["1:1"]), ("1:2", ["1:0", "1:1"])):
        placed = copy.deepcopy(draft)
        _control(ctx, placed, "slot", [slot])
        menu = next(c for c in _all_controls(_spec(state, seat, placed)) if c.custom_id.endswith(":tuck1"))
        assert [o.value for o in menu.options] == offered == P.free_after_placing(me["pyramid"], slot, 74)


def test_a_replan_offers_the_development_choices_and_answers_with_a_decision():
    state = _game_at("development")
    # The engine asks again when a plan became impossible during resolution (a decision of kind "replan").
    state["decision"] = {"seat": 0, "kind": "replan", "text": "Your plan can no longer be carried out: choose again."}
    ctx = _ctx(state, 0)
    assert ctx.prompt.kind == "replan" and set(ctx.choices["plays"]) == {str(n) for n in state["players"][0]["hand"]}
    draft = fresh_draft(ctx.key)
    spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
    assert spec.title == "Choose again" and "can no longer be carried out" in spec.description
    assert _control(ctx, draft, "pass", []) == {"type": "decide", "plan": {"type": "pass"}}


def test_a_law_plans_menus_show_what_the_player_chose():
    """Royal Decree's auction-card menu keeps the card chosen (a menu that forgot it looked unanswered, and
    a player could not tell their plan was ready)."""
    state = _game_at("development")
    state["players"][0]["hand"] = [69, *state["players"][0]["hand"]]
    ctx = _ctx(state, 0)
    draft = fresh_draft(ctx.key)
    _control(ctx, draft, "card", ["play:69"])

    def menu(op: str) -> Select:
        spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
        return next(c for c in _all_controls(spec) if isinstance(c, Select) and c.custom_id.endswith(f":{op}"))

    _control(ctx, draft, "slot", [menu("slot").options[0].value])
    take = menu("take").options[-1].value
    assert not any(o.default for o in menu("take").options)
    _control(ctx, draft, "take", [take])
    assert [o.value for o in menu("take").options if o.default] == [take]


def test_exchange_of_favors_menus_leave_out_infinite_gems():
    """An infinite gem is a gem, not a token: law 67's menus offer only the tokens the law may swap."""
    state = _game_at("development")
    me, other = state["players"][0], state["players"][1]
    me["hand"] = [67, *me["hand"]]
    me["pyramid"]["cards"]["1:0"]["tokens"] = [{"type": "magic"}, {"type": "infinite_gem", "color": "red"}]
    other["pyramid"]["cards"]["1:0"]["tokens"] = [{"type": "infinite_gem", "color": "blue"}, {"type": "defense"}]
    ctx = _ctx(state, 0)
    draft = fresh_draft(ctx.key)
    _control(ctx, draft, "card", ["play:67"])
    spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
    _control(ctx, draft, "slot", [next(c for c in _all_controls(spec) if c.custom_id.endswith(":slot")).options[0].value])
    spec = PRESENTER.prompt_kind(ctx.prompt).render(ctx, draft)
    menus = {c.custom_id.rsplit(":", 1)[1]: c for c in _all_controls(spec) if isinstance(c, Select)}
    assert [o.value for o in menus["give"].options] == ["1:0#0"]
    assert [o.value for o in menus["swap"].options] == ["1#1:0#1"]


def _events_until_discard(seed: int = 5) -> list[dict]:
    """The public events of AI games up to a development round in which someone discards a card."""
    for s in range(seed, seed + 20):
        state = V.new_game({"players": 3}, s)
        rng = random.Random(s)
        for _ in range(3000):
            if state.get("phase") == "over":
                break
            prompts = V.pending(state)
            if not prompts:
                break
            seat = min(x for x, p in prompts.items() if not p.get("submitted"))
            events = V.apply_action(state, seat, ai.choose_action(state, seat, rng))
            public = [e for e in events if e.get("to") == "all"]
            if any(e.get("type") == "discards" for e in public):
                return public
    raise AssertionError("no discard in 20 games")


def test_a_discard_is_told_once_in_the_channel():
    names = {0: "Ann", 1: "Bo", 2: "Cy"}
    events = _events_until_discard()
    lines = [line for e in events if (line := PRESENTER.event_line(e, names))]
    discards = [line for line in lines if " discards #" in line and line.endswith("for 2 gems.")]
    assert discards, lines
    assert not [line for line in lines if line.endswith("(discarding a card).")], lines
    # A reserve too short for the two gems keeps its own line: the count differs from the discard's.
    short = {"type": "gems_taken", "to": "all", "seat": 0, "count": 1,
             "text": "{p0} takes 1 gems from the reserve (discarding a card)."}
    assert PRESENTER.event_line(short, names) == "Ann takes 1 gems from the reserve (discarding a card)."
