"""Solo game and virtual opponents (RULES.md §11). The box is edited so the virtual gem's colour is known."""

from __future__ import annotations

import pytest

from engine.viceroy import IllegalAction, apply_action, final_scores, new_game
from engine.viceroy.ai import play_game
from tests.engine.helpers import COLORS, events_of, gems, set_auction, settle, spot, started, submit


def solo(box_colour: str) -> dict:
    state = started(1, seed=9)
    state["box"] = gems(**{box_colour: 12})
    state["players"][0]["gems"] = gems(red=2, green=2, blue=2, yellow=2)
    return state


def test_solo_reserve_four_per_colour() -> None:
    state = new_game({"players": 1}, seed=1)
    assert state["options"]["virtual_opponents"] == 1
    for c in COLORS:
        assert state["reserve"][c] + state["players"][0]["gems"][c] == 4
        assert state["box"][c] == 12


def test_solo_virtual_same_colour_starts_a_new_round() -> None:
    state = solo("red")
    set_auction(state, {"red": (20, None), "blue": (21, None)})
    reserve_red = state["reserve"]["red"]
    events = apply_action(state, 0, {"type": "bid", "color": "red"})
    assert events_of(events, "solo_clash")
    assert state["players"][0]["gems"]["red"] == 1
    assert state["reserve"]["red"] == reserve_red + 1  # the player's gem goes to the reserve
    assert state["box"] == gems(red=12)  # the virtual gem goes back to the box
    assert state["round"] == 2 and state["active"] == [0]
    assert spot(state, "red")["base"] == 20


def test_solo_virtual_other_colour_discards_its_base_card() -> None:
    state = solo("blue")
    set_auction(state, {"red": (20, None), "blue": (21, 25)})
    apply_action(state, 0, {"type": "bid", "color": "red"})
    settle(state)
    assert 20 in state["players"][0]["hand"]
    assert 21 in state["discard"]  # the card at the base
    assert spot(state, "blue")["tip"] == 25 or 25 in state["discard"]  # only one card goes
    assert 25 not in state["players"][0]["hand"]
    assert state["box"] == gems(blue=12)


def test_solo_virtual_empty_colour_player_discards_an_auction_card() -> None:
    state = solo("yellow")
    set_auction(state, {"red": (20, None), "blue": (21, None), "green": (22, None)})
    apply_action(state, 0, {"type": "bid", "color": "red"})
    assert 20 in state["players"][0]["hand"]
    decision = state["decision"]
    assert decision["kind"] == "solo_discard" and sorted(decision["options"]) == [21, 22]
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "decide", "card": 20})
    apply_action(state, 0, {"type": "decide", "card": 22})
    assert 22 in state["discard"]


def test_solo_pass_draws_no_virtual_gem() -> None:
    state = solo("red")
    counter = state["rng_counter"]
    apply_action(state, 0, {"type": "pass", "gems": gems(red=1, blue=1, green=1)})
    assert state["rng_counter"] == counter  # no virtual bid without a player bid


def test_solo_score_is_the_players_total() -> None:
    state, _ = play_game({"players": 1}, seed=4)
    scores = final_scores(state)
    assert len(scores) == 1 and scores[0]["winner"]
    assert scores[0]["breakdown"]["attack"] == 0


def virtual_table(virtual: int, box_colour: str, players: int = 2) -> dict:
    state = started(players, seed=12, virtual=virtual)
    state["box"] = gems(**{box_colour: 8})
    for seat in range(players):
        state["players"][seat]["gems"] = gems(red=2, blue=2)
    return state


def test_virtual_opponent_alone_on_a_colour_takes_and_discards() -> None:
    state = virtual_table(1, "green")
    set_auction(state, {"red": (20, None), "green": (22, None)})
    submit(state, {0: {"type": "pass"}, 1: {"type": "bid", "color": "red"}})
    settle(state)
    assert 22 in state["discard"] and 20 in state["players"][1]["hand"]
    assert state["virtual"][0]["out"] or state["phase"] == "development"


def test_virtual_opponent_that_took_a_card_stops_bidding() -> None:
    state = virtual_table(1, "green", players=3)
    set_auction(state, {"red": (20, None), "green": (22, None), "blue": (23, None)})
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "bid", "color": "red"}, 2: {"type": "pass"}})
    settle(state)
    assert 22 in state["discard"] and state["virtual"][0]["out"]
    counter = state["rng_counter"]
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "bid", "color": "blue"}})
    assert state["rng_counter"] == counter  # no draw for a virtual opponent that is out


def test_virtual_and_real_bid_on_one_card_nobody_wins() -> None:
    state = virtual_table(1, "red")
    set_auction(state, {"red": (20, None)})
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "pass"}})
    settle(state)
    assert spot(state, "red")["base"] == 20 and 20 not in state["players"][0]["hand"]


@pytest.mark.parametrize(("named", "wins"), [(25, True), (20, False)])
def test_virtual_wants_the_base_card(named: int, wins: bool) -> None:
    state = virtual_table(1, "red")
    set_auction(state, {"red": (20, 25)})
    submit(state, {0: {"type": "bid", "color": "red", "card": named}, 1: {"type": "pass"}})
    settle(state)
    assert (named in state["players"][0]["hand"]) is wins
    if wins:
        assert 20 in state["discard"]  # the virtual opponent's card


def test_two_virtual_on_two_cards_discard_both() -> None:
    state = virtual_table(2, "blue")
    set_auction(state, {"blue": (21, 26), "red": (20, None)})
    submit(state, {0: {"type": "pass"}, 1: {"type": "bid", "color": "red"}})
    assert 21 in state["discard"] and 26 in state["discard"]


def test_two_virtual_on_two_cards_with_a_real_bidder_nobody_wins() -> None:
    state = virtual_table(2, "blue")
    set_auction(state, {"blue": (21, 26)})
    submit(state, {0: {"type": "bid", "color": "blue", "card": 26}, 1: {"type": "pass"}})
    settle(state)
    assert (spot(state, "blue")["base"], spot(state, "blue")["tip"]) == (21, 26)


def test_two_virtual_on_one_card_bid_again() -> None:
    state = virtual_table(2, "blue")
    set_auction(state, {"blue": (21, None), "red": (20, None)})
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "bid", "color": "red"}})
    settle(state)
    assert state["round"] == 2
    assert spot(state, "blue")["base"] == 21
    assert not any(v["out"] for v in state["virtual"])


def test_virtual_gems_always_return_to_the_box() -> None:
    state = virtual_table(2, "blue")
    box = dict(state["box"])
    set_auction(state, {"blue": (21, 26), "red": (20, None)})
    submit(state, {0: {"type": "pass"}, 1: {"type": "bid", "color": "red"}})
    assert state["box"] == box


def test_virtual_opponents_fill_seats_up_to_four_only() -> None:
    with pytest.raises(IllegalAction):
        new_game({"players": 3, "virtual_opponents": 2}, seed=1)
    state = new_game({"players": 2, "virtual_opponents": 2}, seed=1)
    assert len(state["virtual"]) == 2
