"""Time best_painting on a full 15-card, five-level pyramid (median of many runs, in ms), then on large pyramids.

Run: python benchmarks/bench_painting.py
Two budgets: plenty of gems (every colour unconstrained) and a tight budget where colours compete,
which is the harder case for the solver. The last part draws random pyramids of the size a long game can
build (a level-1 row of 6-10 cards and the rows above it: 20, 25 and 30 cards; the largest pyramid in 600
baseline-AI games had 21) with budgets up to 16 gems of each
colour, and reports the slowest against the 20 ms target. Times are CPU time (time.process_time), so that
other work on a shared machine does not count.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.viceroy.cards import COLORS  # noqa: E402
from engine.viceroy.painting import best_painting  # noqa: E402


def full_pyramid(rng: random.Random) -> dict:
    """15 characters on five levels, with a circle bonus of every colour and a Heraldry law."""
    numbers = rng.sample(range(1, 65), 14)
    cards: dict[str, dict] = {}
    i = 0
    for level in range(1, 6):
        for j in range(6 - level):
            x = (level - 1) + 2 * j
            cards[f"{level}:{x}"] = {
                "card": numbers[i] if i < 14 else 79,
                "slot": f"{level}:{x}",
                "tokens": [],
            }
            i += 1
    # Heraldry must not sit on level 5: swap it with the card on level 4.
    cards["5:4"]["card"], cards["4:3"]["card"] = cards["4:3"]["card"], 79
    for k, color in enumerate(COLORS):
        cards["1:0"]["tokens"].append({"type": "circle_bonus", "color": color, "value": k + 1})
    return {"cards": cards}


def bench(label: str, gems: dict[str, int], runs: int = 300) -> None:
    rng = random.Random(7)
    states = [
        {"options": {"players": 2}, "players": [{"pyramid": full_pyramid(rng), "gems": gems, "attacks": 0}]}
        for _ in range(20)
    ]
    times = []
    for r in range(runs):
        state = states[r % len(states)]
        t0 = time.process_time()
        best_painting(state, 0)
        times.append((time.process_time() - t0) * 1000)
    print(f"{label:<28} median {statistics.median(times):.3f} ms   max {max(times):.3f} ms   ({runs} runs)")


def large_pyramid(rng: random.Random, size: int) -> dict:
    """Up to ``size`` characters: a level-1 row of 6-10 cards and full rows above it, circle bonuses."""
    numbers = rng.sample(range(1, 65), 64)
    width = rng.randint(6, 10)
    cards: dict[str, dict] = {}
    i = 0
    for level in range(1, 6):
        for j in range(width - level + 1):
            if i < size:
                x = (level - 1) + 2 * j
                cards[f"{level}:{x}"] = {"card": numbers[i], "slot": f"{level}:{x}", "tokens": []}
                i += 1
    for color in COLORS:
        if rng.random() < 0.7:
            cards["1:0"]["tokens"].append({"type": "circle_bonus", "color": color, "value": rng.randint(1, 4)})
    return {"cards": cards}


def worst_cases(count: int = 40, size: int = 30, target_ms: float = 20.0) -> None:
    rng = random.Random(11)
    times = []
    for t in range(count):
        gems = dict.fromkeys(COLORS, rng.choice([8, 12, 16])) if t % 2 else {c: rng.randint(0, 16) for c in COLORS}
        state = {"options": {"players": 2}, "players": [{"pyramid": large_pyramid(rng, size), "gems": gems, "attacks": 0}]}
        t0 = time.process_time()
        best_painting(state, 0)
        times.append((time.process_time() - t0) * 1000)
    over = sum(1 for x in times if x > target_ms)
    print(f"{f'{size}-card pyramids, up to 16 gems each':<28} median {statistics.median(times):.3f} ms   "
          f"max {max(times):.1f} ms   ({count} pyramids, {over} over the {target_ms:.0f} ms target)")


if __name__ == "__main__":
    bench("plenty of gems (16 each)", dict.fromkeys(COLORS, 16))
    bench("tight budget (5 each)", dict.fromkeys(COLORS, 5))
    bench("tight budget (9 each)", dict.fromkeys(COLORS, 9))
    bench("one colour (12 red)", {"red": 12, "green": 0, "blue": 0, "yellow": 0})
    # The largest pyramid in 600 baseline-AI games (1-4 players) had 21 cards; 25 and 30 go well beyond.
    worst_cases(count=150, size=20)
    worst_cases(count=150, size=25)
    worst_cases(count=150, size=30)
