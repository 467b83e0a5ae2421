"""The translation catalogue: exact texts, templates before and after formatting, lines, sentences, parts,
markdown, what stays untranslated, and the specs sent to Discord."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import (
    LANGUAGES,
    SHARED_FILES,
    Catalogue,
    catalogue,
    catalogue_files,
    check_entry,
    locale_of,
    localize,
    tr,
)
from bot.ui.spec import Button, MessageSpec, Option, Select

SV = Catalogue("sv", {
    "Pass": "Passa",
    "Red": "Röd",
    "{who} passes.": "{who} passar.",
    "{who} bids {n} gems on #{card}.": "{who} bjuder {n} ädelstenar på #{card}.",
    "{who} takes a {colour} gem.": "{who} tar en {colour} ädelsten.",
    "red": "röd",
    "The auction is over.": "Auktionen är slut.",
    "Round {n}": "Runda {n}",
})


def test_an_exact_text_is_translated():
    assert SV.text("Pass") == "Passa"


def test_a_template_matches_a_formatted_line_and_keeps_names_and_numbers():
    assert SV.text("Ann bids 2 gems on #17.") == "Ann bjuder 2 ädelstenar på #17."


def test_a_placeholder_value_the_catalogue_knows_is_translated_too():
    assert SV.text("Bo takes a red gem.") == "Bo tar en röd ädelsten."


def test_each_line_is_translated_on_its_own():
    assert SV.text("Ann passes.\nBo passes.") == "Ann passar.\nBo passar."


def test_sentences_of_a_line_are_translated_one_by_one():
    assert SV.text("The auction is over. Ann passes.") == "Auktionen är slut. Ann passar."


def test_parts_joined_by_semicolons_or_dots_are_translated_one_by_one():
    assert SV.text("Ann passes.; Bo bids 1 gems on #3.") == "Ann passar.; Bo bjuder 1 ädelstenar på #3."
    assert SV.text("Round 2 · Ann passes.") == "Runda 2 · Ann passar."


def test_bullets_and_bold_around_a_text_are_kept():
    assert SV.text("- **Round 3**") == "- **Runda 3**"


def test_what_the_catalogue_lacks_stays_english_and_is_reported_missing():
    text = "Ann passes. Something new happens."
    assert SV.text(text) == "Ann passar. Something new happens."
    assert SV.missing(text) == ["Something new happens."]


def test_names_numbers_and_symbols_are_never_reported_missing():
    assert SV.missing("Ann\n12 · 7\n—", known={"Ann"}) == []


def test_english_is_the_identity_and_misses_nothing():
    en = catalogue("en")
    assert en.text("Ann passes.") == "Ann passes." and en.missing("Anything at all.") == []


def test_tr_translates_before_formatting_and_translates_known_values():
    assert SV.format("{who} takes a {colour} gem.", who="Ann", colour="red") == "Ann tar en röd ädelsten."
    assert SV.format("Not in the catalogue {x}.", x=1) == "Not in the catalogue 1."
    assert tr("en", "{who} passes.", who="Ann") == "Ann passes."


@pytest.mark.parametrize(("discord", "ours"), [("sv-SE", "sv"), ("en-US", "en"), ("en-GB", "en"), ("ja", "en"),
                                               (None, "en"), ("SV-se", "sv")])
def test_locale_of_maps_discord_locales_to_catalogues(discord, ours):
    assert locale_of(discord) == ours


def test_an_entry_that_loses_a_placeholder_is_refused():
    with pytest.raises(ValueError, match="same placeholders"):
        check_entry("{who} passes.", "Någon passar.")
    with pytest.raises(ValueError, match="non-empty"):
        check_entry("Pass", " ")


def test_an_entry_that_is_a_placeholder_alone_is_refused():
    # Its value would be translated by the entry itself, without end.
    with pytest.raises(ValueError, match="placeholder alone"):
        check_entry("{spot}", "{spot}")


def test_every_shipped_catalogue_loads_with_its_placeholders_intact():
    for code in LANGUAGES:
        assert catalogue(code).locale == code
        if code == "en":
            continue
        files = catalogue_files(code)
        assert "common.json" in files and "commands.json" in files
        shared = len(Catalogue(code, {}))
        for name in files:
            if name not in SHARED_FILES:
                game = name.removesuffix(".json")
                assert len(catalogue(code, game)) > shared, f"{code}/{name} adds no texts"


def test_a_file_for_every_game_reaches_every_game():
    """A part of the bot with texts for all games (a "games": ["*"] file) is read with each game's own file."""
    assert catalogue("sv", "viceroy").text("Lock in") == catalogue("sv", "pyramido").text("Lock in") == "Lås in"
    assert catalogue("sv", "splendor_duel").text("Rematch") == "Returmatch"


def test_game_files_never_translate_one_text_two_ways():
    """When a click arrives before its game is known, every game's texts are used together: they must agree."""
    for code in LANGUAGES:
        seen: dict[str, tuple[str, str]] = {}
        for name in catalogue_files(code):
            for source, target in json.loads(resources.files("data").joinpath("i18n", code, name)
                                             .read_text(encoding="utf-8")).get("entries", {}).items():
                first = seen.setdefault(source, (name, target))
                assert first[1] == target, f"{source!r}: {first[0]} says {first[1]!r}, {name} says {target!r}"


def test_a_game_catalogue_is_the_shared_texts_and_its_own():
    assert catalogue("sv", "pyramido").text("Join") == catalogue("sv").text("Join") == "Gå med"
    assert catalogue("sv", "splendor_duel").text("Ann places domino #3 (red/aqua) on floor 2.") == \
        "Ann places domino #3 (red/aqua) on floor 2."  # a Pyramido line is not a Splendor Duel text
    assert catalogue("sv").text("Ann places domino #3 (red/aqua) on floor 2.").startswith("Ann lägger")


def test_localize_translates_every_text_of_a_spec_but_never_a_custom_id():
    spec = MessageSpec(content="Ann passes.", title="Round 2", description="The auction is over.",
                       fields=[("Red", "Bo passes.")], footer="Pass",
                       rows=[[Button("Pass", "v:1:pass")],
                             [Select("v:1:bid", "Pass", [Option("Red", "red", "Bo passes.")])]])
    out = localize(spec, "sv")
    sv = catalogue("sv")
    assert out.content == sv.text("Ann passes.")
    assert out.rows[0][0].custom_id == "v:1:pass" and out.rows[1][0].custom_id == "v:1:bid"
    assert out.rows[1][0].options[0].value == "red"
    assert out.rows[1][0].options[0].label == "Röd" and out.fields[0][0] == "Röd"
    assert localize(spec, "en") is spec


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_translating_any_text_never_fails_and_keeps_its_line_count(text):
    out = SV.text(text)
    assert out.count("\n") == text.count("\n")
    assert isinstance(SV.missing(text), list)


async def test_message_kwargs_sends_a_spec_in_the_readers_language():
    from cogs.discord_ui import message_kwargs

    spec = MessageSpec(title="Round 2", description="Ann passes.", rows=[[Button("Join", "l:1:join")]])
    sv = await message_kwargs(spec, 0x123456, content="My screen", locale="sv")
    assert sv["embed"].title == catalogue("sv").text("Round 2")
    assert sv["content"] == "Min skärm"
    assert [c.to_component_dict()["label"] for c in sv["view"].children] == ["Gå med"]
    en = await message_kwargs(spec, 0x123456, content="My screen")
    assert en["content"] == "My screen" and [c.to_component_dict()["label"] for c in en["view"].children] == ["Join"]


def test_a_list_is_translated_item_by_item_inside_bold_marks_and_templates():
    cat = Catalogue("sv", {"{n} red": "{n} röda", "1 red": "1 röd", "{n} green": "{n} gröna",
                           "{x} (suggested)": "{x} (förslag)"})
    assert cat.text("**2 red, 1 red**") == "**2 röda, 1 röd**"
    assert cat.text("**2 red, 3 green** (suggested)") == "**2 röda, 3 gröna** (förslag)"
    assert cat.missing("**2 red, 3 blue**") == ["3 blue"]


def test_a_template_of_two_values_and_a_joining_word_never_takes_a_list():
    """"{a} or {b}" joins two items: in "no penalty, discard a science or magic token" the list's items are
    translated each by its own entry, not the whole list as one "or"."""
    sv = Catalogue("sv", {"{a} or {b}": "{a} eller {b}", "no penalty": "inget straff",
                          "discard a science or magic token": "kasta en vetenskaps- eller magimarkör",
                          "red": "röd", "blue": "blå", "Your tokens: {x}": "Dina markörer: {x}"})
    assert sv.text("no penalty, discard a science or magic token") == "inget straff, kasta en vetenskaps- eller magimarkör"
    assert sv.text("*Your tokens: no penalty, discard a science or magic token*") == (
        "*Dina markörer: inget straff, kasta en vetenskaps- eller magimarkör*")
    assert sv.text("*Your tokens: discard a science or magic token*") == (
        "*Dina markörer: kasta en vetenskaps- eller magimarkör*")
    assert sv.text("red or blue") == "röd eller blå"
    assert sv.text("red, red or blue") == "röd, röd eller blå"


def test_the_last_item_of_a_list_ending_its_sentence_is_translated_with_its_full_stop():
    sv = Catalogue("sv", {"no penalty": "inget straff", "-{n} PP per magic token": "-{n} PP per magimarkör",
                          "Ann: {x}": "Ann: {x}"})
    assert sv.text("no penalty, -2 PP per magic token.") == "inget straff, -2 PP per magimarkör."
    assert sv.missing("no penalty, -2 PP per magic token.") == []
    assert sv.text("Nothing here.") == "Nothing here." and sv.missing("Nothing here.") == ["Nothing here."]
