"""Contract parts: prompts, default action, description, views per seat, events."""

from __future__ import annotations

import json
import random

from engine.api import Prompt
from engine.pyramido import GAME
from engine.pyramido import game as G

from .helpers import ai_turn, fresh, place


def test_only_the_seat_to_play_has_a_prompt():
    state = fresh(3)
    prompts = GAME.pending(state)
    assert list(prompts) == [0]
    assert isinstance(prompts[0], Prompt) and prompts[0].kind == "turn"
    place(state, 0, (0, 0), "E")
    assert list(GAME.pending(state)) == [1]


def test_prompt_key_changes_every_turn():
    state = fresh(2)
    keys = set()
    for _ in range(6):
        keys.add(GAME.pending(state)[state["turn"]].key)
        ai_turn(state)
    assert len(keys) == 6


def test_turn_prompt_choices_are_plain_json_and_complete():
    state = fresh(2)
    choices = dict(GAME.pending(state)[0].choices)
    json.dumps(choices)
    assert [d["domino"] for d in choices["dominoes"]] == state["quarry"]
    assert all(d["refill"] == G.refill_piles(state, d["slot"]) for d in choices["dominoes"])
    assert len(choices["cards"]) == 3 and choices["gems"] == list(G.COLOURS)


def test_default_action_is_legal_and_keeps_the_floor_completable():
    for seed in range(4):
        state = GAME.new_game({}, seed, 3)
        rng = random.Random(seed)
        while not state["over"]:
            seat = state["turn"]
            action = GAME.default_action(state, seat)
            assert action == GAME.default_action(state, seat)  # deterministic
            if action["type"] == "place":
                assert action["card"] is None
                cells = tuple(sorted([tuple(action["at"]), G.geo.other_cell(tuple(action["at"]), action["dir"])]))
                if G.turn_choices(state, seat)["completable"]:
                    assert G.gaps_after(state, seat, cells) == 0
            GAME.apply(state, seat, action if rng.random() < 0.5 else GAME.choose_action(state, seat, rng))


def test_describe_names_the_domino_position_gem_card_and_pile():
    text = GAME.describe({"type": "place", "domino": 42, "at": [1, 2], "dir": "S", "gem": "a",
                          "card": {"card": 2, "side": "green", "block": "b", "icon": "br"}, "refill": 1})
    assert "#42" in text and "red/blue" in text and "south" in text and "red gem" in text
    assert "green single block card" in text and "pile 2" in text
    assert "2 gaps" in GAME.describe({"type": "fill", "cards": [{}, {}]})


def test_view_for_a_seat_carries_its_prompt_and_the_public_view_does_not():
    state = fresh(2)
    assert GAME.view(state, 0)["prompt"]["kind"] == "turn"
    assert GAME.view(state, 1)["prompt"] is None
    assert "prompt" not in GAME.view(state, None)


def test_events_are_public_and_name_seats_by_placeholder():
    state = fresh(2)
    events = place(state, 0, (0, 0), "E")
    assert events and all(e["to"] == "all" for e in events)
    assert "{p0}" in events[0]["text"]


def test_floor_scoring_events_carry_points():
    state = fresh(2, seed=8)
    events = []
    while state["floor"] == 1:
        events += ai_turn(state)
    scored = [e for e in events if e["type"] == "floor_score"]
    assert sorted(e["seat"] for e in scored) == [0, 1]
    assert all(e["points"] == state["players"][e["seat"]]["scores"][0] for e in scored)
    assert any(e["type"] == "next_floor" for e in events)
