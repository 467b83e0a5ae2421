"""Viceroy on the game contract (engine/api.py): the `GAME` the registry and every generic layer use."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from engine.api import Game, GameType, OptionSpec, Outcome, Prompt, SeatResult, rank_results

from . import moves as M
from . import prompts as _prompts
from .errors import IllegalAction
from .flow import apply_action
from .modules import CHOICES as MODULE_CHOICES
from .rules import check_options, rules_for
from .setup import new_game
from .views import view as _view

TYPE = GameType(
    name="viceroy",
    display_name="Viceroy",
    min_seats=1,
    max_seats=4,
    dynamics="sealed",
    hidden_information=True,
    options=(
        OptionSpec("deal", "Starting deal", "choice", 4, choices=((4, "4 cards"), (2, "2 cards (first printing)"))),
        OptionSpec("virtual_opponents", "Virtual opponents", "int", 0, min=0, max=3,
                   help="Automatic bidders that fill the auction (a solo game always has one)."),
        OptionSpec("modules", "Times of Darkness modules", "flags", [], choices=MODULE_CHOICES,
                   help="Expansion modules to play with; any combination (the two-player game is for 1-2 players)."),
    ),
    description="Build a pyramid of characters and laws; bid for cards in secret, develop, and paint at the end.",
)

# Score rows in the order of the score sheet, with the labels players read.
BREAKDOWN = (
    ("circles", "Circles"),
    ("infinite_gems", "Infinite gems"),
    ("laws", "Laws"),
    ("power_points", "Power points"),
    ("magic", "Magic"),
    ("sets", "Sets"),
    ("attack", "Attacks"),
)

BASE_CATEGORIES = frozenset(key for key, _ in BREAKDOWN)


class LazyChoices(Mapping[str, Any]):
    """Prompt choices computed on first read: the service asks for pending seats on every action, but only a
    presenter or an AI looks at what a seat may choose."""

    def __init__(self, build: Callable[[], dict]) -> None:
        self._build: Callable[[], dict] | None = build
        self._data: dict | None = None

    def _get(self) -> dict:
        if self._data is None:
            assert self._build is not None
            self._data, self._build = self._build(), None
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def _choices(state: dict, seat: int, prompt: dict) -> dict:
    kind = prompt["kind"]
    module = rules_for(state).prompt_choices.get(kind)
    if module is not None:
        return module(state, seat, prompt)
    if kind == "setup":
        return {"hand": list(state["players"][seat]["hand"]), "deal": state["options"]["deal"]}
    if kind == "auction":
        return M.auction_options(state, seat)
    if kind in ("development", "replan"):
        # A re-plan during resolution asks the development question again (with the decision's text).
        options = M.development_options(state, seat)
        # JSON object keys are strings: card numbers as keys would not survive storage.
        options["plays"] = {str(n): v for n, v in options["plays"].items()}
        if kind == "replan":
            options.update({k: v for k, v in prompt.items() if k not in ("seat", "submitted", "kind")})
        return options
    if kind == "paint":
        return {"gems": dict(state["players"][seat]["gems"])}
    return {k: v for k, v in prompt.items() if k not in ("seat", "submitted", "kind")}


def pending(state: dict) -> dict[int, Prompt]:
    out = {}
    for seat, prompt in _prompts.pending(state).items():
        out[seat] = Prompt(kind=prompt["kind"], key=_prompts.prompt_key(state, seat) or prompt["kind"],
                           waiting=not prompt.get("submitted", False),
                           choices=LazyChoices(lambda s=seat, p=prompt: _choices(state, s, p)))
    return out


def outcome(state: dict) -> Outcome | None:
    if state["phase"] != "over" or state["scores"] is None:
        return None
    scores = {row["seat"]: row for row in state["scores"]}
    rules = rules_for(state)  # a module's scoring categories follow the base game's
    seats = sorted(scores)
    ranks = rank_results([(scores[s]["total"],) for s in seats])
    results = []
    for seat, rank in zip(seats, ranks, strict=True):
        row = scores[seat]
        rows = list(BREAKDOWN) + [(s.category, s.label or s.category.replace("_", " ").capitalize())
                                  for s in rules.scorers if s.category not in BASE_CATEGORIES]
        results.append(SeatResult(seat=seat, total=row["total"], winner=bool(row["winner"]), rank=rank,
                                  breakdown=tuple((label, int(row["breakdown"].get(key, 0)))
                                                  for key, label in rows)))
    return Outcome(results=tuple(results), reason="twelve turns played")


def normalize_options(options: Mapping[str, Any], seats: int) -> dict:
    out = {"players": seats, "deal": options.get("deal", 4), "virtual_opponents": options.get("virtual_opponents", 0)}
    if seats == 1:
        out["virtual_opponents"] = 1  # the solo game always has exactly one virtual opponent (§11)
    elif seats + out["virtual_opponents"] > 4:
        raise IllegalAction(f"With {seats} players there is room for at most {4 - seats} virtual opponents.",
                            "bad_options")
    for key in ("modules",):
        if key in options:
            out[key] = list(options[key])
    if out.get("modules"):
        check_options(out)
    return out


def _choose(state: dict, seat: int, rng: random.Random) -> dict:
    from .ai import choose_action

    return choose_action(state, seat, rng)


def _determinize(state: dict, seat: int, rng: random.Random) -> dict:
    from .determinize import determinize

    return determinize(state, seat, rng)


def describe(action: dict) -> str:
    kind = action.get("type")
    if kind == "bid":
        return f"bid {action.get('color')}" + (f" for card {action['card']}" if action.get("card") else "")
    if kind == "play":
        return f"play card {action.get('card')}" + (f" at {action['slot']}" if action.get("slot") else "")
    if kind == "discard":
        return f"discard card {action.get('card')}"
    return str(kind)


GAME = Game(
    type=TYPE,
    new_game=lambda options, seed, seats: new_game(dict(options), seed, seats),
    pending=pending,
    apply=apply_action,
    view=_view,
    default_action=M.default_action,
    outcome=outcome,
    normalize_options=normalize_options,
    choose_action=_choose,
    determinize=_determinize,
    describe=describe,
)
