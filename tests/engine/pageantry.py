"""A small module used only by the tests, to prove every extension point of the engine can be reached.

Pageantry adds: a reward type (``salute``), a phase (a parade after the development phase of turn 1), a
revised law (68 Census, replaced by number: it grants two salutes when played), a scorer (2 points per
salute) and a view part (the salutes, in ``view["ext"]["pageantry"]``). It keeps its state in
``state["ext"]["pageantry"]``. It is not part of the game.
"""

from __future__ import annotations

from engine.viceroy import rules as R
from engine.viceroy.development import after_turn, play_placed
from engine.viceroy.errors import IllegalAction
from engine.viceroy.rules import DONE, Law, Phase, Ruleset, Scorer
from engine.viceroy.state import ev, ext, p, push

NAME = "pageantry"


def _setup(state: dict, draw: object) -> None:
    ext(state, NAME)["salutes"] = [0] * len(state["players"])


def _salute_reward(grant, item: dict) -> None:  # noqa: ANN001
    ext(grant.state, NAME)["salutes"][grant.seat] += item["amount"]


def _revised_census(state: dict, seat: int, plan: dict, events: list) -> None:
    play_placed(state, seat, plan, events)
    push(state, {"op": "reward", "seat": seat, "card": 68, "slot": plan["slot"],
                 "items": [{"type": "salute", "amount": 2}], "choice": {}})


def _parade_start(state: dict, events: list) -> None:
    state["phase"] = "parade"
    state["round"] = 1
    state["active"] = list(range(len(state["players"])))
    ev(events, "all", "parade", "The parade: salute or stand aside.")


def _parade_validate(state: dict, seat: int, action: dict) -> dict:
    if action.get("type") not in ("salute", "pass"):
        raise IllegalAction("In the parade you may salute or pass.", "bad_type")
    return {"type": action["type"]}


def _parade_resolve(state: dict, choices: dict[int, dict], events: list) -> None:
    for seat, choice in sorted(choices.items()):
        if choice["type"] == "salute":
            ext(state, NAME)["salutes"][seat] += 1
            ev(events, "all", "salute", f"{p(seat)} salutes.", seat=seat)
    state["active"] = []


PARADE = Phase(
    name="parade",
    start=_parade_start,
    next=after_turn,
    validate=_parade_validate,
    resolve=_parade_resolve,
    advance=lambda state, events: DONE,
    default=lambda state, seat: {"type": "pass"},
)


def _score(ctx) -> int:  # noqa: ANN001
    return 2 * ext(ctx.state, NAME)["salutes"][ctx.seat]


def _view(state: dict, seat: int | None, out: dict, prompts: dict) -> None:
    salutes = state["ext"][NAME]["salutes"]
    part = {"salutes": list(salutes)}
    if seat is not None:
        part["mine"] = salutes[seat]
    out.setdefault("ext", {})[NAME] = part


class Pageantry:
    name = NAME
    order = 100

    def install(self, rules: Ruleset) -> None:
        rules.setup.append(_setup)
        rules.rewards["salute"] = _salute_reward
        rules.phases["parade"] = PARADE
        development = rules.phases["development"]
        rules.phases["development"] = R.then(development, lambda s: "parade" if s["turn"] == 1 else after_turn(s))
        rules.add_law(68, Law(play=_revised_census, score=rules.laws[68].score))
        rules.scorers.append(Scorer(NAME, _score))
        rules.views.append(_view)


class Fanfare:
    """A second module, only to show that modules are installed in a fixed order."""

    name = "fanfare"
    order = 50

    def install(self, rules: Ruleset) -> None:
        rules.views.append(lambda state, seat, out, prompts: out.setdefault("ext", {}).setdefault("order", []).append("fanfare"))


R.register(Pageantry())
R.register(Fanfare())
