"""The forged-interaction fuzzer (benchmarks/fuzz_interactions.py) still runs the real cog: its stand-in
interactions keep up with what the cog reads of one, so a run that reports 0 unhandled means the handlers
refused every forgery, not that the stand-in broke first.

It times nothing: only the counts it reports are asserted."""

from __future__ import annotations

import logging

import pytest

import benchmarks.fuzz_interactions as fuzz_script


@pytest.mark.parametrize("seed", [1, 7])
async def test_forged_interactions_are_all_answered_refused_and_change_nothing(tmp_path, seed):
    report = await fuzz_script.fuzz(300, seed, tmp_path)
    assert report.count == 300
    assert report.unhandled == [] and report.unanswered == []
    assert report.changed is False


async def test_the_fuzzer_reports_a_handler_that_fails(tmp_path, monkeypatch, caplog):
    """A handler that raises is reported as unhandled (the fuzzer can fail)."""
    async def broken(*_args, **_kwargs):
        raise RuntimeError("planted")

    monkeypatch.setattr(fuzz_script.TableCog, "_prompt_control", broken)
    with caplog.at_level(logging.CRITICAL):
        report = await fuzz_script.fuzz(60, 1, tmp_path)
    assert report.unhandled, "a failing handler went unnoticed"
