"""Every refusal an engine can raise reads in Swedish: a player who clicks something the rules do not allow is
told why in their own language.

The refusals are found in the engines' source, not by playing: each ``IllegalAction(...)`` written with its text
(a string or an f-string) is one case. Its ``{...}`` values are filled with sample values (a number, a name, a
board square); a value chosen between written texts (``{'s' if n != 1 else ''}``) is tried with each of them, and
each must read in Swedish. Texts built elsewhere and passed in (a payment's problem, a phase's "not your turn")
are covered by the games' own tests of those texts (tests/i18n/test_rare_lines.py and the whole-game tests).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.i18n import Catalogue, catalogue
from tests.i18n.english import ENGLISH, PYRAMIDO, SPLENDOR_DUEL, english_left

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT / "engine"
# Sample values for a refusal's free values: a number ({n}), a name or card (any text), a board square ({spot}).
SAMPLES = ("2", "Ann", "C3")
NAMES = {"Ann"}
FREE = "\0"  # a value the source does not write out
QUOTED = "\1"  # the same, shown with its quotes ({name!r})
# The games, by their engine packages (a test may register a toy game of its own with the bot).
GAMES = sorted(p.name for p in ENGINES.iterdir() if (p / "__init__.py").is_file())
VOCABULARY = {"splendor_duel": ENGLISH | SPLENDOR_DUEL, "pyramido": ENGLISH | PYRAMIDO}


@dataclass(frozen=True)
class Refusal:
    where: str  # engine/viceroy/auction.py:163
    game: str | None  # the engine's package; None: the contract's own (every game's)
    # One list per choice between written texts: every way of filling the free values.
    texts: tuple[tuple[str, ...], ...]


def _choices(node: ast.expr) -> list[str] | None:
    """The texts a value chooses between (``'s' if n != 1 else ''``), or None for a free value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _choices(node.body), _choices(node.orelse)
        if body is None and orelse is None:
            return None
        return [*(body or [FREE]), *(orelse or [FREE])]
    return None


def _texts(node: ast.expr) -> list[list[str]] | None:
    """The texts a message argument can be: a list per choice between written texts, each holding the ways of
    filling its free values; None if the argument is not written out here."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [[node.value]]
    if not isinstance(node, ast.JoinedStr):
        return None
    fixed: list[list[str]] = []  # per value: the written texts it chooses between
    for part in node.values:
        if isinstance(part, ast.Constant):
            fixed.append([str(part.value)])
        else:
            assert isinstance(part, ast.FormattedValue)
            choices = _choices(part.value) or [FREE]
            quoted = part.conversion == ord("r")
            fixed.append([(QUOTED if c == FREE else repr(c)) if quoted else c for c in choices])
    out: list[list[str]] = []
    for chosen in itertools.product(*fixed):
        free = chosen.count(FREE) + chosen.count(QUOTED)
        filled = []
        for values in itertools.product(SAMPLES, repeat=free):
            given = iter(values)
            filled.append("".join(next(given) if c == FREE else repr(next(given)) if c == QUOTED else c
                                  for c in chosen))
        out.append(filled)
    return out


def _message(call: ast.Call) -> list[list[str]] | None:
    """The player's text of an ``IllegalAction`` call: its written argument with a space (the other is the code)."""
    for arg in call.args:
        texts = _texts(arg)
        if texts is not None and any(" " in t for t in texts[0]):
            return texts
    return None


def refusals() -> Iterator[Refusal]:
    for path in sorted(ENGINES.rglob("*.py")):
        rel = path.relative_to(ROOT)
        game = rel.parts[1] if len(rel.parts) > 2 else None
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name != "IllegalAction":
                continue
            texts = _message(node)
            if texts is not None:
                yield Refusal(f"{rel}:{node.lineno}", game, tuple(tuple(t) for t in texts))


REFUSALS = list(refusals())


def untranslated(refusal: Refusal, cat: Catalogue, game: str) -> str | None:
    """The first of a refusal's texts that does not read in Swedish (left English, or with English words in its
    translation), else None."""
    words = VOCABULARY.get(game, ENGLISH)
    for texts in refusal.texts:
        if not any(not cat.missing(t, known=NAMES) and not english_left(cat.text(t) or "", NAMES, words)
                   for t in texts):
            return texts[0]
    return None


def test_the_sweep_finds_the_refusals_of_every_game() -> None:
    games = {r.game for r in REFUSALS}
    assert set(GAMES) <= games and {"viceroy", "splendor_duel", "pyramido"} <= set(GAMES), games
    assert len(REFUSALS) > 150


def test_the_sweep_reads_a_choice_between_texts_as_two_texts() -> None:
    call = ast.parse("IllegalAction(f\"You have {n} diamond{'s' if n != 1 else ''}.\", 'code')").body[0].value
    assert isinstance(call, ast.Call)
    texts = _message(call)
    assert texts == [[f"You have {s} diamonds." for s in SAMPLES], [f"You have {s} diamond." for s in SAMPLES]]


def test_a_refusal_the_catalogue_lacks_is_found() -> None:
    refusal = Refusal("x.py:1", "viceroy", (("Your dragon refuses to bid 2 gems.",),))
    assert untranslated(refusal, catalogue("sv", "viceroy"), "viceroy") == "Your dragon refuses to bid 2 gems."


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: r.where)
def test_every_refusal_of_the_engines_reads_in_swedish(refusal: Refusal) -> None:
    for game in [refusal.game] if refusal.game in GAMES else GAMES:
        # The game's own texts, and every game's together: a click's refusal is written before its game is read.
        for cat in (catalogue("sv", game), catalogue("sv")):
            text = untranslated(refusal, cat, game)
            assert text is None, f"{refusal.where} ({game}): no Swedish text for {text!r}"
