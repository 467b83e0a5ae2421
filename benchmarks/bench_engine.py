"""Engine speed on one core: full 4-player AI games per second, and the painting solver on a full pyramid.

Run: python benchmarks/bench_engine.py [--games N]
Games are played by the baseline AI (engine.viceroy.ai.play_game), seeds 0..N-1, one process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.viceroy.ai import play_game  # noqa: E402
from engine.viceroy.cards import COLORS  # noqa: E402
from engine.viceroy.painting import best_painting  # noqa: E402

try:
    from benchmarks.bench_painting import full_pyramid  # noqa: E402
except ImportError:  # run from elsewhere without the package on the path
    full_pyramid = None


def bench_games(games: int, players: int = 4) -> tuple[float, float, float]:
    """(games per second, ms per game, actions per game) for full AI games."""
    actions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        _state, record = play_game({"players": players}, seed)
        actions += len(record)
    elapsed = time.perf_counter() - t0
    return games / elapsed, 1000 * elapsed / games, actions / games


def _fallback_pyramid(rng: random.Random) -> dict:
    numbers = rng.sample(range(1, 65), 15)
    cards = {}
    i = 0
    for level in range(1, 6):
        for j in range(6 - level):
            slot = f"{level}:{level - 1 + 2 * j}"
            cards[slot] = {"card": numbers[i], "slot": slot, "tokens": []}
            i += 1
    return {"cards": cards}


def bench_painting(gems_each: int, runs: int = 200) -> tuple[float, float]:
    """(median ms, max ms) of best_painting on full 15-card pyramids."""
    rng = random.Random(7)
    build = full_pyramid or _fallback_pyramid
    gems = dict.fromkeys(COLORS, gems_each)
    states = [{"options": {"players": 2}, "players": [{"pyramid": build(rng), "gems": gems, "attacks": 0}]} for _ in range(20)]
    times = []
    for r in range(runs):
        t0 = time.perf_counter()
        best_painting(states[r % len(states)], 0)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print(f"{'measurement':<40} {'result':>24}")
    print("-" * 65)
    for players in (4, 2, 1):
        per_s, ms, acts = bench_games(args.games, players)
        print(f"{f'{players}-player AI games ({args.games})':<40} {per_s:>9.1f} games/s {ms:>6.2f} ms/game")
        print(f"{'  actions per game':<40} {acts:>24.1f}")
    for gems_each in (16, 5):
        median, worst = bench_painting(gems_each)
        print(f"{f'painting, full pyramid, {gems_each} gems each':<40} {median:>9.3f} ms med {worst:>6.2f} max")


if __name__ == "__main__":
    main()
