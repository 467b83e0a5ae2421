"""Floors: the cannot-fit rule and the automatic loss, the next floor's starting player, the end, tie-breaks."""

from __future__ import annotations

import copy

import pytest

from engine.pyramido import GAME
from engine.pyramido import game as G
from engine.pyramido import scoring as sc

from .helpers import ai_turn, fresh, lay, others_pass_turns, shift_to_origin, tiling

FULL = {(x, y) for x in range(5) for y in range(4)}
# (0, 0) and (4, 1) end up walled in: the other 18 cells take 9 dominoes.
WALLED = FULL - {(0, 0), (4, 1)}


def _build(state, seat, cells, covers=0):
    """``seat`` lays a tiling of ``cells`` (the others play AI turns in between); the first ``covers``
    dominoes also get a single block card on the block without a gem."""
    order = shift_to_origin(tiling(cells))
    for i, pair in enumerate(order):
        others_pass_turns(state, seat)
        if state["over"] or state["players"][seat]["lost"]:
            return
        card = None
        domino = state["quarry"][0]
        blocks = G.gem_blocks(state, seat, domino)
        gem = blocks[0] if blocks else None
        if i < covers:
            card = {"card": i, "side": G.CARD_FACES[i][0], "block": "b" if gem == "a" else "a", "icon": "tl"}
        lay(state, seat, pair, domino=domino, gem=gem, card=card)
    others_pass_turns(state, seat)


def test_cannot_fit_rule_fills_the_gaps_with_two_single_block_cards():
    state = fresh(2, seed=4)
    _build(state, 0, WALLED)
    (seat, prompt), = GAME.pending(state).items()
    assert seat == 0 and prompt.kind == "fill_gaps"
    assert len(prompt.choices["gaps"]) == 2
    action = GAME.choose_action(state, 0, None)
    assert action["type"] == "fill"
    before_quarry = list(state["quarry"])
    events = GAME.apply(state, 0, action)
    player = state["players"][0]
    assert len(player["floors"][0]) == 9 and len(player["fills"][0]) == 2
    assert sum(use is not None for use in player["cards"]) == 2
    assert state["quarry"] == before_quarry  # no domino taken, no refill
    assert any(e["type"] == "fill" for e in events)
    # the cards carry no gem
    assert all(info[2] is None for cell, info in sc.floor_blocks(player, 1).items()
               if any(tuple(f["at"]) == cell for f in player["fills"][0]))


def test_cannot_fit_rule_refuses_a_placement_or_a_bad_fill():
    state = fresh(2, seed=4)
    _build(state, 0, WALLED)
    before = copy.deepcopy(state)
    with pytest.raises(G.IllegalAction) as err:
        GAME.apply(state, 0, {"type": "place", "domino": state["quarry"][0], "at": [0, 0], "dir": "E"})
    assert err.value.code == "must_fill"
    gaps = GAME.pending(state)[0].choices["gaps"]
    with pytest.raises(G.IllegalAction):  # one card for two gaps
        GAME.apply(state, 0, {"type": "fill", "cards": [{"card": 0, "side": "brown", "at": gaps[0]}]})
    with pytest.raises(G.IllegalAction):  # the same card twice
        GAME.apply(state, 0, {"type": "fill", "cards": [{"card": 0, "side": "brown", "at": g} for g in gaps]})
    assert state == before


def test_cannot_fit_floor_counts_as_complete_with_the_documented_fill():
    state = fresh(2, seed=4)
    _build(state, 0, WALLED)
    GAME.apply(state, 0, GAME.choose_action(state, 0, None))
    assert G.floor_complete(state["players"][0], 1)
    while state["floor"] == 1:
        ai_turn(state)
    assert state["players"][0]["shape"] in ([5, 4], [4, 5])


def test_automatic_loss_without_enough_single_block_cards():
    state = fresh(2, seed=4)
    _build(state, 0, WALLED, covers=2)  # two cards spent on dominoes: one left for two gaps
    assert state["players"][0]["lost"] is True
    assert state["over"] is True
    out = GAME.outcome(state)
    assert out.winners == [1]
    assert "lost" in out.results[0].note
    assert out.results[0].rank == 2


def test_automatic_loss_in_a_three_player_game_lets_the_others_play_on():
    state = fresh(3, seed=4)
    _build(state, 0, WALLED, covers=2)  # the others then play the game to its end without seat 0
    assert state["players"][0]["lost"] is True and state["reason"] == "four floors built"
    out = GAME.outcome(state)
    assert 0 not in out.winners and out.results[0].rank == 3
    assert len(state["players"][1]["scores"]) == 4 and len(state["players"][0]["scores"]) == 0


def test_walled_in_floor_is_flagged_in_the_placement_choices():
    state = fresh(2, seed=4)
    order = shift_to_origin(tiling(WALLED))
    # lay all but the last domino of the walled floor: the floor then needs 2 cards whatever happens
    for pair in order[:8]:
        others_pass_turns(state, 0)
        lay(state, 0, pair)
    others_pass_turns(state, 0)
    choices = GAME.pending(state)[0].choices
    assert choices["gaps_now"] == 2 and choices["completable"] is False


def test_next_floor_starting_player_is_the_lowest_floor_score():
    assert G.next_starter(0, {0: 9, 1: 4, 2: 7}, 3) == 1
    assert G.next_starter(2, {0: 3, 1: 4, 2: 7}, 3) == 0
    assert G.next_starter(0, {0: 2, 1: 4, 2: 7, 3: 5}, 4) == 0  # the starter again when alone lowest


def test_next_floor_starting_player_tie_goes_to_the_next_tied_player_in_turn_order():
    assert G.next_starter(0, {0: 5, 1: 5, 2: 5, 3: 9}, 4) == 1
    assert G.next_starter(1, {0: 5, 1: 5, 2: 8, 3: 5}, 4) == 3
    assert G.next_starter(3, {0: 5, 1: 6, 2: 5, 3: 5}, 4) == 0


def test_next_floor_starting_player_in_play():
    state = fresh(3, seed=11)
    starter = state["starter"]
    while state["floor"] == 1:
        ai_turn(state)
    results = {s: p["scores"][0] for s, p in enumerate(state["players"])}
    assert state["starter"] == G.next_starter(starter, results, 3)
    assert state["turn"] == state["starter"]


def test_game_ends_after_the_fourth_floor_scoring():
    state = fresh(2, seed=2)
    while not state["over"]:
        assert state["floor"] <= 4
        ai_turn(state)
    assert state["floor"] == 4 and state["reason"] == "four floors built"
    for player in state["players"]:
        assert len(player["scores"]) == 4
    assert GAME.pending(state) == {}


def _finished(scores, cards_used):
    state = fresh(len(scores))
    for player, floor_scores, used in zip(state["players"], scores, cards_used, strict=True):
        player["scores"] = list(floor_scores)
        player["cards"] = [{"floor": 1, "use": "cover"}] * used + [None] * (3 - used)
    state["over"] = True
    return state


def test_tie_break_most_unused_single_block_cards():
    state = _finished([[10, 10, 10, 10], [15, 10, 10, 5]], [2, 1])
    out = GAME.outcome(state)
    assert out.winners == [1]
    assert out.results[1].note == "won on unused single block cards"
    assert out.results[0].rank == 2


def test_tie_break_best_single_floor_score():
    state = _finished([[10, 10, 10, 10], [16, 10, 9, 5], [8, 8, 8, 8]], [1, 1, 0])
    out = GAME.outcome(state)
    assert out.winners == [1]
    assert out.results[1].note == "won on the best single floor"


def test_full_tie_is_shared():
    state = _finished([[10, 10, 10, 10], [10, 10, 10, 10]], [1, 1])
    out = GAME.outcome(state)
    assert out.winners == [0, 1]
    assert out.results[0].rank == out.results[1].rank == 1


def test_outcome_breakdown_labels_every_floor_and_both_tie_breaks():
    state = fresh(2, seed=2)
    while not state["over"]:
        ai_turn(state)
    out = GAME.outcome(state)
    for result, player in zip(out.results, state["players"], strict=True):
        labels = [label for label, _ in result.breakdown]
        assert labels[:2] == ["Floor 1: areas", "Floor 1: Mino's bonus"]
        assert "Unused single block cards (1st tie-break)" in labels
        assert "Best single floor (2nd tie-break)" in labels
        assert sum(v for label, v in result.breakdown if label.startswith("Floor")) == result.total
        assert result.total == sum(player["scores"])


def test_tie_break_note_names_the_tie_break_that_decided():
    # All on 40: seat 1 has fewer unused cards; seat 0 has as many as seat 2 but a lower best floor.
    state = _finished([[10, 10, 10, 10], [20, 10, 5, 5], [12, 10, 9, 9]], [1, 2, 1])
    out = GAME.outcome(state)
    assert out.winners == [2]
    assert out.results[2].note == "won on the best single floor"
    assert [r.rank for r in out.results] == [2, 3, 1]
