"""Judgement tokens stay secret until the judgement, and AI games over every module combination with the
underworld conserve gems, judgement tokens, bribe tokens and criminals, end, and replay."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.viceroy import GAME, apply_action, new_game
from engine.viceroy import cards as C
from engine.viceroy.ai import choose_action
from engine.viceroy.determinize import determinize
from engine.viceroy.modules.criminals import BRIBE_TOKENS, CRIMINALS, JUDGEMENT, token_text
from engine.viceroy.prompts import pending
from tests.engine.helpers import gem_totals
from tests.invasion.helpers import total_gems

OTHERS = ("duo", "aristocrats", "invasion")
COMBOS = [["darkness", "underworld", *c] for n in range(4) for c in itertools.combinations(OTHERS, n)]
GAMES_PER_COMBO = 6
PHRASES = sorted({token_text(i) for i in range(len(JUDGEMENT))})


def seat_counts(modules: list[str]) -> list[int]:
    return [1, 2] if "duo" in modules else [1, 2, 3, 4]


def criminals_everywhere(state: dict) -> list[int]:
    out = list(state["ext"]["underworld"]["deck"]) + [c for c in state["discard"] if c in CRIMINALS]
    for player in state["players"]:
        out += [c for c in player["hand"] if c in CRIMINALS]
        for entry in player["pyramid"]["cards"].values():
            out += [c for c in [entry["card"], *entry["tucked"]] if c in CRIMINALS]
    out += [step["card"] for step in state["queue"] if step["op"] == "take_card" and step["card"] in CRIMINALS]
    return out


def check_secrets(state: dict, events: list[dict]) -> None:
    """Before the reveal no view but the owner's shows a seat's tokens, and no public event names a token."""
    x = state["ext"]["underworld"]
    if x["revealed"]:
        return
    n = len(state["players"])
    for viewer in [None, *range(n)]:
        view = GAME.view(state, viewer)
        for s, part in enumerate(view["players"]):
            assert ("judgement_tokens" in part) == (s == viewer), (viewer, s)
            assert part["judgement"] == len(x["held"][s])
        if viewer is not None:
            shown = {t["id"] for t in view["players"][viewer]["judgement_tokens"]}
            assert shown == set(x["held"][viewer])
        if viewer is not None and view.get("prompt"):  # a seat's own prompt names only its own tokens
            named = view["prompt"].get("tokens") or []
            assert set(named) <= set(x["held"][viewer]), view["prompt"]
    for event in events:
        if event["to"] == "all":
            assert "tokens" not in event and "kinds" not in event, event
            assert not any(phrase in event["text"] for phrase in PHRASES), event["text"]
    prompts = pending(state)
    for seat, prompt in prompts.items():
        if prompt.get("kind") in ("judgement_return", "judgement_discard"):
            assert state["decision"]["seat"] == seat and set(prompt["tokens"]) <= set(x["held"][seat])


def play(modules: list[str], players: int, seed: int, secrets: bool) -> tuple[dict, list]:
    options = GAME.options_for({"modules": modules}, players)
    state = new_game(options, seed, players)
    rng = random.Random(seed)
    record = []
    for _ in range(6000):
        prompts = pending(state)
        if not prompts:
            break
        seat = rng.choice(sorted(s for s, p in prompts.items() if not p.get("submitted")))
        action = choose_action(state, seat, rng)
        events = apply_action(state, seat, action)
        record.append((seat, action))
        x = state["ext"]["underworld"]
        gems = total_gems(state) if "invasion" in state["ext"] else gem_totals(state)  # combat cards hold gems
        assert gems == {c: 16 for c in C.COLORS}
        assert sorted(x["reserve"] + x["box"] + [t for h in x["held"] for t in h]) == list(range(32))
        assert x["bribes"]["reserve"] + sum(x["bribes"]["held"]) == BRIBE_TOKENS and x["bribes"]["reserve"] >= 0
        assert sorted(criminals_everywhere(state)) == list(CRIMINALS)
        if secrets:
            check_secrets(state, events)
    else:
        raise AssertionError(f"no end: {modules} {players}p seed {seed}")
    assert state["phase"] == "over" and state["scores"]
    return state, record


@pytest.mark.parametrize("modules", COMBOS, ids=["+".join(c) for c in COMBOS])
def test_underworld_module_combinations_conserve_tokens_and_criminals_and_replay(modules: list[str]) -> None:
    counts = seat_counts(modules)
    for i in range(GAMES_PER_COMBO):
        players = counts[i % len(counts)]
        state, record = play(modules, players, seed=2000 + i, secrets=False)
        if i < len(counts):  # one replay per seat count
            options = GAME.options_for({"modules": modules}, players)
            assert GAME.rebuild(options, 2000 + i, players, record) == state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_judgement_tokens_never_appear_in_another_seats_view_or_in_public_before_the_end(players: int) -> None:
    for seed in range(3):
        play(["darkness", "underworld"], players, seed=300 + seed, secrets=True)


def test_determinize_redraws_the_other_seats_judgement_tokens_and_criminals_but_not_ones_own() -> None:
    options = GAME.options_for({"modules": ["darkness", "underworld"]}, 3)
    state = new_game(options, 4, 3)
    rng = random.Random(4)
    moved = False
    for _ in range(400):
        prompts = pending(state)
        seat = min(s for s, p in prompts.items() if not p.get("submitted"))
        apply_action(state, seat, choose_action(state, seat, rng))
        x = state["ext"]["underworld"]
        if state["phase"] == "auction" and x["held"][1] and x["held"][2]:
            break
    for trial in range(20):
        sample = determinize(state, 0, random.Random(trial))
        y = sample["ext"]["underworld"]
        assert y["held"][0] == x["held"][0]
        assert [len(h) for h in y["held"]] == [len(h) for h in x["held"]]
        assert sorted(y["reserve"] + y["box"] + [t for h in y["held"] for t in h]) == list(range(32))
        assert GAME.view(sample, 0) == GAME.view(state, 0)
        moved = moved or y["held"][1] != x["held"][1]
    assert moved
