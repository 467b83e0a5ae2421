"""Time to compose and to encode the images the bot posts most (median of N runs, one thread).

    python benchmarks/bench_rendering.py [--runs 30]

Caches are warmed first (card faces and icons are drawn once per process), so the numbers are what a
running bot pays per image; the table's pyramids (kept between tables, rendering/cache.py) are drawn anew
each time, as after a move that changed every pyramid.  The table is also drawn for a Swedish reader (every
word through the catalogue, rendering/words.py) beside the English one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from bot.i18n import drawing  # noqa: E402
from rendering import encode_png, pyramid_image, table_image  # noqa: E402
from rendering.cache import PARTS  # noqa: E402
from rendering.words import drawn_in  # noqa: E402
from tests.rendering.sample_views import NAMES, public_view, pyramid_15  # noqa: E402


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def bench(label: str, compose: Callable[[], Image.Image], runs: int) -> None:
    img = compose()  # warm the caches
    c = median_ms(compose, runs)
    for palette in (False, True):  # full colour (the floor), then what the bot sends
        data = encode_png(img, palette=palette)
        e = median_ms(lambda p=palette: encode_png(img, palette=p), runs)
        name = f"{label}{', palette' if palette else ''}"
        print(f"| {name:31} | {img.width}x{img.height:<5} | {c:8.1f} | {e:8.1f} | {c + e:8.1f} | {len(data) / 1024:8.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    pyr = pyramid_15()
    view = public_view(4)
    print("| image                           | size      | compose ms | encode ms | total ms | PNG KiB |")
    print("|---------------------------------|-----------|----------:|---------:|---------:|--------:|")
    bench("pyramid, 15 cards", lambda: pyramid_image(pyr, "Bartholomew", {"hand": 2}), args.runs)
    bench("table, 4 players", lambda: PARTS.clear() or table_image(view, NAMES), args.runs)
    bench("table, 4 players, Swedish", drawn_in(*drawing("sv", "viceroy"),
                                                lambda: PARTS.clear() or table_image(view, NAMES)), args.runs)


if __name__ == "__main__":
    main()
