"""The generic search: legal, deterministic, blind to secrets, and stronger than the baseline where it counts."""

from __future__ import annotations

import random

import pytest

from engine.search import LEVELS, Level, Search, SearchStats, ai_for, load_game
from engine.viceroy import game as G
from engine.viceroy.ai import choose_action as baseline
from engine.viceroy.ai_candidates import candidates
from engine.viceroy.determinize import clone
from engine.viceroy.errors import IllegalAction
from tests.ai import toy
from tests.ai.helpers import positions, waiting
from tests.ai.scramble import scramble

VICEROY = load_game("viceroy")
# Budgets for tests: they check the behaviour, not the strength (play-outs cut short, scored by evaluate).
TINY = {"iterations": 3, "depth": 2, "time_cap": None, "playout_steps": 3}


def test_levels_are_easy_normal_hard() -> None:
    assert list(LEVELS) == ["easy", "normal", "hard"]
    assert LEVELS["easy"].iterations == 0
    assert LEVELS["normal"].iterations < LEVELS["hard"].iterations
    assert LEVELS["hard"].time_cap is not None and LEVELS["hard"].time_cap <= 4.0  # p99 target: 4 s


def test_easy_is_the_baseline() -> None:
    assert ai_for(VICEROY, "easy") is VICEROY.choose_action


@pytest.mark.parametrize("seed", [11, 12])
def test_every_candidate_is_accepted_by_apply(seed: int) -> None:
    for state, seat in positions(seed, players=3, every=2):
        for action in candidates(state, seat, random.Random(seed)):
            probe = clone(state)
            G.apply_action(probe, seat, action)  # raises IllegalAction if the generator slipped


@pytest.mark.parametrize("players", [2, 4])
def test_every_chosen_action_is_accepted_by_apply(players: int) -> None:
    """A whole game with a search seat: the engine accepts each of its actions as it is."""
    choose = ai_for(VICEROY, "hard", **dict(TINY, iterations=1))
    state = G.new_game({"players": players}, 5)
    rng = random.Random(5)
    chosen = 0
    while state["phase"] != "over":
        seat = waiting(state)[0]
        if seat == 0:
            action = choose(state, seat, rng)
            chosen += 1
            try:
                G.apply_action(state, seat, action)
            except IllegalAction as exc:  # pragma: no cover - the failure message names the action
                pytest.fail(f"search chose an illegal action {action}: {exc.message}")
        else:
            G.apply_action(state, seat, baseline(state, seat, rng))
    assert chosen > 20


def test_same_seed_same_action() -> None:
    choose = ai_for(VICEROY, "normal", **TINY)
    for state, seat in positions(21, every=15):
        first = choose(clone(state), seat, random.Random(8))
        assert choose(clone(state), seat, random.Random(8)) == first


def test_search_does_not_change_the_state() -> None:
    choose = ai_for(VICEROY, "hard", **TINY)
    for state, seat in positions(22, every=17):
        before = clone(state)
        choose(state, seat, random.Random(1))
        assert state == before


def test_choice_does_not_depend_on_the_others_secrets() -> None:
    """The others' hands, screens, deck orders and sealed choices replaced by random legal ones (same view):
    the same seed gives the same action."""
    choose = ai_for(VICEROY, "hard", **TINY)
    checked = 0
    for seed, players in ((31, 4), (32, 2)):
        for state, seat in positions(seed, players=players, every=6):
            other = scramble(state, seat, random.Random(seed))
            assert other != state or len(state["players"]) == 1
            assert choose(other, seat, random.Random(4)) == choose(state, seat, random.Random(4))
            checked += 1
    assert checked > 15


def test_stats_report_the_work_done() -> None:
    state, seat = next((s, t) for s, t in positions(23, every=4) if s["phase"] == "auction")
    stats = SearchStats()
    search = Search(VICEROY, Level("t", iterations=6, depth=1))
    search.choose(state, seat, random.Random(2), stats)
    assert stats.candidates >= 2
    assert stats.iterations >= stats.candidates
    assert not stats.cut_by_time


def test_a_time_cap_stops_the_search_early() -> None:
    state, seat = next((s, t) for s, t in positions(24, every=4) if s["phase"] == "auction")
    stats = SearchStats()
    Search(VICEROY, Level("t", iterations=10_000, depth=1, time_cap=0.0)).choose(state, seat, random.Random(2), stats)
    assert stats.cut_by_time
    assert stats.iterations == stats.candidates  # one play-out each, then the cap


# -------------------------------------------------------------------------------- a game with known answers


@pytest.mark.parametrize("start, best", [(5, 2), (6, 1), (8, 2), (9, 1)])
def test_search_finds_the_winning_move_in_a_sequential_game(start: int, best: int) -> None:
    choose = ai_for(toy.GAME, Level("t", iterations=120, depth=3))
    state = toy.GAME.new_game({"start": start}, 0, 2)
    assert choose(state, 0, random.Random(1)) == {"type": "add", "n": best}


def test_search_beats_the_random_baseline_in_a_sequential_game() -> None:
    choose = ai_for(toy.GAME, Level("t", iterations=60, depth=3))
    wins = 0
    for game_no in range(20):
        state = toy.GAME.new_game({}, game_no, 2)
        rng = random.Random(game_no)
        searcher = game_no % 2
        while not toy.GAME.is_over(state):
            seat = state["turn"]
            action = choose(state, seat, rng) if seat == searcher else toy.choose_action(state, seat, rng)
            toy.GAME.apply(state, seat, action)
        wins += state["winner"] == searcher
    assert wins >= 17


def test_decide_takes_plain_arguments_for_a_worker_process() -> None:
    """The worker entry point gives what the level's chooser gives with Random(seed)."""
    import pickle

    from engine.search import decide

    state, seat = positions(25, players=2, every=9)[1]
    args = ("viceroy", "easy", state, seat, "7:1:3")
    assert pickle.loads(pickle.dumps(args)) == args
    assert decide(*args) == ai_for(VICEROY, "easy")(state, seat, random.Random("7:1:3"))
