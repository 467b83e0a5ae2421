"""Game records: options, seed, seats and the ordered actions. A record replays to the identical state."""

from __future__ import annotations

from .errors import IllegalAction
from .flow import apply_action
from .setup import new_game

RECORD_FORMAT = 1


def new_record(options: dict, seed: int, seats: list[str]) -> dict:
    return {"game": "viceroy", "format": RECORD_FORMAT, "options": dict(options), "seed": seed, "seats": list(seats), "actions": []}


def replay(record: dict) -> dict:
    """Rebuild the state by applying every recorded action to a new game."""
    if record.get("game", "viceroy") != "viceroy":
        raise ValueError("not a Viceroy game record")
    state = new_game(record["options"], record["seed"], len(record["seats"]))
    for i, item in enumerate(record["actions"]):
        try:
            apply_action(state, item["seat"], item["action"])
        except IllegalAction as exc:
            raise ValueError(f"record action {i} is illegal: {exc.message}") from exc
    return state
