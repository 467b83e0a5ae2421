"""Setting up a game (§2): the reserve, the starting gems, the deal, and the setup phase.

``new_game`` builds the base state, then runs the ruleset's setup hooks in order (a module deals its own
cards or fills ``state["ext"][name]`` there). In the setup phase every player secretly chooses a starting card
and a card to keep; then the decks are made and the starting rewards resolve in priority order.
"""

from __future__ import annotations

from . import cards as C
from .auction import base_layout, reveal
from .development import check_reward_choice
from .errors import IllegalAction
from .rewards import reward_choice
from .rules import DONE, Phase, check_options, ordered, rules_for
from .state import COLORS, GEMS_IN_BOX, STATE_VERSION, ev, int_arg, new_entry, p, priority_order, rng


def new_game(options: dict | None = None, seed: int = 0, seats: int | None = None) -> dict:
    """Set up a game: reserve, starting gems, the deal (players then choose start and kept card)."""
    options = dict(options or {})
    players = seats if seats is not None else options.get("players", 2)
    if not isinstance(players, int) or not 1 <= players <= 4:
        raise IllegalAction("Viceroy is played by 1 to 4 players.", "bad_options")
    deal = options.get("deal", 4)
    if deal not in (2, 4):
        raise IllegalAction("The starting deal is 4 cards (or 2 in the first-printing variant).", "bad_options")
    virtual = options.get("virtual_opponents", 0)
    if players == 1:
        virtual = 1  # the solo game always has its virtual opponent (§11)
    if not isinstance(virtual, int) or virtual < 0 or (players >= 2 and players + virtual > 4):
        raise IllegalAction("Virtual opponents may only fill seats up to 4.", "bad_options")
    options.update({"players": players, "deal": deal, "virtual_opponents": virtual})
    modules = options.get("modules")
    if modules is not None:
        if not isinstance(modules, list) or any(not isinstance(m, str) for m in modules):
            raise IllegalAction("Modules are named in a list.", "bad_options")
        if modules:
            options["modules"] = ordered(modules)  # kept in installation order, so records replay alike
            check_options(options)
        else:
            del options["modules"]

    state: dict = {
        "game": "viceroy",
        "version": STATE_VERSION,
        "options": options,
        "seed": int(seed),
        "rng_counter": 0,
        "phase": "setup",
        "turn": 0,
        "round": 0,
        "last_turn": False,
        "reserve": {c: 4 * players for c in COLORS},
        "box": {c: GEMS_IN_BOX - 4 * players for c in COLORS},
        "large_deck": [],
        "small_deck": [],
        "law_deck": [],
        "auction": base_layout(),
        "discard": [],
        "players": [],
        "choices": {},
        "active": list(range(players)),
        "queue": [],
        "decision": None,
        "virtual": [{"out": False} for _ in range(virtual)],
        "log": [],
        "scores": None,
        "ext": {},
    }
    draw = rng(state)
    for hook in rules_for(state).setup:
        hook(state, draw)
    return state


def deal(state: dict, draw: object) -> None:
    """The base game's setup hook: starting gems (2 of each, 2 random returned) and the dealt characters."""
    players = state["options"]["players"]
    deal_size = state["options"]["deal"]
    deck = list(rules_for(state).characters)
    draw.shuffle(deck)  # type: ignore[attr-defined]
    for _ in range(players):
        gems = {c: 2 for c in COLORS}
        for c in COLORS:
            state["reserve"][c] -= 2
        pool = [c for c in COLORS for _ in range(2)]
        for c in draw.sample(pool, 2):  # type: ignore[attr-defined]  # return 2 random gems of the 8
            gems[c] -= 1
            state["reserve"][c] += 1
        hand = [deck.pop() for _ in range(deal_size)]
        state["players"].append(
            {
                "gems": gems,
                "attacks": 0,
                "hand": hand,
                "pyramid": {"cards": {}},
                "skip_next_auction": False,
                "used_infinite": [],
                "painted": None,
            }
        )
    state["large_deck"] = deck  # the rest of the characters until setup resolves


def validate(state: dict, seat: int, action: dict) -> dict:
    player = state["players"][seat]
    start, keep = int_arg(action.get("start")), int_arg(action.get("keep"))
    hand = player["hand"]
    if start not in hand:
        raise IllegalAction("Choose your starting card from the cards you were dealt.", "bad_start")
    if state["options"]["deal"] == 2:
        keep = next(c for c in hand if c != start)
    elif keep not in hand or keep == start:
        raise IllegalAction("Choose a different dealt card to keep in your hand.", "bad_keep")
    return {"type": "setup", "start": start, "keep": keep, "reward": check_reward_choice(action.get("reward"), rules_for(state).piles)}


def resolve(state: dict, choices: dict[int, dict], events: list) -> None:
    shuffle = rng(state)
    rest = state["large_deck"]
    for seat, choice in choices.items():
        player = state["players"][seat]
        rest.extend(c for c in player["hand"] if c not in (choice["start"], choice["keep"]))
        player["hand"] = [choice["keep"]]
        player["pyramid"]["cards"]["1:0"] = new_entry(choice["start"], "1:0")
        ev(events, "all", "start_card", f"{p(seat)} starts with {C.label(choice['start'])}.", seat=seat, card=choice["start"])
    # Ruling: starting rewards resolve once the decks exist, so a card reward can be drawn.
    shuffle.shuffle(rest)
    rules = rules_for(state)
    state["large_deck"] = rest[:rules.large_deck]
    state["small_deck"] = rest[rules.large_deck:]
    laws = list(rules.law_cards)
    shuffle.shuffle(laws)
    for player in state["players"]:
        player["hand"].extend(laws.pop() for _ in range(3))
    state["law_deck"] = laws
    reveal(state, events)
    for seat in priority_order(state, choices):
        choice = choices[seat]
        state["queue"].append(
            {"op": "reward", "seat": seat, "card": choice["start"], "slot": "1:0", "items": list(C.rewards(choice["start"], 1)), "choice": choice["reward"]}
        )


def default(state: dict, seat: int) -> dict:
    hand = state["players"][seat]["hand"]
    keep = hand[1] if len(hand) > 1 else hand[0]
    return {"type": "setup", "start": hand[0], "keep": keep, "reward": reward_choice(state, hand[0], 1)}


PHASE = Phase(
    name="setup",
    start=lambda state, events: None,
    next="auction",
    validate=validate,
    resolve=resolve,
    advance=lambda state, events: DONE,
    default=default,
)
