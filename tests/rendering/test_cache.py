"""The picture caches: the same arguments give the same bytes without drawing again; anything else draws."""

from __future__ import annotations

import copy

import pytest

from rendering import render_pyramid, render_table, table_image
from rendering.cache import PARTS, PICTURES, LruCache, cached_png
from tests.rendering.sample_views import NAMES, public_view, pyramid_15


@pytest.fixture
def counted():
    """A cached function that counts the times it really draws, and a fresh shared cache."""
    PICTURES.clear()
    calls: list[tuple] = []

    @cached_png
    def draw(view, names=None, *, narrow=False) -> bytes:
        calls.append((copy.deepcopy(view), names, narrow))
        return repr((view, names, narrow)).encode()

    yield draw, calls
    PICTURES.clear()


def test_equal_arguments_are_drawn_once_and_give_the_same_bytes(counted):
    draw, calls = counted
    first = draw({"players": [{"pp": 3}]}, ["Ann"])
    again = draw({"players": [{"pp": 3}]}, ["Ann"])  # equal, not the same objects
    assert again == first and len(calls) == 1
    assert PICTURES.hits == 1


@pytest.mark.parametrize("other", [
    (({"players": [{"pp": 4}]}, ["Ann"]), {}),           # another value
    (({"players": [{"pp": 3}]}, ["Bo"]), {}),            # another name
    (({"players": [{"pp": 3}]}, ["Ann"]), {"narrow": True}),  # a keyword
    (({"players": [{"pp": 3}]}, {0: "Ann"}), {}),        # names by seat, not a list
    (({"players": [{"pp": 3.0}]}, ["Ann"]), {}),         # 3.0 == 3, but another type
    (({"players": [{"pp": True}]}, ["Ann"]), {}),        # True == 1 too
    (({"players": ({"pp": 3},)}, ["Ann"]), {}),          # a tuple, not a list
    (({"players": [{"pp": 3}], "x": None}, ["Ann"]), {}),  # one more key
])
def test_anything_else_is_drawn(counted, other):
    draw, calls = counted
    draw({"players": [{"pp": 3}]}, ["Ann"])
    args, kwargs = other
    assert draw(*args, **kwargs) == repr((args[0], args[1], kwargs.get("narrow", False))).encode()
    assert len(calls) == 2


def test_str_and_int_keys_are_different_pictures(counted):
    draw, calls = counted
    draw({1: "x"})
    draw({"1": "x"})
    assert len(calls) == 2


def test_a_view_changed_after_drawing_is_drawn_again(counted):
    draw, calls = counted
    view = {"players": [{"pp": 3}]}
    draw(view)
    view["players"][0]["pp"] = 5
    assert b"5" in draw(view)
    assert len(calls) == 2


def test_arguments_that_do_not_pickle_are_drawn_every_time(counted):
    draw, calls = counted
    view = {"f": lambda: 1}
    draw(view)
    draw(view)
    assert len(calls) == 2 and len(PICTURES) == 0


def test_the_oldest_pictures_go_first_when_it_is_full():
    cache = LruCache(max_bytes=10)
    cache.put(b"a", b"1234")
    cache.put(b"b", b"1234")
    assert cache.get(b"a") == b"1234"  # a is now the newest
    cache.put(b"c", b"1234")
    assert cache.get(b"b") is None and cache.get(b"a") == b"1234" and cache.get(b"c") == b"1234"
    assert cache.size == 8
    cache.put(b"d", b"x" * 11)  # bigger than the whole cache: not kept
    assert cache.get(b"d") is None and cache.size == 8


def test_real_pictures_come_back_identical():
    PICTURES.clear()
    view = public_view(3)
    drawn = render_table(view, NAMES)
    assert render_table(copy.deepcopy(view), NAMES) == drawn
    assert render_table(view, NAMES, narrow=True) != drawn
    assert render_pyramid(pyramid_15(), "Bo") != render_pyramid(pyramid_15(), "Cy")
    assert PICTURES.hits == 1
    PICTURES.clear()


def test_a_table_after_one_pyramid_changed_is_the_table_drawn_from_scratch():
    """The table keeps the pyramids it drew (PARTS): a table where one pyramid changed reuses the others and
    is pixel for pixel the table drawn with nothing kept."""
    PARTS.clear()
    before = public_view(4)
    table_image(before, NAMES)
    after = copy.deepcopy(before)
    after["players"][2]["pyramid"] = public_view(4, seed=40)["players"][2]["pyramid"]
    after["players"][1]["submitted"] = not before["players"][1]["submitted"]  # a caption change redraws it
    hits = PARTS.hits
    kept = table_image(after, NAMES)
    assert PARTS.hits == hits + 2  # seats 0 and 3
    PARTS.clear()
    assert kept.tobytes() == table_image(after, NAMES).tobytes()
    PARTS.clear()
