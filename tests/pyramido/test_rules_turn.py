"""The turn: score the domino with a gem (mandatory when possible), single block cards, refilling the quarry."""

from __future__ import annotations

import copy

import pytest

from engine.pyramido import GAME
from engine.pyramido import game as G
from engine.pyramido import scoring as sc
from engine.pyramido.tiles import DOMINOES, QUADRANT_BIT

from .helpers import bring_to_quarry, fresh, place


def _refuses(state, seat, action, code):
    before = copy.deepcopy(state)
    with pytest.raises(G.IllegalAction) as err:
        GAME.apply(state, seat, action)
    assert err.value.code == code
    assert state == before, "a refused action changed the state"
    return err.value


def _action(state, domino, at=(0, 0), direction="E", gem=None, card=None, refill=None):
    bring_to_quarry(state, domino, 0)
    if refill is None:
        refill = G.refill_piles(state, 0)[0]
    return {"type": "place", "domino": domino, "at": list(at), "dir": direction, "gem": gem, "card": card,
            "refill": refill}


def test_gem_scoring_is_mandatory_when_a_gem_matches():
    state = fresh()
    err = _refuses(state, 0, _action(state, 42, gem=None), "gem_required")  # red/blue, both gems unused
    assert "red or blue" in err.message


def test_gem_goes_on_a_block_of_its_colour():
    state = fresh()
    GAME.apply(state, 0, _action(state, 42, gem="b"))
    player = state["players"][0]
    assert "blue" not in player["gems"] and "red" in player["gems"]
    blocks = sc.floor_blocks(player, 1)
    assert blocks[(1, 0)] == ("blue", DOMINOES[42][1][1], "blue")


def test_gem_cannot_be_placed_twice_on_a_floor():
    state = fresh()
    GAME.apply(state, 0, _action(state, 0, gem="a"))  # brown gem used
    place(state, 1, (0, 0), "E")
    brown = 11  # brown/brown
    _refuses(state, 0, _action(state, brown, at=(2, 0), gem="a"), "no_gem")


def test_no_gem_when_none_matches():
    state = fresh()
    GAME.apply(state, 0, _action(state, 0, gem="a"))  # brown gem used
    place(state, 1, (0, 0), "E")
    GAME.apply(state, 0, _action(state, 11, at=(2, 0), gem=None))  # brown/brown: no brown gem left: skip
    assert sc.floor_blocks(state["players"][0], 1)[(2, 0)][2] is None


def test_single_block_card_covers_an_unscored_block_and_is_scored_with_its_gem():
    state = fresh()
    card = {"card": 2, "side": "green", "block": "b", "icon": "br"}
    GAME.apply(state, 0, _action(state, 42, gem="a", card=card))  # red gem on a; green card on b
    player = state["players"][0]
    blocks = sc.floor_blocks(player, 1)
    assert blocks[(1, 0)] == ("green", QUADRANT_BIT["br"], "green")
    assert player["cards"][2] == {"floor": 1, "use": "cover"}
    assert "green" not in player["gems"] and "red" not in player["gems"]


def test_single_block_card_cannot_go_on_the_block_with_the_gem():
    state = fresh()
    card = {"card": 2, "side": "green", "block": "a", "icon": "tl"}
    _refuses(state, 0, _action(state, 42, gem="a", card=card), "card_on_gem")


def test_single_block_card_face_must_be_one_of_its_two_sides():
    state = fresh()
    card = {"card": 0, "side": "green", "block": "b", "icon": "tl"}  # card 0 is brown/blue
    _refuses(state, 0, _action(state, 42, gem="a", card=card), "bad_side")


def test_single_block_card_is_played_once():
    state = fresh()
    card = {"card": 1, "side": "aqua", "block": "b", "icon": "tl"}
    GAME.apply(state, 0, _action(state, 42, gem="a", card=card))
    place(state, 1, (0, 0), "E")
    again = dict(card, block="a")
    _refuses(state, 0, _action(state, 43, at=(2, 0), gem="b", card=again), "card_used")  # red/blue


def test_single_block_card_without_a_free_gem_of_its_colour_is_not_scored():
    state = fresh()
    GAME.apply(state, 0, _action(state, 0, gem="a"))  # brown gem used
    place(state, 1, (0, 0), "E")
    card = {"card": 0, "side": "brown", "block": "b", "icon": "tl"}
    GAME.apply(state, 0, _action(state, 42, at=(2, 0), gem="a", card=card))
    assert sc.floor_blocks(state["players"][0], 1)[(3, 0)] == ("brown", 1, None)


def test_single_block_card_gem_is_the_second_gem_on_the_domino():
    state = fresh()
    card = {"card": 0, "side": "blue", "block": "b", "icon": "tl"}
    GAME.apply(state, 0, _action(state, 16, gem="a", card=card))  # red/brown; blue card on the brown block
    gems = [info[2] for info in sc.floor_blocks(state["players"][0], 1).values()]
    assert sorted(g for g in gems if g) == ["blue", "red"]


def test_quarry_refill_comes_from_one_of_the_two_piles_behind_the_slot():
    state = fresh()
    domino = state["quarry"][1]  # middle slot: piles 1 and 2 (0-based) behind it
    action = {"type": "place", "domino": domino, "at": [0, 0], "dir": "E",
              "gem": (G.gem_blocks(state, 0, domino) or [None])[0], "card": None, "refill": 3}
    _refuses(state, 0, action, "bad_refill")
    top = state["piles"][2][-1]
    GAME.apply(state, 0, dict(action, refill=2))
    assert state["quarry"][1] == top
    assert len(state["piles"][2]) == 21


def test_quarry_refill_choices_are_adjacent_piles():
    state = fresh()
    assert [G.refill_piles(state, k) for k in range(3)] == [[0, 1], [1, 2], [2, 3]]


def test_pile_splitting_when_a_pile_runs_out():
    state = fresh()
    # Leave one domino in pile 0 and make pile 2 the biggest.
    spare = state["piles"][0][:-1]
    state["piles"][0] = state["piles"][0][-1:]
    state["piles"][2] = spare + state["piles"][2]
    big = list(state["piles"][2])
    domino = state["quarry"][0]
    gem = (G.gem_blocks(state, 0, domino) or [None])[0]
    events = GAME.apply(state, 0, {"type": "place", "domino": domino, "at": [0, 0], "dir": "E", "gem": gem,
                                   "card": None, "refill": 0})
    half = len(big) // 2
    assert state["piles"][0] == big[:half]  # the bottom half of the biggest pile
    assert state["piles"][2] == big[half:]
    assert any(e["type"] == "split" for e in events)
    assert all(state["piles"])


def test_taken_domino_leaves_the_quarry_and_is_on_the_pyramid():
    state = fresh()
    domino = state["quarry"][2]
    place(state, 0, (0, 0), "E", domino=domino)
    assert domino not in state["quarry"]
    assert state["players"][0]["floors"][0][0]["d"] == domino


def test_not_your_turn_is_refused():
    state = fresh()
    _refuses(state, 1, _action(state, 0, gem="a"), "not_your_turn")


def test_domino_not_in_quarry_is_refused():
    state = fresh()
    outside = state["piles"][0][0]
    _refuses(state, 0, {"type": "place", "domino": outside, "at": [0, 0], "dir": "E", "gem": None, "card": None,
                        "refill": 0}, "not_in_quarry")


@pytest.mark.parametrize("action, code", [
    ({"type": "place"}, "bad_action"),
    ({"type": "place", "domino": "x"}, "bad_action"),
    ({"type": "dance"}, "bad_action"),
    ({"type": "fill", "cards": []}, "bad_action"),
])
def test_malformed_actions_are_refused_without_change(action, code):
    state = fresh()
    if action.get("domino") is None and action["type"] == "place" and "domino" in action:
        action = dict(action, domino=state["quarry"][0])
    _refuses(state, 0, action, code)


def test_bad_direction_is_refused():
    state = fresh()
    _refuses(state, 0, _action(state, 42, gem="a", direction="X"), "bad_direction")


def test_refill_pile_must_be_a_pile_number():
    state = fresh()
    action = _action(state, 42, gem="a")
    err = _refuses(state, 0, dict(action, refill=1.0), "bad_refill")
    assert "pile 1 or pile 2" in err.message


def test_refill_is_mandatory_while_a_pile_behind_the_space_holds_dominoes():
    state = fresh()
    action = _action(state, 42, gem="a")
    _refuses(state, 0, dict(action, refill=None), "bad_refill")


def test_single_block_card_number_must_be_one_of_the_three_cards():
    state = fresh()
    card = {"card": 1.0, "side": "yellow", "block": "b", "icon": "tl"}
    _refuses(state, 0, _action(state, 42, gem="a", card=card), "bad_card")


def test_gem_may_go_on_a_block_of_its_colour_without_gem_icons():
    state = fresh()
    assert DOMINOES[2][1] == ("brown", 0)  # blue (2 icons) / brown (no icon)
    GAME.apply(state, 0, _action(state, 2, gem="b"))
    assert sc.floor_blocks(state["players"][0], 1)[(1, 0)] == ("brown", 0, "brown")


def test_quarry_space_stays_empty_when_both_piles_behind_it_are_empty():
    state = fresh()
    every = [d for pile in state["piles"] for d in pile]
    state["piles"] = [[], [], every[:43], every[43:]]
    domino = state["quarry"][0]
    assert G.refill_piles(state, 0) == []
    action = {"type": "place", "domino": domino, "at": [0, 0], "dir": "E",
              "gem": (G.gem_blocks(state, 0, domino) or [None])[0], "card": None, "refill": 0}
    err = _refuses(state, 0, action, "bad_refill")
    assert "empty" in err.message
    GAME.apply(state, 0, dict(action, refill=None))
    assert state["quarry"][0] is None
    assert all(d["slot"] != 0 for d in GAME.pending(state)[1].choices["dominoes"])


def test_pile_splitting_takes_the_leftmost_of_equal_biggest_piles_rounded_down():
    state = fresh()
    every = [d for pile in state["piles"] for d in pile]
    # Piles of 1, 11, 8 and 11 dominoes (the rest of the set is left out): piles 1 and 3 tie as the biggest.
    state["piles"] = [every[:1], every[1:12], every[12:20], every[20:31]]
    donor = list(state["piles"][1])
    domino = state["quarry"][0]
    gem = (G.gem_blocks(state, 0, domino) or [None])[0]
    GAME.apply(state, 0, {"type": "place", "domino": domino, "at": [0, 0], "dir": "E", "gem": gem,
                          "card": None, "refill": 0})
    assert state["piles"][0] == donor[:5]  # 11 // 2: the bottom five of the leftmost biggest pile
    assert state["piles"][1] == donor[5:]
    assert len(state["piles"][3]) == 11


def test_pile_stays_empty_when_no_other_pile_can_be_split():
    state = fresh()
    every = [d for pile in state["piles"] for d in pile]
    state["piles"] = [every[:1], every[1:2], every[2:3], []]  # the rest of the set is left out
    domino = state["quarry"][0]
    gem = (G.gem_blocks(state, 0, domino) or [None])[0]
    events = GAME.apply(state, 0, {"type": "place", "domino": domino, "at": [0, 0], "dir": "E", "gem": gem,
                                   "card": None, "refill": 0})
    assert state["quarry"][0] == every[0]
    assert state["piles"] == [[], every[1:2], every[2:3], []]
    assert not any(e["type"] == "split" for e in events)
    assert G.refill_piles(state, 0) == [1]
