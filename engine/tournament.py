"""Tournaments between AI levels for any registered game: win rates, scores, Elo and time per decision.

    python -m engine.tournament --game viceroy --levels easy,normal,hard --games 12 [--seats 4] [--seed 1]
    python -m engine.tournament --game viceroy --levels hard,easy,easy,easy --games 8 --budget hard=60

The levels fill the seats in order (repeated when there are more seats than levels) and the line-up rotates
one seat per game, so every level plays every seat; the deal (game seed) changes once per full rotation, so
each level meets the same deals from every seat. A shared victory counts as a share of a win. Win rates come
with 95 % Wilson intervals; the Elo table is fitted (Bradley-Terry) on every pair of seats of different levels
in every game, easy anchored at 1000. Times per decision of each level: wall clock (avg, p99, max) and CPU
seconds of the process (what one core spends, whatever else the machine runs).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.api import Game
from engine.search import LEVELS, Level, ai_for, load_game


@dataclass
class LevelStats:
    seats: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    rank_sum: float = 0.0
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # CPU seconds per decision (one core, whatever the load)


@dataclass
class Report:
    game: str
    seats: int
    games: int
    lineup: list[str]
    levels: dict[str, LevelStats]
    elo: dict[str, float]
    pairs: dict[str, list[float]]  # "a>b" -> [wins of a, games]
    seconds: float


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def fit_elo(results: list[tuple[str, str, float]], names: Sequence[str], anchor: str) -> dict[str, float]:
    """Elo ratings from (a, b, score of a) results: Bradley-Terry strengths by minorization-maximization
    (Hunter 2004), a draw counting half a win each way, plus one virtual draw per pair of levels so a level that
    always wins keeps a finite rating. ``anchor`` is rated 1000."""
    names = list(names)
    wins = dict.fromkeys(names, 0.0)
    games: dict[tuple[str, str], float] = {}
    for a, b, score in results:
        wins[a] += score
        wins[b] += 1.0 - score
        key = (a, b) if a < b else (b, a)
        games[key] = games.get(key, 0.0) + 1.0
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            key = (a, b) if a < b else (b, a)
            games[key] = games.get(key, 0.0) + 1.0
            wins[a] += 0.5
            wins[b] += 0.5
    strength = dict.fromkeys(names, 1.0)
    for _ in range(500):
        new = {}
        for n in names:
            denom = sum(count / (strength[a] + strength[b]) for (a, b), count in games.items() if n in (a, b))
            new[n] = wins[n] / denom if denom else strength[n]
        strength = new
    base = math.log10(strength[anchor]) if anchor in strength else 0.0
    return {n: round(1000.0 + 400.0 * (math.log10(strength[n]) - base), 1) for n in names}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def play_one(game: Game, choosers: dict[str, object], lineup: list[str], seed: int, options: dict,
             times: dict[str, list[float]], cpu: dict[str, list[float]] | None = None,
             max_actions: int = 20000) -> list[tuple[int, float, bool, int]]:
    """One game; returns (seat, total, winner, rank) per seat."""
    seats = len(lineup)
    state = game.new_game(game.options_for(options, seats), seed, seats)
    rngs = [random.Random(seed * 7919 + s * 104729 + 17) for s in range(seats)]
    for _ in range(max_actions):
        if game.is_over(state):
            break
        prompts = game.pending(state)
        waiting = sorted(s for s, p in prompts.items() if p.waiting)
        if not waiting:
            raise RuntimeError("nobody can act but the game is not over")
        seat = waiting[0]
        level = lineup[seat]
        started, cpu_started = time.perf_counter(), time.process_time()
        action = choosers[level](state, seat, rngs[seat])  # type: ignore[operator]
        times[level].append(time.perf_counter() - started)
        if cpu is not None:
            cpu[level].append(time.process_time() - cpu_started)
        game.apply(state, seat, action)
    outcome = game.outcome(state)
    if outcome is None:
        raise RuntimeError("the game did not end")
    return [(r.seat, float(r.total), r.winner, r.rank) for r in outcome.results]


def run(game_name: str | Game, levels: list[str], games: int, seats: int | None = None, seed: int = 1,
        budgets: dict[str, int] | None = None, time_cap: float | None = None, options: dict | None = None,
        progress: bool = False) -> Report:
    game = load_game(game_name) if isinstance(game_name, str) else game_name
    seats = seats or max(game.type.min_seats, min(len(levels), game.type.max_seats))
    if not game.type.min_seats <= seats <= game.type.max_seats:
        raise ValueError(f"{game.type.display_name} is played by {game.type.min_seats}-{game.type.max_seats}")
    lineup = [levels[i % len(levels)] for i in range(seats)]
    choosers = {}
    for name in dict.fromkeys(lineup):
        spec = LEVELS[name]
        changes = {}
        if budgets and name in budgets:
            changes["iterations"] = budgets[name]
        if time_cap is not None and spec.iterations > 0:
            changes["time_cap"] = time_cap
        choosers[name] = ai_for(game, Level(**{**spec.__dict__, **changes}))
    stats = {name: LevelStats() for name in dict.fromkeys(lineup)}
    times: dict[str, list[float]] = {name: [] for name in stats}
    cpu: dict[str, list[float]] = {name: [] for name in stats}
    pair_results: list[tuple[str, str, float]] = []
    pairs: dict[str, list[float]] = {}
    started = time.perf_counter()
    for g in range(games):
        shift = g % seats
        table = [lineup[(s + shift) % seats] for s in range(seats)]
        deal = seed + g // seats
        results = play_one(game, choosers, table, deal, options or {}, times, cpu)
        winners = [r for r in results if r[2]]
        for seat, total, winner, rank in results:
            st = stats[table[seat]]
            st.seats += 1
            st.score_sum += total
            st.rank_sum += rank
            if winner:
                st.wins += 1.0 / len(winners)
        for i, (seat_a, total_a, _, _) in enumerate(results):
            for seat_b, total_b, _, _ in results[i + 1:]:
                a, b = table[seat_a], table[seat_b]
                if a == b:
                    continue
                score = 1.0 if total_a > total_b else 0.5 if total_a == total_b else 0.0
                pair_results.append((a, b, score))
                if a > b:
                    a, b, score = b, a, 1.0 - score
                key = f"{a}>{b}"
                entry = pairs.setdefault(key, [0.0, 0])
                entry[0] += score
                entry[1] += 1
        if progress:
            line = ", ".join(f"{table[s]} {int(t)}{'*' if w else ''}" for s, t, w, _ in results)
            print(f"game {g + 1}/{games} (deal {deal}): {line}", file=sys.stderr, flush=True)
    for name in stats:
        stats[name].times = times[name]
        stats[name].cpu = cpu[name]
    names = list(stats)
    anchor = "easy" if "easy" in names else names[0]
    return Report(game=game.name, seats=seats, games=games, lineup=lineup, levels=stats,
                  elo=fit_elo(pair_results, names, anchor), pairs=pairs, seconds=time.perf_counter() - started)


def format_report(report: Report) -> str:
    lines = [f"{report.game}: {report.games} games, {report.seats} seats, line-up {','.join(report.lineup)} "
             f"(rotated), {report.seconds:.0f} s"]
    lines.append(f"{'level':8} {'seats':>5} {'win rate':>9} {'95% CI':>15} {'avg score':>9} {'avg rank':>8} "
                 f"{'Elo':>7} {'decisions':>9} {'avg s':>7} {'p99 s':>7} {'max s':>7} {'cpu avg':>7} {'cpu p99':>7}")
    for name, st in report.levels.items():
        low, high = wilson(st.wins, st.seats)
        rate = st.wins / st.seats if st.seats else 0.0
        times = st.times
        avg = sum(times) / len(times) if times else 0.0
        lines.append(f"{name:8} {st.seats:5d} {rate:9.1%} {f'{low:.0%}-{high:.0%}':>15} "
                     f"{st.score_sum / max(1, st.seats):9.1f} {st.rank_sum / max(1, st.seats):8.2f} "
                     f"{report.elo[name]:7.0f} {len(times):9d} {avg:7.3f} {percentile(times, 0.99):7.3f} "
                     f"{max(times, default=0.0):7.3f} {sum(st.cpu) / max(1, len(st.cpu)):7.3f} "
                     f"{percentile(st.cpu, 0.99):7.3f}")
    if report.pairs:
        lines.append("head to head (pairs of seats, by score): " + "; ".join(
            f"{k.replace('>', ' vs ')} {v[0] / v[1]:.0%} of {v[1]}" for k, v in sorted(report.pairs.items())))
    return "\n".join(lines)


def report_json(report: Report) -> dict:
    out = {"game": report.game, "games": report.games, "seats": report.seats, "lineup": report.lineup,
           "seconds": round(report.seconds, 1), "elo": report.elo, "levels": {}}
    for name, st in report.levels.items():
        low, high = wilson(st.wins, st.seats)
        times = st.times
        out["levels"][name] = {
            "seats": st.seats, "wins": st.wins, "win_rate": st.wins / st.seats if st.seats else 0.0,
            "ci95": [low, high], "avg_score": st.score_sum / max(1, st.seats),
            "decisions": len(times), "avg_s": sum(times) / len(times) if times else 0.0,
            "p99_s": percentile(times, 0.99), "max_s": max(times, default=0.0),
            "cpu_avg_s": sum(st.cpu) / max(1, len(st.cpu)), "cpu_p99_s": percentile(st.cpu, 0.99),
        }
    return out


def _budgets(text: str | None) -> dict[str, int]:
    out = {}
    for part in (text or "").split(","):
        if part.strip():
            name, _, value = part.partition("=")
            out[name.strip()] = int(value)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.tournament", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="viceroy")
    parser.add_argument("--levels", default="easy,normal,hard", help="comma-separated levels, filling the seats")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", default=None, help="iterations per decision, e.g. hard=60,normal=16")
    parser.add_argument("--time-cap", type=float, default=None, help="seconds per search decision (upper bound)")
    parser.add_argument("--json", default=None, help="also write the report as JSON to this file")
    parser.add_argument("--quiet", action="store_true", help="no per-game lines on stderr")
    args = parser.parse_args(argv)
    levels = [name.strip() for name in args.levels.split(",") if name.strip()]
    unknown = [name for name in levels if name not in LEVELS]
    if unknown or not levels:
        parser.error(f"unknown level(s) {', '.join(unknown)}; choose from {', '.join(LEVELS)}")
    if args.games < 1:
        parser.error("--games must be 1 or more")
    try:
        report = run(args.game, levels, args.games, args.seats, args.seed, _budgets(args.budget), args.time_cap,
                     progress=not args.quiet)
    except (ValueError, ModuleNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(format_report(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report_json(report), handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
