"""Balance report for the Times of Darkness modules: many baseline-AI games with each module on and off.

For every configuration it reports the score distribution, and for every card how often it ends in a pyramid
and how much it *shifts its owner's win rate*: the win share of the seats that played it minus the win share
of the seats that did not, in the same configuration (a shared victory counts 1/k for k winners). The designed
cards (aristocrats, aristocrat laws, revised laws, each domain-card reward, the Invasion laws and each monster,
whose "owner" is a seat that gained its reward) pass when no shift exceeds the strongest base card's (cards
seen at least ``--min-plays`` times). Combat penalty cards are reported apart: they must hurt (a negative shift)
but never dominate (no larger than the strongest base card's shift).

    python scripts/balance_darkness.py --games 1000 --out docs/balance-darkness.md

The Underworld part (``run_underworld``, ``underworld_report``) plays its own configurations: each criminal and
underworld law against the same limit, and the judgement tokens, which must hurt (the seats with the heavier
judgement lose win share) but never dominate (no more than the strongest base card moves it).

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
from engine.viceroy.modules.criminals import CRIMINALS, UNDERWORLD_LAWS  # noqa: E402
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
    # The Underworld needs the darkness module: its games with the module off.
    ("darkness 2p", 2, ["darkness"]),
    ("duo+darkness 2p", 2, ["duo", "darkness"]),
    ("darkness solo", 1, ["darkness"]),
    # Four seats: the base game, each module that plays with four, and the Underworld's module-off games.
    ("base 4p", 4, []),
    ("darkness+aristocrats 4p", 4, ["darkness", "aristocrats"]),
    ("invasion 4p", 4, ["invasion"]),
    ("darkness 4p", 4, ["darkness"]),
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


class Tally:
    """What every configuration counts: the scores, and per card the seats that ended with it in their
    pyramid and their win share (and the same for every seat, for "not played")."""

    def __init__(self) -> None:
        self.start = time.process_time()
        self.totals: list[int] = []
        self.winners: list[int] = []
        self.categories: dict[str, float] = defaultdict(float)  # score category: points over every seat
        self.played: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        self.designed: set[str] = set()
        self.seats, self.share = 0, 0.0

    def seats_of(self, state: dict) -> list[tuple[dict, float]]:
        """Each score row with its win share (a shared victory counts 1/k), counted into the totals."""
        rows = state["scores"]
        k = sum(1 for r in rows if r["winner"])
        out = []
        for row in rows:
            share = (1.0 / k) if row["winner"] else 0.0
            self.totals.append(row["total"])
            for category, points in row["breakdown"].items():
                self.categories[category] += points
            if row["winner"]:
                self.winners.append(row["total"])
            self.seats += 1
            self.share += share
            out.append((row, share))
        return out

    def pyramid(self, state: dict, seat: int, share: float, modules: list[str], designed) -> None:  # noqa: ANN001
        """Count the cards of a seat's pyramid; ``designed(number)`` says which are designed cards."""
        for entry in state["players"][seat]["pyramid"]["cards"].values():
            # Endowment (66) is played under another card: it counts as played there.
            for number in [entry["card"]] + [c for c in entry["tucked"] if c == ENDOWMENT]:
                if number == DOMAIN:
                    continue
                key = card_key(number, modules)
                self.played[key][0] += 1
                self.played[key][1] += share
                if designed(number):
                    self.designed.add(key)

    def shifts(self) -> dict[str, tuple[int, float]]:
        out = {}
        for key, (n, share) in self.played.items():
            rest_n, rest_share = self.seats - n, self.share - share
            if n and rest_n:
                out[key] = (n, share / n - rest_share / rest_n)
        return out

    def result(self, players: int, modules: list[str], games: int, **more: object) -> dict:
        return {"players": players, "modules": modules, "games": games, "totals": self.totals,
                "winners": self.winners, "shifts": self.shifts(), "designed": self.designed, "seats": self.seats,
                "categories": {k: v / self.seats for k, v in self.categories.items()},
                "cpu": time.process_time() - self.start, **more}


def run(games: int, seed: int) -> dict:
    results = {}
    for name, players, modules in CONFIGS:
        tally = Tally()
        domain: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        penalties: list[float] = [0, 0.0]
        penalty_counts: list[int] = []

        def designed(number: int, modules: list[str] = modules) -> bool:
            return number in DESIGNED or (number in REVISED_LAWS and "darkness" in modules)

        for i in range(games):
            state = play(players, modules, seed + i)
            for row, share in tally.seats_of(state):
                seat = row["seat"]
                tally.pyramid(state, seat, share, modules, designed)
                reward = state["ext"].get("darkness", {}).get("rewards", {}).get(str(seat))
                if reward:
                    key = f"domain reward: {reward}"
                    domain[key][0] += 1
                    domain[key][1] += share
                    tally.designed.add(key)
                invasion = state["ext"].get("invasion")
                if invasion is not None:
                    # A monster's owner: a seat that gained its reward (the topmost monster it defeated).
                    gained = {e["monster"] for e in state["log"] if e["type"] == "monster_reward" and e["seat"] == seat}
                    for number in gained:
                        key = f"monster: {monster(number)['name']}"
                        domain[key][0] += 1
                        domain[key][1] += share
                        tally.designed.add(key)
                    if invasion["penalties"][seat]:
                        penalties[0] += 1
                        penalties[1] += share
                    penalty_counts.append(len(invasion["penalties"][seat]))
        for key, value in domain.items():
            tally.played[key] = value
        rest_n, rest_share = tally.seats - penalties[0], tally.share - penalties[1]
        penalty = (penalties[0], penalties[1] / penalties[0] - rest_share / rest_n) if penalties[0] and rest_n else None
        results[name] = tally.result(players, modules, games, penalty=penalty, penalty_counts=penalty_counts)
        print(f"{name}: {games} games in {results[name]['cpu']:.0f} CPU s", file=sys.stderr)
    return results


def pct(values: list[int], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def distribution_row(name: str, r: dict) -> str:
    t = r["totals"]
    return (f"| {name} | {r['games']} | {statistics.mean(t):.1f} | {statistics.median(t):.0f} | "
            f"{pct(t, 0.1):.0f} | {pct(t, 0.9):.0f} | {statistics.pstdev(t):.1f} | "
            f"{statistics.mean(r['winners']):.1f} |")


DESIGNED_HEADER = ["| Designed card | Played (seats) | Play rate | Shift | Within the base range |",
                   "|---|---|---|---|---|"]


def designed_rows(name: str, r: dict, keys: list[str], limit: float, min_plays: int,
                  failures: list[str]) -> list[str]:
    """A row per designed card: its plays and shift, within ``limit`` or not (failures are noted)."""
    out = []
    for key in keys:
        n, shift = r["shifts"].get(key, (0, 0.0))
        ok = abs(shift) <= limit or n < min_plays
        if not ok:
            failures.append(f"{name}: {key} shift {shift:+.3f} > {limit:.3f}")
        out.append(f"| {key} | {n} | {n / r['seats']:.1%} | {shift:+.3f} | "
                   f"{'yes' if ok else 'NO'}{' (few plays)' if n < min_plays else ''} |")
    return out


def _strongest(name: str, result: dict, min_plays: int) -> tuple[str, float]:
    base = {k: v for k, v in result["shifts"].items() if k not in result["designed"] and v[0] >= min_plays}
    if not base:  # too few games for any base card to be seen often enough: no limit to compare with
        raise SystemExit(f"No base card was in play {min_plays} times in {result['games']} games of "
                         f"{name}: play more games (--games) or lower --min-plays.")
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
        lines.append(distribution_row(name, r))
    failures: list[str] = []
    lines += ["", "## Designed cards against the strongest base card", ""]
    for name, r in results.items():
        if r["players"] == 1 or not r["designed"]:
            continue
        here_key, here = _strongest(name, r, min_plays)
        # The limit: the strongest base card of the base game (modules off) with the same seats, where every base
        # card is in play (a revised law replaces its base card in the module's own games).
        ref_name = next(n for n, x in results.items() if x["players"] == r["players"] and not x["modules"])
        strongest_key, strongest_shift = _strongest(ref_name, results[ref_name], min_plays)
        strongest = abs(strongest_shift)
        lines += [f"### {name}", "",
                  f"Limit: the strongest base card of *{ref_name}*, {strongest_key}, shift {strongest_shift:+.3f}. "
                  f"Strongest base card in these games: {here_key}, shift {here:+.3f} "
                  f"(base cards seen at least {min_plays} times).", "", *DESIGNED_HEADER]
        keys = sorted(r["designed"], key=lambda k: (not k.startswith("#"), k))
        lines += designed_rows(name, r, keys, strongest, min_plays, failures)
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
            limit = abs(_strongest(ref_name, results[ref_name], min_plays)[1])
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


# ------------------------------------------------------------------------------------------- Underworld

UNDERWORLD_CONFIGS: list[tuple[str, int, list[str]]] = [
    ("darkness+underworld 3p", 3, ["darkness", "underworld"]),
    ("darkness+underworld 2p", 2, ["darkness", "underworld"]),
    ("duo+darkness+underworld 2p", 2, ["duo", "darkness", "underworld"]),
    ("darkness+underworld solo", 1, ["darkness", "underworld"]),
    ("darkness+underworld 4p", 4, ["darkness", "underworld"]),
]
UNDERWORLD_DESIGNED = set(CRIMINALS) | set(UNDERWORLD_LAWS)
HEAVY = "judgement heavier than the median"


def run_underworld(games: int, seed: int) -> dict:
    """Games with the underworld on: score distributions, shifts of the criminals and the underworld laws, and
    what the judgement tokens do (their points per seat, the shift of the seats judged hardest, and how often
    the judgement changes who wins)."""
    results = {}
    for name, players, modules in UNDERWORLD_CONFIGS:
        tally = Tally()
        judged: list[tuple[int, float]] = []  # (judgement points, win share) per seat
        changed = 0
        for i in range(games):
            state = play(players, modules, seed + i)
            rows = state["scores"]
            before = {r["seat"] for r in rows if r["winner"]}
            without = [r["total"] - r["breakdown"].get("judgement", 0) for r in rows]
            if players > 1 and {r["seat"] for r, t in zip(rows, without, strict=True) if t == max(without)} != before:
                changed += 1
            for row, share in tally.seats_of(state):
                judged.append((row["breakdown"].get("judgement", 0), share))
                tally.pyramid(state, row["seat"], share, modules, UNDERWORLD_DESIGNED.__contains__)
        median = statistics.median(p for p, _ in judged)
        heavy = [s for p, s in judged if p < median]
        light = [s for p, s in judged if p >= median]
        heavy_shift = (statistics.mean(heavy) - statistics.mean(light)) if heavy and light and players > 1 else None
        results[name] = tally.result(players, modules, games, judgement=[p for p, _ in judged],
                                     heavy=(len(heavy), heavy_shift), changed=changed)
        print(f"{name}: {games} games in {results[name]['cpu']:.0f} CPU s", file=sys.stderr)
    return results


def _module_off(r: dict, base: dict) -> tuple[str, dict] | None:
    """The configuration of ``base`` with the same seats and modules but the Underworld."""
    want = sorted(m for m in r["modules"] if m != "underworld")
    return next(((k, x) for k, x in base.items() if x["players"] == r["players"] and sorted(x["modules"]) == want),
                None)


def _mean_shift(on: dict, off: dict) -> tuple[float, float]:
    """Mean total on minus off, and its standard error (seats taken as independent)."""
    a, b = on["totals"], off["totals"]
    error = (statistics.pvariance(a) / len(a) + statistics.pvariance(b) / len(b)) ** 0.5
    return statistics.mean(a) - statistics.mean(b), error


def underworld_report(results: dict, base: dict, min_plays: int) -> tuple[str, list[str]]:
    """The Underworld section of the report; ``base`` holds the main configurations (for the limits and the
    same games with the module off)."""
    failures: list[str] = []
    lines = ["## Underworld", "",
             "The criminals, underworld laws, judgement tokens and bribe tokens are designed by this project, not "
             "the printed cards. The same games with the module off are the darkness configurations above. A "
             "criminal costs no gems and adds a card to the pyramid, so its lines give little (1-2 PP, a gem, a "
             "diamond, a card, 1-4 bribes) and most judgement tokens cost points: with the first, richer cards "
             "(3 gems + 2 diamonds, 5 PP) and 11 tokens without penalty, three-player games averaged 51.7.", "",
             "The Underworld needs the darkness module, so its games with the module off are the darkness games "
             "with the same seats (not the base game: the darkness module alone adds about 1 PP). With all 32 "
             "judgement tokens at every seat count the module raised the mean total by +1.4 PP with three players "
             "but +2.5 with two and +2.6 solo: the same number of tokens per seat (about 8) cost a seat -10.3 PP "
             "with three players, -9.3 with two and -8.5 solo. With one or two players two no-penalty tokens now "
             "stay in the box (the data's `judgement_left_out`), which brings the judgement and the shift of those "
             "games to the three-player ones (the table below). Before, duo+darkness+underworld 2p averaged 39.1, "
             "+2.8. Trial runs (2000 games, the same seeds) with two, three and five no-penalty tokens out gave "
             "2-player +1.2, +0.6 and -1.1, solo +1.6, +1.2 and -0.7.", "",
             "| Configuration | Games | Mean | Median | P10 | P90 | Std dev | Winner mean | Module off: mean | "
             "Mean shift |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    offs = {name: _module_off(r, base) for name, r in results.items()}
    for name, r in results.items():
        off = offs[name]
        if off is None:
            lines.append(f"{distribution_row(name, r)} - | - |")
            continue
        shift, error = _mean_shift(r, off[1])
        lines.append(f"{distribution_row(name, r)} {statistics.mean(off[1]['totals']):.1f} ({off[0]}) | "
                     f"{shift:+.1f} ± {2 * error:.1f} |")
    lines += ["", "*Mean shift*: mean total with the module on minus off, ± two standard errors. A shift that "
              "every seat gets alike changes no win rate (the tables below check those); in a solo game the "
              "total is the result, so there it makes the game easier. Where the points come from (per seat, "
              "module on minus off):", ""]
    categories = sorted({c for r in results.values() for c in r["categories"]} - {"any_circle_bonus"})
    lines += ["| Configuration | " + " | ".join(categories) + " |",
              "|---|" + "---|" * len(categories)]
    for name, r in results.items():
        if offs[name] is None:
            continue
        off = offs[name][1]["categories"]
        lines.append(f"| {name} | " + " | ".join(f"{r['categories'].get(c, 0) - off.get(c, 0):+.1f}"
                                                 for c in categories) + " |")
    lines += ["", "### Judgement tokens: they hurt, they never dominate", "",
              "Judgement points per seat at the end (negative: a penalty), the win-share shift of the seats judged "
              "harder than the median seat (they are also the seats that played the most criminals), and how often "
              "the winner would differ without the judgement. *Hurts*: the judgement costs points on average and "
              "changes some winners; *never dominates*: the shift is no larger than the strongest base card's.", "",
              "| Configuration | Mean | P10 | Worst | Shift of the harder judged | Limit | Winner changed | Verdict |",
              "|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        points = r["judgement"]
        n, shift = r["heavy"]
        if r["players"] == 1 or shift is None:
            lines.append(f"| {name} | {statistics.mean(points):.1f} | {pct(points, 0.1):.0f} | {min(points)} | "
                         "(solo) | | | |")
            continue
        ref_name = next(k for k, x in base.items() if x["players"] == r["players"] and not x["modules"])
        limit = abs(_strongest(ref_name, base[ref_name], min_plays)[1])
        ok = abs(shift) <= limit and statistics.mean(points) < 0 and r["changed"] > 0
        if not ok:
            failures.append(f"{name}: {HEAVY} shift {shift:+.3f} (limit {limit:.3f})")
        lines.append(f"| {name} | {statistics.mean(points):.1f} | {pct(points, 0.1):.0f} | {min(points)} | "
                     f"{shift:+.3f} | {limit:.3f} | {r['changed'] / r['games']:.1%} | {'yes' if ok else 'NO'} |")
    for name, r in results.items():
        if r["players"] == 1 or not r["designed"]:
            continue
        ref_name = next(k for k, x in base.items() if x["players"] == r["players"] and not x["modules"])
        strongest_key, strongest_shift = _strongest(ref_name, base[ref_name], min_plays)
        lines += ["", f"### {name}", "",
                  f"Limit: the strongest base card of *{ref_name}*, {strongest_key}, shift {strongest_shift:+.3f}.", "",
                  *DESIGNED_HEADER]
        keys = sorted(r["designed"], key=lambda k: int(k[1:].split()[0]))
        lines += designed_rows(name, r, keys, abs(strongest_shift), min_plays, failures)
    lines += ["", "Underworld verdict: " + ("every criminal and underworld law within the base range; judgement "
                                            "tokens hurt but never dominate." if not failures else
                                            "over the limit: " + "; ".join(failures)), ""]
    cpu = sum(r["cpu"] for r in results.values())
    lines.append(f"{sum(r['games'] for r in results.values())} Underworld games, {cpu:.0f} CPU seconds.")
    return "\n".join(lines) + "\n", failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per configuration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-plays", type=int, default=50)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    results = run(args.games, args.seed)
    text, failures = report(results, args.min_plays)
    extra, more = underworld_report(run_underworld(args.games, args.seed), results, args.min_plays)
    text, failures = text + "\n" + extra, failures + more
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
