"""Lines that only some deals bring (so the whole-game tests may never meet them) read in Swedish: each was
found in English by scripts/i18n_missing.py over games with the expansion's modules."""

from __future__ import annotations

import pytest

from bot.i18n import catalogue
from bot.presenters.viceroy.common import reward_text
from tests.i18n.english import english_left

NAMES = {"Ann", "Bo", "Cy"}

LINES = [
    # Royal Favor (base game law)
    "Ann puts #12 Captain under Royal Favor.",
    "Bo has no free card to put under Royal Favor.",
    "Free card to put under Royal Favor",
    # a law placed in place of a card (Times of Darkness' Usurpation)
    "Ann plays #104 Usurpation in place of #23 Grandee",
    # gems for a discarded card, and none when the reserve is empty
    "Choose 4 gems from the reserve (discarding a card).",
    "Ann gets no gems (reward of #12 Captain): the reserve is empty.",
    "Ann gets no gems (domain card): the reserve is empty.",
    # a seat left with no card at the auction
    "Ann got no card and passes.",
    # gems partly from the combat card (Invasion)
    "Ann takes 3 gems (reward of #40 Brigand / Robber, 1 from the combat card).",
    # judgement tokens (Underworld): a list whose items hold an "or", in italics, and its last item ending the
    # sentence
    "*Your judgement tokens: no penalty, -2 PP, discard a science or magic token*",
    "*Your judgement tokens: discard a magic or defense token*",
    "Your judgement tokens: discard a magic or defense token, discard a defense or science token.",
    "Judgement tokens are revealed. Ann: no penalty, -2 PP per magic token; Bo: -1 PP, discard a science token.",
    # a single-colour circle when the reserve has none of its gem, and an infinite gem the reserve lacks
    "Ann completes a single-colour blue circle; no blue gem is left.",
    "No red gem is left for Ann's infinite gem.",
    "Nothing worth painting: finish",
    # the solo game's virtual opponents (every solo game shows them)
    "Round 3 bids: Ann bids red for #12 Captain; virtual opponents bid blue, nothing.",
    "The virtual opponent takes #12 Captain; it is discarded.",
    "A virtual opponent takes #12 Captain (red); it is discarded.",
    "The virtual opponent also bid blue: a new round starts.",
    "Two virtual opponents bid red: both characters there are discarded.",
    "Ann discards #12 Captain from the auction.",
    "Ann attacked but nothing is left; the token is kept.",
    # diamonds and an infinite gem from the combat card (Invasion)
    "Ann takes 2 diamonds from the combat card.",
    "Ann takes the infinite gem from the combat card.",
    # the reveal of a round with a diamond bid, every kind of sealed choice beside it
    "Round 3 shows Ann: a diamond; Bo: a pass. Diamond bidders choose their colour now.",
    "Round 3 shows Ann: red for #12 Captain; Bo: a diamond; Cy: an attack. Diamond bidders choose their colour now.",
    "Round 3 shows Ann: a diamond; Bo: red for #12 Captain. Diamond bidders choose their colour now.",
    # a reward drawing from two decks at once, and from the criminal deck (Underworld)
    "Ann draws 2 from the law deck, 1 from the small deck.",
    "Ann draws 1 from the small deck, 1 from the criminal deck.",
    "Ann draws 1 from the criminal deck.",
]


@pytest.mark.parametrize("line", LINES)
def test_a_rare_line_reads_in_swedish(line: str):
    sv = catalogue("sv", "viceroy")
    assert sv.missing(line, known=tuple(NAMES)) == []
    assert english_left(sv.text(line), NAMES) == [], sv.text(line)


def test_court_of_honours_options_read_in_swedish():
    """The options of a choose-one law as the prompt labels them (Court of Honour, #102)."""
    sv = catalogue("sv", "viceroy")
    labels = [reward_text([o]) for o in ({"type": "diamonds", "amount": 2}, {"type": "any_circle_bonus", "value": 1},
                                         {"type": "gems", "amount": 4})]
    assert [sv.text(label) for label in labels] == ["2 diamanter", "cirkelbonus i valfri färg +1", "4 ädelstenar"]


@pytest.mark.parametrize("line", [
    # an architect who could not fill a floor, with the tie-breaks of a tied total
    "**Ann**: 40 (Unused single block cards (1st tie-break) 3, Best single floor (2nd tie-break) 5)"
    " — lost: could not fill the gaps of a floor",
    "**Ann**: 40 — lost: could not fill the gaps of a floor",
    # a single block card placed with a domino (the AI seldom plays one), and a floor of one scored area
    "Ann places domino #12 (red/blue) on floor 2, covers a block with an aqua single block card.",
    "Ann places domino #12 (red/blue) on floor 2, covers a block with a red single block card and scores it.",
    "Ann scores 3 on floor 1 (3 in 1 area + 0 Mino's bonus).",
])
def test_a_rare_pyramido_line_reads_in_swedish(line: str):
    from tests.i18n.english import ENGLISH, PYRAMIDO

    sv = catalogue("sv", "pyramido")
    assert sv.missing(line, known=tuple(NAMES)) == []
    assert english_left(sv.text(line), NAMES, ENGLISH | PYRAMIDO) == [], sv.text(line)


# Refusals whose text is built outside the ``IllegalAction(...)`` call (tests/i18n/test_refusals.py reads the
# ones written in it): a phase's "not now", a painting's or a payment's problem, an answer left over.
PASSED_IN = [
    ("viceroy", "You are out of this auction phase; wait for the development phase."),
    ("viceroy", "You are out of this development phase; wait for the next turn."),
    ("viceroy", "You have nothing to decide now."),
    ("viceroy", "Each painted section needs a slot, a section and a colour."),
    ("viceroy", "'pink' is not a gem colour (use red, green, blue, yellow)."),
    ("viceroy", "'middle' is not a card section (use top_left, top_right, bottom_left, bottom_right)."),
    ("viceroy", "There is no card at position 9:9 in your pyramid."),
    ("viceroy", "The number of red gems must be a whole number, 0 or more."),
    ("viceroy", "Archive must be yes or no."),
    ("splendor_duel", "You hold only 1 red token, not 2."),
    ("splendor_duel", "You hold only 2 red tokens, not 3."),
    ("splendor_duel", "That payment is 2 tokens short for L1-05."),
    ("splendor_duel", "You hold 1 privilege, not 2."),
    ("splendor_duel", "You hold 0 privileges, not 1."),
    ("splendor_duel", "Choose 1 token to return to the bag first."),
    ("splendor_duel", "Choose exactly 3 tokens to return."),
    ("splendor_duel", "Return 1 token to the bag first (limit 10 tokens)."),
    ("splendor_duel", "You would hold only 2 blue tokens to return, not 3."),
    ("splendor_duel", "L1-05 needs only 1 blue after your bonuses."),
    ("splendor_duel", "That payment is 1 token short for L1-05."),
    ("splendor_duel", "That payment spends 1 gold more than L1-05 needs."),
    ("splendor_duel", "You cannot pay for L1-03: 1 token short even with your gold."),
    ("splendor_duel", "L1-04 gives no token to take now: leave out the token to take."),
    ("splendor_duel", "L1-04 steals nothing now: leave out the token to steal."),
    ("splendor_duel", "Your crowns do not reach a new royal card with this purchase: leave out the royal card."),
    ("splendor_duel", "No royal card lets you steal now: leave out the royal steal."),
    ("splendor_duel", "First player must be one of: Random, Seat 1, Seat 2."),
    ("pyramido", "Starting architect must be one of: Random, First seat."),
]


@pytest.mark.parametrize(("game", "line"), PASSED_IN)
def test_a_refusal_built_outside_its_raise_reads_in_swedish(game: str, line: str):
    from tests.i18n.english import ENGLISH, PYRAMIDO, SPLENDOR_DUEL

    words = {"splendor_duel": ENGLISH | SPLENDOR_DUEL, "pyramido": ENGLISH | PYRAMIDO}.get(game, ENGLISH)
    for sv in (catalogue("sv", game), catalogue("sv")):  # the game's texts, and every game's (a click's reply)
        assert sv.missing(line, known=tuple(NAMES)) == []
        assert english_left(sv.text(line), NAMES, words) == [], sv.text(line)
