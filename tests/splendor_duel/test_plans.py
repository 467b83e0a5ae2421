"""Plans built from a seat's view agree with the engine on the real state."""

from __future__ import annotations

import random

from engine.splendor_duel import GAME
from engine.splendor_duel import plans as P
from engine.splendor_duel.moves import buy_variants, legal_actions
from tests.splendor_duel.helpers import fresh, give_card, set_board, set_tokens, to_pyramid


def positions(count: int = 12):
    rng = random.Random(5)
    for seed in range(count):
        state = GAME.new_game({}, 300 + seed, 2)
        while not GAME.is_over(state):
            (seat,) = GAME.pending(state)
            if state["stage"] != "discard" and rng.random() < 0.3:
                yield state, seat
            GAME.apply(state, seat, GAME.choose_action(state, seat, rng))


def test_plans_every_legal_action_checks_out_from_the_view():
    for state, seat in positions(6):
        view = GAME.view(state, seat)
        for action in legal_actions(state, seat):
            if action["type"] in ("privileges",):
                continue
            result = P.check(view, seat, action)
            assert result["ok"], (action, result)


def test_plans_refuse_what_the_engine_refuses_with_its_message():
    state = set_board(fresh(), {"A1": "red", "C1": "red"})
    view = GAME.view(state, 0)
    result = P.check(view, 0, {"type": "take", "tokens": ["A1", "C1"]})
    assert not result["ok"] and "straight line" in result["message"]


def test_plans_lines_through_a_token_fit_one_menu():
    for state, _seat in positions(4):
        for cell in P.first_cells(state):
            lines = P.lines_through(state, cell)
            assert [cell] in lines and len(lines) <= 25
            assert all(cell in line for line in lines)
    assert len(P.privilege_cells(GAME.view(fresh(), 0))) <= 25


def test_plans_buy_questions_follow_the_answers():
    state = to_pyramid(set_board(fresh(), {"E5": "white"}), "L1-27", 0)  # joker with a crown
    set_tokens(state, 0, white=3, pearl=1, gold=1)
    give_card(state, 0, "L1-21")
    give_card(state, 0, "L1-06")
    state["players"][0]["crowns"] = 2
    set_tokens(state, 1, red=1)
    view = GAME.view(state, 0)
    pseudo = P.state_from_view(view)
    assert "L1-27" in P.buy_options(pseudo, 0)
    questions = P.buy_questions(pseudo, 0, "L1-27", {})
    assert [q["key"] for q in questions] == ["joker", "royal", "royal_steal"]
    assert questions[0]["options"] == ["blue", "red"]
    after = P.buy_questions(pseudo, 0, "L1-27", {"joker": "red", "royal": "R-4"})
    assert after == []
    steal = P.buy_questions(pseudo, 0, "L1-27", {"joker": "red", "royal": "R-1"})
    assert steal == [{"key": "royal_steal", "options": ["red"]}]
    assert len(buy_variants(state, 0, "L1-27")) == 2 * (3 + 1)


def test_plans_discard_needed_is_reported():
    state = set_board(fresh(), {"A1": "red", "B1": "green", "C1": "blue"})
    set_tokens(state, 0, white=4, blue=2, black=3, pearl=1)
    view = GAME.view(state, 0)
    result = P.check(view, 0, {"type": "take", "tokens": ["A1", "B1", "C1"]})
    assert result["ok"] and result["discard"] == 3 and sum(result["tokens"].values()) == 13
    units = P.discard_units(result["tokens"])
    assert len(units) == 13 and P.discard_from_units(["white:1", "white:2", "red:1"]) == {"white": 2, "red": 1}
    good = P.check(view, 0, {"type": "take", "tokens": ["A1", "B1", "C1"], "discard": {"white": 3}})
    assert good["ok"] and good["discard"] == 0
    bad = P.check(view, 0, {"type": "take", "tokens": ["A1", "B1", "C1"], "discard": {"white": 1}})
    assert not bad["ok"] and "exactly 3" in bad["message"]


def test_plans_state_from_view_keeps_the_views_facts():
    for state, seat in positions(3):
        view = GAME.view(state, seat)
        assert GAME.view(P.state_from_view(view), seat) | {"log": []} == view | {"log": []}
