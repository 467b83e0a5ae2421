"""AI decision time per level, beside the baseline (the floor) and the targets, on one core.

Run: taskset -c 0 python3 benchmarks/bench_ai.py [--game viceroy] [--seats 4] [--positions 30] [--levels ...]

Positions come from baseline games (every few actions, all phases); each level decides at every position
once. Reported per level: CPU seconds per decision (what one core spends, whatever else the machine runs)
and wall-clock seconds (avg, p99, max), the play-outs done, and how often the level's time cap cut a search.
Targets (issue 19): hard avg <= 2 s and p99 <= 4 s per decision. Strength is measured by the tournament
command (python -m engine.tournament), not here.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.api import waiting_seats  # noqa: E402
from engine.search import LEVELS, Level, Search, SearchStats, hooks_for, load_game  # noqa: E402
from engine.tournament import percentile  # noqa: E402


def positions(game, seats: int, count: int, seed: int = 1) -> list[tuple[dict, int]]:  # noqa: ANN001
    """``count`` (state, seat) decision points from baseline games, spread over whole games."""
    out: list[tuple[dict, int]] = []
    clone = hooks_for(game).clone
    game_no = 0
    while len(out) < count:
        state = game.new_game(game.options_for({}, seats), seed + game_no, seats)
        rng = random.Random(seed + game_no)
        step = 0
        while not game.is_over(state) and len(out) < count:
            seat = waiting_seats(game.pending(state))[0]
            if step % 5 == 2:
                out.append((clone(state), seat))
            game.apply(state, seat, game.choose_action(state, seat, rng))
            step += 1
        game_no += 1
    return out


def bench_level(game, level: Level, points: list[tuple[dict, int]]) -> dict:  # noqa: ANN001
    search = Search(game, level)
    cpu, wall, playouts, cut = [], [], [], 0
    for i, (state, seat) in enumerate(points):
        stats = SearchStats()
        rng = random.Random(i)
        c0, w0 = time.process_time(), time.perf_counter()
        search.choose(state, seat, rng, stats)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        playouts.append(stats.iterations)
        cut += stats.cut_by_time
    return {"cpu_avg": statistics.fmean(cpu), "cpu_p99": percentile(cpu, 0.99), "wall_avg": statistics.fmean(wall),
            "wall_p99": percentile(wall, 0.99), "wall_max": max(wall), "playouts": statistics.fmean(playouts),
            "cut": cut, "n": len(points)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="viceroy")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--no-cap", action="store_true", help="ignore the levels' time caps (full budgets)")
    args = parser.parse_args(argv)
    game = load_game(args.game)
    seats = min(max(args.seats, game.type.min_seats), game.type.max_seats)
    points = positions(game, seats, args.positions)
    print(f"{game.type.display_name}, {seats} seats, {len(points)} positions from baseline games")
    print(f"{'level':8} {'play-outs':>9} {'cpu avg':>8} {'cpu p99':>8} {'wall avg':>8} {'wall p99':>8} "
          f"{'wall max':>8} {'cut by cap':>10}")
    for name in args.levels.split(","):
        spec = LEVELS[name]
        if args.no_cap:
            spec = Level(**{**spec.__dict__, "time_cap": None})
        if spec.iterations <= 0:
            # The floor: the baseline policy itself.
            cpu = []
            for i, (state, seat) in enumerate(points):
                c0 = time.process_time()
                game.choose_action(state, seat, random.Random(i))
                cpu.append(time.process_time() - c0)
            print(f"{name:8} {0:9d} {statistics.fmean(cpu):8.4f} {percentile(cpu, 0.99):8.4f}")
            continue
        r = bench_level(game, spec, points)
        print(f"{name:8} {r['playouts']:9.0f} {r['cpu_avg']:8.3f} {r['cpu_p99']:8.3f} {r['wall_avg']:8.3f} "
              f"{r['wall_p99']:8.3f} {r['wall_max']:8.3f} {r['cut']:>6}/{r['n']}")
    print("targets: hard avg <= 2 s, p99 <= 4 s per decision (one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
