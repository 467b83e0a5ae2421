"""Pyramid geometry (RULES.md §6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.viceroy import pyramid as pyr


def build(*cards: tuple[str, int], **extra: dict) -> dict:
    """A pyramid from (slot, card) pairs; extra maps slot -> entry fields."""
    result: dict = {"cards": {}}
    for slot, number in cards:
        entry = {"card": number, "slot": slot, "tokens": [], "tucked": []}
        entry.update(extra.get(slot.replace(":", "_"), {}))
        result["cards"][slot] = entry
    return result


# Herbalist (top-right red), Scout (top-left red), Gunner (bottom red): a red circle.
RED_CIRCLE = (("1:0", 3), ("1:2", 5), ("2:1", 9))


def full_pyramid() -> dict:
    slots = [f"{lv}:{lv - 1 + 2 * j}" for lv in range(1, 6) for j in range(6 - lv)]
    return build(*((s, n) for n, s in enumerate(slots, start=1)))


def test_parse_and_name_slot_round_trip() -> None:
    assert pyr.parse_slot("2:1") == (2, 1)
    assert pyr.parse_slot("1:-4") == (1, -4)
    assert pyr.slot_name(3, -2) == "3:-2"
    assert pyr.level_of("4:7") == 4
    for bad in ("21", "a:b", "1:2:3", ""):
        with pytest.raises(ValueError):
            pyr.parse_slot(bad)


def test_empty_pyramid_starts_at_1_0() -> None:
    assert pyr.legal_slots({"cards": {}}, 12) == ["1:0"]


def test_level1_card_goes_at_either_end() -> None:
    assert pyr.legal_slots(build(("1:0", 1)), 2) == ["1:-2", "1:2"]
    row = build(("1:-2", 1), ("1:0", 2), ("1:2", 3))
    assert [s for s in pyr.legal_slots(row, 4) if s.startswith("1:")] == ["1:-4", "1:4"]


def test_card_rests_on_two_adjacent() -> None:
    row = build(("1:0", 1), ("1:2", 2), ("1:4", 3))
    assert pyr.legal_slots(row, 4) == ["1:-2", "1:6", "2:1", "2:3"]
    row["cards"]["2:1"] = {"card": 4, "slot": "2:1", "tokens": []}
    # 2:1 is taken; 3:x needs two adjacent level-2 cards.
    assert pyr.legal_slots(row, 5) == ["1:-2", "1:6", "2:3"]
    row["cards"]["2:3"] = {"card": 5, "slot": "2:3", "tokens": []}
    assert pyr.legal_slots(row, 6) == ["1:-2", "1:6", "3:2"]


def test_no_slot_over_a_gap() -> None:
    # Level 2 has cards at 1 and 5 (a gap at 3): nothing fits on level 3.
    p = build(("1:0", 1), ("1:2", 2), ("1:4", 3), ("1:6", 4), ("2:1", 5), ("2:5", 6))
    assert pyr.legal_slots(p, 7) == ["1:-2", "1:8", "2:3"]


def test_law_never_on_level_5() -> None:
    p = build(
        ("1:0", 1), ("1:2", 2), ("1:4", 3), ("1:6", 4), ("1:8", 5),
        ("2:1", 6), ("2:3", 7), ("2:5", 8), ("2:7", 10),
        ("3:2", 11), ("3:4", 12), ("3:6", 13), ("4:3", 14), ("4:5", 15),
    )  # fmt: skip
    assert "5:4" in pyr.legal_slots(p, 16)
    assert "5:4" not in pyr.legal_slots(p, 70)
    assert pyr.legal_slots(p, 70) == ["1:-2", "1:10"]


def test_five_levels_at_most() -> None:
    p = full_pyramid()
    assert pyr.legal_slots(p, 20) == ["1:-2", "1:10"]
    assert pyr.cards_count(p) == 15


def test_circle_of_names_the_two_lower_cards() -> None:
    assert pyr.circle_of("2:1") == ("1:0", "1:2")
    assert pyr.circle_of("4:3") == ("3:2", "3:4")
    with pytest.raises(ValueError):
        pyr.circle_of("1:0")


def test_circle_single_colour_gives_colour() -> None:
    p = build(*RED_CIRCLE)
    circle = pyr.completed_circle(p, "2:1")
    assert circle is not None
    assert circle["sections"] == [("1:0", "top_right"), ("1:2", "top_left"), ("2:1", "bottom_left"), ("2:1", "bottom_right")]
    assert circle["colors"] == ["red"] * 4 and circle["single"] and circle["level"] == 2
    assert pyr.single_colour(p, "2:1") == "red"


def test_circle_of_mixed_colours_gives_no_gem() -> None:
    # Boatswain's bottom is red but Mentor's top-left is blue.
    p = build(("1:0", 3), ("1:2", 4), ("2:1", 1))
    assert pyr.single_colour(p, "2:1") is None
    assert pyr.completed_circle(p, "2:1")["colors"] == ["red", "blue", "red", "red"]


def test_completed_circle_for_a_card_being_placed_does_not_mutate() -> None:
    p = build(("1:0", 3), ("1:2", 5))
    assert pyr.single_colour(p, "2:1", card=9) == "red"
    assert pyr.single_colour(p, "2:1", card=4) is None
    assert "2:1" not in p["cards"]


def test_level1_card_completes_no_circle() -> None:
    p = build(("1:0", 3), ("1:2", 5))
    assert pyr.completed_circle(p, "1:2") is None
    assert pyr.single_colour(p, "1:4", card=1) is None


def test_paint_overrides_printed_colour() -> None:
    p = build(("1:0", 3), ("1:2", 4), ("2:1", 1), **{"1_2": {"paint": {"top_left": "red"}}})
    assert pyr.single_colour(p, "2:1") == "red"
    assert pyr.section_color(p["cards"]["1:2"], "top_left") == "red"
    assert pyr.section_color(p["cards"]["1:2"], "top_right") == "blue"


def test_circles_list_only_existing_circles_by_level() -> None:
    p = full_pyramid()
    found = pyr.circles(p)
    assert [c["slot"] for c in found] == ["2:1", "2:3", "2:5", "2:7", "3:2", "3:4", "3:6", "4:3", "4:5", "5:4"]
    assert [c["level"] for c in found] == [2, 2, 2, 2, 3, 3, 3, 4, 4, 5]
    # A hand-made entry whose lower cards are missing forms no circle.
    assert pyr.circles(build(("1:0", 1), ("2:1", 2))) == []


def test_neighbours_up_to_six() -> None:
    p = full_pyramid()
    assert pyr.neighbours(p, "2:3") == ["2:1", "2:5", "1:2", "1:4", "3:2", "3:4"]
    assert pyr.neighbours(p, "1:0") == ["1:2", "2:1"]
    assert pyr.neighbours(p, "5:4") == ["4:3", "4:5"]


def test_free_card_at_row_end_with_nothing_on_it() -> None:
    p = build(("1:0", 1), ("1:2", 2), ("1:4", 3), ("2:1", 4))
    # 1:0 and 1:2 carry 2:1; 1:4 is the right end; 2:1 is alone on its row.
    assert pyr.free_cards(p) == ["1:4", "2:1"]


def test_free_card_not_in_the_middle_of_level_1() -> None:
    p = build(("1:0", 1), ("1:2", 2), ("1:4", 3))
    assert pyr.free_cards(p) == ["1:0", "1:4"]


def test_free_card_not_with_a_card_tucked_under_it() -> None:
    p = build(("1:0", 1), ("1:2", 72), **{"1_2": {"tucked": [40]}})
    assert pyr.free_cards(p) == ["1:0"]


def test_free_card_ruling_gap_in_upper_row_counts_as_an_end() -> None:
    # Level 2 has cards at 1, 5 and 7: 2:5 has no neighbour at 2:3, so it is at an end of its row.
    p = build(
        ("1:0", 1), ("1:2", 2), ("1:4", 3), ("1:6", 4), ("1:8", 5),
        ("2:1", 6), ("2:5", 7), ("2:7", 8),
    )  # fmt: skip
    assert pyr.free_cards(p) == ["2:1", "2:5", "2:7"]
    p["cards"]["2:3"] = {"card": 10, "slot": "2:3", "tokens": []}
    assert pyr.free_cards(p) == ["2:1", "2:7"]


def test_law_68_census_counts_tucked_cards() -> None:
    p = build(("1:0", 1), ("1:2", 72), ("2:1", 68), **{"1_2": {"tucked": [40, 41]}, "1_0": {"tucked": [66]}})
    assert pyr.cards_count(p) == 6


def test_token_helpers_sum_over_the_pyramid() -> None:
    p = build(
        ("1:0", 1),
        ("1:2", 71),
        ("2:1", 9),
        **{
            "1_0": {"tokens": [{"type": "science"}, {"type": "magic", "amount": 2},
                               {"type": "power_points", "value": 10}, {"type": "magic_bonus", "value": 3},
                               {"type": "circle_bonus", "color": "red", "value": 2},
                               {"type": "infinite_gem", "color": "green"}]},
            "1_2": {"tokens": [{"type": "attack"}, {"type": "power_points", "value": 6}]},
            "2_1": {"tokens": [{"type": "magic"}, {"type": "circle_bonus", "color": "red", "value": 1},
                               {"type": "circle_bonus", "color": "blue", "value": 4},
                               {"type": "infinite_gem", "color": "red"}, {"type": "magic_bonus", "value": 2}]},
        },
    )  # fmt: skip
    assert pyr.token_count(p, "science") == 1
    assert pyr.token_count(p, "magic") == 3
    assert pyr.token_count(p, "attack") == 1
    assert pyr.token_count(p, "defense") == 0
    assert pyr.power_points(p) == 16
    assert pyr.magic_bonus(p) == 5
    assert pyr.circle_bonus(p) == {"red": 3, "green": 0, "blue": 4, "yellow": 0}
    assert pyr.infinite_gems(p) == [("1:0", "green"), ("2:1", "red")]
    assert pyr.law_slots(p, (71, 79)) == ["1:2"]


def test_paintable_sections_are_circle_sections_only() -> None:
    p = build(("1:0", 3), ("1:2", 5), ("1:4", 1), ("2:1", 9))
    assert pyr.paintable_sections(p) == [
        ("1:0", "top_right"), ("1:2", "top_left"), ("2:1", "bottom_left"), ("2:1", "bottom_right"),
    ]  # fmt: skip
    assert pyr.paintable_sections(build(("1:0", 1), ("1:2", 2))) == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.booleans()), min_size=1, max_size=25))
def test_legal_slots_grow_a_valid_pyramid(choices: list[tuple[int, bool]]) -> None:
    p: dict = {"cards": {}}
    for n, (pick, law) in enumerate(choices, start=1):
        number = 64 + (n % 24) + 1 if law else n
        slots = pyr.legal_slots(p, number)
        assert slots == sorted(slots, key=pyr.parse_slot)
        slot = slots[pick % len(slots)]
        level, x = pyr.parse_slot(slot)
        assert slot not in p["cards"] and 1 <= level <= 5
        if level >= 2:
            assert all(s in p["cards"] for s in pyr.circle_of(slot))
            assert not (law and level == 5)
            assert pyr.completed_circle(p, slot, card=number) is not None
        p["cards"][slot] = {"card": number, "slot": slot, "tokens": []}
        row1 = sorted(pyr.parse_slot(s)[1] for s in p["cards"] if s.startswith("1:"))
        assert row1 == list(range(row1[0], row1[-1] + 1, 2))  # level 1 stays one unbroken row
    assert len(pyr.circles(p)) == sum(1 for s in p["cards"] if pyr.level_of(s) >= 2)
    for slot in pyr.free_cards(p):
        level, x = pyr.parse_slot(slot)
        assert f"{level + 1}:{x - 1}" not in p["cards"] and f"{level + 1}:{x + 1}" not in p["cards"]
