"""The development phase (RULES.md §5), the pyramid (§6) and rewards (§7), at engine level."""

from __future__ import annotations

import pytest

from engine.viceroy import IllegalAction, apply_action
from engine.viceroy import cards as C
from engine.viceroy import pyramid as P
from tests.engine.helpers import (
    events_of,
    full_four_levels,
    gems,
    level1_row,
    set_hand,
    set_pyramid,
    settle,
    spot,
    started,
    submit,
    to_development,
    token_types,
)

PASS = {"type": "pass"}


def dev(players: int = 2, seed: int = 5) -> dict:
    state = started(players, seed=seed)
    to_development(state)
    state["reserve"] = gems(red=8, green=8, blue=8, yellow=8)
    return state


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (1, gems(green=1)),
        (2, gems(green=1, blue=1)),
        (3, gems(green=1, blue=1, yellow=1)),
        (4, gems(green=1, blue=1, yellow=2)),
        (5, gems(green=1, blue=1, yellow=3)),
    ],
)
def test_captain_32_cost_example(level: int, expected: dict) -> None:
    assert C.cost(32, level) == expected


def test_cumulative_cost() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 3, "1:2": 17})
    set_hand(state, 0, [32])
    state["players"][0]["gems"] = gems(green=1, blue=1)
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, 0, {"type": "play", "card": 32, "slot": "2:1", "pay": gems(green=1)})
    assert exc.value.code == "bad_payment"
    before = dict(state["reserve"])
    submit(state, {0: {"type": "play", "card": 32, "slot": "2:1", "pay": gems(green=1, blue=1), "reward": {"gems": gems(red=5)}}, 1: PASS})
    settle(state)
    assert state["players"][0]["pyramid"]["cards"]["2:1"]["card"] == 32
    assert state["players"][0]["gems"]["green"] == 0 and state["players"][0]["gems"]["blue"] == 0
    assert state["reserve"]["green"] == before["green"] + 1  # paid gems go to the reserve


def test_cannot_play_what_you_cannot_pay() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 3, "1:2": 17})
    set_hand(state, 0, [32])
    state["players"][0]["gems"] = gems(green=1)
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, 0, {"type": "play", "card": 32, "slot": "2:1", "pay": gems(green=1, blue=1)})
    assert exc.value.code == "cannot_pay"


def test_level5_cost() -> None:
    state = dev()
    set_pyramid(state, 0, full_four_levels(list(range(1, 15))))
    set_hand(state, 0, [32])
    state["players"][0]["gems"] = gems(green=1, blue=1, yellow=3)
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "play", "card": 32, "slot": "5:4", "pay": gems(green=1, blue=1, yellow=2)})
    submit(state, {0: {"type": "play", "card": 32, "slot": "5:4", "pay": gems(green=1, blue=1, yellow=3), "reward": {"level5": "pp"}}, 1: PASS})
    assert state["players"][0]["gems"] == gems()


@pytest.mark.parametrize("choice", ["rows", "pp"])
def test_level5_choice_rows_or_15pp(choice: str) -> None:
    state = dev()
    set_pyramid(state, 0, full_four_levels(list(range(1, 15))))
    set_hand(state, 0, [32])
    state["players"][0]["gems"] = gems(green=1, blue=1, yellow=3)
    hand_before = len(state["players"][0]["hand"])
    reward = {"level5": choice, "gems": gems(red=5), "draw": ["small"]}
    submit(state, {0: {"type": "play", "card": 32, "slot": "5:4", "pay": gems(green=1, blue=1, yellow=3), "reward": reward}, 1: PASS})
    settle(state)
    entry = state["players"][0]["pyramid"]["cards"]["5:4"]
    if choice == "pp":
        assert entry["tokens"] == [{"type": "power_points", "value": 15}]
        assert state["players"][0]["gems"] == gems()
    else:
        # Rows 1-3 of Captain: one card, 5 gems and a magic token.
        assert token_types(entry) == ["magic"]
        assert state["players"][0]["gems"] == gems(red=5)
        assert len(state["players"][0]["hand"]) == hand_before - 1 + 1


def test_reward_is_only_the_row_of_the_level() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 3, "1:2": 17, "1:4": 5})
    set_hand(state, 0, [4])
    state["players"][0]["gems"] = gems(green=1, yellow=1)
    submit(state, {0: {"type": "play", "card": 4, "slot": "2:1", "pay": gems(green=1, yellow=1), "reward": {"gems": gems(blue=4)}}, 1: PASS})
    settle(state)
    assert state["players"][0]["pyramid"]["cards"]["2:1"]["tokens"] == []  # row 2 of #4 is 4 gems only
    assert state["players"][0]["gems"] == gems(blue=4)


def test_development_resolves_in_card_number_order() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 50})
    set_pyramid(state, 1, {"1:0": 51})
    set_hand(state, 0, [12])  # 4 gems
    set_hand(state, 1, [10])  # 3 gems, lower number: resolves first although seat 1
    for seat in (0, 1):
        state["players"][seat]["gems"] = gems(red=1)
    state["reserve"] = gems(blue=4)
    events = submit(state, {
        0: {"type": "play", "card": 12, "slot": "1:2", "pay": gems(red=1), "reward": {"gems": gems(blue=4)}},
        1: {"type": "play", "card": 10, "slot": "1:2", "pay": gems(red=1), "reward": {"gems": gems(blue=3)}},
    })
    events += settle(state)
    assert [e["card"] for e in events_of(events, "plays")] == [10, 12]
    assert state["players"][1]["gems"]["blue"] == 3
    # Seat 0 got what was left: the paid reds and one blue.
    assert state["players"][0]["gems"] == gems(red=2, blue=1)  # the whole reserve: 3 gems


def test_plan_reasked_when_reserve_short() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 50})
    set_pyramid(state, 1, {"1:0": 51})
    set_hand(state, 0, [12])
    set_hand(state, 1, [10])
    for seat in (0, 1):
        state["players"][seat]["gems"] = gems(red=1)
    state["reserve"] = gems(blue=4, yellow=5)
    submit(state, {
        0: {"type": "play", "card": 12, "slot": "1:2", "pay": gems(red=1), "reward": {"gems": gems(blue=4)}},
        1: {"type": "play", "card": 10, "slot": "1:2", "pay": gems(red=1), "reward": {"gems": gems(blue=3)}},
    })
    decision = state["decision"]
    assert decision["seat"] == 0 and decision["kind"] == "gems" and decision["count"] == 4
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "decide", "gems": gems(blue=4)})  # only one blue is left
    apply_action(state, 0, {"type": "decide", "gems": gems(blue=1, yellow=3)})
    assert state["players"][0]["gems"] == gems(blue=1, yellow=3)


def test_plan_reasked_when_plan_became_impossible() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 50})
    set_hand(state, 0, [12, 13])
    state["players"][0]["gems"] = gems(red=1)
    apply_action(state, 0, {"type": "play", "card": 12, "slot": "1:2", "pay": gems(red=1)})
    state["players"][0]["gems"] = gems()  # the plan can no longer be paid when it resolves
    apply_action(state, 1, PASS)
    decision = state["decision"]
    assert decision["seat"] == 0 and decision["kind"] == "replan"
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "decide", "plan": {"type": "play", "card": 12, "slot": "1:2", "pay": gems(red=1)}})
    apply_action(state, 0, {"type": "decide", "plan": {"type": "discard", "card": 13, "gems": gems(green=2)}})
    assert 13 in state["discard"] and 12 in state["players"][0]["hand"]


def test_infinite_gem_once_per_turn() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 50}, tokens={"1:0": [{"type": "infinite_gem", "color": "green"}]})
    set_hand(state, 0, [32, 33, 34])  # level 1 costs: green, blue, blue
    set_hand(state, 1, [35, 36])
    state["players"][0]["gems"] = gems()
    submit(state, {0: {"type": "play", "card": 32, "slot": "1:2", "infinite": ["1:0/green"], "reward": {"draw": ["small"]}}, 1: {"type": "discard", "card": 35}})
    settle(state)
    assert state["players"][0]["pyramid"]["cards"]["1:2"]["card"] == 32
    assert state["round"] == 2
    set_hand(state, 0, [39])  # costs blue; reuse of the green gem must be refused as already used
    state["players"][0]["gems"] = gems(blue=1)
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, 0, {"type": "play", "card": 39, "slot": "1:4", "pay": gems(blue=1), "infinite": ["1:0/green"]})
    assert exc.value.code == "infinite_used"
    # A new turn makes it usable again.
    state["players"][0]["used_infinite"] = []
    apply_action(state, 0, {"type": "play", "card": 39, "slot": "1:4", "pay": gems(blue=1)})


def test_infinite_gem_resets_at_the_next_turn() -> None:
    state = started(2)
    state["players"][0]["used_infinite"] = ["1:0/green"]
    turn = state["turn"]
    submit(state, {0: PASS, 1: PASS})
    settle(state)
    submit(state, {0: PASS, 1: PASS})
    assert state["turn"] == turn + 1
    assert state["players"][0]["used_infinite"] == []


def test_infinite_gem_not_in_auction() -> None:
    state = started(2)
    set_pyramid(state, 0, {"1:0": 50}, tokens={"1:0": [{"type": "infinite_gem", "color": "red"}]})
    state["players"][0]["gems"] = gems(blue=1)
    spot(state, "red")["base"] = spot(state, "red")["base"] or state["large_deck"].pop()
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, 0, {"type": "bid", "color": "red"})
    assert exc.value.code == "no_gem"


def test_single_colour_circle_gem() -> None:
    state = dev()
    # #3 top-right red, #17 top-left red, #9 bottom red: one red circle.
    set_pyramid(state, 0, {"1:0": 3, "1:2": 17})
    set_hand(state, 0, [9])
    state["players"][0]["gems"] = gems(green=1, yellow=1)
    state["reserve"]["red"] = 2
    events = submit(state, {0: {"type": "play", "card": 9, "slot": "2:1", "pay": gems(green=1, yellow=1), "reward": {"gems": gems(blue=3)}}, 1: PASS})
    assert events_of(events, "circle_gem")
    assert state["players"][0]["gems"]["red"] == 1
    assert state["reserve"]["red"] == 1


def test_single_colour_circle_without_reserve_gem() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 3, "1:2": 17})
    set_hand(state, 0, [9])
    state["players"][0]["gems"] = gems(green=1, yellow=1)
    state["reserve"]["red"] = 0
    submit(state, {0: {"type": "play", "card": 9, "slot": "2:1", "pay": gems(green=1, yellow=1), "reward": {"gems": gems(blue=3)}}, 1: PASS})
    settle(state)
    assert state["players"][0]["gems"]["red"] == 0


def test_law_completing_a_single_colour_circle_takes_its_gem() -> None:
    state = dev()
    # Chancellor's top right and Margrave's top left are green; Census's bottom is green.
    set_pyramid(state, 0, {"1:0": 6, "1:2": 33})
    set_hand(state, 0, [68])
    state["players"][0]["gems"] = gems()
    events = submit(state, {0: {"type": "play", "card": 68, "slot": "2:1"}, 1: PASS})
    assert [e["color"] for e in events_of(events, "circle_gem")] == ["green"]
    assert state["players"][0]["gems"] == gems(green=1)
    assert state["reserve"]["green"] == 7


def test_mixed_circle_gives_no_gem() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 3, "1:2": 2})  # #2 top-left blue
    set_hand(state, 0, [9])
    state["players"][0]["gems"] = gems(green=1, yellow=1)
    events = submit(state, {0: {"type": "play", "card": 9, "slot": "2:1", "pay": gems(green=1, yellow=1), "reward": {"gems": gems(blue=3)}}, 1: PASS})
    assert not events_of(events, "circle_gem")


def test_law_not_on_level_5() -> None:
    state = dev()
    set_pyramid(state, 0, full_four_levels(list(range(1, 15))))
    set_hand(state, 0, [68])
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, 0, {"type": "play", "card": 68, "slot": "5:4"})
    assert exc.value.code == "bad_slot"
    apply_action(state, 0, {"type": "play", "card": 68, "slot": "1:10"})


def test_level1_goes_at_either_end_only() -> None:
    state = dev()
    set_pyramid(state, 0, level1_row([1, 2, 3]))
    set_hand(state, 0, [68])
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "play", "card": 68, "slot": "1:2"})
    for slot in ("1:-2", "1:6"):
        apply_action(state, 0, {"type": "play", "card": 68, "slot": slot})


def test_discard_for_two_gems() -> None:
    state = dev()
    set_hand(state, 0, [40, 41])
    state["players"][0]["gems"] = gems()
    state["reserve"] = gems(red=1, yellow=5)
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "discard", "card": 40, "gems": gems(yellow=3)})
    submit(state, {0: {"type": "discard", "card": 40, "gems": gems(red=1, yellow=1)}, 1: PASS})
    settle(state)
    assert 40 in state["discard"] and state["players"][0]["hand"] == [41]
    assert state["players"][0]["gems"] == gems(red=1, yellow=1)


def test_pass_leaves_the_development_phase() -> None:
    state = dev()
    set_hand(state, 0, [40, 41])
    set_hand(state, 1, [42, 43])
    submit(state, {0: PASS, 1: {"type": "discard", "card": 42, "gems": gems(red=1, yellow=1)}})
    settle(state)
    assert state["active"] == [1] and state["round"] == 2
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "discard", "card": 40})


def test_development_ends_after_three_rounds() -> None:
    state = dev()
    set_hand(state, 0, [40, 41, 42, 43])
    set_hand(state, 1, [44, 45, 46, 47])
    turn = state["turn"]
    for card0, card1 in ((40, 44), (41, 45), (42, 46)):
        submit(state, {0: {"type": "discard", "card": card0, "gems": gems()}, 1: {"type": "discard", "card": card1, "gems": gems()}})
        settle(state)
    assert state["turn"] == turn + 1 and state["phase"] == "auction"
    assert state["players"][0]["hand"] == [43]


def test_sealed_choice_can_be_changed_until_reveal() -> None:
    state = dev()
    set_hand(state, 0, [40, 41])
    set_hand(state, 1, [42])
    apply_action(state, 0, {"type": "discard", "card": 40, "gems": gems()})
    events = apply_action(state, 0, {"type": "discard", "card": 41, "gems": gems()})
    assert "changed" in events_of(events, "choice_recorded")[0]["text"]
    assert state["choices"]["0"]["card"] == 41
    apply_action(state, 1, PASS)
    settle(state)
    assert 41 in state["discard"] and 40 in state["players"][0]["hand"]
    # After the reveal the round is over: round 2 has a fresh, empty set of choices.
    assert state["choices"] == {} and state["round"] == 2


def test_empty_hand_passes_automatically() -> None:
    state = started(2)
    set_hand(state, 0, [])
    submit(state, {0: PASS, 1: PASS})
    settle(state)
    assert state["phase"] == "development" and 0 not in state["active"]


def test_card_reward_draws_from_the_other_deck_when_empty() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 50})
    set_hand(state, 0, [32])
    state["players"][0]["gems"] = gems(green=1)
    state["discard"].extend(state["law_deck"])
    state["law_deck"] = []
    top = state["small_deck"][-1]
    submit(state, {0: {"type": "play", "card": 32, "slot": "1:2", "pay": gems(green=1), "reward": {"draw": ["law"]}}, 1: PASS})
    settle(state)
    assert top in state["players"][0]["hand"]


def test_infinite_gem_from_screen_when_reserve_empty() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 3, "1:2": 17})
    set_hand(state, 0, [1])  # level 2: infinite green gem, costs yellow + red
    state["players"][0]["gems"] = gems(red=1, yellow=1, green=1)
    state["reserve"]["green"] = 0
    submit(state, {0: {"type": "play", "card": 1, "slot": "2:1", "pay": gems(red=1, yellow=1)}, 1: PASS})
    settle(state)
    assert {"type": "infinite_gem", "color": "green"} in state["players"][0]["pyramid"]["cards"]["2:1"]["tokens"]
    # The green gem came from the screen; the red one is the gem of the red circle #3/#17/#1 completes.
    assert state["players"][0]["gems"] == gems(red=1)


def test_infinite_gem_reward_lost_when_reserve_and_screen_have_none() -> None:
    state = dev()
    set_pyramid(state, 0, {"1:0": 3, "1:2": 17})
    set_hand(state, 0, [1])  # level 2: infinite green gem
    state["players"][0]["gems"] = gems(red=1, yellow=1)
    state["reserve"]["green"] = 0
    events = submit(state, {0: {"type": "play", "card": 1, "slot": "2:1", "pay": gems(red=1, yellow=1)}, 1: PASS})
    settle(state)
    assert events_of(events, "no_infinite")
    assert state["players"][0]["pyramid"]["cards"]["2:1"]["tokens"] == []
    assert state["reserve"]["green"] == 0


def test_infinite_gem_payment_example_one_yellow_two_blue() -> None:
    # The rulebook's example: a cost of 1 yellow and 2 blue with a blue infinite gem is paid with 1 blue, 1 yellow.
    state = dev()
    layout = {"1:0": 50, "1:2": 51, "1:4": 52, "2:1": 53, "2:3": 54}
    set_pyramid(state, 0, layout, tokens={"1:0": [{"type": "infinite_gem", "color": "blue"}]})
    set_hand(state, 0, [31])  # Crown Prince on level 3: blue, blue, yellow
    state["players"][0]["gems"] = gems(blue=1, yellow=1)
    assert C.cost(31, 3) == gems(blue=2, yellow=1)
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, 0, {"type": "play", "card": 31, "slot": "3:2", "pay": gems(blue=1, yellow=1)})
    assert exc.value.code == "bad_payment"
    submit(state, {0: {"type": "play", "card": 31, "slot": "3:2", "pay": gems(blue=1, yellow=1), "infinite": ["1:0/blue"]},
                   1: PASS})
    settle(state)
    assert state["players"][0]["pyramid"]["cards"]["3:2"]["card"] == 31
    assert state["players"][0]["gems"] == gems()
    # The infinite gem stays on its card for later turns.
    assert state["players"][0]["pyramid"]["cards"]["1:0"]["tokens"] == [{"type": "infinite_gem", "color": "blue"}]


@pytest.mark.parametrize(
    ("level", "tokens", "gem_count", "cards"),
    [
        (1, [], 0, 1),  # one card from the law deck or the small deck
        (2, [], 5, 0),  # five gems
        (3, [{"type": "magic"}], 0, 0),  # a magic token
        (4, [{"type": "power_points", "value": 12}], 0, 0),  # 12 PP
    ],
)
def test_captain_32_reward_example(level: int, tokens: list[dict], gem_count: int, cards: int) -> None:
    state = dev()
    set_pyramid(state, 0, _under(level, exclude=32))
    set_hand(state, 0, [32])
    state["players"][0]["gems"] = C.cost(32, level)
    slot = _slot(level)
    circle = P.single_colour(state["players"][0]["pyramid"], slot, 32)
    submit(state, {0: {"type": "play", "card": 32, "slot": slot, "pay": C.cost(32, level), "reward": {"draw": ["law"]}},
                   1: PASS})
    settle(state)
    player = state["players"][0]
    assert player["pyramid"]["cards"][slot]["tokens"] == tokens
    assert sum(player["gems"].values()) == gem_count + (circle is not None)
    assert len(player["hand"]) == cards


def _under(level: int, exclude: int) -> dict[str, int]:
    """Filler characters (never ``exclude``) with one open place on ``level``: ``_slot(level)``."""
    fillers = iter(n for n in C.CHARACTER_NUMBERS if n != exclude)
    if level == 1:
        return {"1:0": next(fillers)}
    return {f"{lv}:{lv - 1 + 2 * j}": next(fillers) for lv in range(1, level) for j in range(level - lv + 1)}


def _slot(level: int) -> str:
    return "1:2" if level == 1 else f"{level}:{level - 1}"


def _printed(items: list[dict]) -> tuple[list[dict], int, int, int]:
    """What reward items give, read from the card data: (tokens on the card, gems, cards, attack tokens)."""
    tokens: list[dict] = []
    gem_count = card_count = attacks = 0
    for item in items:
        kind = item["type"]
        if kind == "gems":
            gem_count += item["amount"]
        elif kind == "cards":
            card_count += item["amount"]
        elif kind == "attack":
            attacks += item["amount"]
        elif kind in ("science", "magic", "defense"):
            tokens += [{"type": kind}] * item["amount"]
        elif kind == "power_points":
            tokens.append({"type": kind, "value": item["amount"]})
        elif kind == "magic_bonus":
            tokens.append({"type": kind, "value": item["value"]})
        elif kind == "circle_bonus":
            tokens.append({"type": kind, "color": item["color"], "value": item["value"]})
        else:
            assert kind == "infinite_gem"
            tokens.append({"type": kind, "color": item["color"]})
    return tokens, gem_count, card_count, attacks


@pytest.mark.parametrize("number", C.CHARACTER_NUMBERS)
def test_every_character_row_gives_its_printed_reward(number: int) -> None:
    """Each row of every character, played on its level (and level 5 with rows 1-3), gives what it prints."""
    for level in (1, 2, 3, 4, 5):
        state = dev()
        set_pyramid(state, 0, _under(level, exclude=number))
        set_hand(state, 0, [number])
        player = state["players"][0]
        player["gems"] = C.cost(number, level)
        slot = _slot(level)
        circle = P.single_colour(player["pyramid"], slot, number)
        rows = [C.card(number)["rows"][lv - 1]["reward"] for lv in ((1, 2, 3) if level == 5 else (level,))]
        tokens, gem_count, card_count, attacks = _printed([item for row in rows for item in row])
        reward = {"draw": ["law"] * card_count, "level5": "rows"}
        submit(state, {0: {"type": "play", "card": number, "slot": slot, "pay": C.cost(number, level), "reward": reward},
                       1: PASS})
        settle(state)
        placed = player["pyramid"]["cards"][slot]
        assert placed["card"] == number
        key = lambda t: sorted(t.items())  # noqa: E731
        assert sorted(placed["tokens"], key=key) == sorted(tokens, key=key), (number, level)
        assert sum(player["gems"].values()) == gem_count + (circle is not None), (number, level)
        assert len(player["hand"]) == card_count, (number, level)
        assert player["attacks"] == attacks, (number, level)


def test_level5_default_is_rows() -> None:
    state = dev()
    set_pyramid(state, 0, full_four_levels(list(range(1, 15))))
    set_hand(state, 0, [32])
    state["players"][0]["gems"] = gems(green=1, blue=1, yellow=3)
    apply_action(state, 0, {"type": "play", "card": 32, "slot": "5:4", "pay": gems(green=1, blue=1, yellow=3)})
    assert state["choices"]["0"]["reward"]["level5"] == "rows"
