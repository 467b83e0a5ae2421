"""The language of the words drawn in pictures (rendering/words.py) and the caches that keep pictures per language."""

from __future__ import annotations

import concurrent.futures

from bot.i18n import drawing
from engine.viceroy import cards as cardlib
from rendering import render_scores
from rendering.cache import PICTURES
from rendering.cards import full_face, placed_face
from rendering.words import clear_caches, drawing_in, drawn_in, language, say

SWEDISH = drawing("sv", "viceroy")
SCORES = [{"seat": 0, "total": 12, "winner": True, "breakdown": {"circles": 4, "laws": 8}},
          {"seat": 1, "total": 9, "breakdown": {"circles": 9}}]


def test_say_is_english_outside_a_drawing_and_the_readers_language_inside():
    assert say("Final scores") == "Final scores" and language() == ""
    with drawing_in(*SWEDISH):
        assert say("Final scores") == "Slutresultat"
        assert say("Turn 7 (last)") == "Omgång 7 (sista)"  # a template: the number is kept
        assert language() == "sv:viceroy"
    assert say("Final scores") == "Final scores" and language() == ""


def test_english_draws_with_no_translation_at_all():
    assert drawing("en", "viceroy") == ("", None)
    with drawing_in(*drawing("en", "viceroy")):
        assert say("Final scores") == "Final scores" and language() == ""


def test_a_drawing_handed_to_another_thread_keeps_its_language():
    # The bot draws on a thread pool: the language goes with the function, not with the thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(drawn_in(*SWEDISH, lambda: say("Winner"))).result() == "Vinnare"
        assert pool.submit(lambda: say("Winner")).result() == "Winner"  # nothing left behind on the thread


def test_the_picture_cache_keeps_one_copy_per_language():
    PICTURES.clear()
    english = render_scores(SCORES, ["Ann", "Bo"])
    with drawing_in(*SWEDISH):
        swedish = render_scores(SCORES, ["Ann", "Bo"])
        assert render_scores(SCORES, ["Ann", "Bo"]) == swedish
    assert swedish != english
    assert render_scores(SCORES, ["Ann", "Bo"]) == english  # the Swedish copy never answers an English reader
    PICTURES.clear()
    assert render_scores(SCORES, ["Ann", "Bo"]) == english  # drawn again, the same picture


def test_card_faces_are_kept_per_language():
    law = next(n for n in cardlib.CARDS if cardlib.is_law(n))
    clear_caches()
    english = full_face(law).tobytes(), placed_face(law).tobytes()
    with drawing_in(*SWEDISH):
        swedish = full_face(law).tobytes(), placed_face(law).tobytes()
    assert swedish[0] != english[0] and swedish[1] != english[1]  # "LAG" and the law's text in Swedish
    assert (full_face(law).tobytes(), placed_face(law).tobytes()) == english


def test_a_card_with_no_words_to_translate_looks_the_same_in_both_languages():
    plain = next(n for n, c in cardlib.CARDS.items() if "rows" in c and not cardlib.is_law(n))
    english = full_face(plain).tobytes()
    with drawing_in(*SWEDISH):
        assert full_face(plain).tobytes() == english
