"""Render a seeded sample game into docs/images/*.png (what the bot posts), for the README and docs.

    python scripts/render_gallery.py [--seed 21] [--out docs/images]

The game is played by the engine's baseline AI, so the pictures are real engine views: the start of the
game, a turn in the middle (table, a player's screen, the auction, a pyramid with the legal slots of a hand
card), the painted end position and the score sheet.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.viceroy import cards as cardlib  # noqa: E402
from engine.viceroy import final_scores, game, view  # noqa: E402
from engine.viceroy.ai import choose_action  # noqa: E402
from engine.viceroy.pyramid import legal_slots  # noqa: E402
from rendering import (  # noqa: E402
    render_auction,
    render_card,
    render_pyramid,
    render_scores,
    render_screen,
    render_table,
)

NAMES = ["Alice", "Bartholomew", "Chen", "Dagny"]
OPTIONS = {"players": 4, "deal": 4, "virtual_opponents": 0}


def _step(state: dict, rng: random.Random) -> bool:
    prompts = game.pending(state)
    if not prompts:
        return False
    seat = min(s for s, p in prompts.items() if not p.get("submitted"))
    game.apply_action(state, seat, choose_action(state, seat, rng))
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)

    def save(name: str, data: bytes) -> None:
        (out / name).write_bytes(data)
        print(f"{name:28} {len(data) / 1024:8.1f} KiB")

    state = game.new_game(OPTIONS, args.seed)
    rng = random.Random(args.seed)
    while state["phase"] == "setup" and _step(state, rng):
        pass
    save("start_table.png", render_table(view(state, None), NAMES))

    while state["turn"] < 7 or state["phase"] != "development":
        if not _step(state, rng):
            break
    seat = 0
    mine = view(state, seat)
    save("middle_table.png", render_table(view(state, None), NAMES))
    save("middle_screen.png", render_screen(mine, NAMES[seat]))
    save("middle_auction.png", render_auction(mine["auction"]))
    pyramid = mine["players"][seat]["pyramid"]
    hand = mine["players"][seat].get("hand") or []
    character = next((n for n in hand if not cardlib.is_law(n)), None)
    slots = legal_slots(pyramid, character) if character is not None else []
    me = mine["players"][seat]
    save("middle_pyramid_slots.png",
         render_pyramid(pyramid, NAMES[seat], {"hand": len(hand), "gems": sum(me["gems"].values())}, slots))

    while _step(state, rng):
        pass
    end = view(state, None)
    save("end_table.png", render_table(end, NAMES))
    best = max(final_scores(state), key=lambda s: s["total"])["seat"]
    save("end_pyramid.png", render_pyramid(end["players"][best]["pyramid"], NAMES[best]))
    save("end_scores.png", render_scores(final_scores(state), NAMES))
    save("card_character.png", render_card(32))
    save("card_law.png", render_card(83))


if __name__ == "__main__":
    main()
