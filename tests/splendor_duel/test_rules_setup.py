"""Setup: the bag on the board in spiral order, the pyramid, royal cards, privileges, who starts."""

from __future__ import annotations

from engine.splendor_duel import GAME, new_game
from engine.splendor_duel.cards import DECKS, ROYALS, SPIRAL, TOKEN_MIX
from tests.splendor_duel.helpers import card_places, token_totals


def test_setup_places_all_25_tokens_on_the_board():
    state = new_game({}, 3, 2)
    assert None not in state["board"]
    assert sum(state["bag"].values()) == 0
    assert token_totals(state) == TOKEN_MIX
    assert sum(TOKEN_MIX.values()) == 25


def test_setup_fill_follows_the_spiral_from_the_centre():
    # The first space of the spiral is the centre (C3), then C4 below it: the printed order.
    assert SPIRAL[0] == 12 and SPIRAL[1] == 17 and len(set(SPIRAL)) == 25


def test_setup_pyramid_shows_5_4_3_cards_and_the_rest_stays_in_decks():
    state = new_game({}, 4, 2)
    assert [len(state["pyramid"][lv]) for lv in "123"] == [5, 4, 3]
    assert [len(state["decks"][lv]) for lv in "123"] == [25, 20, 10]
    places = card_places(state)
    assert set(places) == {c for lv in DECKS for c in DECKS[lv]} and set(places.values()) == {1}


def test_setup_four_royal_cards_face_up():
    assert new_game({}, 5, 2)["royals"] == list(ROYALS)
    assert len(ROYALS) == 4


def test_setup_second_player_starts_with_one_privilege():
    for first in ("seat1", "seat2"):
        state = new_game({"first_player": first}, 6, 2)
        starter = state["first"]
        assert state["active"] == starter == {"seat1": 0, "seat2": 1}[first]
        assert state["players"][starter]["privileges"] == 0
        assert state["players"][1 - starter]["privileges"] == 1
        assert state["supply"] == 2


def test_setup_random_first_player_depends_on_the_seed():
    firsts = {new_game({}, seed, 2)["first"] for seed in range(30)}
    assert firsts == {0, 1}


def test_setup_same_seed_same_game_and_seeds_differ():
    assert new_game({}, 11, 2) == new_game({}, 11, 2)
    assert new_game({}, 11, 2)["board"] != new_game({}, 12, 2)["board"]


def test_setup_options_are_validated_by_the_game_type():
    assert GAME.options_for({}, 2) == {"first_player": "random"}
    try:
        GAME.options_for({"first_player": "seat9"}, 2)
    except Exception as exc:  # noqa: BLE001 - the contract's IllegalAction
        assert "First player" in str(exc)
    else:
        raise AssertionError("a bad option was accepted")
    try:
        GAME.options_for({}, 3)
    except Exception as exc:  # noqa: BLE001
        assert "2" in str(exc)
    else:
        raise AssertionError("three seats were accepted")
