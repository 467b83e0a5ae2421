"""The ``darkness`` module: domain cards, diamonds and the revised laws 66, 67, 68 and 72 (Times of Darkness).

Setup: after the starting gems every player's domain card lies in the first row of the pyramid (it replaces
the free starting character). A sealed *domain* phase asks each player for one of its four rewards (any four
gems, a science token on the domain, an attack token, or one character or law card); the rewards resolve in
priority order. Then every player draws three characters, and the *setup* phase asks which to keep: one (or
two of the four characters in hand when the card reward brought a character: "return the chosen one and keep
two of the new ones" or keep it and one new one). Then the decks are made and the laws dealt as usual.

The domain card's sections are multicoloured (``"any"`` in its data): ``pyramid`` counts them as whatever
colour the rest of the circle shares. It is not "a card in the pyramid" for effects (``cards.in_pyramid``).

State: ``state["ext"]["darkness"] = {"keep": [1, 2], "rewards": {"0": "science", ...}}`` (both public).
"""

from __future__ import annotations

import random

from .. import cards as C
from .. import laws as L
from ..auction import reveal
from ..development import play_placed
from ..errors import IllegalAction
from ..payment import check_infinite
from ..rules import DONE, Law, Phase, Ruleset
from ..scoring import ScoreContext
from ..state import (
    COLORS,
    balanced_gems,
    clean_gems,
    ev,
    find_entry,
    gem_total,
    int_arg,
    new_entry,
    p,
    priority_order,
    push,
    rng,
    slot_arg,
)
from . import common
from .carddata import DIAMONDS, DOMAIN, DOMAIN_OPTIONS, DOMAIN_REWARDS

NAME = "darkness"
DRAWN = 3  # characters each player draws after the domain reward


def _ext(state: dict) -> dict:
    return state["ext"][NAME]


# ------------------------------------------------------------------------------------------- setup


def setup(state: dict, draw: random.Random) -> None:
    """The domain card replaces the dealt starting cards: they go back, the law deck is made now (a card
    reward may draw a law), and the game opens with the domain phase."""
    from ..rules import rules_for

    pool = state["large_deck"]
    for player in state["players"]:
        pool.extend(player["hand"])
        player["hand"] = []
        player["pyramid"]["cards"]["1:0"] = new_entry(DOMAIN, "1:0")
    draw.shuffle(pool)
    laws = list(rules_for(state).law_cards)
    draw.shuffle(laws)
    state["law_deck"] = laws
    state["phase"] = "domain"
    state["ext"][NAME] = {"keep": [1] * len(state["players"]), "rewards": {}}


def _validate_domain(state: dict, seat: int, action: dict) -> dict:
    if action.get("type") != "domain":
        raise IllegalAction("Choose one reward of your domain card first.", "bad_type")
    reward = action.get("reward")
    if reward not in DOMAIN_OPTIONS:
        raise IllegalAction("Your domain card gives any 4 gems, a science token, an attack token, or one card.",
                            "bad_reward")
    out: dict = {"type": "domain", "reward": reward}
    if reward == "gems" and action.get("gems") is not None:
        gems = clean_gems(action.get("gems"), "gems to take")
        if gem_total(gems) != 4:
            raise IllegalAction("Your domain card gives 4 gems: name 4.", "bad_gems")
        out["gems"] = gems
    if reward == "card":
        deck = action.get("deck", "character")
        if deck not in ("character", "law"):
            raise IllegalAction("The card comes from the character deck or the law deck.", "bad_draw")
        out["deck"] = deck
    return out


def _resolve_domain(state: dict, choices: dict[int, dict], events: list) -> None:
    rewards = _ext(state)["rewards"]
    for seat, choice in sorted(choices.items()):
        rewards[str(seat)] = choice["reward"]
    text = "; ".join(f"{p(s)}: {_reward_text(c)}" for s, c in sorted(choices.items()))
    ev(events, "all", "domain_rewards", f"Domain card rewards: {text}.",
       rewards={str(s): c["reward"] for s, c in choices.items()})
    for seat in priority_order(state, choices):
        state["queue"].append({"op": "domain_reward", "seat": seat, "choice": choices[seat]})
    state["queue"].append({"op": "domain_draw"})


def _reward_text(choice: dict) -> str:
    kind = choice["reward"]
    if kind == "card":
        return f"a {choice.get('deck', 'character')} card"
    return {"gems": "4 gems", "science": "a science token", "attack": "an attack token"}[kind]


def step_domain_reward(state: dict, step: dict, events: list) -> bool:
    seat, choice = step["seat"], step["choice"]
    player = state["players"][seat]
    kind = choice["reward"]
    if kind == "gems":
        push(state, {"op": "gain_gems", "seat": seat, "count": DOMAIN_REWARDS["gems"]["amount"],
                     "choice": choice.get("gems"), "why": "domain card"})
    elif kind == "science":
        find_entry(player, DOMAIN)["tokens"].append({"type": "science"})  # type: ignore[index]
        ev(events, "all", "domain_science", f"{p(seat)} places a science token on the domain card.", seat=seat)
    elif kind == "attack":
        player["attacks"] += 1
        ev(events, "all", "attacks_gained", f"{p(seat)} takes an attack token.", seat=seat, amount=1)
    else:
        law = choice.get("deck") == "law"
        deck = state["law_deck"] if law else state["large_deck"]
        if deck:
            card = deck.pop()
            player["hand"].append(card)
            if not law:
                _ext(state)["keep"][seat] = 2
            ev(events, "all", "cards_drawn", f"{p(seat)} takes a {'law' if law else 'character'} card.", seat=seat,
               counts={"law" if law else "small": 1})
            ev(events, seat, "drew", f"You draw {C.label(card)}.", card=card)
    return True


def step_domain_draw(state: dict, step: dict, events: list) -> bool:
    """Every player draws three characters (then keeps one in the setup phase)."""
    for seat, player in enumerate(state["players"]):
        drawn = [state["large_deck"].pop() for _ in range(min(DRAWN, len(state["large_deck"])))]
        player["hand"].extend(drawn)
        ev(events, seat, "drew", "You draw " + ", ".join(C.label(c) for c in drawn) + ".", cards=drawn)
    ev(events, "all", "domain_draw", f"Every player draws {DRAWN} characters and keeps one.")
    return True


def _default_domain(state: dict, seat: int) -> dict:
    return {"type": "domain", "reward": "gems", "gems": balanced_gems(state["reserve"], 4)}


DOMAIN_PHASE = Phase(
    name="domain",
    start=lambda state, events: None,
    next="setup",
    validate=_validate_domain,
    resolve=_resolve_domain,
    advance=lambda state, events: DONE,
    default=_default_domain,
)


def _characters_in_hand(player: dict) -> list[int]:
    return [c for c in player["hand"] if C.is_character(c)]


def _keep_count(state: dict, seat: int) -> int:
    return min(_ext(state)["keep"][seat], len(_characters_in_hand(state["players"][seat])))


def _start_setup(state: dict, events: list) -> None:
    state["phase"] = "setup"
    state["round"] = 0
    state["active"] = list(range(len(state["players"])))


def _validate_keep(state: dict, seat: int, action: dict) -> dict:
    if action.get("type") != "setup":
        raise IllegalAction("Choose the characters you keep first.", "bad_type")
    keep = action.get("keep")
    need = _keep_count(state, seat)
    if isinstance(keep, int) and not isinstance(keep, bool):
        keep = [keep]
    chars = _characters_in_hand(state["players"][seat])
    # Card numbers first: a list or dict in the list cannot be counted as a set.
    if (not isinstance(keep, list) or len(keep) != need
            or any(int_arg(c) is None or c not in chars for c in keep) or len(set(keep)) != need):
        raise IllegalAction(f"Keep {need} of the characters in your hand; the others go back to the deck.", "bad_keep")
    return {"type": "setup", "keep": list(keep)}


def _resolve_keep(state: dict, choices: dict[int, dict], events: list) -> None:
    from ..rules import rules_for

    pool = state["large_deck"]
    for seat, choice in sorted(choices.items()):
        player = state["players"][seat]
        back = [c for c in _characters_in_hand(player) if c not in choice["keep"]]
        player["hand"] = [c for c in player["hand"] if c not in back]
        pool.extend(back)
        ev(events, "all", "kept", f"{p(seat)} keeps {len(choice['keep'])} and returns {len(back)} to the deck.",
           seat=seat)
    rng(state).shuffle(pool)
    size = rules_for(state).large_deck
    state["large_deck"], state["small_deck"] = pool[:size], pool[size:]
    for player in state["players"]:
        player["hand"].extend(state["law_deck"].pop() for _ in range(min(3, len(state["law_deck"]))))
    reveal(state, events)


def _default_keep(state: dict, seat: int) -> dict:
    return {"type": "setup", "keep": _characters_in_hand(state["players"][seat])[: _keep_count(state, seat)]}


SETUP_PHASE = Phase(
    name="setup",
    start=_start_setup,
    next="auction",
    validate=_validate_keep,
    resolve=_resolve_keep,
    advance=lambda state, events: DONE,
    default=_default_keep,
)

# ------------------------------------------------------------------------------------------- revised laws


def _validate_endowment(state: dict, seat: int, action: dict, out: dict, fresh: bool) -> dict:
    """Revised 66: under a character card or under the domain card."""
    cards = state["players"][seat]["pyramid"]["cards"]
    target = slot_arg(action.get("target"))
    if target not in cards or not (C.is_character(cards[target]["card"]) or cards[target]["card"] == DOMAIN):
        raise IllegalAction("Endowment goes under a character card of your pyramid or under your domain card.",
                            "bad_target")
    out["target"] = target
    return out


def _validate_exchange(state: dict, seat: int, action: dict, out: dict, fresh: bool) -> dict:
    """Revised 67: as the base law (domain cards hold tokens too), diamonds may stand for the 3 gems; no
    exchange gives a diamond."""
    give, take = action.get("give"), action.get("take")
    out["diamonds"] = 0
    if give is None and take is None:
        return out
    paid = action.get("diamonds", 0)
    if int_arg(paid) is None or paid < 0:
        raise IllegalAction("Name how many diamonds you pay (0 or more).", "bad_payment")
    if paid > common.held(state, seat):
        raise IllegalAction("You do not have that many diamonds behind your screen.", "no_diamond")
    if not paid:
        return L._validate_exchange(state, seat, {k: v for k, v in action.items() if k != "diamonds"}, out, fresh)
    player = state["players"][seat]
    if not isinstance(give, dict) or not isinstance(take, dict):
        raise IllegalAction("Exchange of Favors swaps one of your tokens for one of another player's.", "bad_swap")
    other = take.get("seat")
    if not isinstance(other, int) or isinstance(other, bool) or other == seat or not 0 <= other < len(state["players"]):
        raise IllegalAction("Choose another player to exchange a token with.", "bad_swap")
    L._token_ref(player["pyramid"]["cards"], give, "your")
    L._token_ref(state["players"][other]["pyramid"]["cards"], take, "their")
    pay = clean_gems(action.get("pay"), "payment")
    infinite = action.get("infinite") or []
    check_infinite(player, infinite)
    if gem_total(pay) + len(infinite) + paid != 3:
        raise IllegalAction("The exchange costs 3 gems (diamonds may stand for gems) paid to the other player.",
                            "bad_payment")
    if any(pay[c] > player["gems"][c] for c in COLORS):
        raise IllegalAction("You do not have those gems to pay.", "cannot_pay")
    out.update({"give": dict(give), "take": dict(take), "pay": pay, "infinite": list(infinite), "diamonds": paid})
    return out


def _exchange(state: dict, seat: int, plan: dict, events: list) -> None:
    if not plan.get("give") or not plan.get("take"):
        play_placed(state, seat, plan, events)
        push(state, {"op": "reward", "seat": seat, "card": 67, "slot": plan["slot"],
                     "items": [{"type": DIAMONDS, "amount": 1}], "choice": plan.get("reward") or {}})
        return
    L._exchange(state, seat, plan, events)
    paid = plan.get("diamonds") or 0
    if paid:
        d = common.slice_of(state)
        d["held"][seat] -= paid
        d["held"][plan["take"]["seat"]] += paid  # paid to the other player, behind their screen


def _secret_service(state: dict, seat: int, plan: dict, events: list) -> None:
    L._secret_service(state, seat, plan, events)
    push(state, {"op": "reward", "seat": seat, "card": 72, "slot": plan["slot"],
                 "items": [{"type": DIAMONDS, "amount": 1}], "choice": plan.get("reward") or {}})


def census_points(ctx: ScoreContext, slot: str, entry: dict) -> int:
    """Revised 68: 1 PP per character card in the pyramid (tucked characters included), 1 for the domain card.

    Tuned by the balance report: counting every card, as the base Census does, made it the strongest card."""
    total = 0
    for e in ctx.pyramid["cards"].values():
        total += (C.is_character(e["card"]) or e["card"] == DOMAIN) + sum(1 for c in e["tucked"] if C.is_character(c))
    return total


REVISED = {
    66: Law(validate=_validate_endowment, play=L._endowment, places=False, verb="under"),
    67: Law(validate=_validate_exchange, play=_exchange),
    68: Law(play=play_placed, score=census_points),
    72: Law(validate=L._validate_secret_service, play=_secret_service, score=L.LAWS[72].score),
}

# ------------------------------------------------------------------------------------------- AI


def ai_domain(state: dict, seat: int, rng: random.Random) -> dict:
    kind = rng.choice(DOMAIN_OPTIONS)
    if kind == "gems":
        return _default_domain(state, seat)
    if kind == "card":
        return {"type": "domain", "reward": "card", "deck": rng.choice(("character", "law"))}
    return {"type": "domain", "reward": kind}


def ai_keep(state: dict, seat: int, rng: random.Random) -> dict:
    from ..ai import _reward_score

    chars = _characters_in_hand(state["players"][seat])
    ranked = sorted(chars, key=lambda n: (-_reward_score(C.rewards(n, 1) + C.rewards(n, 2)), rng.random()))
    return {"type": "setup", "keep": ranked[: _keep_count(state, seat)]}


def domain_choices(state: dict, seat: int, prompt: dict) -> dict:
    return {"rewards": list(DOMAIN_OPTIONS), "decks": ["character", "law"]}


def keep_choices(state: dict, seat: int, prompt: dict) -> dict:
    return {"hand": _characters_in_hand(state["players"][seat]), "keep": _keep_count(state, seat)}


def view(state: dict, seat: int | None, out: dict, prompts: dict) -> None:
    x = state["ext"].get(NAME)
    if x is None:
        return
    out["domain"] = {"card": DOMAIN, "rewards": dict(x["rewards"]), "keep": list(x["keep"])}


class Darkness:
    name = NAME
    order = 20

    def install(self, rules: Ruleset) -> None:
        common.install(rules)
        rules.setup.append(setup)
        rules.phases["domain"] = DOMAIN_PHASE
        rules.phases["setup"] = SETUP_PHASE
        rules.steps["domain_reward"] = step_domain_reward
        rules.steps["domain_draw"] = step_domain_draw
        for number, law in REVISED.items():
            rules.add_law(number, law)
        rules.views.append(view)
        rules.ai["domain"] = ai_domain
        rules.ai["setup"] = ai_keep
        rules.prompt_choices["domain"] = domain_choices
        rules.prompt_choices["setup"] = keep_choices


MODULE = Darkness()
