"""Search hooks: the determinization hides only the pile order, the candidate list is short and legal."""

from __future__ import annotations

import copy
import json
import random

from engine.api import waiting_seats
from engine.pyramido import GAME
from engine.pyramido.ai_candidates import candidates
from engine.search import ai_for


def _mid_game(seed: int, turns: int) -> dict:
    state = GAME.new_game({}, seed, 3)
    rng = random.Random(seed)
    for _ in range(turns):
        GAME.apply(state, state["turn"], GAME.choose_action(state, state["turn"], rng))
    return state


def test_determinize_keeps_every_view_and_redeals_the_unseen_pile_order():
    state = _mid_game(4, 25)
    for seat in range(3):
        sample = GAME.determinize(copy.deepcopy(state), seat, random.Random(seat))
        for who in (None, 0, 1, 2):
            assert json.dumps(GAME.view(sample, who), sort_keys=True) == json.dumps(GAME.view(state, who),
                                                                                   sort_keys=True)
        assert [len(p) for p in sample["piles"]] == [len(p) for p in state["piles"]]
        assert [p[-1] for p in sample["piles"]] == [p[-1] for p in state["piles"]]
        assert sorted(d for p in sample["piles"] for d in p) == sorted(d for p in state["piles"] for d in p)
    assert GAME.determinize(state, 0, random.Random(9))["piles"] != state["piles"]


def test_determinize_does_not_touch_the_state_it_is_given():
    state = _mid_game(5, 10)
    before = copy.deepcopy(state)
    GAME.determinize(state, 1, random.Random(1))
    assert state == before


def test_search_candidates_are_few_legal_and_safe():
    state = _mid_game(6, 30)
    seat = state["turn"]
    found = candidates(state, seat, random.Random(2))
    assert 1 <= len(found) <= 16
    legal = GAME.legal_actions(state, seat)
    assert all(a in legal for a in found)


def test_search_ai_plays_a_whole_pyramido_game_legally():
    choose = ai_for(GAME, "hard", iterations=2, depth=2, time_cap=None, playout_steps=4, max_candidates=4)
    state = GAME.new_game({}, 3, 2)
    rng = random.Random(3)
    while not GAME.is_over(state):
        seat = waiting_seats(GAME.pending(state))[0]
        chooser = choose if seat == 0 else GAME.choose_action
        GAME.apply(state, seat, chooser(state, seat, rng))
    assert GAME.outcome(state) is not None
