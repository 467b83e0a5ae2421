"""Properties over hundreds of AI games for 2, 3 and 4 architects."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.pyramido import GAME
from engine.pyramido import game as G
from engine.pyramido import geometry as geo

QUAD = {"tl": (0, 0), "tr": (1, 0), "bl": (0, 1), "br": (1, 1)}


def _dominoes_everywhere(state) -> list[int]:
    placed = [p["d"] for player in state["players"] for floor in player["floors"] for p in floor]
    return [d for d in state["quarry"] if d is not None] + [d for pile in state["piles"] for d in pile] + placed


def _recount(floors_view: list[dict], upto: int, gem_cells: set) -> int:
    """An independent count of floor ``upto``'s score from the public view of the final pyramid."""
    grid = {}
    for fv in floors_view[:upto]:
        off = fv["floor"] - 1
        for b in fv["blocks"]:
            x, y = b["at"]
            for q, (qx, qy) in QUAD.items():
                grid[(2 * x + off + qx, 2 * y + off + qy)] = (b["colour"], q in b["icons"],
                                                              (fv["floor"], x, y) in gem_cells)
    seen, scored = set(), []
    for start in grid:
        if start in seen:
            continue
        comp, todo = [], [start]
        seen.add(start)
        while todo:
            c = todo.pop()
            comp.append(c)
            for n in ((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1)):
                if n in grid and n not in seen and grid[n][0] == grid[start][0]:
                    seen.add(n)
                    todo.append(n)
        if any(grid[c][2] for c in comp):
            scored.append(sum(grid[c][1] for c in comp))
    return sum(scored) + (min(scored) if scored else 0)


def _gem_cells(player) -> set:
    """(floor, x, y) of every block that held a gem for its floor's scoring."""
    out = set()
    for f, floor in enumerate(player["floors"], start=1):
        for piece in floor:
            x, y = piece["at"]
            ox, oy = geo.DIR_OFFSET[piece["dir"]]
            if piece["gem"] == "a":
                out.add((f, x, y))
            elif piece["gem"] == "b":
                out.add((f, x + ox, y + oy))
            card = piece.get("card")
            if card and card.get("gem"):
                out.add((f, x, y) if card["block"] == "a" else (f, x + ox, y + oy))
    return out


def play(seats: int, seed: int, check_choices: bool = False):
    state = GAME.new_game({}, seed, seats)
    rng = random.Random(seed)
    record = {"options": dict(state["options"]), "seed": seed, "seats": seats, "actions": []}
    while GAME.outcome(state) is None:
        prompts = GAME.pending(state)
        assert len(prompts) == 1
        (seat, prompt), = prompts.items()
        action = GAME.choose_action(state, seat, rng)
        if check_choices and prompt.kind == "turn":
            choices = prompt.choices
            at = tuple(action["at"])
            cells = sorted([at, geo.other_cell(at, action["dir"])])
            chosen = next(p for p in choices["placements"] if sorted(tuple(c) for c in p["cells"]) == cells)
            if choices["completable"]:
                assert chosen["gaps"] == 0, "the AI walled itself in although a safe position existed"
        record["actions"].append([seat, copy.deepcopy(action)])
        GAME.apply(state, seat, action)
        assert sorted(_dominoes_everywhere(state)) == list(range(90))
    return state, record


def _check_finished(state, record):
    assert GAME.replay(json.loads(json.dumps(record))) == state
    view = GAME.view(state, None)
    out = GAME.outcome(state)
    for s, player in enumerate(state["players"]):
        if player["lost"]:
            continue
        assert len(player["scores"]) == 4
        for f in range(1, 5):
            dominoes = len(player["floors"][f - 1])
            fills = len(player["fills"][f - 1])
            assert dominoes * 2 + fills == geo.floor_cells(f)
            # exactly 10/6/3/1 dominoes, or one fewer and the gaps filled with 2 single block cards
            assert (dominoes, fills) in ((geo.FLOOR_DOMINOES[f - 1], 0), (geo.FLOOR_DOMINOES[f - 1] - 1, 2))
        gems = _gem_cells(player)
        for f in range(1, 5):
            recount = _recount(view["players"][s]["floors"], f, {g for g in gems if g[0] == f})
            assert recount == player["scores"][f - 1]
        assert out.results[s].total == sum(player["scores"])


@pytest.mark.parametrize("seats", [2, 3, 4])
@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_ai_games_conserve_dominoes_fill_floors_replay_and_recount(seats, seed):
    state, record = play(seats, seed)
    _check_finished(state, record)


@pytest.mark.parametrize("seats", [2, 4])
def test_ai_never_walls_itself_in_when_a_safe_position_exists(seats):
    for seed in range(5):
        state, _ = play(seats, 1000 + seed, check_choices=True)
        assert not any(p["lost"] for p in state["players"])


def test_ai_action_is_among_the_legal_actions():
    state = GAME.new_game({}, 77, 3)
    rng = random.Random(1)
    turns = 0
    while not state["over"] and turns < 60:
        seat = state["turn"]
        action = GAME.choose_action(state, seat, rng)
        if turns % 5 == 0:
            assert action in GAME.legal_actions(state, seat)
        GAME.apply(state, seat, action)
        turns += 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6), steps=st.integers(min_value=0, max_value=60),
       pick=st.integers(min_value=0, max_value=10**6))
def test_legal_actions_are_accepted_and_broken_ones_change_nothing(seed, steps, pick):
    state = GAME.new_game({}, seed, 2)
    rng = random.Random(seed)
    for _ in range(steps):
        if state["over"]:
            return
        seat = state["turn"]
        GAME.apply(state, seat, GAME.choose_action(state, seat, rng))
    if state["over"]:
        return
    seat = state["turn"]
    legal = GAME.legal_actions(state, seat)
    assert legal
    action = legal[pick % len(legal)]
    broken = copy.deepcopy(action)
    mutation = pick % 5
    if broken["type"] == "place":
        if mutation == 0:
            broken["at"] = [broken["at"][0] + 7, broken["at"][1]]
        elif mutation == 1:
            broken["domino"] = next(d for d in range(90) if d not in state["quarry"])
        elif mutation == 2:
            broken["refill"] = 5
        elif mutation == 3:
            broken["card"] = {"card": 9, "side": "red", "block": "a", "icon": "tl"}
        else:
            broken["dir"] = "Q"
    else:
        broken["cards"] = broken["cards"][:-1]
    before = copy.deepcopy(state)
    with pytest.raises(G.IllegalAction):
        GAME.apply(state, seat, broken)
    assert state == before
    GAME.apply(state, seat, action)


def test_views_are_json_and_show_only_pile_tops():
    state, _ = play(3, 5)
    for seat in (None, 0, 1, 2):
        v = GAME.view(state, seat)
        json.dumps(v)
        for pile in v["piles"]:
            assert set(pile) == {"pile", "count", "top"}


def test_ai_spends_a_single_block_card_on_the_top_floor_only_when_it_scores_more():
    from engine.pyramido import scoring as sc

    used = 0
    for seed in range(12):
        state = GAME.new_game({}, 500 + seed, 4)
        rng = random.Random(seed)
        while not state["over"]:
            seat = state["turn"]
            action = GAME.choose_action(state, seat, rng)
            if action["type"] == "place" and action["card"] is not None:
                assert state["floor"] == 4
                trial = copy.deepcopy(state)
                GAME.apply(trial, seat, dict(action, card=None))
                GAME.apply(state, seat, action)
                with_card = sc.score_floor(state["players"][seat], 4)["total"]
                assert with_card >= sc.score_floor(trial["players"][seat], 4)["total"] + 2
                used += 1
                continue
            GAME.apply(state, seat, action)
    assert used > 0
