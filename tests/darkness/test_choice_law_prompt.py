"""A "choose one" law a module adds is offered its option menu like the base game's (Court of Honour, #102)."""

from __future__ import annotations

from bot.presenters.viceroy.plans import is_choice
from engine.viceroy.state import CHOICE_LAWS


def test_court_of_honour_is_a_choose_one_law_for_the_prompt():
    assert is_choice(102)


def test_the_base_games_choice_laws_stay_choose_one_and_others_do_not():
    assert all(is_choice(n) for n in CHOICE_LAWS)
    assert not is_choice(65) and not is_choice(1)
