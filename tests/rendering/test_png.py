"""8-bit palette PNGs where they look the same, full colour where they would not."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops, ImageStat

from rendering import encode_png, render_table, table_image
from rendering.png import PALETTE_MAX_MEAN_ERROR, palette_png
from tests.rendering.sample_views import NAMES, public_view


def _open(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        return img


def test_the_table_is_a_palette_png_a_third_of_the_size_that_looks_the_same():
    img = table_image(public_view(4), NAMES).convert("RGB")
    full, small = encode_png(img), encode_png(img, palette=True)
    assert _open(full).mode == "RGB" and _open(small).mode == "P"
    assert len(small) < 0.5 * len(full)
    diff = ImageChops.difference(img, _open(small).convert("RGB"))
    assert sum(ImageStat.Stat(diff).mean) / 3 <= PALETTE_MAX_MEAN_ERROR
    assert render_table(public_view(4), NAMES) == small


def test_few_colours_round_trip_exactly():
    img = Image.new("RGB", (60, 40), (20, 30, 40))
    img.paste((200, 10, 10), (10, 10, 30, 30))
    back = _open(encode_png(img, palette=True))
    assert back.mode == "P" and back.convert("RGB").tobytes() == img.tobytes()


def test_noise_stays_full_colour():
    rng = random.Random(3)
    img = Image.frombytes("RGB", (64, 64), bytes(rng.randrange(256) for _ in range(64 * 64 * 3)))
    assert palette_png(img) is None
    back = _open(encode_png(img, palette=True))
    assert back.mode == "RGB" and back.tobytes() == img.tobytes()


def test_transparency_stays_full_colour():
    img = Image.new("RGBA", (10, 10), (255, 0, 0, 0))
    assert palette_png(img) is None
    opaque = Image.new("RGBA", (10, 10), (255, 0, 0, 255))
    assert _open(encode_png(opaque, palette=True)).convert("RGB").getpixel((5, 5)) == (255, 0, 0)
