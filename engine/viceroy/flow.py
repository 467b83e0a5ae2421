"""The game's flow: ``apply_action`` and the resolution queue, driven by the phase table.

``apply_action`` validates the whole action before it changes anything, so an illegal action leaves the state
untouched. Resolution runs as a queue of small steps kept in the state (``state["queue"]``, each step an
``op`` of the ruleset's ``steps`` table); a step that needs a player's answer stops the queue and records a
*decision*, and the answer resumes it. When the queue is empty the current phase's ``advance`` decides what
comes next (a new round, or the phase's ``next``). This keeps every game resumable from its stored state and
replayable from its record.
"""

from __future__ import annotations

from . import base  # noqa: F401  (installs the base game's ruleset)
from .errors import IllegalAction
from .rules import DONE, TRUSTED, Ruleset, next_phase, rules_for, trusted_reading
from .state import p


def apply_action(state: dict, seat: int, action: dict, trusted: bool = False) -> list[dict]:
    """Apply one seat's action. Raises IllegalAction (state unchanged) if the rules do not allow it.

    ``trusted``: the action was built by the engine itself from this state's legal options (the baseline AI's
    seats), so a sealed phase's choice is read without checking it again where the phase's check has a trusted
    reading, and a phase's act runs its trusted counterpart where it has one (``rules.trust``); the result is
    the same, only faster; nor are the action's shape and the seat checked (the engine made them). Anything
    else is checked as always.
    """
    if not trusted:  # (an action the engine built has an action's shape and a seat of the game)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("That is not an action.", "bad_action")
        if not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
            raise IllegalAction("There is no such seat in this game.", "bad_seat")
    rules = rules_for(state)
    if state["phase"] == "over":
        raise IllegalAction("This game is over.", "game_over")
    events: list[dict] = []
    decision = state["decision"]
    if decision is not None:
        if decision["seat"] != seat:
            raise IllegalAction("We are waiting for another player's answer.", "not_your_turn")
        if action["type"] != "decide":
            raise IllegalAction("Answer the question you were asked first.", "decision_pending")
        question = rules.decisions.get(decision["kind"])
        if question is None:
            raise IllegalAction("That answer does not fit the question.", "bad_answer")
        answer = question.validate(state, seat, decision, action)
        state["queue"][0]["answer"] = answer
        state["decision"] = None
        run(state, events, rules)
        return _record(state, events)
    if action["type"] == "decide":
        raise IllegalAction("There is no question waiting for an answer.", "no_decision")
    phase = rules.phases[state["phase"]]
    if phase.act is not None:
        act = (trusted_reading(phase.act) if trusted else None) or phase.act
        act(state, seat, action, events)
        return _record(state, events)
    if seat not in state["active"]:
        raise IllegalAction(phase.inactive, "not_active")
    choice = None
    if trusted:
        reading = TRUSTED.get(phase.validate)  # (rules.trusted_reading, looked up here: every action)
        if reading is not None:
            choice = reading(state, seat, action, rules)
    if choice is None:
        choice = phase.validate(state, seat, action)
    choices = state["choices"]
    key = _KEYS[seat] if seat < 8 else str(seat)
    amended = key in choices
    choices[key] = choice
    # The two events of every sealed choice, built directly (as ``ev`` builds them): this runs for every action.
    events.append({"type": "choice_recorded", "to": seat,
                   "text": "Your choice is recorded (changed)." if amended else "Your choice is recorded.",
                   "choice": choice})
    waiting = []  # (a loop, not a comprehension: this runs for every action, mostly over four seats)
    for s in state["active"]:
        if (_KEYS[s] if s < 8 else str(s)) not in choices:
            waiting.append(s)
    chosen = {"type": "chosen", "to": "all", "text": _CHOSEN[seat] if seat < 8 else f"{p(seat)} has chosen.",
              "seat": seat, "waiting": waiting}
    events.append(chosen)
    if waiting:
        state["log"].append(chosen)  # the one public event (what _record would keep)
        return events
    state["choices"] = {}
    phase.resolve(state, {int(k): v for k, v in choices.items()}, events)
    run(state, events, rules)
    return _record(state, events)


# Seat keys of ``state["choices"]`` (JSON object keys are strings) and the "has chosen" texts, made once for
# seats 0-7 (more seats are spelled out).
_KEYS = tuple(str(seat) for seat in range(8))
_CHOSEN = tuple(f"{p(seat)} has chosen." for seat in range(8))


def _record(state: dict, events: list[dict]) -> list[dict]:
    state["log"].extend([e for e in events if e["to"] == "all"])
    return events


def run(state: dict, events: list, rules: Ruleset | None = None) -> None:
    """Work through the resolution queue, then advance the game until someone must decide (``rules``: the
    game's ruleset, or None to look it up)."""
    if rules is None:
        rules = rules_for(state)
    steps = rules.steps
    while True:
        queue = state["queue"]
        while queue:
            if not steps[queue[0]["op"]](state, queue[0], events):
                return
            queue.pop(0)
        if not advance(state, events, rules):
            return


def advance(state: dict, events: list, rules: Ruleset | None = None) -> bool:
    """The queue is empty: move on. Returns True if more automatic work was queued."""
    if rules is None:
        rules = rules_for(state)
    phase = rules.phases[state["phase"]]
    if phase.advance is None:
        return False
    outcome = phase.advance(state, events)
    if outcome != DONE:
        return bool(outcome)
    rules.phases[next_phase(state, phase)].start(state, events)
    # After a phase change: keep going while nobody has anything to decide.
    return bool(state["queue"]) or (state["phase"] != "over" and not _anyone_waited_for(state, rules))


def _anyone_waited_for(state: dict, rules: Ruleset) -> bool:
    """``bool(pending(state))`` (the phase is not over), without building the prompts."""
    if state["decision"] is not None:
        return True
    phase = rules.phases[state["phase"]]
    if phase.pending is not None:
        return bool(phase.pending(state))
    return bool(state["active"])
