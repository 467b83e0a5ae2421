"""Splendor Duel speed on one core: full AI-vs-AI games per second, and the table image's compose vs encode.

Run: taskset -c 0 python3 benchmarks/bench_splendor_duel.py [--games N] [--images N]
Games are played by the baseline AI through the engine (choose_action + apply), seeds 0..N-1. The figures
are printed beside their floors: the target of 200 games/s and the ~400 games/s per thread claimed by a
Rust engine (EluvK/splendor-duel-assistant); compose time beside PNG encode time of the same images.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.splendor_duel import GAME  # noqa: E402
from engine.splendor_duel.ai import play_game  # noqa: E402
from rendering.png import encode_png  # noqa: E402
from rendering.splendor_duel import table_image  # noqa: E402

TARGET_GAMES = 200.0
RUST_CLAIM = 400.0


def bench_games(games: int) -> tuple[float, float, float, float]:
    """(games per CPU second, games per wall second, ms CPU per game, actions per game).

    CPU time is what one core spends on this process alone, so the figure holds on a machine shared with
    other work; the wall-clock rate is printed beside it."""
    actions = 0
    c0, t0 = time.process_time(), time.perf_counter()
    for seed in range(games):
        _state, record = play_game({}, seed)
        actions += len(record)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    return games / cpu, games / wall, 1000 * cpu / games, actions / games


def sample_views(count: int) -> list[dict]:
    """Public views from AI games at various moments (early, mid, late)."""
    views = []
    for seed in range(count):
        state = GAME.new_game({}, 100 + seed, 2)
        rng = random.Random(seed)
        stop = 10 + (seed * 7) % 50
        while not GAME.is_over(state) and stop:
            (seat,) = GAME.pending(state)
            GAME.apply(state, seat, GAME.choose_action(state, seat, rng))
            stop -= 1
        views.append(GAME.view(state, None))
    return views


def bench_images(count: int) -> tuple[float, float, float]:
    """(median compose ms, median encode ms, mean KiB) for the table image."""
    views = sample_views(count)
    table_image(views[0], ["A", "B"])  # warm the sprite caches, as a running bot has them
    compose, encode, sizes = [], [], []
    for v in views:
        t0 = time.process_time()
        img = table_image(v, ["Alice", "Bob"])
        t1 = time.process_time()
        data = encode_png(img)
        t2 = time.process_time()
        compose.append(1000 * (t1 - t0))
        encode.append(1000 * (t2 - t1))
        sizes.append(len(data) / 1024)
    return statistics.median(compose), statistics.median(encode), statistics.mean(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--images", type=int, default=40)
    args = parser.parse_args()
    rate, wall_rate, ms, actions = bench_games(args.games)
    compose, encode, kib = bench_images(args.images)
    print(f"{'what':<34}{'measured':>16}{'floor/target':>26}")
    print(f"{'AI-vs-AI games/s (one core)':<34}{rate:>16.0f}{f'>= {TARGET_GAMES:.0f} (Rust ~{RUST_CLAIM:.0f})':>26}")
    print(f"{'  same, wall clock':<34}{wall_rate:>16.0f}")
    print(f"{'  CPU ms per game, actions per game':<34}{f'{ms:.2f}, {actions:.0f}':>16}")
    print(f"{'table image compose ms (median)':<34}{compose:>16.1f}{f'<= encode {encode:.1f}':>26}")
    print(f"{'table image PNG encode ms (median)':<34}{encode:>16.1f}{f'{kib:.0f} KiB':>26}")
    print(f"compose {'<=' if compose <= encode else '>'} encode; games/s {'>=' if rate >= TARGET_GAMES else '<'} "
          f"target")


if __name__ == "__main__":
    main()
