"""Engine speed, side by side with the reference engine, in one run.

Run: python benchmarks/bench_engine.py [--games N] [--rounds R] [--reference COMMIT]

* Full 4-player AI games per second (the baseline AI, engine.viceroy.ai.play_game, seeds 0..N-1), for this
  checkout and for the reference engine (commit 316f92a, the single-file engine, extracted with ``git archive``
  into a temporary directory). Each measurement runs in its own process and counts CPU time
  (time.process_time), so that other work on a shared machine counts less; the two engines alternate for R
  rounds so that load on the machine hits both alike; the median of the rounds is reported, and the median of
  the per-round ratios (each reference run against the run right after it). Both engines must
  produce the identical game records (same actions for the same seeds), which the benchmark checks.
* State clone for search: ``engine.viceroy.clone`` on late-game 4-player states, against ``copy.deepcopy``
  and a JSON round trip.
* The painting solver: see benchmarks/bench_painting.py (worst cases included).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "316f92a"

WORKER = r"""
import hashlib, json, random, sys, time
from engine.viceroy import ai
games, players = int(sys.argv[1]), int(sys.argv[2])
digests, ruled = {}, []
actions = 0
elapsed = 0.0
for seed in range(games):
    t0 = time.process_time()
    _state, record = ai.play_game({"players": players}, seed)
    elapsed += time.process_time() - t0
    actions += len(record)
    digests[seed] = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()[:16]
    # Games where Chancery (70) is played by a seat with Archive (78): the Archive ruling changes them.
    if any(a["action"].get("type") == "play" and a["action"].get("card") == 70 for a in record):
        ruled.append(seed)
print(json.dumps({"per_s": games / elapsed, "ms": 1000 * elapsed / games, "actions": actions / games,
                  "records": digests, "chancery": ruled}))
"""

# After a game, the benchmark checks (outside the timing) whether a Chancery game had Archive in play.
ARCHIVE_CHECK = r"""
import json, sys
from engine.viceroy import apply_action, new_game, pending
from engine.viceroy.ai import choose_action
import random
players, seeds = int(sys.argv[1]), json.loads(sys.argv[2])
out = []
for seed in seeds:
    state = new_game({"players": players}, seed)
    rng = random.Random(seed)
    while pending(state):
        prompts = pending(state)
        seat = min(s for s, p in prompts.items() if not p.get("submitted"))
        action = choose_action(state, seat, rng)
        if action.get("type") == "play" and action.get("card") == 70 and any(
                e["card"] == 78 for e in state["players"][seat]["pyramid"]["cards"].values()):
            out.append(seed)
            break
        apply_action(state, seat, action)
print(json.dumps(out))
"""


def extract_reference(commit: str, into: str) -> str:
    """The reference engine's files (engine/ and data/ at ``commit``) in a directory of their own."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "engine", "data"], capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def _run(root: str, code: str, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=root, PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=root, env=env, capture_output=True, text=True, check=True)
    return out.stdout


def run_games(root: str, games: int, players: int) -> dict:
    return json.loads(_run(root, WORKER, str(games), str(players)))


def bench_side_by_side(reference: str, games: int, rounds: int, players: int = 4) -> None:
    results: dict[str, list[dict]] = {"reference": [], "this checkout": []}
    with tempfile.TemporaryDirectory() as tmp:
        ref_root = extract_reference(reference, tmp)
        for _ in range(rounds):
            results["reference"].append(run_games(ref_root, games, players))
            results["this checkout"].append(run_games(str(ROOT), games, players))
        ref = results["reference"][0]
        archive = set(json.loads(_run(ref_root, ARCHIVE_CHECK, str(players), json.dumps(ref["chancery"]))))
    medians = {}
    paired = [t["per_s"] / r["per_s"] for r, t in zip(results["reference"], results["this checkout"], strict=True)]
    for name, runs in results.items():
        per_s = statistics.median(r["per_s"] for r in runs)
        medians[name] = per_s
        each = ", ".join(f"{r['per_s']:.1f}" for r in runs)
        print(f"{f'{players}-player AI games, {name}':<44} {per_s:>8.1f} games/s {1000 / per_s:>7.2f} ms/game   ({each})")
    print(f"{'  speed-up (median / median)':<44} {medians['this checkout'] / medians['reference']:>8.2f} x")
    print(f"{'  speed-up (median of the paired rounds)':<44} {statistics.median(paired):>8.2f} x   "
          f"({', '.join(f'{x:.2f}' for x in paired)})")
    print(f"{'  actions per game':<44} {results['this checkout'][0]['actions']:>8.1f}")
    compared = [seed for seed in ref["records"] if int(seed) not in archive]
    same = [seed for seed in compared
            if all(r["records"][seed] == ref["records"][seed] for runs in results.values() for r in runs)]
    print(f"{'  identical game records (same seeds)':<44} {len(same):>4}/{len(compared)}"
          f"   (and {len(archive)} where Chancery meets Archive: the law 78 ruling changes those games)")


def late_states(count: int = 20) -> list[dict]:
    """4-player states from the last turns of AI games (the largest states search copies)."""
    from engine.viceroy import apply_action, pending
    from engine.viceroy.ai import choose_action
    from engine.viceroy.setup import new_game

    out = []
    for seed in range(count):
        state = new_game({"players": 4}, seed)
        rng = random.Random(seed)
        while state["turn"] < 11 or state["phase"] != "development":
            prompts = pending(state)
            seat = min(s for s, p in prompts.items() if not p.get("submitted"))
            apply_action(state, seat, choose_action(state, seat, rng))
        out.append(state)
    return out


def bench_clone(runs: int = 2000) -> None:
    from engine.viceroy import clone

    states = late_states()
    for name, fn in (("engine.viceroy.clone", clone), ("copy.deepcopy", copy.deepcopy),
                     ("json round trip", lambda s: json.loads(json.dumps(s)))):
        n = runs if fn is clone else runs // 10
        times = []
        for i in range(n):
            state = states[i % len(states)]
            t0 = time.perf_counter()
            fn(state)
            times.append((time.perf_counter() - t0) * 1e6)
        print(f"{f'state clone, late 4-player game: {name}':<60} {statistics.median(times):>8.1f} µs median"
              f" {max(times):>8.1f} max")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reference", default=REFERENCE)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    bench_side_by_side(args.reference, args.games, args.rounds)
    bench_clone()


if __name__ == "__main__":
    main()
