"""The Splendor Duel renderer: PNGs from views only; blind reserves never change the public image."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from engine.splendor_duel import GAME
from engine.splendor_duel.cards import TOKEN_KINDS
from rendering.splendor_duel import board_image, render_board, render_table, table_image, token
from tests.splendor_duel.helpers import fresh, give_card, give_reserved, set_board, set_tokens


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG"
        return img.size


def midgame(seed: int = 4, actions: int = 40) -> dict:
    state = GAME.new_game({}, seed, 2)
    rng = random.Random(seed)
    for _ in range(actions):
        if GAME.is_over(state):
            break
        (seat,) = GAME.pending(state)
        GAME.apply(state, seat, GAME.choose_action(state, seat, rng))
    return state


def test_render_table_png_for_public_and_seat_views():
    state = midgame()
    for viewer in (None, 0, 1):
        w, h = png_size(render_table(GAME.view(state, viewer), ["Ann", "Bo"]))
        assert w >= 1000 and h >= 900
    assert png_size(render_board(GAME.view(state, None))) == board_image(GAME.view(state, None)).size


def test_render_finished_game_and_empty_pyramid_slots():
    state = GAME.new_game({}, 2, 2)
    state["decks"]["3"] = state["decks"]["3"][:0] or []
    from engine.splendor_duel.ai import play_game

    final, _ = play_game({}, 9)
    final["pyramid"]["2"][1] = None
    png_size(render_table(GAME.view(final, None)))
    png_size(render_table(GAME.view(state, None), {0: "A", 1: "B"}))


def blind_state(card_id: str) -> dict:
    state = set_board(fresh(3), {"A1": "gold", "C3": "blue"})
    set_tokens(state, 1, red=2, gold=1)
    give_card(state, 1, "L1-21")
    give_reserved(state, 1, card_id, blind=True)
    give_reserved(state, 1, "L1-07", blind=False)
    return state


def test_public_image_does_not_depend_on_blind_reserve_identities():
    a, b = blind_state("L2-05"), blind_state("L2-18")
    # Same everything visible (the pyramid may differ if the card came from it: put both back alike).
    b["pyramid"], b["decks"] = a["pyramid"], a["decks"]
    for viewer in (None, 0):
        assert render_table(GAME.view(a, viewer)) == render_table(GAME.view(b, viewer))


def test_owner_screen_shows_their_blind_reserve():
    a, b = blind_state("L2-05"), blind_state("L2-18")
    b["pyramid"], b["decks"] = a["pyramid"], a["decks"]
    assert render_table(GAME.view(a, 1)) != render_table(GAME.view(b, 1))


def test_tokens_differ_by_shape_and_letter_without_colour():
    # Each token on white paper in grey levels only: every pair still differs in many pixels.
    def grey(kind: str) -> Image.Image:
        paper = Image.new("RGBA", (48, 48), (255, 255, 255, 255))
        paper.alpha_composite(token(kind, 48))
        return paper.convert("L")

    shapes = {k: grey(k) for k in TOKEN_KINDS}
    kinds = list(shapes)
    for i, x in enumerate(kinds):
        for y in kinds[i + 1:]:
            diff = ImageChops.difference(shapes[x], shapes[y])
            changed = sum(1 for v in diff.tobytes() if v > 60)
            assert changed > 150, (x, y, changed)


def test_table_image_reads_only_the_view():
    state = midgame(6, 30)
    view = GAME.view(state, None)
    # A view is plain JSON: rendering it twice gives the same pixels, and the state is not needed.
    assert table_image(view).tobytes() == table_image(GAME.view(state, None)).tobytes()
