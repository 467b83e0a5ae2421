"""Auction, screen, table and score sheet; hidden information stays out of public images; real engine views."""

from __future__ import annotations

import copy
import io
import random

import pytest
from PIL import Image

from engine.viceroy import final_scores, game, view
from engine.viceroy.ai import choose_action, play_game
from rendering import (
    auction_image,
    render_auction,
    render_scores,
    render_screen,
    render_table,
    scores_image,
    screen_image,
    table_image,
)
from rendering.boards import NARROW_WIDTH, auction_strip
from rendering.cards import CARD_H, CARD_R, CARD_W, section_probes
from rendering.style import COLOR_RGB

from .sample_views import AUCTION, NAMES, public_view, seat_view
from .sample_views import final_scores as sample_scores
from .test_cards import close

LIMIT = 8 * 1024 * 1024


def size_of(data: bytes) -> tuple[int, int]:
    assert len(data) < LIMIT
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG"
        return img.size


def within_bounds(data: bytes) -> None:
    w, h = size_of(data)
    assert w <= 2400 and h <= 2400


def test_auction_shows_cards_where_the_view_has_them() -> None:
    within_bounds(render_auction(AUCTION))
    img = auction_image(AUCTION)
    probe = section_probes(CARD_W, CARD_H, CARD_R)["top_left"]
    # column geometry: 20 px padding, 14 px gaps, a 56 px tab and a 34 px caption above the base card
    x_red, y_base = 20, 20 + 56 + 34
    assert close(img.getpixel((x_red + probe[0], y_base + probe[1])), COLOR_RGB["blue"])  # #12 top-left is blue
    x_yellow = 20 + 3 * (CARD_W + 14)
    empty = img.getpixel((x_yellow + probe[0], y_base + probe[1]))
    assert not any(close(empty, rgb) for rgb in COLOR_RGB.values())
    full = copy.deepcopy(AUCTION)
    full["yellow"]["base"] = 12
    assert auction_image(full).getpixel((x_yellow + probe[0], y_base + probe[1])) == img.getpixel(
        (x_red + probe[0], y_base + probe[1])
    )


def test_screen_shows_the_hand_and_grows_with_it() -> None:
    v = seat_view(0)
    within_bounds(render_screen(v, "Alice"))
    small = copy.deepcopy(v)
    for holder in (small, small["players"][0]):
        holder["hand"] = [32]
    assert screen_image(small).height < screen_image(v).height
    empty = copy.deepcopy(v)
    for holder in (empty, empty["players"][0]):
        holder["hand"] = []
    assert screen_image(empty).height < screen_image(small).height


def test_screen_reads_gems_from_the_seat_entry_of_an_engine_style_view() -> None:
    v = public_view()
    v["seat"] = 1
    v["players"][1].update(gems={"red": 1, "green": 1, "blue": 1, "yellow": 1}, attacks=0, hand=[5])
    other = copy.deepcopy(v)
    other["players"][1]["gems"]["red"] = 7
    assert screen_image(v).tobytes() != screen_image(other).tobytes()


def test_scores_sheet_lists_every_category_and_marks_the_winner() -> None:
    scores = sample_scores()
    within_bounds(render_scores(scores, NAMES))
    base = scores_image(scores, NAMES)
    extra = copy.deepcopy(scores)
    extra[0]["breakdown"]["domains"] = 5
    assert scores_image(extra, NAMES).height > base.height
    no_winner = copy.deepcopy(scores)
    for s in no_winner:
        s["winner"] = False
    assert scores_image(no_winner, NAMES).tobytes() != base.tobytes()


class Spy(dict):
    """A dict that records which keys were read."""

    def __init__(self, *args: object, log: set[str]) -> None:
        super().__init__(*args)
        self.log = log

    def __getitem__(self, key: str) -> object:
        self.log.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: object = None) -> object:
        self.log.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.log.add(str(key))
        return super().__contains__(key)


SECRETS = ("hand", "gems", "attacks", "my_choice", "prompt", "used_infinite")


def test_table_never_reads_a_seats_secrets() -> None:
    v = public_view()
    plain = table_image(v, NAMES)
    log: set[str] = set()
    seeded = copy.deepcopy(v)
    seeded["players"] = [
        Spy({**p, "hand": [1, 2, 3], "gems": {"red": 9}, "attacks": 4, "used_infinite": ["1:0"]}, log=log)
        for p in seeded["players"]
    ]
    assert table_image(seeded, NAMES).tobytes() == plain.tobytes()
    assert log  # the spy saw the public keys
    assert not log & set(SECRETS)


def test_table_sizes_for_one_to_four_players() -> None:
    for players in (1, 2, 3, 4):
        within_bounds(render_table(public_view(players), NAMES))


def test_the_narrow_table_fits_a_phone_and_shows_what_the_wide_one_shows() -> None:
    """Laid out for a phone: at most NARROW_WIDTH wide for any number of players (the wide one is 1,850 px for
    two or more), the pyramids one under the other, the auction in two rows; the same seats' secrets stay out."""
    for players in (1, 2, 3, 4):
        v = public_view(players)
        narrow, wide = table_image(v, NAMES, narrow=True), table_image(v, NAMES)
        assert narrow.width <= NARROW_WIDTH and narrow.height <= 2400
        if players >= 2:
            assert wide.width > 2 * NARROW_WIDTH > narrow.width and narrow.height > wide.height
        within_bounds(render_table(v, NAMES, narrow=True))
    # Nothing but the layout differs: a seat's secrets change neither picture.
    v = public_view(2)
    seeded = copy.deepcopy(v)
    seeded["players"] = [{**p, "hand": [1, 2, 3], "gems": {"red": 9}} for p in seeded["players"]]
    assert table_image(seeded, NAMES, narrow=True).tobytes() == table_image(v, NAMES, narrow=True).tobytes()


def test_the_auction_strip_in_two_rows_holds_every_card_of_the_one_row() -> None:
    one, two = auction_strip(AUCTION), auction_strip(AUCTION, per_row=2)
    assert two.width < one.width * 0.6 and two.height > one.height * 1.9
    # The same card faces in both: the pixels of the two halves of the two-row strip are the one row's.
    half = (one.width - 2 * 20) // 2 + 20  # PAD + two colour groups
    assert two.crop((0, 0, half, one.height)).tobytes() == one.crop((0, 0, half, one.height)).tobytes()


@pytest.fixture(scope="module")
def finished_game() -> tuple[dict, list[dict]]:
    return play_game({"players": 4, "deal": 4, "virtual_opponents": 0}, 21)


def test_real_engine_views_render_through_a_whole_game(finished_game: tuple[dict, list[dict]]) -> None:
    final, actions = finished_game
    options = {"players": 4, "deal": 4, "virtual_opponents": 0}
    state = game.new_game(options, 21)
    checkpoints = {len(actions) // 4, len(actions) // 2, len(actions) - 1}
    rendered = 0
    for i, step in enumerate(actions):
        game.apply_action(state, step["seat"], step["action"])
        if i in checkpoints:
            within_bounds(render_table(view(state, None), NAMES))
            within_bounds(render_screen(view(state, step["seat"]), NAMES[step["seat"]]))
            rendered += 1
    assert rendered == len(checkpoints)
    assert state == final
    within_bounds(render_scores(final_scores(final), NAMES))


def test_real_public_view_without_hands_equals_view_with_sentinel_hands() -> None:
    options = {"players": 3, "deal": 4, "virtual_opponents": 0}
    state = game.new_game(options, 4)
    rng = random.Random(4)
    for _ in range(60):
        prompts = game.pending(state)
        seat = min(s for s, p in prompts.items() if not p.get("submitted"))
        game.apply_action(state, seat, choose_action(state, seat, rng))
    public = view(state, None)
    assert all("hand" not in p for p in public["players"])
    with_secrets = copy.deepcopy(public)
    for p, full in zip(with_secrets["players"], state["players"], strict=True):
        p["hand"] = list(full["hand"]) or [64]
        p["gems"] = dict(full["gems"])
    assert table_image(with_secrets, NAMES).tobytes() == table_image(public, NAMES).tobytes()
