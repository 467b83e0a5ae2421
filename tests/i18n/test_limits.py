"""A translation can be longer than the English it replaces: what reaches Discord still keeps Discord's limits,
and the catalogue's loose templates never swallow a neighbouring sentence."""

from __future__ import annotations

from bot.i18n import catalogue, reading
from bot.ui.ids import prompt_id
from bot.ui.spec import Button, Option, Select, cut
from cogs.discord_ui import view_from_rows

# English cut to Discord's 100 characters; in Swedish "level" becomes "nivå", "gems" "ädelstenar", and so on.
LONG = cut("L3 (M) 1G 1B 1Y → defense + 4 gems · L2 (K) 1G 1Y → 1 card · L1 (A) 1G → 4 gems · L1 (G) 1Y → 3 gems"
           " · L1 (H) 1Y → 3 gems")


async def test_menus_keep_discord_limits_after_translating():
    assert len(LONG) == 100
    assert len(catalogue("sv").text(LONG)) > 100  # the case the cut is for
    rows = [[Select(prompt_id(1, 0, "development.8.1", "card"), "Play a card", [Option("Play #56 Poisoner", "play:56", LONG)])],
            [Button("Lock in", prompt_id(1, 0, "development.8.1", "lock"))]]
    with reading("sv"):
        view = view_from_rows(rows)
    assert view is not None
    for item in view.children:
        inner = getattr(item, "item", item)
        for option in getattr(inner, "options", []):
            assert len(option.label) <= 100 and len(option.description or "") <= 100
            assert option.description.startswith("N3 (M)") and option.description.endswith("…")
        if getattr(inner, "label", None):
            assert len(inner.label) <= 80


def test_a_loose_template_never_takes_the_sentence_before_it():
    """The Splendor Duel line "{who} takes {x} from {y}." must not read "Last round: Ann takes 3 gems from the
    reserve (passing). You take ..." as one sentence: each sentence finds its own entry."""
    line = "Last round: Ann takes 3 gems from the reserve (passing). You take 1 red, 1 green, 1 yellow."
    swedish = "Förra rundan: Ann tar 3 ädelstenar ur förrådet (passar). Du tar 1 röd, 1 grön, 1 gul."
    assert catalogue("sv").text(line) == catalogue("sv", "viceroy").text(line) == swedish


def test_the_most_specific_template_wins():
    assert catalogue("sv").text("Ann takes 2 gems from the reserve (discarding a card).") == \
        "Ann tar 2 ädelstenar ur förrådet (kastar ett kort)."
