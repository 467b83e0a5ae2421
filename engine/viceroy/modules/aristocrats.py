"""The ``aristocrats`` module: 12 aristocrat characters and 3 aristocrat laws (Times of Darkness).

The cards (``data/viceroy/darkness/aristocrats.json``) are designed by this project in the spirit of the
expansion. They are shuffled into the character deck and the law deck (the large deck keeps its size). An
aristocrat costs two gems of any colours on level 1 (``cards.ANY_COST``) and has no level-1 reward. Its lower
sections carry an extra reward instead of a colour (``"none"``: no single-colour circle, no painting), gained
for playing it on any level:

* token images (``cards.IMAGES``): they count like tokens for their effects (a science image gives a pass gem,
  an attack image hurts the opponents at the end) but are not tokens: they cannot be bid, moved, doubled or
  discarded, because they are not in the pyramid's token lists at all;
* a text scored at the end (the ``aristocrats`` scoring category below).

State: none of its own; everything is in the pyramid.
"""

from __future__ import annotations

from .. import cards as C
from .. import laws as L
from .. import pyramid as P
from ..development import play_placed
from ..rules import Law, Ruleset, Scorer
from . import common
from .carddata import ARISTOCRAT_LAWS, ARISTOCRATS, is_aristocrat

NAME = "aristocrats"
PATRONAGE = 101


def text_points(ctx, slot: str, number: int) -> int:  # noqa: ANN001  (a scoring.ScoreContext)
    """What one aristocrat's text gives at the end of the game."""
    score = C.card(number)["score"]
    kind, pp = score["kind"], score["pp"]
    pyramid = ctx.pyramid
    cards = pyramid["cards"]
    if kind == "per_law":
        return pp * sum(1 for e in cards.values() if C.is_law(e["card"]))
    if kind == "per_adjacent_character":
        return pp * sum(1 for n in P.neighbours(pyramid, slot) if C.is_character(cards[n]["card"]))
    if kind == "per_set":
        return pp * ctx.sets
    if kind == "per_card_on_level":
        return pp * sum(1 for s, e in cards.items() if P.level_of(s) == score["level"] and C.in_pyramid(e["card"]))
    if kind == "per_token":
        return pp * P.token_count(pyramid, score["token"])
    if kind == "by_level":
        return pp * P.level_of(slot)
    raise ValueError(f"unknown aristocrat score {kind}")


def score_aristocrats(ctx) -> int:  # noqa: ANN001
    details = []
    for slot in sorted(ctx.pyramid["cards"], key=P.parse_slot):
        number = ctx.pyramid["cards"][slot]["card"]
        if is_aristocrat(number) and C.card(number).get("extra") == "text":
            details.append({"slot": slot, "card": number, "points": text_points(ctx, slot, number)})
    ctx.details["aristocrats"] = details
    return sum(d["points"] for d in details)


def patronage_points(ctx, slot: str, entry: dict) -> int:  # noqa: ANN001
    """Law 101 (Patronage): 3 PP per aristocrat in the pyramid."""
    pp = C.card(PATRONAGE)["effect"]["pp"] if "pp" in C.card(PATRONAGE)["effect"] else 3
    return pp * sum(1 for e in ctx.pyramid["cards"].values() if is_aristocrat(e["card"]))


class Aristocrats:
    name = NAME
    order = 30

    def install(self, rules: Ruleset) -> None:
        common.install(rules)
        rules.characters = tuple(rules.characters) + ARISTOCRATS
        rules.law_cards = tuple(rules.law_cards) + ARISTOCRAT_LAWS
        rules.add_law(PATRONAGE, Law(play=play_placed, score=patronage_points))
        for number in ARISTOCRAT_LAWS[1:]:
            rules.add_law(number, Law(validate=L._validate_choice, play=L._choose_one))
        rules.scorers.append(Scorer(NAME, score_aristocrats, "Aristocrats"))


MODULE = Aristocrats()
