"""The ``duo`` module: the revised two-player and solo game of Times of Darkness.

* Two multicoloured auction cards replace the four: red/green and blue/yellow (ruling: this fixed layout;
  the rulebook lets any side face up as long as all four colours show).
* The large deck holds 24 characters; two are revealed at setup and after each auction (one per card).
* A bid names an auction card by either of its colours (a gem of that colour). Both players on the same
  auction card: nobody gets a card, unless two characters lie there and they want different ones.
* Law 69 (Royal Decree) also puts two cards from the small deck under the large deck (the rulebook: "law
  69 adds two cards to the large deck instead of four").
* Solo: no virtual opponent; the bid gem goes to the reserve and the player takes the card. At the end,
  +3 PP per attack token and +2 PP per defense token, on top of the usual score.

For 1 or 2 players, without virtual opponents. State: none of its own (the auction layout is the table's).
"""

from __future__ import annotations

import random
from dataclasses import replace

from .. import cards as C
from .. import laws as L
from ..auction import auction_cards, bids_settled, remove_from_auction, reveal_bids
from ..errors import IllegalAction
from ..rewards import take_card
from ..rules import Law, Ruleset, Scorer
from ..scoring import unused_attacks
from ..state import ev, p

NAME = "duo"
LAYOUT = (("red", "green"), ("blue", "yellow"))
LARGE_DECK = 24
DECREE_CARDS = 2
SOLO_ATTACK_PP = 3
SOLO_DEFENSE_PP = 2


def check_options(options: dict) -> None:
    if options.get("players", 2) > 2:
        raise IllegalAction("The revised two-player game (duo) is for 1 or 2 players.", "bad_options")
    if options.get("players", 2) == 2 and options.get("virtual_opponents", 0):
        raise IllegalAction("The revised two-player game has no virtual opponents.", "bad_options")


def setup(state: dict, draw: random.Random) -> None:
    state["auction"] = [{"colors": list(colours), "base": None, "tip": None} for colours in LAYOUT]
    state["virtual"] = []  # solo needs no virtual opponent here
    state["options"]["virtual_opponents"] = 0


def spot_name(spot: dict) -> str:
    return "/".join(spot["colors"])


def resolve(state: dict, choices: dict[int, dict], events: list) -> None:
    """The reveal: bids, attacks and passes (no virtual bids)."""
    reveal_bids(state, choices, [], events)


def step_bids(state: dict, step: dict, events: list) -> bool:
    """Bids per auction card (either of its colours counts as that card)."""
    from ..rules import rules_for

    choices = {int(k): v for k, v in step["choices"].items()}
    bid_gem = rules_for(state).bid_gem
    takes: list[dict] = []
    winners: set[int] = set()
    bids: list[int] = []
    for spot in auction_cards(state):
        bidders = [s for s, c in sorted(choices.items()) if c["type"] == "bid" and c["color"] in spot["colors"]]
        bids.extend(bidders)
        if not bidders:
            continue
        there = [c for c in (spot["base"], spot["tip"]) if c is not None]
        name = spot_name(spot)
        if not there:
            ev(events, "all", "bid_fails", f"No character is left at the {name} auction card: the bids there fail.",
               color=name)
            continue
        wants = {s: choices[s]["card"] if choices[s]["card"] in there else there[0] for s in bidders}
        if len(bidders) == 1 or (len(there) == 2 and len(set(wants.values())) == len(bidders)):
            for seat, card in wants.items():
                remove_from_auction(state, card)
                winners.add(seat)
                takes.append(take_card(seat, card, choices[seat].get("archive"), "auction"))
                ev(events, "all", "bid_wins", f"{p(seat)} wins {C.label(card)} at the {name} auction card.",
                   seat=seat, card=card)
        else:
            why = "both want the same character" if len(there) == 2 else "both bid on the same auction card"
            ev(events, "all", "bid_fails", f"{name.capitalize()}: {why}; nobody gets a card.", color=name)
    for s in bids:  # once settled, so where a gem goes may depend on whether it won
        bid_gem(state, s, choices[s]["color"], s in winners)  # type: ignore[misc]
    bids_settled(state, choices, winners, takes)
    return True


def _royal_decree(state: dict, seat: int, plan: dict, events: list) -> None:
    """69 in the duo game: the base effect, and two small-deck cards go under the large deck."""
    L._royal_decree(state, seat, plan, events)
    small = state["small_deck"]
    added = [small.pop() for _ in range(min(DECREE_CARDS, len(small)))]
    state["large_deck"][0:0] = added  # the end of the list is the top: these come last
    if added:
        ev(events, "all", "decree_adds", f"Royal Decree adds {len(added)} cards from the small deck to the large deck.",
           seat=seat, count=len(added))


def solo_points(ctx) -> int:  # noqa: ANN001  (a scoring.ScoreContext)
    """Solo duo: +3 PP per attack token still held and +2 PP per defense token."""
    state = ctx.state
    if state is None or state["options"]["players"] != 1:
        return 0
    player = state["players"][ctx.seat]
    # ``ctx.defense`` also counts the defense tokens beside the pyramid (an Invasion combat card).
    return SOLO_ATTACK_PP * unused_attacks(player) + SOLO_DEFENSE_PP * ctx.defense


class Duo:
    name = NAME
    order = 10  # before the modules that wrap the auction (diamonds)

    def install(self, rules: Ruleset) -> None:
        rules.option_checks.append(check_options)
        rules.setup.append(setup)
        rules.large_deck = LARGE_DECK
        rules.phases["auction"] = replace(rules.phases["auction"], resolve=resolve)
        rules.steps["bids"] = step_bids
        rules.add_law(69, Law(validate=L._validate_decree, play=_royal_decree))
        rules.scorers.append(Scorer("solo_tokens", solo_points, "Solo swords and shields"))


MODULE = Duo()
