"""Pyramido speed on one core, side by side with its targets in one run:

* full 4-player AI games per second (the generic loop: pending -> choose_action -> apply), target >= 100;
* legal placements for one domino (positions x directions), target <= 1 ms; also with every position
  annotated with the gaps it would leave (the turn prompt's work, shared by the three quarry dominoes);
* a 4-player table image: compose time next to its PNG encode time (target: compose <= encode).

Run: taskset -c 0 python benchmarks/bench_pyramido.py [--games N]
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.pyramido import GAME  # noqa: E402
from engine.pyramido import game as G  # noqa: E402
from engine.pyramido import geometry as geo  # noqa: E402
from rendering.png import encode_png  # noqa: E402
from rendering.pyramido import table_image  # noqa: E402


def play(seed: int, seats: int = 4) -> tuple[dict, int]:
    state = GAME.new_game({}, seed, seats)
    rng = random.Random(seed)
    turns = 0
    while GAME.outcome(state) is None:
        (seat, _prompt), = GAME.pending(state).items()
        GAME.apply(state, seat, GAME.choose_action(state, seat, rng))
        turns += 1
    return state, turns


def bench_games(games: int) -> tuple[float, float, float, float]:
    """(games/s in CPU time, ms/game in CPU time, ms/game wall clock, turns per game)."""
    play(10_000)  # warm-up
    t0 = time.perf_counter()
    c0 = time.process_time()
    turns = 0
    for seed in range(games):
        turns += play(seed)[1]
    cpu = time.process_time() - c0
    wall = time.perf_counter() - t0
    return games / cpu, 1000 * cpu / games, 1000 * wall / games, turns / games


def sample_states(count: int) -> list[tuple[dict, int]]:
    """Mid-game states on every floor, each with the seat to play."""
    out = []
    rng = random.Random(3)
    seed = 0
    while len(out) < count:
        state = GAME.new_game({}, seed, 4)
        seed += 1
        while not state["over"]:
            seat = state["turn"]
            if rng.random() < 0.15 and not G.must_fill(state, seat):
                out.append((copy.deepcopy(state), seat))
            GAME.apply(state, seat, GAME.choose_action(state, seat, rng))
    return out[:count]


# CPU time of this process: what the work costs, whatever else shares the core.
cpu = time.process_time


def bench_placements(samples: list[tuple[dict, int]]) -> tuple[float, float, float, float]:
    """(median, p99) microseconds for one domino's legal placements; (median, p99) ms for the annotated list."""
    plain, annotated = [], []
    for state, seat in samples:
        t = cpu()
        placements = [p for pair in G.current_pairs(state, seat) for p in geo.placements_of(pair)]
        plain.append(cpu() - t)
        assert placements
        geo._GAP_MEMO.clear()  # cold: no completion results remembered from earlier positions
        t = cpu()
        G.placement_choices(state, seat)
        annotated.append(cpu() - t)
    return (1e6 * statistics.median(plain), 1e6 * _p99(plain), 1e3 * statistics.median(annotated),
            1e3 * _p99(annotated))


def _p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(0.99 * len(values)))]


def reference_loop_ms() -> float:
    """A fixed pure-Python loop in wall-clock time, to tell a busy machine from a slow change (about 90 ms on
    an idle core of this machine)."""
    t = time.perf_counter()
    total = 0
    for i in range(2_000_000):
        total += i
    return 1e3 * (time.perf_counter() - t)


def bench_table(runs: int) -> tuple[float, float, int]:
    state = GAME.new_game({}, 5, 4)
    rng = random.Random(5)
    while state["floor"] < 3:
        seat = state["turn"]
        GAME.apply(state, seat, GAME.choose_action(state, seat, rng))
    view = GAME.view(state, None)
    names = ["Ann", "Bo", "Cy", "Di"]
    table_image(view, names)
    compose, encode = [], []
    size = 0
    for _ in range(runs):
        t = cpu()
        img = table_image(view, names)
        compose.append(cpu() - t)
        t = cpu()
        data = encode_png(img)
        encode.append(cpu() - t)
        size = len(data)
    return 1e3 * statistics.median(compose), 1e3 * statistics.median(encode), size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    print(f"reference loop: {reference_loop_ms():.0f} ms (higher means the core is shared)")
    rate, ms, wall, turns = bench_games(args.games)
    print(f"4-player AI games: {rate:.0f} games/s in CPU time ({ms:.1f} ms/game; wall clock {wall:.1f} ms/game; "
          f"{turns:.0f} turns)   target >= 100/s")
    med, worst, amed, aworst = bench_placements(sample_states(args.samples))
    print(f"legal placements for a domino (CPU time): median {med:.0f} us, p99 {worst:.0f} us   target <= 1000 us")
    print(f"  with completability per position (cold): median {amed:.2f} ms, p99 {aworst:.2f} ms")
    compose, encode, size = bench_table(args.runs)
    print(f"4-player table image (CPU time): compose {compose:.1f} ms, PNG encode {encode:.1f} ms, {size // 1024} KiB   "
          f"target compose <= encode")


if __name__ == "__main__":
    main()
