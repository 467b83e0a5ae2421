"""Command line for the Pyramido engine: simulate AI games or replay a game record.

    python -m engine.pyramido simulate --games 10 --players 4 --seed 1 [--record-dir DIR]
    python -m engine.pyramido replay RECORD.json

``simulate`` prints one JSON line per game; ``replay`` prints the final scores (and where the game stands).
A record is {"options", "seed", "seats", "actions": [[seat, action], ...]}.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from . import GAME
from .game import IllegalAction


def play(seats: int, seed: int) -> tuple[dict, dict]:
    """One AI game: (final state, record)."""
    options = GAME.options_for({}, seats)
    state = GAME.new_game(options, seed, seats)
    rng = random.Random(seed)
    record = {"options": options, "seed": seed, "seats": seats, "actions": []}
    while not state["over"]:
        seat = state["turn"]
        action = GAME.choose_action(state, seat, rng)
        record["actions"].append([seat, action])
        GAME.apply(state, seat, action)
    return state, record


def _simulate(args: argparse.Namespace) -> int:
    record_dir = Path(args.record_dir) if args.record_dir else None
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    for i in range(args.games):
        seed = args.seed + i
        state, record = play(args.players, seed)
        outcome = GAME.outcome(state)
        line = {"seed": seed, "actions": len(record["actions"]),
                "scores": [{"seat": r.seat, "total": r.total, "floors": state["players"][r.seat]["scores"],
                            "note": r.note} for r in outcome.results],
                "winner": outcome.winners}
        print(json.dumps(line), flush=True)
        if record_dir is not None:
            (record_dir / f"pyramido-{seed}.json").write_text(json.dumps(record), encoding="utf-8")
    return 0


def _replay(args: argparse.Namespace) -> int:
    try:
        record = json.loads(Path(args.record).read_text(encoding="utf-8"))
        state = GAME.replay(record)
    except IllegalAction as exc:
        print(f"error: the record does not replay: {exc.message}", file=sys.stderr)
        return 2
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"error: cannot replay {args.record}: {exc}", file=sys.stderr)
        return 2
    outcome = GAME.outcome(state)
    print(json.dumps({"floor": state["floor"], "over": state["over"],
                      "scores": [p["scores"] for p in state["players"]],
                      "outcome": outcome.to_json() if outcome else None}, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.pyramido")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play AI games, one JSON line each")
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--record-dir")
    rep = sub.add_parser("replay", help="replay a game record")
    rep.add_argument("record")
    args = parser.parse_args(argv)
    return _simulate(args) if args.command == "simulate" else _replay(args)


if __name__ == "__main__":
    sys.exit(main())
