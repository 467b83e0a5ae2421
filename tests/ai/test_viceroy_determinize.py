"""Viceroy determinization: consistent with the seat's view, complete, and blind to the others' secrets."""

from __future__ import annotations

import random

import pytest

from engine.viceroy import cards as C
from engine.viceroy import game as G
from engine.viceroy import views
from engine.viceroy.determinize import determinize, known_in_hand, public_attacks
from tests.ai.helpers import finished, positions
from tests.ai.scramble import scramble
from tests.engine.helpers import card_places, gem_totals

CASES = [(4, 0, 4), (3, 1, 4), (2, 0, 2), (1, 0, 4)]  # players, virtual opponents, deal


def _all_positions() -> list[tuple[dict, int]]:
    out = []
    for i, (players, virtual, deal) in enumerate(CASES):
        out += positions(40 + i, players=players, virtual=virtual, deal=deal, every=5)
    return out


POSITIONS = _all_positions()


def test_determinized_state_looks_the_same_to_the_seat() -> None:
    for state, _seat in POSITIONS:
        for s in range(len(state["players"])):
            sample = determinize(state, s, random.Random(s))
            assert views.view(sample, s) == views.view(state, s)


def test_determinized_state_keeps_every_card_and_gem_once() -> None:
    for state, seat in POSITIONS:
        sample = determinize(state, seat, random.Random(3))
        assert card_places(sample) == card_places(state)
        assert gem_totals(sample) == dict.fromkeys(C.COLORS, 16)
        for player in sample["players"]:
            assert all(n >= 0 for n in player["gems"].values())


def test_determinization_redraws_other_hands_and_screens() -> None:
    """Over a few samples the other hands and screens change; the seat's own never does."""
    state, seat = next((s, t) for s, t in POSITIONS if s["phase"] == "development" and len(s["players"]) == 4)
    changed_hand = changed_gems = False
    for k in range(8):
        sample = determinize(state, seat, random.Random(k))
        assert sample["players"][seat]["hand"] == state["players"][seat]["hand"]
        assert sample["players"][seat]["gems"] == state["players"][seat]["gems"]
        for s in range(4):
            if s != seat:
                changed_hand |= sorted(sample["players"][s]["hand"]) != sorted(state["players"][s]["hand"])
                changed_gems |= sample["players"][s]["gems"] != state["players"][s]["gems"]
    assert changed_hand and changed_gems


def test_determinization_depends_only_on_what_the_seat_may_know() -> None:
    """Two true states that agree on the seat's view (and the public log) give the same samples."""
    for state, seat in POSITIONS[::3]:
        other = scramble(state, seat, random.Random(99))
        assert determinize(state, seat, random.Random(5)) == determinize(other, seat, random.Random(5))


def test_other_sealed_choices_are_redrawn_not_copied() -> None:
    state, seat = next((s, t) for s, t in POSITIONS if len(s["choices"]) >= 1 and str(t) not in s["choices"])
    samples = [determinize(state, seat, random.Random(k)) for k in range(10)]
    for sample in samples:
        assert set(sample["choices"]) == set(state["choices"])
    scrambled = scramble(state, seat, random.Random(1))
    assert [determinize(scrambled, seat, random.Random(k))["choices"] for k in range(10)] == [
        s["choices"] for s in samples]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_public_attack_count_matches_the_screens(seed: int) -> None:
    """Attack tokens behind a screen are public by deduction: recounting them from the log is exact."""
    for state, _seat in positions(seed, every=3):
        for s in range(4):
            assert public_attacks(state, s) == state["players"][s]["attacks"]


def test_cards_known_in_hand_are_in_that_hand() -> None:
    for state, _seat in POSITIONS:
        in_transit = {step["card"] for step in state["queue"] if step["op"] == "take_card"}
        for s, cards in known_in_hand(state).items():
            assert cards <= set(state["players"][s]["hand"]) | in_transit


def test_a_finished_game_is_copied_as_it_is() -> None:
    state = finished(7, players=2)
    sample = determinize(state, 0, random.Random(1))
    assert sample["scores"] == state["scores"]
    assert G.is_over(sample)
