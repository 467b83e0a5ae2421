"""Balance report for the Times of Darkness modules: many baseline-AI games with each module on and off.

For every configuration it reports the score distribution, and for every card how often it ends in a pyramid
and how much it *shifts its owner's win rate*: the win share of the seats that played it minus the win share
of the seats that did not, in the same configuration (a shared victory counts 1/k for k winners). The designed
cards (aristocrats, aristocrat laws, revised laws, each domain-card reward, the Invasion laws and each monster,
whose "owner" is a seat that gained its reward) pass when no shift exceeds the strongest base card's (cards
seen at least ``--min-plays`` times). Combat penalty cards are reported apart: they must hurt (a negative shift)
but never dominate (no larger than the strongest base card's shift).

    python scripts/balance_darkness.py --games 1000 --out docs/balance-darkness.md

Pure simulation: the engine and its baseline AI, no I/O except the report.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.viceroy import GAME, apply_action, new_game  # noqa: E402
from engine.viceroy import cards as C  # noqa: E402
from engine.viceroy.ai import choose_action  # noqa: E402
from engine.viceroy.modules.carddata import ARISTOCRAT_LAWS, ARISTOCRATS, DOMAIN, REVISED_LAWS  # noqa: E402
from engine.viceroy.modules.invasion_data import INVASION_LAWS, monster  # noqa: E402
from engine.viceroy.prompts import pending  # noqa: E402

CONFIGS: list[tuple[str, int, list[str]]] = [
    ("base 3p", 3, []),
    ("darkness 3p", 3, ["darkness"]),
    ("aristocrats 3p", 3, ["aristocrats"]),
    ("darkness+aristocrats 3p", 3, ["darkness", "aristocrats"]),
    ("base 2p", 2, []),
    ("duo 2p", 2, ["duo"]),
    ("duo+darkness+aristocrats 2p", 2, ["duo", "darkness", "aristocrats"]),
    ("base solo", 1, []),
    ("duo solo", 1, ["duo"]),
    ("invasion 3p", 3, ["invasion"]),
    ("darkness+aristocrats+invasion 3p", 3, ["darkness", "aristocrats", "invasion"]),
    ("invasion 2p", 2, ["invasion"]),
    ("duo+invasion 2p", 2, ["duo", "invasion"]),
    ("invasion solo", 1, ["invasion"]),
]
DESIGNED = set(ARISTOCRATS) | set(ARISTOCRAT_LAWS) | set(INVASION_LAWS)
PENALTY = "combat penalty card (one or more)"
ENDOWMENT = 66


def play(players: int, modules: list[str], seed: int) -> dict:
    options = GAME.options_for({"modules": modules}, players)
    state = new_game(options, seed, players)
    rng = random.Random(seed)
    for _ in range(20000):
        prompts = pending(state)
        if not prompts:
            return state
        seat = min(s for s, p in prompts.items() if not p.get("submitted"))
        apply_action(state, seat, choose_action(state, seat, rng))
    raise RuntimeError("a game did not end")


def card_key(number: int, modules: list[str]) -> str:
    if number in REVISED_LAWS and "darkness" in modules:
        return f"#{number} {C.name(number)} (revised)"
    return C.label(number)


def run(games: int, seed: int) -> dict:
    results = {}
    for name, players, modules in CONFIGS:
        start = time.process_time()
        totals: list[int] = []
        winners: list[int] = []
        # per card: [seats that played it, their win share]; and the same for every seat (for "not played")
        played: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        designed: set[str] = set()
        domain: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        penalties: list[float] = [0, 0.0]
        penalty_counts: list[int] = []
        seats_total, share_total = 0, 0.0
        for i in range(games):
            state = play(players, modules, seed + i)
            rows = state["scores"]
            k = sum(1 for r in rows if r["winner"])
            for row in rows:
                seat = row["seat"]
                share = (1.0 / k) if row["winner"] else 0.0
                totals.append(row["total"])
                if row["winner"]:
                    winners.append(row["total"])
                seats_total += 1
                share_total += share
                for entry in state["players"][seat]["pyramid"]["cards"].values():
                    # Endowment (66) is played under another card: it counts as played there.
                    for number in [entry["card"]] + [c for c in entry["tucked"] if c == ENDOWMENT]:
                        if number == DOMAIN:
                            continue
                        key = card_key(number, modules)
                        played[key][0] += 1
                        played[key][1] += share
                        if number in DESIGNED or (number in REVISED_LAWS and "darkness" in modules):
                            designed.add(key)
                reward = state["ext"].get("darkness", {}).get("rewards", {}).get(str(seat))
                if reward:
                    key = f"domain reward: {reward}"
                    domain[key][0] += 1
                    domain[key][1] += share
                    designed.add(key)
                invasion = state["ext"].get("invasion")
                if invasion is not None:
                    # A monster's owner: a seat that gained its reward (the topmost monster it defeated).
                    gained = {e["monster"] for e in state["log"] if e["type"] == "monster_reward" and e["seat"] == seat}
                    for number in gained:
                        key = f"monster: {monster(number)['name']}"
                        domain[key][0] += 1
                        domain[key][1] += share
                        designed.add(key)
                    if invasion["penalties"][seat]:
                        penalties[0] += 1
                        penalties[1] += share
                    penalty_counts.append(len(invasion["penalties"][seat]))
        for key, value in domain.items():
            played[key] = value
        shifts = {}
        for key, (n, share) in played.items():
            rest_n, rest_share = seats_total - n, share_total - share
            if n and rest_n:
                shifts[key] = (n, share / n - rest_share / rest_n)
        rest_n, rest_share = seats_total - penalties[0], share_total - penalties[1]
        penalty = (penalties[0], penalties[1] / penalties[0] - rest_share / rest_n) if penalties[0] and rest_n else None
        results[name] = {
            "players": players, "modules": modules, "games": games, "totals": totals, "winners": winners,
            "shifts": shifts, "designed": designed, "seats": seats_total, "cpu": time.process_time() - start,
            "penalty": penalty, "penalty_counts": penalty_counts,
        }
        print(f"{name}: {games} games in {results[name]['cpu']:.0f} CPU s", file=sys.stderr)
    return results


def pct(values: list[int], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _strongest(result: dict, min_plays: int) -> tuple[str, float]:
    base = {k: v for k, v in result["shifts"].items() if k not in result["designed"] and v[0] >= min_plays}
    key = max(base, key=lambda k: abs(base[k][1]))
    return key, base[key][1]


def report(results: dict, min_plays: int) -> tuple[str, list[str]]:
    lines = ["# Times of Darkness balance report", "",
             "Generated by `python scripts/balance_darkness.py` (baseline AI in every seat; see the script for the "
             "statistic). *Shift* = win share of the seats that ended with the card in their pyramid minus that "
             "of the seats that did not, in the same configuration (multi-player games only; a solo game has no "
             "win rate).", "",
             "## Score distributions", "",
             "| Configuration | Games | Mean | Median | P10 | P90 | Std dev | Winner mean |",
             "|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        t = r["totals"]
        lines.append(f"| {name} | {r['games']} | {statistics.mean(t):.1f} | {statistics.median(t):.0f} | "
                     f"{pct(t, 0.1):.0f} | {pct(t, 0.9):.0f} | {statistics.pstdev(t):.1f} | "
                     f"{statistics.mean(r['winners']):.1f} |")
    failures: list[str] = []
    lines += ["", "## Designed cards against the strongest base card", ""]
    for name, r in results.items():
        if r["players"] == 1 or not r["designed"]:
            continue
        here_key, here = _strongest(r, min_plays)
        # The limit: the strongest base card of the base game (modules off) with the same seats, where every base
        # card is in play (a revised law replaces its base card in the module's own games).
        ref_name = next(n for n, x in results.items() if x["players"] == r["players"] and not x["modules"])
        strongest_key, strongest_shift = _strongest(results[ref_name], min_plays)
        strongest = abs(strongest_shift)
        lines += [f"### {name}", "",
                  f"Limit: the strongest base card of *{ref_name}*, {strongest_key}, shift {strongest_shift:+.3f}. "
                  f"Strongest base card in these games: {here_key}, shift {here:+.3f} "
                  f"(base cards seen at least {min_plays} times).", "",
                  "| Designed card | Played (seats) | Play rate | Shift | Within the base range |",
                  "|---|---|---|---|---|"]
        for key in sorted(r["designed"], key=lambda k: (not k.startswith("#"), k)):
            n, shift = r["shifts"].get(key, (0, 0.0))
            ok = abs(shift) <= strongest or n < min_plays
            if not ok:
                failures.append(f"{name}: {key} shift {shift:+.3f} > {strongest:.3f}")
            lines.append(f"| {key} | {n} | {n / r['seats']:.1%} | {shift:+.3f} | "
                         f"{'yes' if ok else 'NO'}{' (few plays)' if n < min_plays else ''} |")
        lines.append("")
    rows = [(name, r) for name, r in results.items() if r["penalty_counts"]]
    if rows:
        lines += ["## Combat penalty cards (Invasion)", "",
                  "A seat that defeats no monster in a combat takes a penalty card (-4 PP). They must hurt (a negative "
                  "shift) but never dominate (no larger than the strongest base card's shift).", "",
                  "| Configuration | Penalty cards per seat | Seats with one or more | Shift | Limit | Hurts, never dominates |",
                  "|---|---|---|---|---|---|"]
        for name, r in rows:
            counts = r["penalty_counts"]
            share = sum(1 for c in counts if c) / len(counts)
            if r["players"] == 1 or r["penalty"] is None:
                lines.append(f"| {name} | {statistics.mean(counts):.2f} | {share:.1%} | (solo) | | |")
                continue
            ref_name = next(n for n, x in results.items() if x["players"] == r["players"] and not x["modules"])
            limit = abs(_strongest(results[ref_name], min_plays)[1])
            shift = r["penalty"][1]
            ok = -limit <= shift < 0
            if not ok:
                failures.append(f"{name}: {PENALTY} shift {shift:+.3f} (limit {limit:.3f})")
            lines.append(f"| {name} | {statistics.mean(counts):.2f} | {share:.1%} | {shift:+.3f} | {limit:.3f} | "
                         f"{'yes' if ok else 'NO'} |")
        lines.append("")
    lines += ["## Verdict", "", "All designed cards shift their owner's win rate no more than the strongest base card"
              + ("; combat penalty cards hurt but never dominate." if rows else ".")
              if not failures else "Designed cards over the limit: " + "; ".join(failures), ""]
    cpu = sum(r["cpu"] for r in results.values())
    lines.append(f"{sum(r['games'] for r in results.values())} games, {cpu:.0f} CPU seconds.")
    return "\n".join(lines) + "\n", failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per configuration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-plays", type=int, default=50)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    text, failures = report(run(args.games, args.seed), args.min_plays)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
