"""The prompt builder without Discord: what each seat is offered, and that finished plans are legal actions."""

from __future__ import annotations

import copy
import io
import random

from PIL import Image

import engine.viceroy as V
from bot import presenter as PR
from engine.viceroy import ai
from engine.viceroy import cards as C


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


def _all_controls(spec: PR.MessageSpec) -> list:
    return [c for row in spec.rows for c in row]


def _spec(state: dict, seat: int, draft: dict | None = None) -> PR.MessageSpec:
    key = V.prompt_key(state, seat)
    view = V.view(state, seat)
    return PR.prompt_spec(7, seat, view, key, draft if draft is not None else PR.fresh_draft(key), {0: "Ann", 1: "Bo"})


def test_custom_ids_fit_discords_limit_and_name_the_prompt():
    state = _game_at("development")
    spec = _spec(state, 0)
    key = PR.encode_key(V.prompt_key(state, 0))
    for control in _all_controls(spec):
        assert len(control.custom_id) <= 100
        assert f":0:{key}:" in control.custom_id


def test_a_huge_hand_still_offers_pass_and_at_most_25_options():
    state = _game_at("development")
    state["players"][0]["hand"] = list(range(1, 31))
    spec = _spec(state, 0)
    controls = _all_controls(spec)
    assert any(isinstance(c, PR.Button) and c.custom_id.endswith(":pass") for c in controls)
    assert all(len(c.options) <= 25 for c in controls if isinstance(c, PR.Select))


def test_auction_prompt_lists_only_biddable_colours_and_pass():
    state = _game_at("auction")
    spec = _spec(state, 0)
    choose = next(c for c in _all_controls(spec) if isinstance(c, PR.Select))
    me = state["players"][0]
    for option in choose.options:
        if option.value.startswith("bid:"):
            colour = option.value.split(":")[1]
            assert me["gems"][colour] > 0
    assert choose.options[-1].value == "pass"
    assert spec.image is not None and spec.image.filename == "auction.png"


def test_pass_from_the_auction_prompt_takes_the_right_number_of_gems():
    state = _game_at("auction")
    view = V.view(state, 0)
    draft = PR.fresh_draft(V.prompt_key(state, 0))
    action = PR.apply_control(view, 0, draft, "choose", ["pass"])
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
        view = V.view(state, 0)
        for number in state["players"][0]["hand"]:
            if C.is_law(number):
                continue
            draft = PR.fresh_draft(V.prompt_key(state, 0))
            PR.apply_control(view, 0, draft, "card", [f"play:{number}"])
            spec = PR.prompt_spec(7, 0, view, draft["key"], draft, {})
            slot_menu = next((c for c in _all_controls(spec) if isinstance(c, PR.Select) and c.custom_id.endswith(":slot")), None)
            if slot_menu is None:
                continue
            for option in slot_menu.options:
                trial = copy.deepcopy(state)
                d = copy.deepcopy(draft)
                PR.apply_control(view, 0, d, "slot", [option.value])
                action = PR.build_action(view, 0, d)
                V.apply_action(trial, 0, action)  # raises IllegalAction if the menus offered something illegal
                checked += 1
    assert checked > 20


def test_a_plan_without_a_place_is_incomplete_with_a_clear_message():
    state = _game_at("development")
    view = V.view(state, 0)
    number = next(n for n in state["players"][0]["hand"] if not C.is_law(n))
    draft = PR.fresh_draft(V.prompt_key(state, 0))
    PR.apply_control(view, 0, draft, "card", [f"play:{number}"])
    try:
        PR.build_action(view, 0, draft)
    except PR.PlanIncomplete as exc:
        assert "where the card goes" in exc.message
    else:
        raise AssertionError("an incomplete plan was accepted")


def test_gem_modal_rejects_words():
    try:
        PR.parse_gems_modal({"red": "two"})
    except PR.PlanIncomplete as exc:
        assert "not a number" in exc.message
    else:
        raise AssertionError("accepted a word as a number")
    assert PR.parse_gems_modal({"red": "2", "blue": ""}) == {"red": 2, "green": 0, "blue": 0, "yellow": 0}


def test_an_image_over_the_upload_limit_degrades_to_jpeg():
    from cogs.viceroy import _file

    img = Image.effect_noise((900, 900), 80).convert("RGB")
    out = io.BytesIO()
    img.save(out, "PNG")
    data = out.getvalue()
    small = _file(data, "table.png", len(data) // 4)
    assert small.filename == "table.jpg"
    small.fp.seek(0)
    assert len(small.fp.read()) <= len(data) // 4
    same = _file(data, "table.png", len(data) + 1)
    assert same.filename == "table.png"


def test_fill_names_and_texts():
    assert PR.fill_names("{p0} bids; {p1} passes", {0: "Ann", 1: "Bo"}) == "Ann bids; Bo passes"
    assert PR.gems_long({"red": 2, "green": 0, "blue": 1, "yellow": 0}) == "2 red, 1 blue"
    assert PR.load_draft('{"key": "old", "card": 3}', "new") == {"key": "new"}
    assert PR.load_draft('{"key": "k", "card": 3}', "k")["card"] == 3


def test_reward_gem_choice_counts_the_planned_reward():
    for seed in range(30):
        state = _game_at("development", seed=seed)
        view = V.view(state, 0)
        for number in state["players"][0]["hand"]:
            if C.is_law(number):
                continue
            draft = PR.fresh_draft(V.prompt_key(state, 0))
            PR.apply_control(view, 0, draft, "card", [f"play:{number}"])
            for slot in V.game.P.legal_slots(state["players"][0]["pyramid"], number):
                level = V.game.P.level_of(slot)
                amount = sum(i["amount"] for i in C.rewards(number, level) if i["type"] == "gems") if level < 5 else 0
                if not amount:
                    continue
                draft["slot"] = slot
                assert PR.gem_choice_count(view, 0, draft, "reward") == amount
                due = min(amount, sum(view["reserve"].values()))
                PR.check_gem_choice(view, 0, draft, "reward", PR.suggested_gems(view, 0, amount))
                try:
                    PR.check_gem_choice(view, 0, draft, "reward", {"red": due + 1, "green": 0, "blue": 0, "yellow": 0})
                except PR.PlanIncomplete as exc:
                    assert f"exactly {due}" in exc.message
                else:
                    raise AssertionError("a wrong number of reward gems was accepted")
                return
    raise AssertionError("no plan with a gem reward was found")
