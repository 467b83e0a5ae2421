"""The player-facing rules page covers the Underworld module and marks its designed cards."""

from __future__ import annotations

from pathlib import Path

from bot.presenters.viceroy.rules import rules_text
from engine.viceroy import cards as C
from engine.viceroy.modules.criminals import CRIMINALS, UNDERWORLD_LAWS

ROOT = Path(__file__).resolve().parents[2]


def test_rules_topic_underworld():
    text = rules_text("underworld")
    assert "judgement tokens" in text and "level 0" in text and "bribe" in text.lower()
    assert "designed by this project, not the printed" in text


def test_rules_pages_name_every_criminal_and_underworld_law():
    for path in (ROOT / "docs" / "rules.md", ROOT / "data" / "viceroy" / "rules.md"):
        page = path.read_text(encoding="utf-8")
        for number in CRIMINALS + UNDERWORLD_LAWS:
            assert C.name(number) in page, (path, number)
