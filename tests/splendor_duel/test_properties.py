"""Invariants over hundreds of random and AI games, checked after every action.

Token conservation (bag + board + players = the 25-token mix), card conservation (each of the 67 jewel
cards and 4 royal cards in exactly one place), privileges (3 in all), victory detected exactly when the
active player meets a condition at the end of a turn, replay identity, JSON round trip, and no blind
reserve in the opponent's view, the public view or public events.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.contract import RoundTrips
from engine.splendor_duel import GAME
from engine.splendor_duel.cards import CARDS, ROYALS, TOKEN_MIX
from engine.splendor_duel.game import victory
from tests.splendor_duel.helpers import card_places, token_totals


def check_invariants(state: dict) -> None:
    assert token_totals(state) == TOKEN_MIX
    assert all(n >= 0 for n in state["bag"].values())
    for seat, pl in enumerate(state["players"]):
        assert all(n >= 0 for n in pl["tokens"].values())
        # Only the active player may go over 10 tokens, during a turn (privileges, then the discard).
        assert sum(pl["tokens"].values()) <= 10 or (seat == state["active"] and state["stage"] != "over")
        assert len(pl["reserved"]) <= 3
        # Cached totals agree with the cards.
        assert pl["points"] == sum(CARDS[c].points for c, _ in pl["cards"]) + sum(
            ROYALS[r].points for r in pl["royals"])
        assert pl["crowns"] == sum(CARDS[c].crowns for c, _ in pl["cards"])
        for color in pl["bonus"]:
            assert pl["bonus"][color] == sum(CARDS[c].bonus for c, col in pl["cards"] if col == color)
    places = card_places(state)
    assert set(places) == set(CARDS) and set(places.values()) == {1}
    royals = state["royals"] + state["players"][0]["royals"] + state["players"][1]["royals"]
    assert sorted(royals) == sorted(ROYALS)
    assert state["supply"] + sum(pl["privileges"] for pl in state["players"]) == 3


QUOTED_ID = re.compile(r'"(L\d-\d\d)(?=")')  # a card id between quotes (the closing one left for the next)
assert all(re.fullmatch(r"L\d-\d\d", c) for c in CARDS)  # (check_secrecy finds the card ids by QUOTED_ID)


def blind_ids(state: dict, owner: int) -> set[str]:
    return {c for c, blind in state["players"][owner]["reserved"] if blind}


def check_secrecy(state: dict, events: list[dict]) -> None:
    # Each view's text is written once and every check below reads it.
    texts = {viewer: json.dumps(GAME.view(state, viewer)) for viewer in (0, 1, None)}
    for owner in (0, 1):
        secret = blind_ids(state, owner)
        if not secret:
            continue
        for viewer in (1 - owner, None):
            assert not any(c in texts[viewer] for c in secret), (viewer, secret)
    # Deck order is secret from everyone: no view lists deck cards.
    on_show = set(json.dumps(state["pyramid"]).split('"'))
    deck_only = [c for lv in "123" for c in set(state["decks"][lv]) - on_show]
    for viewer in (0, 1, None):
        # '"c"' is in the text exactly when QUOTED_ID finds c (every card id is L<digit>-<digit><digit>: no quote
        # in an id, so two occurrences never overlap)
        quoted = set(QUOTED_ID.findall(texts[viewer]))
        assert not [c for c in deck_only if c in quoted], viewer
    blind = blind_ids(state, 0) | blind_ids(state, 1)
    for event in events:
        if event["to"] == "all" and blind:
            text = json.dumps(event)
            for c in blind:
                assert c not in text


def play(seed: int, policy: str, max_actions: int = 3000) -> tuple[dict, list]:
    rng = random.Random(seed)
    options = {"first_player": rng.choice(["random", "seat1", "seat2"])}
    state = GAME.new_game(options, seed, 2)
    record: list = []
    round_trips = RoundTrips()
    check_invariants(state)
    while not GAME.is_over(state) and len(record) < max_actions:
        (seat,) = GAME.pending(state)
        mover = policy if policy != "mixed" else ("ai" if seat == 0 else "random")
        if mover == "ai":
            action = GAME.choose_action(state, seat, rng)
        else:
            action = rng.choice(GAME.legal_actions(state, seat))
        was_stage, was_active = state["stage"], state["active"]
        events = GAME.apply(state, seat, action)
        record.append([seat, json.loads(json.dumps(action))])
        check_invariants(state)
        check_secrecy(state, events)
        check_victory_timing(state, seat, was_stage, was_active, action)
        assert round_trips(state)  # survives a JSON round trip
    assert GAME.is_over(state), f"seed {seed}: no winner after {len(record)} actions"
    return state, record


def check_victory_timing(state: dict, seat: int, was_stage: str, was_active: int, action: dict) -> None:
    turn_ended = state["stage"] == "over" or state["active"] != seat or (
        state["stage"] == "start" and action["type"] not in ("privileges",) and was_active == seat
        and action["type"] != "replenish")
    if state["stage"] == "over":
        assert state["winner"] == seat and victory(state["players"][seat]) == state["win_reason"]
    elif turn_ended and state["stage"] == "start":
        assert victory(state["players"][seat]) is None
    for other in (0, 1):
        if state["stage"] != "over" and other != seat:
            assert victory(state["players"][other]) is None


@pytest.mark.parametrize("seed", range(120))
def test_property_ai_games(seed):
    state, record = play(seed, "ai")
    assert GAME.replay({"options": state["options"], "seed": seed, "seats": 2, "actions": record}) == state


@pytest.mark.parametrize("seed", range(60))
def test_property_random_games(seed):
    state, record = play(1000 + seed, "random")
    assert GAME.replay({"options": state["options"], "seed": 1000 + seed, "seats": 2, "actions": record}) == state


@pytest.mark.parametrize("seed", range(60))
def test_property_ai_against_random(seed):
    state, _record = play(5000 + seed, "mixed")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31 - 1), st.lists(st.integers(0, 10_000), min_size=1, max_size=120))
def test_property_illegal_actions_change_nothing(seed, picks):
    """Random mutations of legal actions: either they apply, or they raise and leave the state as it was."""
    state = GAME.new_game({}, seed, 2)
    rng = random.Random(seed)
    for pick in picks:
        if GAME.is_over(state):
            break
        (seat,) = GAME.pending(state)
        legal = GAME.legal_actions(state, seat)
        action = dict(legal[pick % len(legal)])
        mutation = pick % 7
        if mutation == 0:
            action["tokens"] = ["A1", "C1"]
        elif mutation == 1:
            action["card"] = rng.choice(sorted(CARDS))
        elif mutation == 2:
            action["privileges"] = ["E5"]
        elif mutation == 3:
            action["discard"] = {"gold": 1}
        elif mutation == 4:
            seat = 1 - seat
        before = json.dumps(state, sort_keys=True)
        try:
            GAME.apply(state, seat, action)
        except GAME_ILLEGAL as exc:
            assert exc.message and exc.code
            assert json.dumps(state, sort_keys=True) == before
        check_invariants(state)


GAME_ILLEGAL = __import__("engine.api", fromlist=["IllegalAction"]).IllegalAction


def test_property_determinize_keeps_what_the_seat_knows():
    rng = random.Random(3)
    for seed in range(30):
        state = GAME.new_game({}, seed, 2)
        while not GAME.is_over(state) and state["turn"] < 40:
            (seat,) = GAME.pending(state)
            GAME.apply(state, seat, GAME.choose_action(state, seat, rng))
        for seat in (0, 1):
            other = GAME.determinize(state, seat, rng)
            assert GAME.view(other, seat) == GAME.view(state, seat)
            check_invariants(other)
            # The AI decides from what it sees only.
            if not GAME.is_over(state) and state["active"] == seat:
                assert GAME.choose_action(other, seat, random.Random(1)) == GAME.choose_action(
                    state, seat, random.Random(1))


def test_property_determinize_redraws_hidden_cards():
    state = GAME.new_game({}, 8, 2)
    rng = random.Random(0)
    orders = {tuple(GAME.determinize(state, 0, rng)["decks"]["1"]) for _ in range(5)}
    assert len(orders) > 1
