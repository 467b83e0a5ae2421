"""End of turn: discard down to 10 tokens, then the three victory conditions for the active player."""

from __future__ import annotations

import pytest

from engine.splendor_duel import GAME, apply
from engine.splendor_duel.errors import IllegalAction
from engine.splendor_duel.moves import legal_actions, pending
from tests.splendor_duel.helpers import fresh, give_card, set_board, set_tokens, snapshot, to_pyramid


def crowded() -> dict:
    state = set_board(fresh(), {"A1": "red", "B1": "green", "C1": "blue"})
    return set_tokens(state, 0, white=4, blue=2, black=3, pearl=1)  # 10 tokens


def test_discard_down_to_ten_within_the_plan():
    state = crowded()
    apply(state, 0, {"type": "take", "tokens": ["A1", "B1", "C1"], "discard": {"white": 2, "black": 1}})
    me = state["players"][0]
    assert sum(me["tokens"].values()) == 10 and me["tokens"]["white"] == 2
    assert state["active"] == 1


def test_discard_asked_as_its_own_step_when_the_plan_leaves_it_out():
    state = crowded()
    apply(state, 0, {"type": "take", "tokens": ["A1", "B1", "C1"]})
    assert state["stage"] == "discard" and state["active"] == 0
    prompt = pending(state)[0]
    assert prompt.kind == "discard" and prompt.choices["count"] == 3
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "tokens": ["A1"]})
    assert err.value.code == "discard_first"
    options = legal_actions(state, 0)
    assert options and all(sum(a["tokens"].values()) == 3 for a in options)
    apply(state, 0, {"type": "discard", "tokens": {"red": 1, "green": 1, "blue": 1}})
    assert state["active"] == 1 and sum(state["players"][0]["tokens"].values()) == 10


@pytest.mark.parametrize("discard, code", [
    ({"white": 1}, "discard_count"),
    ({"white": 4}, "discard_count"),
    ({"gold": 3}, "discard_missing"),
])
def test_discard_must_return_exactly_the_excess_of_tokens_held(discard, code):
    state = crowded()
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "tokens": ["A1", "B1", "C1"], "discard": discard})
    assert err.value.code == code and state == before


def test_discard_refused_when_within_the_limit():
    state = set_board(fresh(), {"A1": "red"})
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, {"type": "take", "tokens": ["A1"], "discard": {"red": 1}})
    assert err.value.code == "no_discard"


def buy_position(card: str, **tokens: int) -> dict:
    return set_tokens(to_pyramid(set_board(fresh(), {"E5": "white"}), card, 0), 0, **tokens)


def test_victory_twenty_prestige_points():
    state = buy_position("L1-05", green=2, red=3)  # 1 PP
    state["players"][0]["points"] = 19
    apply(state, 0, {"type": "buy", "card": "L1-05"})
    assert state["winner"] == 0 and state["win_reason"] == "points"
    out = GAME.outcome(state)
    assert out.winners == [0] and out.results[0].rank == 1 and out.results[1].rank == 2
    assert dict(out.results[0].breakdown)["Prestige points"] == 20


def test_victory_ten_crowns():
    state = buy_position("L1-02", blue=3)  # 1 crown
    state["players"][0]["crowns"] = 9
    apply(state, 0, {"type": "buy", "card": "L1-02"})
    assert state["winner"] == 0 and state["win_reason"] == "crowns"


def test_victory_ten_points_in_one_colour():
    state = buy_position("L1-05", green=2, red=3)  # white, 1 PP
    state["players"][0]["color_points"]["white"] = 9
    state["players"][0]["points"] = 9
    apply(state, 0, {"type": "buy", "card": "L1-05"})
    assert state["winner"] == 0 and state["win_reason"] == "color"


def test_victory_jokers_count_in_the_colour_they_are_placed_in():
    state = buy_position("L1-26", black=4, pearl=1)  # joker 1 PP
    give_card(state, 0, "L1-21")
    state["players"][0]["color_points"]["red"] = 9
    apply(state, 0, {"type": "buy", "card": "L1-26", "joker": "red"})
    assert state["winner"] == 0 and state["win_reason"] == "color"


def test_victory_points_only_cards_count_to_no_colour():
    state = buy_position("L1-28", red=3, pearl=1, gold=1)  # 3 PP, no colour
    state["players"][0]["color_points"]["red"] = 9
    state["players"][0]["points"] = 9
    apply(state, 0, {"type": "buy", "card": "L1-28"})
    assert state["winner"] is None and state["active"] == 1


def test_victory_checked_only_at_the_end_of_the_turn_after_the_discard():
    state = to_pyramid(set_board(fresh(), {"A1": "white", "B1": "white"}), "L1-04", 0)  # take a white
    set_tokens(state, 0, red=2, black=2, blue=4, green=4, pearl=2)
    state["players"][0]["points"] = 20  # met before the turn ends: the win waits for the end of the turn
    # Buying pays 4 of 14 tokens and takes 1 white: 11 tokens, so the turn waits for the discard before the win.
    apply(state, 0, {"type": "buy", "card": "L1-04", "take": "A1"})
    assert state["stage"] == "discard" and state["winner"] is None
    apply(state, 0, {"type": "discard", "tokens": {"blue": 1}})
    assert state["winner"] == 0 and state["stage"] == "over"


def test_victory_of_the_active_player_only():
    state = set_board(fresh(), {"A1": "red"})
    state["players"][1]["points"] = 25  # a position that cannot arise: only the active player is checked
    apply(state, 0, {"type": "take", "tokens": ["A1"]})
    assert state["winner"] is None


def test_game_over_refuses_every_action():
    state = buy_position("L1-05", green=2, red=3)
    state["players"][0]["points"] = 19
    apply(state, 0, {"type": "buy", "card": "L1-05"})
    assert GAME.pending(state) == {} and GAME.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction) as err:
        apply(state, 1, {"type": "take", "tokens": ["E5"]})
    assert err.value.code == "game_over"


def test_not_your_turn():
    state = fresh()
    with pytest.raises(IllegalAction) as err:
        apply(state, 1, {"type": "replenish"})
    assert err.value.code == "not_your_turn"


def test_discard_may_return_gold():
    state = set_tokens(set_board(fresh(), {"A1": "red"}), 0, white=4, blue=3, gold=3)
    apply(state, 0, {"type": "take", "tokens": ["A1"], "discard": {"gold": 1}})
    assert state["players"][0]["tokens"]["gold"] == 2 and state["bag"]["gold"] == 1


def test_extra_turn_survives_the_discard_step():
    # L1-03 grants an extra turn; the buyer ends above 10 tokens and discards as its own step.
    state = buy_position("L1-03", blue=2, green=2, pearl=1, white=3, red=4, black=4)
    apply(state, 0, {"type": "buy", "card": "L1-03", "payment": {"blue": 2, "green": 2, "pearl": 1}})
    assert state["stage"] == "discard"
    apply(state, 0, {"type": "discard", "tokens": {"white": 1}})
    assert state["active"] == 0 and state["stage"] == "start" and state["extra"] is False
