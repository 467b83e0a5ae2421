"""Level 0 geometry as properties: random first rows with criminals under them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.viceroy import pyramid as P
from engine.viceroy.modules.criminals import CRIMINALS
from engine.viceroy.state import new_entry

ROWS = st.integers(min_value=1, max_value=7)


@st.composite
def pyramids(draw):  # noqa: ANN001, ANN201
    n = draw(ROWS)
    start = draw(st.integers(min_value=-4, max_value=0)) * 2
    cards = {f"1:{start + 2 * i}": new_entry(1 + i, f"1:{start + 2 * i}") for i in range(n)}
    gaps = [start + 2 * i + 1 for i in range(n - 1)]
    under = draw(st.lists(st.sampled_from(gaps), unique=True)) if gaps else []
    for j, x in enumerate(under):
        cards[f"0:{x}"] = new_entry(CRIMINALS[j], f"0:{x}")
    return {"cards": cards}, gaps, set(under)


@settings(max_examples=150, deadline=None)
@given(pyramids())
def test_level_0_places_are_the_gaps_between_level_1_cards_without_a_criminal(case):
    pyramid, gaps, under = case
    assert P.legal_slots(pyramid, CRIMINALS[-1]) == [f"0:{x}" for x in gaps if x not in under]
    for number in (1, 65):  # characters and laws never go on level 0
        assert all(P.level_of(s) >= 1 for s in P.legal_slots(pyramid, number))


@settings(max_examples=150, deadline=None)
@given(pyramids())
def test_a_level_1_card_with_a_criminal_under_it_is_never_free_and_criminals_never_are(case):
    pyramid, gaps, under = case
    free = set(P.free_cards(pyramid))
    for slot in pyramid["cards"]:
        level, x = P.parse_slot(slot)
        if level == 0 or x - 1 in under or x + 1 in under:
            assert slot not in free


@settings(max_examples=150, deadline=None)
@given(pyramids())
def test_circles_over_level_0_are_closed_by_the_level_1_card_between_two_criminals(case):
    pyramid, gaps, under = case
    uppers = {c["slot"] for c in P.circles(pyramid)}
    assert uppers == {f"1:{x}" for x in range(-20, 20, 2) if x - 1 in under and x + 1 in under}
    for slot in pyramid["cards"]:
        for circle in P.circles_closed_by(pyramid, slot):
            assert slot in {s for s, _ in circle["sections"]}
