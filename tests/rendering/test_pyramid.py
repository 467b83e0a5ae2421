"""Pyramid images: every shape renders, the geometry follows the slot rules, circles and legal slots show."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.viceroy import cards as cardlib
from rendering import pyramid_image, render_pyramid, single_color_circles, slot_labels, slot_rects
from rendering.cards import PYR_H, PYR_R, PYR_W, section_probes
from rendering.pyramid import parse_slot, pyramid_layout
from rendering.style import BG, COLOR_RGB, GOLD, HIGHLIGHT

from .sample_views import base_slots, full_slots, pyramid, pyramid_15, pyramid_shapes
from .test_cards import close

SHAPES = pyramid_shapes()


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_shape_renders_within_bounds(name: str) -> None:
    title = "Bartholomew the Magnificent"
    data = render_pyramid(SHAPES[name], title, {"hand": 2})
    assert len(data) < 8 * 1024 * 1024
    with Image.open(io.BytesIO(data)) as img:
        w, h = img.size
    assert 300 <= w <= 2400 and 200 <= h <= 2400
    # every card gets a full card-sized box inside the image
    cards = SHAPES[name]["cards"]
    for box in slot_rects(SHAPES[name], list(cards), {"hand": 2}, title).values():
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= w and box[3] <= h


def test_upper_card_is_centred_over_the_two_below() -> None:
    view = pyramid_15()
    layout = pyramid_layout(view)
    for slot in view["cards"]:
        level, x = parse_slot(slot)
        if level < 2:
            continue
        up = layout.rect(slot)
        left = layout.rect(f"{level - 1}:{x - 1}")
        right = layout.rect(f"{level - 1}:{x + 1}")
        assert (up[0] + up[2]) // 2 == left[2] == right[0]  # centre over the shared edge
        assert up[3] == left[1] == right[1]  # resting on them
        assert up[2] - up[0] == PYR_W and up[3] - up[1] == PYR_H


def test_section_pixels_in_a_pyramid() -> None:
    view = pyramid_15()
    img = pyramid_image(view, "P")
    layout = pyramid_layout(view, None, img.width)
    assert img.size == (layout.width, layout.height)
    probes = section_probes(PYR_W, PYR_H, PYR_R)
    for slot, entry in view["cards"].items():
        x0, y0, _, _ = slot_rects(view, [slot])[slot]
        colors = cardlib.section_colors(entry["card"])
        for section, (px, py) in probes.items():
            assert close(img.getpixel((x0 + px, y0 + py)), COLOR_RGB[colors[section]]), (slot, section)


def test_single_colour_circles_are_ringed_and_others_not() -> None:
    view = pyramid_15()
    mono = dict(single_color_circles(view))
    assert "2:1" in mono and mono["2:1"] == "blue"  # built that way by the fixture
    img = pyramid_image(view, "P")
    rects = slot_rects(view, list(view["cards"]))
    for slot in view["cards"]:
        if parse_slot(slot)[0] < 2:
            continue
        x0, _, x1, y1 = rects[slot]
        ring_px = img.getpixel(((x0 + x1) // 2 + PYR_R + 3, y1))
        assert close(ring_px, GOLD, 30) == (slot in mono), slot


def test_painting_can_make_a_circle_single_coloured() -> None:
    view = pyramid(full_slots(2), seed=5)
    cards = view["cards"]
    before = dict(single_color_circles(view))
    cards["1:0"]["paint"] = {"top_right": "yellow"}
    cards["1:2"]["paint"] = {"top_left": "yellow"}
    cards["2:1"]["paint"] = {"bottom_left": "yellow", "bottom_right": "yellow"}
    assert dict(single_color_circles(view)) == {**before, "2:1": "yellow"}


def test_slot_labels_follow_the_given_order() -> None:
    assert slot_labels(["1:-2", "2:1", "1:6"]) == {"1:-2": "A", "2:1": "B", "1:6": "C"}
    many = slot_labels([f"1:{2 * i}" for i in range(28)])
    assert many["1:0"] == "A" and many["1:50"] == "Z" and many["1:52"] == "AA" and many["1:54"] == "AB"


def test_a_labelled_frame_appears_for_each_legal_slot_and_only_those() -> None:
    view = pyramid(full_slots(3))
    legal = ["1:-2", "1:6", "2:5"]
    not_offered = ["1:-4", "1:8"]  # empty positions that are inside the image but not legal
    img = pyramid_image(view, "P", slots=legal)
    rects = slot_rects(view, legal)
    for slot in legal:
        x0, y0, x1, y1 = rects[slot]
        assert close(img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2 - 30)), HIGHLIGHT)  # the letter badge
    # no badge at positions that were not offered
    layout = pyramid_layout(view, legal, img.width)
    for slot in not_offered:
        x0, y0, x1, y1 = layout.rect(slot)
        centre = ((x0 + x1) // 2, (y0 + y1) // 2 - 30)
        if 0 <= centre[0] < img.width:
            assert not close(img.getpixel(centre), HIGHLIGHT), slot
    badge_pixels = sum(1 for p in _sample(img) if close(p, HIGHLIGHT))
    assert badge_pixels > 0
    # and without slots, no badge at the legal positions either
    bare = pyramid_image(view, "P", slots=[])
    assert not any(close(p, HIGHLIGHT) for p in _sample(bare))


def _sample(img: Image.Image) -> list[tuple]:
    return [img.getpixel((x, y)) for x in range(0, img.width, 7) for y in range(0, img.height, 7)]


def test_frames_are_drawn_in_the_order_given() -> None:
    view = pyramid(base_slots(2))
    a = pyramid_image(view, "P", slots=["1:-2", "1:4"])
    b = pyramid_image(view, "P", slots=["1:4", "1:-2"])
    assert a.size == b.size
    assert a.tobytes() != b.tobytes()  # the letters swapped places


def test_occupied_slot_can_be_offered_as_a_target() -> None:
    view = pyramid(base_slots(3))
    img = pyramid_image(view, "P", slots=["1:2"])
    x0, y0, x1, y1 = slot_rects(view, ["1:2"])["1:2"]
    assert close(img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2 - 30)), HIGHLIGHT)


def test_empty_pyramid_and_header_totals() -> None:
    img = pyramid_image({"cards": {}}, "Nobody")
    assert img.getpixel((img.width // 2, img.height - 5)) == BG
    a = pyramid_image(pyramid_15(), "P")
    b = pyramid_image(pyramid_15(), "P", {"hand": 3})
    assert a.tobytes() != b.tobytes()


def test_legal_slots_from_the_engine_get_frames() -> None:
    from engine.viceroy.pyramid import legal_slots

    view = pyramid(full_slots(3))
    legal = legal_slots(view, 10)
    assert legal
    img = pyramid_image(view, "P", slots=legal)
    for slot, (x0, y0, x1, y1) in slot_rects(view, legal).items():
        assert close(img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2 - 30)), HIGHLIGHT), slot
