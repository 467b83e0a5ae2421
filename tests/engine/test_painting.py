"""End-of-game painting (RULES.md §9): validation and the optimal solver."""

from __future__ import annotations

import copy
import itertools
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.viceroy import pyramid as pyr
from engine.viceroy.cards import COLORS
from engine.viceroy.painting import apply_painting, best_painting
from engine.viceroy.scoring import score_player


def entry(slot: str, card: int, tokens: list[dict] | None = None, **fields: object) -> dict:
    result = {"card": card, "slot": slot, "tokens": tokens or [], "tucked": []}
    result.update(fields)
    return result


def pyramid(*entries: dict) -> dict:
    return {"cards": {e["slot"]: e for e in entries}}


def gems(red: int = 0, green: int = 0, blue: int = 0, yellow: int = 0) -> dict[str, int]:
    return {"red": red, "green": green, "blue": blue, "yellow": yellow}


def state_for(p: dict, g: dict[str, int]) -> dict:
    return {"options": {"players": 1}, "players": [{"pyramid": p, "gems": g, "attacks": 0, "hand": []}]}


def almost_red(tokens: list[dict] | None = None) -> dict:
    """Herbalist (top-right red), Mentor (top-left blue), Boatswain (bottom red): red, blue, red, red."""
    return pyramid(entry("1:0", 3, tokens), entry("1:2", 4), entry("2:1", 1))


def total(p: dict) -> int:
    return score_player(state_for(p, gems()), 0)["total"]


# ------------------------------------------------------------------ validation


def test_apply_painting_paints_and_reports_spent_gems() -> None:
    p = almost_red()
    spent = apply_painting(p, gems(red=2), [{"slot": "1:2", "section": "top_left", "color": "red"}])
    assert spent == gems(red=1)
    assert p["cards"]["1:2"]["paint"] == {"top_left": "red"}
    assert pyr.single_colour(p, "2:1") == "red"


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ({"slot": "1:0", "section": "top_left", "color": "red"}, "not part of a circle"),
        ({"slot": "1:4", "section": "top_left", "color": "red"}, "no card at position 1:4"),
        ({"slot": "1:2", "section": "middle", "color": "red"}, "not a card section"),
        ({"slot": "1:2", "section": "top_left", "color": "purple"}, "not a gem colour"),
        ({"slot": "1:2", "section": "top_left", "color": "green"}, "needs 1 green gem"),
    ],
)
def test_apply_painting_rejects_with_a_player_message(item: dict, words: str) -> None:
    p = almost_red()
    before = copy.deepcopy(p)
    with pytest.raises(ValueError, match=words):
        apply_painting(p, gems(red=3), [item])
    assert p == before


def test_a_section_may_be_painted_once() -> None:
    p = almost_red()
    twice = [{"slot": "2:1", "section": "bottom_left", "color": "red"}] * 2
    with pytest.raises(ValueError, match="only once"):
        apply_painting(p, gems(red=5), twice)
    apply_painting(p, gems(red=5), [{"slot": "1:2", "section": "top_left", "color": "red"}])
    with pytest.raises(ValueError, match="only once"):
        apply_painting(p, gems(red=5), [{"slot": "1:2", "section": "top_left", "color": "blue"}])


def test_painting_never_exceeds_gems() -> None:
    p = almost_red()
    items = [
        {"slot": "1:0", "section": "top_right", "color": "blue"},
        {"slot": "2:1", "section": "bottom_left", "color": "blue"},
        {"slot": "2:1", "section": "bottom_right", "color": "blue"},
    ]
    with pytest.raises(ValueError, match="needs 3 blue gem"):
        apply_painting(p, gems(blue=2), items)
    assert "paint" not in p["cards"]["2:1"]
    assert apply_painting(p, gems(blue=3), items) == gems(blue=3)


def test_empty_painting_is_allowed() -> None:
    p = almost_red()
    assert apply_painting(p, gems(), []) == gems()


# ------------------------------------------------------------------ solver


def test_best_painting_completes_a_circle() -> None:
    p = almost_red()
    paint, gain = best_painting(state_for(p, gems(red=1)), 0)
    assert paint == [{"slot": "1:2", "section": "top_left", "color": "red"}]
    assert gain == 2


def test_best_painting_without_gems_paints_nothing() -> None:
    assert best_painting(state_for(almost_red(), gems()), 0) == ([], 0)
    assert best_painting(state_for(pyramid(entry("1:0", 1)), gems(3, 3, 3, 3)), 0) == ([], 0)


def test_best_painting_gain_matches_the_score_difference() -> None:
    p = almost_red([{"type": "circle_bonus", "color": "blue", "value": 5}])
    state = state_for(p, gems(red=1, blue=3))
    before = total(p)
    paint, gain = best_painting(state, 0)
    # Blue costs three gems but scores 2 + 5; red costs one and scores 2.
    assert {item["color"] for item in paint} == {"blue"} and len(paint) == 3
    apply_painting(p, gems(red=1, blue=3), paint)
    assert total(p) - before == gain == 7


def test_best_painting_repaints_a_single_colour_circle_only_when_better() -> None:
    # Herbalist, Boatswain under Gunner: already a red circle.
    p = pyramid(entry("1:0", 3), entry("1:2", 1), entry("2:1", 9))
    assert best_painting(state_for(p, gems(3, 3, 3, 3)), 0) == ([], 0)
    p["cards"]["1:0"]["tokens"] = [{"type": "circle_bonus", "color": "green", "value": 3}]
    paint, gain = best_painting(state_for(p, gems(green=4)), 0)
    assert len(paint) == 4 and gain == (2 + 3) - 2


def test_best_painting_counts_heraldry() -> None:
    p = almost_red()
    p["cards"]["1:4"] = entry("1:4", 79)
    assert best_painting(state_for(p, gems(red=1)), 0)[1] == 2 + 1


def test_best_painting_ignores_gems_on_the_treasury() -> None:
    p = almost_red()
    p["cards"]["1:4"] = entry("1:4", 76, gems=gems(red=4))
    assert best_painting(state_for(p, gems()), 0) == ([], 0)


def test_best_painting_shares_the_budget_between_circles() -> None:
    # Two circles, each one red gem short: 2:1 (level 2) and 3:2 (level 3).
    p = pyramid(
        entry("1:0", 3), entry("1:2", 4), entry("1:4", 7),
        entry("2:1", 1), entry("2:3", 2), entry("3:2", 5),
    )  # fmt: skip
    circles = {c["slot"]: c["colors"] for c in pyr.circles(p)}
    assert circles["2:1"] == circles["3:2"] == ["red", "blue", "red", "red"]
    assert best_painting(state_for(p, gems(red=1)), 0) == (
        [{"slot": "2:3", "section": "top_left", "color": "red"}],
        3,
    )
    paint, gain = best_painting(state_for(p, gems(red=2)), 0)
    assert gain == 5 and len(paint) == 2


def test_best_painting_prefers_fewest_gems_among_equal_gains() -> None:
    # Red: 1 gem for 2 + 1; blue: 3 gems for 2 + 1. Same points, so the cheaper one.
    bonus = [{"type": "circle_bonus", "color": c, "value": 1} for c in ("red", "blue")]
    paint, gain = best_painting(state_for(almost_red(bonus), gems(red=5, green=5, blue=5, yellow=5)), 0)
    assert gain == 3
    assert paint == [{"slot": "1:2", "section": "top_left", "color": "red"}]


# ------------------------------------------------------------------ optimality


def random_pyramid(rng: random.Random, size: int) -> dict:
    numbers = rng.sample(range(1, 89), 40)
    p: dict = {"cards": {}}
    for number in numbers:
        if len(p["cards"]) == size:
            break
        slots = pyr.legal_slots(p, number)
        slot = rng.choice(slots[-3:] if rng.random() < 0.7 else slots)
        p["cards"][slot] = entry(slot, number)
    slots = sorted(p["cards"])
    for _ in range(rng.randint(0, 4)):
        token = {"type": "circle_bonus", "color": rng.choice(COLORS), "value": rng.randint(1, 3)}
        p["cards"][rng.choice(slots)]["tokens"].append(token)
    if rng.random() < 0.3 and "1:0" in p["cards"]:
        p["cards"]["1:0"]["card"] = 79
    return p


def _brute_force_sections(p: dict, g: dict[str, int]) -> int:
    """Best score gain over every way to paint any subset of sections (no modelling shortcut)."""
    sections = pyr.paintable_sections(p)
    base = total(p)
    best = 0

    def walk(i: int, left: dict[str, int], chosen: list[dict]) -> None:
        nonlocal best
        if i == len(sections):
            trial = copy.deepcopy(p)
            apply_painting(trial, g, chosen)
            best = max(best, total(trial) - base)
            return
        walk(i + 1, left, chosen)
        slot, section = sections[i]
        current = pyr.section_color(p["cards"][slot], section)
        for color in COLORS:
            if color != current and left[color] > 0:
                left[color] -= 1
                walk(i + 1, left, [*chosen, {"slot": slot, "section": section, "color": color}])
                left[color] += 1

    walk(0, dict(g), [])
    return best


def _brute_force_circles(p: dict, g: dict[str, int]) -> int:
    """Best gain over every colour choice per circle, each scored with score_player."""
    circles = pyr.circles(p)
    base = total(p)
    best = 0
    for targets in itertools.product([None, *COLORS], repeat=len(circles)):
        paint = []
        for circle, color in zip(circles, targets, strict=True):
            if color is None:
                continue
            for (slot, section), current in zip(circle["sections"], circle["colors"], strict=True):
                if current != color:
                    paint.append({"slot": slot, "section": section, "color": color})
        if any(sum(1 for x in paint if x["color"] == c) > g[c] for c in COLORS):
            continue
        trial = copy.deepcopy(p)
        apply_painting(trial, g, paint)
        best = max(best, total(trial) - base)
    return best


def _check(p: dict, g: dict[str, int], expected: int) -> None:
    state = state_for(copy.deepcopy(p), dict(g))
    paint, gain = best_painting(state, 0)
    assert gain == expected
    trial = copy.deepcopy(p)
    spent = apply_painting(trial, g, paint)  # raises if the painting is illegal or too expensive
    assert all(spent[c] <= g[c] for c in COLORS)
    assert total(trial) - total(p) == gain


small_gems = st.fixed_dictionaries({c: st.integers(0, 2) for c in COLORS})


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(3, 5), small_gems)
def test_painting_optimal_vs_brute_force_over_sections(seed: int, size: int, g: dict[str, int]) -> None:
    p = random_pyramid(random.Random(seed), size)
    if sum(g.values()) > 4:
        g = {c: min(g[c], 1) for c in COLORS}
    _check(p, g, _brute_force_sections(p, g))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(5, 8), st.fixed_dictionaries({c: st.integers(0, 6) for c in COLORS}))
def test_painting_optimal_vs_brute_force_over_circles(seed: int, size: int, g: dict[str, int]) -> None:
    p = random_pyramid(random.Random(seed), size)
    if len(pyr.circles(p)) > 4:
        return _check(p, g, _plain_knapsack(p, g))
    _check(p, g, _brute_force_circles(p, g))


def _plain_knapsack(p: dict, g: dict[str, int]) -> int:
    """Unpruned exhaustive recursion over circles with memo (a second, simpler solver)."""
    bonus = pyr.circle_bonus(p)
    heraldry = len(pyr.law_slots(p, (79,)))
    circles = pyr.circles(p)

    def value(c: dict, color: str) -> int:
        return c["level"] + bonus[color] + heraldry

    @cache
    def go(i: int, left: tuple[int, ...]) -> int:
        if i == len(circles):
            return 0
        c = circles[i]
        now = value(c, c["color"]) if c["single"] else 0
        best = go(i + 1, left)
        for k, color in enumerate(COLORS):
            need = sum(1 for x in c["colors"] if x != color)
            if need and need <= left[k]:
                rest = left[:k] + (left[k] - need,) + left[k + 1 :]
                best = max(best, value(c, color) - now + go(i + 1, rest))
        return best

    return go(0, tuple(g[c] for c in COLORS))


def full_pyramid(rng: random.Random) -> dict:
    numbers = rng.sample(range(1, 65), 15)
    slots = [f"{lv}:{lv - 1 + 2 * j}" for lv in range(1, 6) for j in range(6 - lv)]
    p = pyramid(*(entry(s, n) for s, n in zip(slots, numbers, strict=True)))
    for color in COLORS:
        p["cards"][rng.choice(slots)]["tokens"].append(
            {"type": "circle_bonus", "color": color, "value": rng.randint(0, 4)}
        )
    if rng.random() < 0.5:
        p["cards"]["1:0"]["card"] = 79
    return p


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.fixed_dictionaries({c: st.integers(0, 16) for c in COLORS}))
def test_painting_optimal_on_full_pyramid(seed: int, g: dict[str, int]) -> None:
    p = full_pyramid(random.Random(seed))
    assert len(pyr.circles(p)) == 10
    _check(p, g, _plain_knapsack(p, g))


def test_best_painting_does_not_mutate_state() -> None:
    state = state_for(full_pyramid(random.Random(3)), gems(4, 4, 4, 4))
    before = copy.deepcopy(state)
    best_painting(state, 0)
    assert state == before


# ------------------------------------------------------------------ the bounded search (large pyramids)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(5, 12), st.fixed_dictionaries({c: st.integers(0, 9) for c in COLORS}))
def test_painting_search_optimal_vs_plain_knapsack(seed: int, size: int, g: dict[str, int]) -> None:
    """The search that answers when the dynamic programme would need too many states is exact too."""
    import engine.viceroy.painting as painting

    p = random_pyramid(random.Random(seed), size)
    limit = painting._PROGRAMME_STATES
    painting._PROGRAMME_STATES = 0  # every constrained painting goes to the search
    try:
        _check(p, g, _plain_knapsack(p, g))
    finally:
        painting._PROGRAMME_STATES = limit


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9), st.fixed_dictionaries({c: st.integers(0, 16) for c in COLORS}))
def test_painting_search_optimal_on_full_pyramid_and_fewest_gems(seed: int, g: dict[str, int]) -> None:
    import engine.viceroy.painting as painting

    p = full_pyramid(random.Random(seed))
    state = state_for(copy.deepcopy(p), dict(g))
    expected = best_painting(state, 0)
    limit = painting._PROGRAMME_STATES
    painting._PROGRAMME_STATES = 0
    try:
        paint, gain = best_painting(state_for(copy.deepcopy(p), dict(g)), 0)
    finally:
        painting._PROGRAMME_STATES = limit
    # Same points and the same number of gems as the dynamic programme (which may pick another equal one).
    assert gain == expected[1] == _plain_knapsack(p, g)
    assert len(paint) == len(expected[0])
