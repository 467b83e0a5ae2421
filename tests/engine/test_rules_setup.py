"""Setup (RULES.md §2) and the turn structure (§3)."""

from __future__ import annotations

import random

import pytest

from engine.viceroy import IllegalAction, apply_action, default_action, new_game, pending
from engine.viceroy import cards as C
from engine.viceroy.ai import choose_action, play_game
from tests.engine.helpers import COLORS, events_of, gems, settle, spot, started, take_out


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_reserve_by_player_count(players: int) -> None:
    state = new_game({"players": players}, seed=3)
    for c in COLORS:
        on_screens = sum(p["gems"][c] for p in state["players"])
        assert state["reserve"][c] + on_screens == 4 * players
        assert state["box"][c] == 16 - 4 * players


def test_setup_two_random_gems_returned() -> None:
    seen = set()
    for seed in range(30):
        state = new_game({"players": 4}, seed=seed)
        for player in state["players"]:
            assert sum(player["gems"].values()) == 6
            assert all(1 <= player["gems"][c] + 1 <= 3 for c in COLORS)  # 0..2 of each colour
            seen.add(tuple(player["gems"][c] for c in COLORS))
    # Returned gems are random: several different screens occur (two of a kind or two different).
    assert len(seen) >= 5
    assert any(2 - min(s) == 2 for s in seen) and any(s.count(1) == 2 for s in seen)


def test_setup_four_card_deal_start_and_keep() -> None:
    state = new_game({"players": 2}, seed=5)
    hand = list(state["players"][0]["hand"])
    assert len(hand) == 4 and all(not C.is_law(n) for n in hand)
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "setup", "start": hand[0], "keep": hand[0]})
    apply_action(state, 0, {"type": "setup", "start": hand[0], "keep": hand[1], "reward": {"draw": ["small"]}})
    apply_action(state, 1, default_action(state, 1))
    settle(state)
    player = state["players"][0]
    assert player["pyramid"]["cards"]["1:0"]["card"] == hand[0]
    assert hand[1] in player["hand"]
    # The two others went back into the shuffled decks.
    decks = state["large_deck"] + state["small_deck"] + [spot(state, c)["base"] for c in COLORS]
    hands = state["players"][0]["hand"] + state["players"][1]["hand"]
    for n in hand[2:]:
        assert n in decks or n in hands


def test_setup_two_card_deal() -> None:
    state = new_game({"players": 3, "deal": 2}, seed=8)
    for player in state["players"]:
        assert len(player["hand"]) == 2
    hand = list(state["players"][0]["hand"])
    # With two cards the one not placed is kept, whatever "keep" says.
    apply_action(state, 0, {"type": "setup", "start": hand[1], "keep": 999})
    for seat in (1, 2):
        apply_action(state, seat, default_action(state, seat))
    settle(state)
    player = state["players"][0]
    assert player["pyramid"]["cards"]["1:0"]["card"] == hand[1]
    assert [n for n in player["hand"] if not C.is_law(n)][0] == hand[0]
    assert len(state["large_deck"]) + 4 == 48
    assert len(state["small_deck"]) == 64 - 3 * 2 - 48


def test_starting_rewards_in_priority_order() -> None:
    state = new_game({"players": 2}, seed=11)
    # Seat 0 starts with #10 (3 gems), seat 1 with #2 (4 gems): seat 1 holds the lowest card, so it goes first.
    for seat, cards in ((0, [10, 11, 12, 13]), (1, [2, 3, 4, 5])):
        player = state["players"][seat]
        state["large_deck"].extend(player["hand"])
        player["hand"] = []
        for n in cards:
            take_out(state, n)
        player["hand"] = cards
    state["reserve"] = gems(red=5)
    apply_action(state, 0, {"type": "setup", "start": 10, "keep": 11, "reward": {"gems": gems(red=3)}})
    before = [dict(p["gems"]) for p in state["players"]]
    events = apply_action(state, 1, {"type": "setup", "start": 2, "keep": 3, "reward": {"gems": gems(red=4)}})
    taken = [e["seat"] for e in events_of(events, "gems_taken")]
    assert taken == [1, 0]
    assert state["players"][1]["gems"]["red"] == before[1]["red"] + 4
    assert state["players"][0]["gems"]["red"] == before[0]["red"] + 1  # only one gem was left
    assert state["reserve"]["red"] == 0


def test_starting_card_reward_can_draw_a_card() -> None:
    # Ruling: starting rewards resolve after the decks are built, so #1's card reward draws.
    state = new_game({"players": 2}, seed=2)
    player = state["players"][0]
    state["large_deck"].extend(player["hand"])
    player["hand"] = []
    for n in (1, 6):
        take_out(state, n)
    player["hand"] = [1, 6]
    apply_action(state, 0, {"type": "setup", "start": 1, "keep": 6, "reward": {"draw": ["law"]}})
    apply_action(state, 1, default_action(state, 1))
    settle(state)
    assert len(player["hand"]) == 1 + 3 + 1
    assert sum(1 for n in player["hand"] if C.is_law(n)) == 4
    assert len(state["law_deck"]) == 24 - 6 - 1


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_large_deck_48_small_deck_rest(players: int) -> None:
    state = started(players)
    revealed = sum(1 for c in COLORS if spot(state, c)["base"] is not None)
    assert len(state["large_deck"]) + revealed == 48
    in_hands = sum(1 for p in state["players"] for n in p["hand"] if not C.is_law(n))
    drawn_small = in_hands - players  # starting card rewards may draw from the small deck
    assert len(state["small_deck"]) + drawn_small == 64 - 2 * players - 48


def test_four_cards_revealed() -> None:
    state = started(3)
    for c in COLORS:
        assert spot(state, c)["base"] is not None
        assert spot(state, c)["tip"] is None
    assert state["round"] == 1 and state["active"] == [0, 1, 2]


@pytest.mark.parametrize("players", [1, 2, 4])
def test_three_laws_each(players: int) -> None:
    state = new_game({"players": players}, seed=4)
    for seat in range(players):
        apply_action(state, seat, {**default_action(state, seat), "reward": {}})
    laws_in_hands = [sum(1 for n in p["hand"] if C.is_law(n)) for p in state["players"]]
    laws_drawn = sum(laws_in_hands) - 3 * players
    assert all(n >= 3 for n in laws_in_hands)
    assert len(state["law_deck"]) + laws_drawn == 24 - 3 * players


def test_last_turn_trigger_12_turns() -> None:
    turns_flagged: list[tuple[int, bool]] = []
    state = started(2, seed=21)
    rng = random.Random(0)
    while state["phase"] != "over":
        if state["phase"] == "auction" and state["round"] == 1 and (state["turn"], state["last_turn"]) not in turns_flagged:
            turns_flagged.append((state["turn"], state["last_turn"]))
        seat = min(s for s, p in pending(state).items() if not p.get("submitted"))
        apply_action(state, seat, choose_action(state, seat, rng))
    assert [t for t, _ in turns_flagged] == list(range(1, 13))
    # Only turn 12 is flagged as the last one: the large deck ran out while turn 11 was played.
    assert [t for t, last in turns_flagged if last] == [12]
    assert state["turn"] == 12


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_game_lasts_12_turns(players: int) -> None:
    state, _ = play_game({"players": players}, seed=100 + players)
    assert state["phase"] == "over" and state["turn"] == 12
