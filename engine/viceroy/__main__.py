"""Command line for the Viceroy engine: simulate AI games or replay a game record.

    python -m engine.viceroy simulate --games 10 --players 4 --seed 1 [--virtual 0] [--deal 4] [--record-dir DIR]
    python -m engine.viceroy replay RECORD.json

``simulate`` prints one JSON line per game; ``replay`` prints the final public view and the scores.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .ai import play_game
from .errors import IllegalAction
from .game import final_scores
from .records import new_record, replay
from .views import view


def _simulate(args: argparse.Namespace) -> int:
    options = {"players": args.players, "virtual_opponents": args.virtual, "deal": args.deal}
    record_dir = Path(args.record_dir) if args.record_dir else None
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    for i in range(args.games):
        seed = args.seed + i
        try:
            state, actions = play_game(options, seed)
        except IllegalAction as exc:
            print(f"error: {exc.message}", file=sys.stderr)
            return 2
        scores = final_scores(state) or []
        line = {
            "seed": seed,
            "turns": state["turn"],
            "actions": len(actions),
            "scores": [{"seat": s["seat"], "total": s["total"], "breakdown": s["breakdown"]} for s in scores],
            "winner": [s["seat"] for s in scores if s["winner"]],
        }
        print(json.dumps(line), flush=True)
        if record_dir is not None:
            record = new_record(state["options"], seed, [f"AI {s + 1}" for s in range(args.players)])
            record["actions"] = actions
            (record_dir / f"viceroy-{seed}.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    return 0


def _replay(args: argparse.Namespace) -> int:
    try:
        record = json.loads(Path(args.record).read_text(encoding="utf-8"))
        state = replay(record)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"error: cannot replay {args.record}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"view": view(state, None), "scores": final_scores(state)}, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.viceroy", description="Viceroy rules engine tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play games between AI players and print one JSON line per game")
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--players", type=int, default=4, choices=[1, 2, 3, 4])
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game; the next games use seed+1, ...")
    sim.add_argument("--virtual", type=int, default=0, help="virtual opponents (2-3 players; solo always has one)")
    sim.add_argument("--deal", type=int, default=4, choices=[2, 4])
    sim.add_argument("--record-dir", default=None, help="write each game's record here as viceroy-SEED.json")
    rep = sub.add_parser("replay", help="replay a game record and print the final public view and scores")
    rep.add_argument("record")
    args = parser.parse_args(argv)
    if args.command == "simulate":
        if args.games < 0:
            parser.error("--games must be 0 or more")
        return _simulate(args)
    return _replay(args)


if __name__ == "__main__":
    sys.exit(main())
