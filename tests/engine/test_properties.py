"""Invariants over hundreds of random AI games (1-4 players, virtual opponents, both deals).

Checked after every action: gem conservation (64 gems, 16 per colour), card conservation (each of the 88
cards in exactly one place), no negative counts, views that leak no secret, and a JSON round trip. Checked
per game: 12 turns, and the record replays to the identical state.
"""

from __future__ import annotations

import copy
import json
import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.contract import RoundTrips, is_plain_json
from engine.viceroy import apply_action, is_over, new_game, new_record, pending, replay, view
from engine.viceroy import cards as C
from engine.viceroy.ai import choose_action, play_game
from tests.engine.helpers import COLORS, all_counts_non_negative, card_places, gem_totals, spot

CONFIGS = [
    # (players, virtual opponents, deal)
    (1, 0, 4),
    (1, 0, 2),
    (2, 0, 4),
    (2, 1, 4),
    (2, 2, 2),
    (3, 0, 4),
    (3, 1, 2),
    (4, 0, 4),
    (4, 0, 2),
]
GAMES_PER_CONFIG = 24  # 216 fully checked games

# View keys whose values hold card numbers (everything else is counts, flags, turn numbers, ...).
CARD_KEYS = {"card", "cards", "hand", "tucked", "options", "discard", "base", "tip", "take", "tuck", "keep", "start"}


def check_accounting(state: dict) -> None:
    totals = gem_totals(state)
    assert totals == dict.fromkeys(COLORS, 16), totals
    places = card_places(state)
    for n in C.CHARACTER_NUMBERS:
        assert places[n] == 1, (n, places[n])
    law_count = 0 if state["phase"] == "setup" else 1  # laws are dealt when setup resolves
    for n in C.LAW_NUMBERS:
        assert places[n] == law_count, (n, places[n])
    assert set(places) <= set(C.CARDS)
    assert all_counts_non_negative(state)
    # Between actions the queue is empty unless it waits for someone's answer.
    assert state["decision"] is not None or not state["queue"]


def card_numbers_in(value: object, key: str | None = None) -> set[int]:
    """Every int held directly (or in a list) under a card-carrying key, anywhere in a view (walked without a
    call per value: the views are checked after every action)."""
    found: set[int] = set()
    stack = [(value, key if key in CARD_KEYS else None)]
    while stack:
        v, k = stack.pop()
        if isinstance(v, dict):
            for kk, vv in v.items():
                if isinstance(vv, (dict, list)):
                    stack.append((vv, kk if kk in CARD_KEYS else None))
                elif kk in CARD_KEYS and isinstance(vv, int) and not isinstance(vv, bool):
                    found.add(vv)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, (dict, list)):
                    stack.append((x, k))
                elif k is not None and isinstance(x, int) and not isinstance(x, bool):
                    found.add(x)
        elif k is not None and isinstance(v, int) and not isinstance(v, bool):
            found.add(v)
    return found


def cards_in_view(v: dict, memo: dict[bytes, set[int]] | None = None) -> set[int]:
    """card_numbers_in(v) for a view that is plain JSON (is_plain_json), with each player's part looked up in
    `memo` by its JSON text: the players' parts are most of a view and mostly the same for every viewer and
    from one action to the next. The text of plain JSON fixes its types (no tuples, no subclasses: those are
    not plain or orjson refuses them), so equal texts hold the same card numbers under the same keys."""
    players = v.get("players") if type(v) is dict else None
    if memo is None or type(players) is not list:
        return card_numbers_in(v)
    # "players" is no card key: each part counts on its own, as card_numbers_in walks it
    found = card_numbers_in({k: x for k, x in v.items() if k != "players"})
    for part in players:
        try:
            text = orjson.dumps(part, option=orjson.OPT_PASSTHROUGH_SUBCLASS)
        except TypeError:
            found |= card_numbers_in(part)
            continue
        cards = memo.get(text)
        if cards is None:
            cards = memo[text] = card_numbers_in(part)
        found |= cards
    return found


def public_cards(state: dict) -> set[int]:
    out = set(state["discard"]) if state["phase"] != "setup" else set()
    for colour in COLORS:
        out |= {spot(state, colour)[w] for w in ("base", "tip")} - {None}
    for player in state["players"]:
        for entry in player["pyramid"]["cards"].values():
            out.add(entry["card"])
            out |= set(entry["tucked"])
    return out


def check_views(state: dict, memo: dict[bytes, set[int]] | None = None) -> None:
    """`memo`: see cards_in_view (one per game)."""
    over = is_over(state)
    public = public_cards(state)
    seats = range(len(state["players"]))
    for viewer in [None, *seats]:
        v = view(state, viewer)
        assert is_plain_json(v)  # views are plain JSON (what json.dumps writes, and no tuples or non-str keys)
        assert isinstance(v["large_deck"], int) and isinstance(v["small_deck"], int) and isinstance(v["law_deck"], int)
        if viewer is None:
            assert "my_choice" not in v and "prompt" not in v
        elif state["decision"] is not None and state["decision"]["seat"] != viewer:
            assert v["prompt"] is None
        seen = cards_in_view(v, memo)
        for owner in seats:
            pv = v["players"][owner]
            if owner == viewer:
                assert pv["hand"] == state["players"][owner]["hand"]
                continue
            assert "hand" not in pv and "used_infinite" not in pv
            if not over:
                assert "gems" not in pv and "attacks" not in pv
            secret = set(state["players"][owner]["hand"]) - public
            if viewer is not None:
                secret -= set(state["players"][viewer]["hand"])
                mine = state["choices"].get(str(viewer)) or {}
                secret -= {mine.get("card"), mine.get("take")}
                if state["decision"] and state["decision"]["seat"] == viewer:
                    secret -= set(state["decision"].get("options") or [])
            leaked = secret & seen
            assert not leaked, (viewer, owner, leaked)
        if viewer is not None and str(viewer) in state["choices"]:
            assert v["my_choice"] == state["choices"][str(viewer)]


def drive(options: dict, seed: int, every_action: bool = True) -> tuple[dict, list[dict]]:
    state = new_game(options, seed)
    rng = random.Random(seed * 7 + 1)
    actions: list[dict] = []
    check_accounting(state)
    turns_seen = set()
    memo: dict[bytes, set[int]] = {}
    round_trips = RoundTrips()
    while True:
        prompts = pending(state)
        if not prompts:
            break
        seat = min(s for s, p in prompts.items() if not p.get("submitted"))
        action = choose_action(state, seat, rng)
        apply_action(state, seat, action)
        actions.append({"seat": seat, "action": copy.deepcopy(action)})
        turns_seen.add(state["turn"])
        if every_action:
            check_accounting(state)
            check_views(state, memo)
            assert round_trips(state)  # survives a JSON round trip
        assert len(actions) < 5000
    check_accounting(state)
    check_views(state, memo)
    assert state["phase"] == "over" and state["turn"] == 12
    assert turns_seen >= set(range(1, 13))
    return state, actions


@pytest.mark.parametrize(("players", "virtual", "deal"), CONFIGS)
def test_random_games_keep_every_invariant(players: int, virtual: int, deal: int) -> None:
    for i in range(GAMES_PER_CONFIG):
        options = {"players": players, "virtual_opponents": virtual, "deal": deal}
        state, actions = drive(options, seed=1000 * players + 100 * virtual + 10 * deal + i)
        record = new_record(options, state["seed"], [f"p{s}" for s in range(players)])
        record["actions"] = actions
        assert replay(json.loads(json.dumps(record))) == state
        scores = state["scores"]
        assert [s["seat"] for s in scores] == list(range(players))
        assert any(s["winner"] for s in scores)
        assert all(s["total"] == sum(s["breakdown"].values()) for s in scores)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(1, 4),
    virtual=st.integers(0, 3),
    deal=st.sampled_from([2, 4]),
    seed=st.integers(0, 2**31 - 1),
)
def test_any_game_ends_after_12_turns_and_replays(players: int, virtual: int, deal: int, seed: int) -> None:
    virtual = 0 if players == 1 else min(virtual, 4 - players)
    options = {"players": players, "virtual_opponents": virtual, "deal": deal}
    state, actions = play_game(options, seed)
    assert state["turn"] == 12 and is_over(state)
    check_accounting(state)
    record = new_record(options, seed, [str(s) for s in range(players)])
    record["actions"] = actions
    assert replay(record) == state


def test_replay_mid_game_equals_live_state() -> None:
    options = {"players": 3, "virtual_opponents": 1}
    state, actions = play_game(options, 77)
    for cut in (1, 5, len(actions) // 3, len(actions) // 2, len(actions) - 1):
        record = new_record(options, 77, ["a", "b", "c"])
        record["actions"] = actions[:cut]
        partial = replay(record)
        live = new_game(options, 77)
        for item in actions[:cut]:
            apply_action(live, item["seat"], item["action"])
        assert partial == live
        assert json.loads(json.dumps(partial)) == partial


def test_leak_checker_catches_a_leaking_view(monkeypatch: pytest.MonkeyPatch) -> None:
    # The checks above must be able to fail: a view that shows seat 0's hand in the discard is caught.
    import tests.engine.test_properties as me

    state = new_game({"players": 2}, 5)
    for seat in (0, 1):
        apply_action(state, seat, choose_action(state, seat, random.Random(seat)))
    real_view = me.view

    def leaky(st: dict, seat: int | None = None) -> dict:
        v = real_view(st, seat)
        v["discard"] = v["discard"] + list(st["players"][0]["hand"])
        return v

    monkeypatch.setattr(me, "view", leaky)
    with pytest.raises(AssertionError):
        check_views(state)
    memo: dict[bytes, set[int]] = {}
    monkeypatch.setattr(me, "view", real_view)
    check_views(state, memo)  # the players' parts are in the memo now
    monkeypatch.setattr(me, "view", leaky)
    with pytest.raises(AssertionError):
        check_views(state, memo)

    def leaky_screen(st: dict, seat: int | None = None) -> dict:  # seat 0's hand on seat 1's part
        v = real_view(st, seat)
        v["players"][1]["pyramid"]["cards"]["1:0"]["tucked"] = list(st["players"][0]["hand"])
        return v

    monkeypatch.setattr(me, "view", leaky_screen)
    for memo in (None, {}):
        with pytest.raises(AssertionError):
            check_views(state, memo)
    monkeypatch.setattr(me, "view", real_view)
    check_views(state)
