"""Look it up without leaving Discord: `/<game> card <number or name>` (with autocomplete) shows every card of
every game: its full face and a text line per row, or its printed text."""

from __future__ import annotations

import io

import pytest

from bot.games import game_types
from bot.presenters import UnknownPresenter, presenter_for
from engine.viceroy import cards as C
from tests.bot.harness import new_table

PNG = b"\x89PNG\r\n\x1a\n"
COMPONENTS_V2 = 1 << 15


def _games_with_cards() -> list[str]:
    out = []
    for t in game_types():
        try:
            if presenter_for(t.name).card_entries():
                out.append(t.name)
        except UnknownPresenter:  # a test's own game without a presenter yet
            continue
    return out


GAMES = _games_with_cards()


def test_every_game_has_cards_to_look_up():
    assert {"viceroy", "splendor_duel", "pyramido"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_card_has_a_face_and_text(game):
    p = presenter_for(game)
    entries = p.card_entries()
    assert len({v for v, _ in entries}) == len(entries), "card values are unique"
    for value, label in entries:
        spec = p.card_page(value)
        assert spec is not None, label
        assert spec.image is not None and spec.image.render().startswith(PNG), label
        assert len((spec.description or "").splitlines()) >= 2, label
        assert p.find_card(value) == value, f"{label}: its own value does not find it"


def test_viceroy_cards_give_a_line_per_row_and_every_law_its_text():
    p = presenter_for("viceroy")
    text = p.card_page("1").description
    assert text.count("Level ") == 5 and "Level 1: row gem Y, costs 1Y in all → 1 card" in text
    for law in range(65, 89):
        assert C.card(law)["text"] in p.card_page(str(law)).description
    assert p.find_card("usurp") == "65" and p.find_card("#65") == "65"
    assert p.find_card("zzz") is None


async def test_card_command_and_its_autocomplete(fake_discord, tmp_path):
    table = await new_table(fake_discord, tmp_path, ["Ann"])
    await table.start_bot()
    try:
        (ann,) = table.users
        choices = await ann.autocomplete(table.channel, "viceroy card", "card", card="usur")
        assert choices and choices[0]["name"] == "#65 Usurpation" and choices[0]["value"] == "65"
        assert len(await ann.autocomplete(table.channel, "viceroy card", "card", card="")) == 25
        rec = await ann.slash(table.channel, "viceroy card", card="65")
        await rec.wait_done(timeout=20)
        await table.settle()
        reply = rec.messages[-1]
        # A components V2 layout (no embed): the name as a heading, the law text, the face with its alt text.
        assert reply.ephemeral and reply.flags & COMPONENTS_V2 and not reply.embeds and not reply.content
        texts = reply.text_displays()
        assert texts[0] == "## #65 Usurpation" and any("in place of any other card" in t for t in texts)
        assert reply.filenames == ["card.png"] and texts[-1] == "#65 Usurpation"
        for command, query in (("splendorduel card", "L1-01"), ("pyramido card", "12")):
            rec = await ann.slash(table.channel, command, card=query)
            await rec.wait_done(timeout=20)
            await table.settle()
            assert rec.messages[-1].filenames and len(rec.messages[-1].text_displays()) >= 3, command
        rec = await ann.slash(table.channel, "viceroy card", card="a")
        await table.settle()
        assert rec.ephemeral and "No single card matches" in rec.reply.content and "Did you mean" in rec.reply.content
    finally:
        await table.stop_bot()


def test_the_rules_explain_the_game_to_players_and_name_every_law():
    import re

    from bot.presenters.viceroy.rules import rules_text

    p = presenter_for("viceroy")
    for topic in ("goal", "turn", "costs", "scoring", "icons"):
        assert topic in p.rules_topics and "No rules page" not in rules_text(topic)
    scoring = rules_text("scoring")
    for row in ("Circles", "Infinite gems", "Laws", "Power points", "Magic", "Sets", "Attacks"):
        assert f"**{row}**" in scoring, row
    assert rules_text("turn").count("\n") >= 5 and "Flask" in rules_text("icons")
    laws = rules_text("laws")
    mentioned = {int(n) for n in re.findall(r"\b(\d{2})\b", laws)} | {
        n for a, b in re.findall(r"\b(\d{2})-(\d{2})\b", laws) for n in range(int(a), int(b) + 1)}
    assert set(range(65, 89)) <= mentioned, sorted(set(range(65, 89)) - mentioned)
    assert "developers" not in rules_text("overview")


def test_a_card_layout_keeps_within_discords_limits():
    """However long a page, its layout is one Discord accepts: one container, at most 4,000 characters of
    text, the picture named by the file that goes with it, its buttons in action rows."""
    import discord

    from bot.localdiscord import rules
    from bot.ui import ids
    from bot.ui.spec import Button, Image, MessageSpec
    from cogs.discord_ui import layout_from_spec

    spec = MessageSpec(title="A card", description="word " * 1200, fields=[("Row", "x" * 900)] * 3, footer="small",
                       image=Image("card.png", lambda: b""), rows=[[Button("Rematch", ids.table_id(1, "rematch"))]])
    file = discord.File(io.BytesIO(PNG), filename="card.png", description="A card")
    body = {"flags": rules.FLAG_COMPONENTS_V2, "components": layout_from_spec(spec, 0x336699, file).to_components()}
    errors = rules.FormErrors()
    rules.check_components_v2(errors, body, body["flags"])
    rules.check_attachment_refs(errors, body, {"card.png"})
    assert not errors, errors.summary()
    (container,) = body["components"]
    texts = [c["content"] for c in container["components"] if c["type"] == 10]
    assert texts[0] == "## A card" and sum(len(t) for t in texts) <= 4000
    assert [c["type"] for c in container["components"]][-2:] == [12, 1]


async def test_a_layout_sent_by_the_announcer_reads_in_the_readers_language():
    """localize_kwargs, which every announcement passes, translates a layout's texts (headings keep their
    mark) and controls as it does an embed's."""
    from bot.ui import ids
    from bot.ui.spec import Button, MessageSpec
    from cogs.discord_ui import layout_kwargs, localize_kwargs

    spec = MessageSpec(title="Waiting for: Ann", description="Waiting for: Bo", footer="Waiting for: Cy",
                       rows=[[Button("Join", ids.table_id(1, "join"))]])
    kwargs = localize_kwargs(await layout_kwargs(spec, 0x336699, locale="en"), "sv", "viceroy")
    view = kwargs["view"]
    texts = [c.content for c in view.walk_children() if hasattr(c, "content")]
    assert texts == ["## Väntar på: Ann", "Väntar på: Bo", "-# Väntar på: Cy"]
    assert [getattr(c, "item", c).label for c in view.walk_children() if hasattr(getattr(c, "item", c), "label")] == ["Gå med"]
