"""Game records written with an earlier engine replay to the identical state (fixtures/records.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.viceroy import replay
from tests.engine.record_digest import digests

RECORDS = [json.loads(line) for line in (Path(__file__).parent / "fixtures" / "records.jsonl").read_text().splitlines()]


def test_the_stored_records_cover_every_table() -> None:
    tables = {(r["options"]["players"], r["options"]["deal"], r["options"]["virtual_opponents"]) for r in RECORDS}
    assert len(RECORDS) >= 30
    assert {p for p, _, _ in tables} == {1, 2, 3, 4}
    assert {d for _, d, _ in tables} == {2, 4}
    assert any(v for p, _, v in tables if p > 1)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r['options']['players']}p-seed{r['seed']}")
def test_a_stored_record_replays_to_the_identical_state(record: dict) -> None:
    state = replay(record)
    assert state["phase"] == "over"
    got = digests(state)
    for part, want in record["digests"].items():
        assert got[part] == want, f"the replayed game differs in its {part}"


def test_a_state_stored_in_the_earlier_layout_plays_on() -> None:
    """A game saved before the auction became a list (state version 1) is upgraded when the engine reads it."""
    import copy

    from engine.viceroy import apply_action, default_action, pending, view
    from tests.engine.helpers import started
    from tests.engine.record_digest import stored_layout

    state = started(3, seed=12)
    old = copy.deepcopy(stored_layout(state))
    assert old["version"] == 1 and isinstance(old["auction"], dict)
    assert view(old, 1) == view(state, 1)
    assert pending(old) == pending(state)
    for seat in range(3):
        apply_action(old, seat, default_action(old, seat))
        apply_action(state, seat, default_action(state, seat))
    assert old == state
