"""The player-facing rules page covers each Times of Darkness module and marks the designed cards."""

from __future__ import annotations

from pathlib import Path

from bot.presenters.viceroy.rules import rules_text
from engine.viceroy import cards as C
from engine.viceroy.modules.carddata import ARISTOCRAT_LAWS, ARISTOCRATS, REVISED_LAWS

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")


def test_rules_topics_per_module():
    assert "domain card" in rules_text("darkness").lower()
    assert "diamond" in rules_text("diamonds").lower()
    assert "24 characters" in rules_text("duo")
    assert "two gems of any colours" in rules_text("aristocrats")
    assert "revised" in rules_text("revised").lower()


def test_rules_page_names_every_designed_card_and_marks_them():
    assert PAGE.count("designed by this project") >= 3
    for number in ARISTOCRATS + ARISTOCRAT_LAWS + REVISED_LAWS:
        assert C.name(number) in PAGE, number
