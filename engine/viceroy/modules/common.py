"""What every Times of Darkness module shares: diamonds and the any-colour circle bonus.

Diamonds (4 per player in the reserve when an expansion module is on) live in ``state["ext"]["diamonds"]``::

    {"reserve": 8, "held": [0, 1], "painted": [[], []], "bids": {}, "bidding": []}

``held`` is what lies behind each screen (secret: only the owner's view shows it until the game is over).
A diamond is not a gem: gem rewards never give one and infinite gems are never diamonds. It is taken only
by the diamond reward (short of diamonds, one gem of choice per missing diamond) and is spent as a gem of
any colour: in a payment (the ``diamonds`` payment source names the colours it stands for), as an auction
bid (the colour is chosen after the reveal, in priority order), or at the end to paint one section.

``install(rules)`` adds all of it once, whichever modules ask for it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from .. import cards as C
from .. import pyramid as P
from ..auction import auction_offer, cards_at
from ..errors import IllegalAction
from ..rules import Decision, PaintSource, PaymentSource, Ruleset, Scorer
from ..state import COLORS, ask, bool_arg, clean_gems, ev, gem_total, int_arg, p, priority_order, zero
from .carddata import ANY_CIRCLE_BONUS, DIAMONDS

DIAMONDS_PER_PLAYER = 4
NAME = "diamonds"


@dataclass(frozen=True)
class TokenZone:
    """A zone beside the pyramid whose tokens count like pyramid tokens (an entry of ``Ruleset.token_zones``).
    Called, it gives a copy of the seat's tokens; ``live`` gives the list itself, so that a rule that discards
    tokens ("from your pyramid, domain card or combat card") can take one from it. ``key`` names the zone in
    actions where a slot would name a card; ``label`` names it in texts."""

    key: str
    label: str
    live: Callable[[dict, int], list[dict]]

    def __call__(self, state: dict, seat: int) -> list[dict]:
        return list(self.live(state, seat))


def token_zones(rules: Ruleset) -> list[TokenZone]:
    """The token zones of a ruleset that tokens can be discarded from."""
    return [z for z in rules.token_zones if isinstance(z, TokenZone)]


def slice_of(state: dict) -> dict:
    return state["ext"][NAME]


def held(state: dict, seat: int) -> int:
    return state["ext"][NAME]["held"][seat]


def _seat_of(state: dict, player: dict) -> int:
    for seat, candidate in enumerate(state["players"]):
        if candidate is player:
            return seat
    raise ValueError("not a player of this game")


def setup(state: dict, draw: random.Random) -> None:
    n = state["options"]["players"]
    state["ext"][NAME] = {"reserve": DIAMONDS_PER_PLAYER * n, "held": [0] * n, "painted": [[] for _ in range(n)],
                          "bids": {}, "bidding": []}


# ------------------------------------------------------------------------------------------- rewards


def give_diamonds(state: dict, seat: int, amount: int, events: list) -> int:
    """Take up to ``amount`` diamonds from the reserve for ``seat``; returns how many were short."""
    d = slice_of(state)
    take = min(amount, d["reserve"])
    d["reserve"] -= take
    d["held"][seat] += take
    if take:
        ev(events, "all", "diamonds_taken", f"{p(seat)} takes {take} diamond{'s' if take != 1 else ''}.",
           seat=seat, count=take)
    short = amount - take
    if short:
        ev(events, "all", "diamonds_short",
           f"The reserve is short of {short} diamond{'s' if short != 1 else ''}: {p(seat)} takes as many gems instead.",
           seat=seat, count=short)
    return short


def _diamond_reward(g, item: dict) -> None:  # noqa: ANN001  (a rewards.Grant)
    # Short of diamonds: one gem of the player's choice per missing diamond (they join the row's gems).
    g.gems += give_diamonds(g.state, g.seat, item["amount"], g.events)


def _any_circle_bonus(g, item: dict) -> None:  # noqa: ANN001
    g.entry["tokens"].append({"type": ANY_CIRCLE_BONUS, "value": item["value"]})


def any_bonus_value(pyramid: dict) -> int:
    """The any-colour circle bonus tokens (and images) of a pyramid, summed."""
    return sum(t.get("value", 1) for _, t in P.tokens(pyramid) if t["type"] == ANY_CIRCLE_BONUS)


def _score_any_bonus(ctx) -> int:  # noqa: ANN001  (a scoring.ScoreContext)
    """+1 per single-colour circle and per infinite gem, whatever their colour, for each bonus."""
    return any_bonus_value(ctx.pyramid) * (len(ctx.single) + len(ctx.infinite))


# ------------------------------------------------------------------------------------------- payments


def _check_payment(state: dict, player: dict, value: object) -> tuple[dict[str, int], object]:
    if value is None:
        return zero(), None
    stand_for = clean_gems(value, "diamonds (the colours they stand for)")
    count = gem_total(stand_for)
    if not count:
        return zero(), None
    have = held(state, _seat_of(state, player))
    if count > have:
        raise IllegalAction(f"You have {have} diamond{'s' if have != 1 else ''} behind your screen, not {count}.",
                            "no_diamond")
    return stand_for, stand_for


def _auto_payment(state: dict | None, player: dict, left: dict[str, int]) -> object:
    """Diamonds only for what the gems behind the screen cannot pay."""
    if state is None or NAME not in state["ext"]:
        return None
    have = held(state, _seat_of(state, player))
    use = zero()
    for c in COLORS:
        while have and left[c] > player["gems"][c]:
            use[c] += 1
            left[c] -= 1
            have -= 1
    return use if gem_total(use) else None


def _spend(state: dict, seat: int, value: object) -> None:
    if value:
        count = gem_total(value)  # type: ignore[arg-type]
        d = slice_of(state)
        d["held"][seat] -= count
        d["reserve"] += count


PAYMENT = PaymentSource(key="diamonds", check=_check_payment, auto=_auto_payment, spend=_spend, empty=None)


# ------------------------------------------------------------------------------------------- auction


def _wrap_validate(inner):  # noqa: ANN001, ANN202
    def validate(state: dict, seat: int, action: dict) -> dict:
        if action.get("type") == "bid" and "diamond" in action:
            flag = action["diamond"]
            if not isinstance(flag, bool):
                raise IllegalAction("Say yes or no: bid a diamond?", "bad_diamond")
            if flag:
                archive = bool_arg(action.get("archive"), "Archive must be yes or no.", "bad_archive")
                if held(state, seat) < 1:
                    raise IllegalAction("You have no diamond behind your screen to bid.", "no_diamond")
                if not auction_offer(state):
                    raise IllegalAction("There is no character at the auction to bid for.", "empty_auction")
                # The colour (and card) is chosen after the reveal.
                return {"type": "bid", "diamond": True, "color": None, "card": None, "archive": archive}
            action = {k: v for k, v in action.items() if k != "diamond"}
        return inner(state, seat, action)

    return validate


def _public(choice: dict) -> str:
    if choice["type"] == "bid":
        return "a diamond" if choice.get("diamond") else f"{choice['color']} for {C.label(choice['card'])}"
    return "an attack" if choice["type"] == "attack" else "a pass"


def _wrap_resolve(inner):  # noqa: ANN001, ANN202
    def resolve(state: dict, choices: dict[int, dict], events: list) -> None:
        diamond = [s for s, c in choices.items() if c.get("diamond")]
        if not diamond:
            inner(state, choices, events)
            return
        text = "; ".join(f"{p(s)}: {_public(c)}" for s, c in sorted(choices.items()))
        public = {str(s): {"type": c["type"], "diamond": bool(c.get("diamond")), "color": c.get("color"),
                           "card": c.get("card")} for s, c in choices.items()}
        ev(events, "all", "diamond_reveal",
           f"Round {state['round']} shows {text}. Diamond bidders choose their colour now.", choices=public)
        steps = [{"op": "diamond_bid", "seat": s, "bids": public} for s in priority_order(state, diamond)]
        steps.append({"op": "diamond_bids_done", "choices": {str(k): v for k, v in choices.items()}})
        state["queue"].extend(steps)

    return resolve


def _bid_options(state: dict) -> list[dict]:
    return [{"color": c, "cards": cards_at(state, c)} for c in COLORS if cards_at(state, c)]


def step_diamond_bid(state: dict, step: dict, events: list) -> bool:
    seat = step["seat"]
    answer = step.get("answer")
    if answer is None:
        return ask(state, seat, "diamond_bid", "Your diamond bid: choose the colour it stands for (and the card).",
                   options=_bid_options(state), bids=step["bids"])
    slice_of(state)["bids"][str(seat)] = answer
    ev(events, "all", "diamond_colour", f"{p(seat)}'s diamond stands for {answer['color']}.", seat=seat,
       color=answer["color"])
    return True


def _resolve_after(inner):  # noqa: ANN001, ANN202
    def step_done(state: dict, step: dict, events: list) -> bool:
        d = slice_of(state)
        choices = {int(k): dict(v) for k, v in step["choices"].items()}
        for key, answer in d["bids"].items():
            choices[int(key)].update({"color": answer["color"], "card": answer["card"]})
            choices[int(key)].pop("diamond", None)
            d["bidding"].append(int(key))
        d["bids"] = {}
        inner(state, choices, events)  # the reveal and resolution, colours now known
        return True

    return step_done


def _check_diamond_bid(state: dict, seat: int, decision: dict, action: dict) -> dict:
    colour = action.get("color")
    option = next((o for o in decision["options"] if o["color"] == colour), None)
    if option is None:
        raise IllegalAction("Choose a colour whose auction card has a character.", "bad_colour")
    card = int_arg(action.get("card"))
    if len(option["cards"]) == 2:
        if card not in option["cards"]:
            raise IllegalAction(f"Two characters wait at {colour}: name the one you bid for.", "name_card")
    else:
        card = option["cards"][0]
    return {"color": colour, "card": card}


def _default_diamond_bid(state: dict, seat: int, decision: dict) -> dict:
    option = decision["options"][0]
    return {"type": "decide", "color": option["color"], "card": option["cards"][0]}


def _wrap_bid_gem(inner):  # noqa: ANN001, ANN202
    def bid_gem(state: dict, seat: int, colour: str, won: bool = True) -> None:
        d = slice_of(state)
        if seat in d["bidding"]:
            d["bidding"].remove(seat)  # the bid was a diamond: it goes to the reserve
            d["held"][seat] -= 1
            d["reserve"] += 1
            return
        inner(state, seat, colour, won)

    return bid_gem


# ------------------------------------------------------------------------------------------- painting


def _paint_with_diamonds(state: dict, seat: int, items: list[dict]) -> None:
    d = slice_of(state)
    d["held"][seat] -= len(items)
    d["painted"][seat] = items


# Diamonds paint too: a painting item ``{"slot", "section", "color", "diamond": true}`` uses one.
DIAMOND_PAINT = PaintSource(key="diamond", noun="diamonds", held=held, spend=_paint_with_diamonds)


# ------------------------------------------------------------------------------------------- views


def view(state: dict, seat: int | None, out: dict, prompts: dict) -> None:
    d = state["ext"].get(NAME)
    if d is None:
        return
    over = state["phase"] == "over"
    out["diamonds"] = {"reserve": d["reserve"], "per_player": DIAMONDS_PER_PLAYER}
    for s, pv in enumerate(out["players"]):
        if over or s == seat:  # behind the screen until the screens are lifted
            pv["diamonds"] = d["held"][s]
        pv["painted_with_diamonds"] = [dict(i) for i in d["painted"][s]]


# ------------------------------------------------------------------------------------------- AI


def ai_paint(state: dict, seat: int, rng: random.Random) -> dict:
    return {"type": "paint", "paint": best_painting_with_diamonds(state, seat, held(state, seat))[0]}


def _splits(total: int, caps: list[int]) -> list[tuple[int, ...]]:
    """Every way to share at most ``total`` among the colours, colour i taking at most caps[i]."""
    if not caps:
        return [()]
    return [(n, *rest) for n in range(min(total, caps[0]) + 1) for rest in _splits(total - n, caps[1:])]


def best_painting_with_diamonds(state: dict, seat: int, diamonds: int) -> tuple[list[dict], int]:
    """The best painting with the seat's leftover gems and ``diamonds``, and the points it gains (exact).

    A diamond paints one section in any colour: for painting it is one more gem of the colour it paints. So
    the best painting is the best gem painting over every way of turning the diamonds into colours (each
    colour capped by the sections it could still paint). Among equal gains it spends the fewest diamonds,
    then the fewest gems; the sections a diamond paints carry ``"diamond": True``. Works on a state or on a
    seat's view (it reads only the seat's pyramid and gems)."""
    from ..painting import best_painting

    player = state["players"][seat]
    pyramid = player.get("pyramid") or {"cards": {}}
    own = {c: (player.get("gems") or {}).get(c, 0) for c in COLORS}
    caps = [0] * len(COLORS)
    if diamonds > 0:
        for circle in P.circles(pyramid):
            if C.NONE not in circle["colors"]:
                for i, colour in enumerate(COLORS):
                    caps[i] += sum(1 for c in circle["colors"] if c not in (colour, C.ANY))
        caps = [min(diamonds, max(0, cap - own[c])) for cap, c in zip(caps, COLORS, strict=True)]
    best: tuple[tuple[int, int, int], list[dict]] | None = None
    for split in _splits(max(0, diamonds), caps):
        trial = {c: own[c] + extra for c, extra in zip(COLORS, split, strict=True)}
        items, gain = best_painting({"players": {seat: {"pyramid": pyramid, "gems": trial}}}, seat)
        used = {c: sum(1 for i in items if i["color"] == c) for c in COLORS}
        spent_diamonds = sum(max(0, used[c] - own[c]) for c in COLORS)
        key = (gain, -spent_diamonds, -len(items))
        if best is None or key > best[0]:
            best = (key, items)
    assert best is not None
    (gain, _, _), items = best
    out, counted = [], dict.fromkeys(COLORS, 0)
    for item in items:
        counted[item["color"]] += 1
        # Gems first; the sections beyond the gems of that colour are painted with diamonds.
        out.append(dict(item, diamond=True) if counted[item["color"]] > own[item["color"]] else dict(item))
    return out, gain


def ai_diamond_bid(state: dict, seat: int, rng: random.Random) -> dict:
    decision = state["decision"]
    taken = {b.get("color") for s, b in decision["bids"].items() if b.get("type") == "bid"}
    options = sorted(decision["options"], key=lambda o: (o["color"] in taken, -len(o["cards"]), rng.random()))
    option = options[0]
    return {"type": "decide", "color": option["color"], "card": rng.choice(option["cards"])}


def _wrap_ai_auction(inner):  # noqa: ANN001, ANN202
    def choose(state: dict, seat: int, rng: random.Random) -> dict:
        if held(state, seat) and auction_offer(state) and rng.random() < 0.3:
            return {"type": "bid", "diamond": True, "archive": False}
        return inner(state, seat, rng)

    return choose


def _auction_choices(state: dict, seat: int, prompt: dict) -> dict:
    from ..moves import auction_options

    out = auction_options(state, seat)
    out["diamonds"] = held(state, seat) if auction_offer(state) else 0  # a diamond can bid for any card
    return out


# ------------------------------------------------------------------------------------------- install


def install(rules: Ruleset) -> None:
    """Add diamonds and the any-colour circle bonus to a ruleset (once, whichever module asks first)."""
    if "diamond_bid" in rules.steps:
        return
    from ..ai import _auction as base_ai_auction

    rules.setup.append(setup)
    rules.rewards[DIAMONDS] = _diamond_reward
    rules.rewards[ANY_CIRCLE_BONUS] = _any_circle_bonus
    rules.payment_sources.append(PAYMENT)
    rules.scorers.append(Scorer(ANY_CIRCLE_BONUS, _score_any_bonus, "Any-colour circle bonus"))
    auction = rules.phases["auction"]
    rules.phases["auction"] = replace(auction, validate=_wrap_validate(auction.validate),
                                      resolve=_wrap_resolve(auction.resolve))
    rules.steps["diamond_bid"] = step_diamond_bid
    rules.steps["diamond_bids_done"] = _resolve_after(auction.resolve)
    rules.decisions["diamond_bid"] = Decision(_check_diamond_bid, _default_diamond_bid)
    rules.bid_gem = _wrap_bid_gem(rules.bid_gem)
    rules.paint_sources.append(DIAMOND_PAINT)
    rules.views.append(view)
    rules.prompt_choices["auction"] = _auction_choices
    rules.prompt_choices["paint"] = lambda state, seat, prompt: {"gems": dict(state["players"][seat]["gems"]),
                                                                  "diamonds": held(state, seat)}
    rules.ai["painting"] = ai_paint
    rules.ai["diamond_bid"] = ai_diamond_bid
    rules.ai["auction"] = _wrap_ai_auction(rules.ai.get("auction", base_ai_auction))
