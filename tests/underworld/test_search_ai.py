"""The search AI (engine/search.py with engine/viceroy/ai_candidates.py) plays criminal cards: the Underworld
module offers them as candidates, and the play-outs weigh each line's judgement tokens against its reward."""

from __future__ import annotations

import random

from engine.search import ai_for, load_game
from engine.viceroy.ai_candidates import candidates
from engine.viceroy.determinize import _hidden_gem_totals
from engine.viceroy.modules.criminals import lines
from tests.underworld.helpers import ROW, dev_game, ext, give_tokens, kind_ids

INFORMER = 133  # top line: discard 1 judgement token
VICEROY = load_game("viceroy")


def _heavy_judgement_position() -> dict:
    """The last development phase; seat 0 holds the Informer and a -4 PP and a -3 PP judgement token, and has
    nothing else to play: the Informer lets it return the -4 for at most one new token (five in six cost
    less), so playing it is clearly better than passing."""
    state = dev_game(layout=ROW, cards=[INFORMER])
    state["last_turn"] = True
    give_tokens(state, 0, [kind_ids("pp", value=4)[0], kind_ids("pp", value=3)[0]])
    # 16 gems of each colour in all: the reserve takes what the builder's screens left over.
    hidden = _hidden_gem_totals(state, 0)
    for c, n in hidden.items():
        state["reserve"][c] += n - sum(pl["gems"][c] for pl in state["players"][1:])
        assert state["reserve"][c] >= 0
    return state


def test_search_candidates_include_every_line_of_a_criminal_in_hand():
    state = _heavy_judgement_position()
    plays = [a for a in candidates(state, 0, random.Random(1)) if a.get("card") == INFORMER]
    assert {(a["slot"], a["line"]) for a in plays} == {(s, line) for s in ("0:1", "0:3") for line in range(3)}
    assert all(a["type"] == "play" for a in plays) and len(lines(INFORMER)) == 3


def test_search_ai_plays_a_criminal_when_it_is_clearly_good():
    state = _heavy_judgement_position()
    choose = ai_for(VICEROY, "normal")
    for seed in range(3):
        action = choose(state, 0, random.Random(seed))
        assert action["type"] == "play" and action["card"] == INFORMER, action
    assert ext(state)["held"][0] == [kind_ids("pp", value=4)[0], kind_ids("pp", value=3)[0]]  # untouched
