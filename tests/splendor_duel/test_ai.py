"""The baseline AI: wins when it can, stops the opponent's obvious win, uses privileges, beats random play."""

from __future__ import annotations

import random

from engine.splendor_duel import GAME
from engine.splendor_duel.ai import choose_action, play_game
from tests.splendor_duel.helpers import fresh, give_card, set_board, set_tokens, to_pyramid


def test_ai_buys_the_winning_card():
    state = to_pyramid(set_board(fresh(), {"A1": "red", "B1": "blue"}), "L1-05", 2)
    set_tokens(state, 0, green=2, red=3)
    state["players"][0]["points"] = 19
    action = choose_action(state, 0, random.Random(0))
    assert action == {"type": "buy", "card": "L1-05"}


def test_ai_uses_privileges_to_complete_a_winning_purchase():
    state = to_pyramid(set_board(fresh(), {"A1": "red", "B1": "blue", "E5": "green"}), "L1-05", 2)
    set_tokens(state, 0, green=1, red=3)
    state["players"][0]["points"] = 19
    state["players"][0]["privileges"] = 1
    state["supply"] = 1
    action = choose_action(state, 0, random.Random(0))
    assert action == {"type": "buy", "card": "L1-05", "privileges": ["E5"]}
    GAME.apply(state, 0, action)
    assert state["winner"] == 0


def test_ai_denies_an_obvious_opponent_win_by_reserving():
    state = to_pyramid(set_board(fresh(), {"A1": "gold", "C3": "red"}), "L3-13", 0)  # 6 PP, 8 white
    set_tokens(state, 1, white=4, gold=2)
    for c in ("L1-01", "L1-02"):
        give_card(state, 1, c)
    state["players"][1]["points"] = 15
    action = choose_action(state, 0, random.Random(0))
    assert action["type"] == "reserve" and action.get("card") == "L3-13"


def test_ai_denies_by_buying_when_it_can():
    state = to_pyramid(set_board(fresh(), {"C3": "blue"}), "L1-05", 0)  # 1 PP white
    set_tokens(state, 0, green=2, red=3)
    set_tokens(state, 1, green=2, red=1, gold=2)
    state["players"][1]["points"] = 19
    action = choose_action(state, 0, random.Random(0))
    assert action == {"type": "buy", "card": "L1-05"}


def test_ai_games_end_with_a_winner_and_in_reasonable_length():
    lengths = []
    for seed in range(40):
        state, record = play_game({}, seed)
        assert state["winner"] in (0, 1)
        lengths.append(len(record))
    assert max(lengths) < 300


def test_ai_beats_random_play():
    wins = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = GAME.new_game({}, seed, 2)
        while not GAME.is_over(state):
            (seat,) = GAME.pending(state)
            if seat == 0:
                action = GAME.choose_action(state, seat, rng)
            else:
                action = rng.choice(GAME.legal_actions(state, seat))
            GAME.apply(state, seat, action)
        wins += state["winner"] == 0
    assert wins >= 27


def test_default_action_is_legal_for_every_prompt():
    rng = random.Random(2)
    for seed in range(20):
        state = GAME.new_game({}, seed, 2)
        while not GAME.is_over(state):
            (seat,) = GAME.pending(state)
            action = GAME.default_action(state, seat) if rng.random() < 0.5 else rng.choice(
                GAME.legal_actions(state, seat))
            GAME.apply(state, seat, action)
