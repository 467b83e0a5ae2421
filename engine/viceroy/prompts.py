"""Who may act now and on what: ``pending`` and ``prompt_key`` read the phase table and the open decision."""

from __future__ import annotations

from .rules import rules_for


def pending(state: dict) -> dict[int, dict]:
    """Seats that may act now and what each may choose."""
    rules = rules_for(state)
    if state["phase"] == "over":
        return {}
    decision = state["decision"]
    if decision is not None:
        return {decision["seat"]: dict(decision, submitted=False)}
    phase = rules.phases[state["phase"]]
    if phase.pending is not None:
        return phase.pending(state)
    choices, turn, rnd, kind = state["choices"], state["turn"], state["round"], phase.name
    return {
        seat: {"kind": kind, "seat": seat, "round": rnd, "turn": turn, "submitted": str(seat) in choices}
        for seat in state["active"]
    }


def prompt_key(state: dict, seat: int) -> str | None:
    """A short key naming the decision a seat faces now; a prompt shown with another key is stale."""
    prompt = pending(state).get(seat)
    if prompt is None:
        return None
    if state["decision"] is not None:
        return f"decide:{prompt['kind']}:{len(state['log'])}:{state.get('asked', 0)}"
    phase = rules_for(state).phases[state["phase"]]
    if phase.prompt_key is not None:
        return phase.prompt_key(state, seat, prompt)
    return f"{prompt['kind']}:{state['turn']}:{state['round']}"


def is_over(state: dict) -> bool:
    return state["phase"] == "over"
