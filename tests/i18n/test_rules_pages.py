"""The rules pages in Swedish: `/<game> rules` answers in the reader's language, topic by topic, with the same
English topic words; every section of the Swedish pages translates a section of the English ones."""

from __future__ import annotations

import pytest

from bot.presenters import presenter_for
from bot.ui import rulesbook
from tests.bot.harness import new_table
from tests.i18n.english import english_left

PAGES = {"viceroy": "data.viceroy", "splendor_duel": "data.splendor_duel", "pyramido": "data.pyramido"}
NAMES = {"Viceroy", "Pyramido", "Splendor", "Duel", "Vizier", "Mino's", "Minos", "AI", "PP", "Au", "Usurpation",
         "Endowment", "Exchange", "Favors", "Census", "Royal", "Decree", "Chancery", "Secret", "Service", "Favor",
         "Academy", "Charter", "Treasury", "Archive", "Heraldry", "Alliance", "Captain", "Times", "of", "Darkness"}


def _rules_text(module: str):
    return lambda: __import__(module, fromlist=["rules_text"]).rules_text


RULES_TEXT = {"viceroy": _rules_text("bot.presenters.viceroy.rules"),
              "splendor_duel": _rules_text("bot.presenters.splendor_duel"),
              "pyramido": _rules_text("bot.presenters.pyramido")}


def _sv_sections(kind: str) -> dict[str, str]:
    from importlib import resources

    text = resources.files(PAGES[kind]).joinpath("rules.sv.md").read_text(encoding="utf-8")
    return rulesbook._parse(text, ())


@pytest.mark.parametrize("kind", sorted(PAGES))
def test_every_swedish_section_translates_an_english_one(kind):
    english = rulesbook.sections(PAGES[kind])
    swedish = _sv_sections(kind)
    assert set(swedish) - set(english) <= {"bot"}, "a Swedish heading names no English heading"
    assert "bot" in swedish and "overview" in swedish


@pytest.mark.parametrize("kind", sorted(PAGES))
def test_every_player_topic_reads_in_swedish(kind):
    p = presenter_for(kind)
    rules_text = RULES_TEXT[kind]()
    for topic in p.rules_topics:
        english, swedish = rules_text(topic, "en"), rules_text(topic, "sv")
        assert english != swedish, f"{kind} {topic}: no Swedish text"
        left = english_left(swedish, NAMES)
        assert not left, f"{kind} {topic}: English words left: {left}"


def test_an_untranslated_section_falls_back_to_english(tmp_path, monkeypatch):
    page = tmp_path / "page_for_fallback"
    page.mkdir()
    (page / "__init__.py").write_text("")
    (page / "rules.md").write_text("Intro.\n\n## Costs\nA bid costs a gem.\n\n## End of the game\nTwelve turns.\n")
    (page / "rules.sv.md").write_text("Inledning.\n\n## Kostnader <!-- Costs -->\nEtt bud kostar en ädelsten.\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert rulesbook.find("page_for_fallback", "costs", "sv") == "**Kostnader**\nEtt bud kostar en ädelsten."
    assert rulesbook.find("page_for_fallback", "end", "sv") == "**End of the game**\nTwelve turns."
    assert rulesbook.find("page_for_fallback", "overview", "sv") == "Inledning."
    assert rulesbook.find("page_for_fallback", "costs", "en") == "**Costs**\nA bid costs a gem."
    assert rulesbook.find("page_for_fallback", "nothing", "sv") is None


async def test_the_rules_command_answers_in_the_readers_language(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann", "Bo"])
    await table.start_bot()
    try:
        ann, bo = table.users
        ann.locale = "sv-SE"
        rec = await ann.slash(table.channel, "viceroy rules", topic="costs")
        assert rec.ephemeral and "Kostnader" in rec.reply.content and "oändlig ädelsten" in rec.reply.content
        rec = await bo.slash(table.channel, "viceroy rules", topic="costs")
        assert "Costs" in rec.reply.content and "infinite gem" in rec.reply.content
        rec = await ann.slash(table.channel, "pyramido rules", topic="rulings")
        assert "Tolkning" in rec.reply.content and "Ruling" not in rec.reply.content
    finally:
        await table.stop_bot()
