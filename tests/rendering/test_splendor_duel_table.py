"""The Splendor Duel table picture: each player's cards sorted into columns under readable headings."""

from __future__ import annotations

from PIL import Image

from engine.splendor_duel import GAME
from rendering.splendor_duel import table as T
from rendering.style import BG_PANEL


def _gray_heading(img: Image.Image, seat: int) -> set[tuple[int, int, int]]:
    """The colours in the heading of a player's sixth card column (the gray cards'), under the names line."""
    board_h = T.board_image(GAME.view(GAME.new_game({}, 1, 2), None)).height
    top = max(board_h + 90, T.pyramid_image(GAME.view(GAME.new_game({}, 1, 2), None)).height)
    x0, y0 = T.GAP + 12 + 5 * (92 + 6), top + seat * T.PANEL_H + 76
    return {img.getpixel((x, y)) for x in range(x0, x0 + 92) for y in range(y0, y0 + 30)}


def test_a_player_without_gray_cards_gets_no_gray_heading():
    view = GAME.view(GAME.new_game({}, 1, 2), None)
    view["players"][0]["cards"] = [["L1-02", "white"], ["L1-17", "black"]]
    view["players"][1]["cards"] = [["L1-28", None]]
    img = T.table_image(view, {0: "Ann", 1: "Bo"})
    assert _gray_heading(img, 0) == {BG_PANEL}
    assert len(_gray_heading(img, 1)) > 1  # Bo holds a gray card: its column has a heading
