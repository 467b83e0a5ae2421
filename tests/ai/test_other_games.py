"""The same search on the other games of the contract: legal actions only, the same action for the same seed,
and blind to what the seat cannot see (Splendor Duel's deck orders and the opponent's blind reserves)."""

from __future__ import annotations

import random

from engine.api import waiting_seats
from engine.search import ai_for, hooks_for, load_game

SPLENDOR = load_game("splendor_duel")
TINY = {"iterations": 2, "depth": 2, "time_cap": None, "playout_steps": 4, "max_candidates": 6}


def _positions(game, seed: int, every: int) -> list[tuple[dict, int]]:
    state = game.new_game(game.options_for({}, 2), seed, 2)
    rng = random.Random(seed)
    out, step = [], 0
    while not game.is_over(state):
        seat = waiting_seats(game.pending(state))[0]
        if step % every == 0:
            out.append((hooks_for(game).clone(state), seat))
        game.apply(state, seat, game.choose_action(state, seat, rng))
        step += 1
    return out


def test_splendor_duel_search_plays_a_whole_game_legally() -> None:
    choose = ai_for(SPLENDOR, "hard", **TINY)
    state = SPLENDOR.new_game(SPLENDOR.options_for({}, 2), 3, 2)
    rng = random.Random(3)
    moves = 0
    while not SPLENDOR.is_over(state) and moves < 400:
        seat = waiting_seats(SPLENDOR.pending(state))[0]
        chooser = choose if seat == 0 else SPLENDOR.choose_action
        SPLENDOR.apply(state, seat, chooser(state, seat, rng))  # IllegalAction would fail the test
        moves += 1
    assert SPLENDOR.is_over(state)


def test_splendor_duel_choice_ignores_hidden_cards() -> None:
    """Re-drawing what the seat cannot see (the game's own determinization) does not change its choice."""
    choose = ai_for(SPLENDOR, "hard", **TINY)
    for state, seat in _positions(SPLENDOR, 4, every=9):
        other = SPLENDOR.determinize(state, seat, random.Random(77))
        assert SPLENDOR.view(other, seat) == SPLENDOR.view(state, seat)
        assert choose(other, seat, random.Random(6)) == choose(state, seat, random.Random(6))


def test_splendor_duel_same_seed_same_action() -> None:
    choose = ai_for(SPLENDOR, "normal", **TINY)
    for state, seat in _positions(SPLENDOR, 5, every=13):
        assert choose(state, seat, random.Random(2)) == choose(state, seat, random.Random(2))


def test_pyramido_search_plays_legally_and_replays() -> None:
    pyramido = load_game("pyramido")
    choose = ai_for(pyramido, "hard", **TINY)
    state = pyramido.new_game(pyramido.options_for({}, 2), 6, 2)
    rng = random.Random(6)
    moves = 0
    while not pyramido.is_over(state) and moves < 24:
        seat = waiting_seats(pyramido.pending(state))[0]
        if seat == 0:
            again = choose(hooks_for(pyramido).clone(state), seat, random.Random(moves))
            action = choose(state, seat, random.Random(moves))
            assert action == again
            # The pile order nobody sees, re-drawn: the same choice.
            other = pyramido.determinize(state, seat, random.Random(99))
            assert choose(other, seat, random.Random(moves)) == action
        else:
            action = pyramido.choose_action(state, seat, rng)
        pyramido.apply(state, seat, action)  # IllegalAction would fail the test
        moves += 1
    assert moves == 24 or pyramido.is_over(state)
