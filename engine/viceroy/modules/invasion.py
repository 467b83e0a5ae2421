"""The ``invasion`` module: monsters attack after turns 3, 7 and 11 (Times of Darkness).

The cards (``data/viceroy/darkness/monsters.json``) are designed by this project, not the printed ones.

* Setup: every player has a combat card, a zone beside the pyramid (not a pyramid card). 3 tier-I, 6 tier-II
  and 3 tier-III monsters are drawn at random and lie in the large deck from the bottom up as
  MIII-4C-MII-4C-MII-4C-MI-4C three times (2C with the ``duo`` auction cards): a monster is every fifth card
  (every third). The engine keeps them in their own pile in that order (``pile``, top last) and reveals one
  each time characters are revealed at the auction, which is the same deal and keeps the large deck a deck of
  characters for everything else; ``deck_layout`` gives the interleaved deck as it lies on the table.
* Revealed monsters form the *stack* (bottom first), each showing its line: cost and reward.
* A gem (or diamond) bid in the auction that comes back without a card goes onto the bidder's combat card.
  A player may take gems and diamonds from their combat card instead of from the reserve whenever they take
  some (rewards, passing, an infinite gem): what the reserve cannot give comes from the combat card.
* After the development phase, when the stack holds four monsters, *combat* (a sealed phase like an auction
  round): each player names how many monsters from the bottom they defeat and the gems and diamonds they pay
  (from behind the screen and from the combat card), and which paid gems their science tokens recolour (one
  each). The whole cost of every monster defeated, exactly; no partial defeat. Everything paid goes to the
  reserve. Each player gains the reward of the topmost monster defeated (gems, diamonds, attack tokens behind
  the screen; cards to hand; other tokens onto the combat card, where they count like pyramid tokens), the
  highest monster first, ties by pyramid number. A reward that cannot be taken in full may be swapped for the
  next lower monster's. A player who defeats none takes a revealed monster face down: a combat penalty card,
  -4 PP. The rest are discarded and a new stack starts.
* At the end, gems and diamonds on combat cards go back to the reserve (they cannot paint).

State: ``state["ext"]["invasion"]``::

    {"pile": [...], "stack": [...], "discard": [...], "combats": 0,
     "cards": [{"gems": {...}, "diamonds": 0, "tokens": []}, ...],      # public
     "penalties": [[...], ...],                                          # face down: views show counts
     "victories": [0, ...], "defeated": [0, ...], "last": None}
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..development import check_reward_choice, play_placed
from ..errors import IllegalAction
from ..rewards import Grant, draw
from ..rules import DONE, Decision, Law, Phase, Ruleset, Scorer
from ..state import (
    COLORS,
    ask,
    balanced_gems,
    clean_gems,
    ev,
    fmt_gems,
    gem_total,
    int_arg,
    p,
    priority_order,
    push,
    science_count,
    zero,
)
from . import common
from .carddata import DIAMONDS
from .invasion_data import INVASION_LAWS, MONSTER_CARDS, PENALTY_PP, ROMAN, TIERS, label, monster

NAME = "invasion"
STACK = 4  # a combat starts when the stack holds four monsters
LEVY, HALL_OF_HEROES, ROYAL_PARDON = INVASION_LAWS
HALL_PP = 2
PARDON_PP = 2


def _ext(state: dict) -> dict:
    return state["ext"][NAME]


def combat_card(state: dict, seat: int) -> dict:
    return _ext(state)["cards"][seat]


def monster_cost(number: int) -> dict[str, int]:
    cost = zero()
    for colour in monster(number)["cost"]:
        cost[colour] += 1
    return cost


def stack_cost(stack: list[int], count: int) -> dict[str, int]:
    """What defeating the ``count`` bottom monsters costs: the whole line of each."""
    cost = zero()
    for number in stack[:count]:
        for colour, n in monster_cost(number).items():
            cost[colour] += n
    return cost


def reward_text(items: list[dict]) -> str:
    parts = []
    for item in items:
        kind = item["type"]
        if kind == "power_points":
            parts.append(f"{item['amount']} PP")
        elif kind in ("magic_bonus", "circle_bonus"):
            colour = f" {item['color']}" if item.get("color") else ""
            parts.append(f"a{colour} {kind.replace('_', '-')} +{item['value']}")
        else:
            n = item.get("amount", 1)
            name = {"gems": "gem", DIAMONDS: "diamond", "cards": "card"}.get(kind, f"{kind} token")
            parts.append(f"{n} {name}{'s' if n != 1 else ''}")
    return " + ".join(parts)


def line_text(number: int) -> str:
    m = monster(number)
    return f"{label(number)}: pay {', '.join(m['cost'])}; reward {reward_text(m['reward'])}"


# ------------------------------------------------------------------------------------------- setup


def setup(state: dict, draw_rng: random.Random) -> None:
    """Draw 3 tier-I, 6 tier-II and 3 tier-III monsters and lay them as the seed's interleaved deck."""
    n = state["options"]["players"]
    one = draw_rng.sample(TIERS[1], 3)
    two = draw_rng.sample(TIERS[2], 6)
    three = draw_rng.sample(TIERS[3], 3)
    pile: list[int] = []  # bottom first; the last is revealed first
    for g in range(3):
        pile += [three[g], two[2 * g], two[2 * g + 1], one[g]]
    state["ext"][NAME] = {
        "pile": pile, "stack": [], "discard": [], "combats": 0,
        "cards": [{"gems": zero(), "diamonds": 0, "tokens": []} for _ in range(n)],
        "penalties": [[] for _ in range(n)], "victories": [0] * n, "defeated": [0] * n, "last": None,
    }


def reveal_monster(state: dict, events: list) -> None:
    """Each time characters are revealed at the auction, the next monster is revealed onto the stack."""
    x = _ext(state)
    if not x["pile"]:
        return
    number = x["pile"].pop()
    x["stack"].append(number)
    ev(events, "all", "monster_revealed", f"A monster joins the stack: {line_text(number)}.",
       monster=number, stack=list(x["stack"]))


def deck_layout(state: dict, per_reveal: int | None = None) -> list[dict]:
    """The large deck as it lies on the table, bottom first: each unrevealed monster under the characters
    revealed with it (``{"monster": n}`` or ``{"character": n}``). Extra characters (Royal Decree) lie under all."""
    x = _ext(state)
    k = per_reveal or len(state["auction"])
    chars = list(state["large_deck"])  # bottom first, as the pile
    extra = max(0, len(chars) - k * len(x["pile"]))
    out = [{"character": c} for c in chars[:extra]]
    chars = chars[extra:]
    for i, number in enumerate(x["pile"]):
        out.append({"monster": number})
        out.extend({"character": c} for c in chars[i * k:(i + 1) * k])
    return out


# ------------------------------------------------------------------------------------------- the auction


def _wrap_bid_gem(inner):  # noqa: ANN001, ANN202
    def bid_gem(state: dict, seat: int, colour: str, won: bool = True) -> None:
        diamonds = state["ext"].get(common.NAME)
        diamond = diamonds is not None and seat in diamonds["bidding"]
        inner(state, seat, colour, won)
        if won:
            return
        # A bid that comes back without a card lies on the bidder's combat card instead of the reserve.
        card = combat_card(state, seat)
        if diamond:
            diamonds["reserve"] -= 1
            card["diamonds"] += 1
        else:
            state["reserve"][colour] -= 1
            card["gems"][colour] += 1

    return bid_gem


# ------------------------------------------------------------------------------------------- taking gems


def available(state: dict, seat: int) -> dict[str, int]:
    """Gems a seat may take now: the reserve's and its own combat card's."""
    card = combat_card(state, seat)["gems"]
    return {c: state["reserve"][c] + card[c] for c in COLORS}


def take_gems(state: dict, seat: int, choice: dict[str, int]) -> int:
    """Move ``choice`` behind the screen, from the reserve first, the rest from the combat card; returns how
    many came from the combat card."""
    card = combat_card(state, seat)["gems"]
    gems = state["players"][seat]["gems"]
    from_card = 0
    for c in COLORS:
        reserve = min(choice[c], state["reserve"][c])
        state["reserve"][c] -= reserve
        card[c] -= choice[c] - reserve
        from_card += choice[c] - reserve
        gems[c] += choice[c]
    return from_card


def _wrap_gain_gems(inner):  # noqa: ANN001, ANN202
    def step(state: dict, step: dict, events: list) -> bool:
        seat = step["seat"]
        if not gem_total(combat_card(state, seat)["gems"]):
            return inner(state, step, events)
        pool = available(state, seat)
        count = min(step["count"], gem_total(pool))
        answer = step.get("answer")
        choice = (answer.get("gems") if answer else None) or step.get("choice")
        if count == gem_total(pool):
            choice = dict(pool)
        if choice is None or gem_total(choice) != count or any(choice[c] > pool[c] for c in COLORS):
            text = f"Choose {count} gems from the reserve or your combat card ({step['why']})."
            return ask(state, seat, "gems", text, count=count, reserve=dict(pool), why=step["why"],
                       combat_card=dict(combat_card(state, seat)["gems"]))
        from_card = take_gems(state, seat, choice)
        where = f", {from_card} from the combat card" if from_card else ""
        ev(events, "all", "gems_taken", f"{p(seat)} takes {count} gems ({step['why']}{where}).", seat=seat, count=count,
           from_card=from_card)
        ev(events, seat, "gems_taken_private", f"You take {fmt_gems(choice)}.", gems=choice)
        return True

    return step


def _check_gems(state: dict, seat: int, decision: dict, action: dict) -> dict:
    gems = clean_gems(action.get("gems"), "gems to take")
    count = decision["count"]
    if gem_total(gems) != count:
        raise IllegalAction(f"Take exactly {count} gems.", "bad_gems")
    pool = available(state, seat)
    for c in COLORS:
        if gems[c] > pool[c]:
            n = pool[c]
            raise IllegalAction(f"The reserve and your combat card have only {n} {c} gem{'' if n == 1 else 's'}.",
                                "reserve_short")
    return {"gems": gems}


def _default_gems(state: dict, seat: int, decision: dict) -> dict:
    return {"type": "decide", "gems": balanced_gems(available(state, seat), decision["count"])}


def gem_from_card(state: dict, seat: int, colour: str) -> bool:
    """A gem the reserve lacks (a single-colour circle's) comes from the combat card if it has one."""
    card = combat_card(state, seat)["gems"]
    if card[colour] < 1:
        return False
    card[colour] -= 1
    state["players"][seat]["gems"][colour] += 1
    return True


def _wrap_infinite(inner):  # noqa: ANN001, ANN202
    def handler(g, item: dict) -> None:  # noqa: ANN001  (a rewards.Grant)
        colour = item["color"] if item["color"] != "any" else g.choice.get("color", "red")
        card = combat_card(g.state, g.seat)["gems"]
        if g.state["reserve"][colour] == 0 and card[colour] > 0 and g.entry is not None:
            card[colour] -= 1  # none in the reserve: from the combat card, before the screen
            g.entry["tokens"].append({"type": "infinite_gem", "color": colour})
            ev(g.events, "all", "infinite_from_card", f"{p(g.seat)} takes the infinite gem from the combat card.",
               seat=g.seat, color=colour)
            return
        inner(g, item)

    return handler


def _wrap_diamonds(inner):  # noqa: ANN001, ANN202
    def handler(g, item: dict) -> None:  # noqa: ANN001
        d = common.slice_of(g.state)
        card = combat_card(g.state, g.seat)
        from_card = min(card["diamonds"], max(0, item["amount"] - d["reserve"]))
        if from_card:
            card["diamonds"] -= from_card
            d["held"][g.seat] += from_card
            ev(g.events, "all", "diamonds_from_card",
               f"{p(g.seat)} takes {from_card} diamond{'s' if from_card != 1 else ''} from the combat card.",
               seat=g.seat, count=from_card)
        if item["amount"] > from_card:
            inner(g, dict(item, amount=item["amount"] - from_card))

    return handler


# ------------------------------------------------------------------------------------------- combat


def _after_development(inner):  # noqa: ANN001, ANN202
    def nxt(state: dict) -> str:
        if len(_ext(state)["stack"]) >= STACK:
            return "combat"
        return inner(state) if callable(inner) else inner

    return nxt


def combat_science(state: dict, seat: int) -> int:
    """Science tokens a player has (pyramid, images and combat card): each recolours one paid gem."""
    on_card = sum(1 for t in combat_card(state, seat)["tokens"] if t["type"] == "science")
    return science_count(state["players"][seat]) + on_card


def start_combat(state: dict, events: list) -> None:
    state["phase"] = "combat"
    state["round"] = 1
    state["active"] = list(range(len(state["players"])))
    stack = _ext(state)["stack"]
    lines = "; ".join(f"{i + 1}. {line_text(n)}" for i, n in enumerate(stack))
    ev(events, "all", "combat", f"Combat! The monsters attack (bottom first): {lines}. Choose in secret how many "
       "to defeat, from the bottom, and the gems you pay.", stack=list(stack), turn=state["turn"])


def _count(value: object, what: str) -> int:
    n = int_arg(value if value is not None else 0)
    if n is None or n < 0:
        raise IllegalAction(f"The number of {what} must be a whole number, 0 or more.", "bad_payment")
    return n


def settle_payment(paid: dict[str, int], diamonds: int, cost: dict[str, int], science: int,
                   recolour: object = None) -> tuple[list[dict], dict[str, int]]:
    """Check that ``paid`` gems (after recolours) and ``diamonds`` pay ``cost`` exactly.

    Returns the recolours used (``[{"from", "to"}]``; worked out when not given) and the colours the diamonds
    stand for. Raises IllegalAction naming what is wrong.
    """
    need, offer = gem_total(cost), gem_total(paid) + diamonds
    if offer < need:
        raise IllegalAction(f"That costs {need} gems ({fmt_gems(cost)}) and you offer {offer}: there is no partial "
                            "defeat, pay the whole cost of every monster.", "cannot_pay")
    if offer > need:
        raise IllegalAction(f"That costs exactly {need} gems ({fmt_gems(cost)}); you offer {offer}. Pay the exact cost.",
                            "overpay")
    after = dict(paid)
    if recolour is None:
        changes = []
        short = [c for c in COLORS for _ in range(max(0, cost[c] - paid[c]))]
        for c in COLORS:
            for _ in range(max(0, paid[c] - cost[c])):
                changes.append({"from": c, "to": short.pop(0)})
    else:
        if not isinstance(recolour, list) or any(not isinstance(r, dict) for r in recolour):
            raise IllegalAction("Recolours are listed as gem colour from and to.", "bad_recolour")
        changes = []
        for r in recolour:
            src, dst = r.get("from"), r.get("to")
            if src not in COLORS or dst not in COLORS or src == dst:
                raise IllegalAction("A recolour turns one paid gem of one colour into another colour.", "bad_recolour")
            changes.append({"from": src, "to": dst})
    for change in changes:
        if after[change["from"]] < 1:
            raise IllegalAction(f"You pay no {change['from']} gem to recolour.", "bad_recolour")
        after[change["from"]] -= 1
        after[change["to"]] += 1
    if len(changes) > science:
        raise IllegalAction(f"Each science token recolours one paid gem: you have {science} and this payment needs "
                            f"{len(changes)}.", "no_science")
    wrong = [c for c in COLORS if after[c] > cost[c]]
    if wrong:
        raise IllegalAction(f"You pay more {wrong[0]} gems than the monsters ask ({cost[wrong[0]]}); recolour them with "
                            "science tokens or pay other gems.", "bad_colours")
    stand_for = {c: cost[c] - after[c] for c in COLORS}
    return changes, stand_for


def validate_combat(state: dict, seat: int, action: dict) -> dict:
    if action.get("type") != "combat":
        raise IllegalAction("The monsters attack: choose how many to defeat (0 or more) and the gems you pay.",
                            "bad_type")
    stack = _ext(state)["stack"]
    defeat = int_arg(action.get("defeat"))
    if defeat is None or not 0 <= defeat <= len(stack):
        raise IllegalAction(f"Defeat 0 to {len(stack)} monsters, counted from the bottom of the stack.", "bad_defeat")
    player = state["players"][seat]
    card = combat_card(state, seat)
    gems = clean_gems(action.get("gems"), "gems from behind your screen")
    card_gems = clean_gems(action.get("card_gems"), "gems from your combat card")
    diamonds = _count(action.get("diamonds"), "diamonds")
    card_diamonds = _count(action.get("card_diamonds"), "diamonds from your combat card")
    for c in COLORS:
        if gems[c] > player["gems"][c]:
            n = player["gems"][c]
            raise IllegalAction(f"You have {n} {c} gem{'' if n == 1 else 's'} behind your screen.", "no_gem")
        if card_gems[c] > card["gems"][c]:
            n = card["gems"][c]
            raise IllegalAction(f"Your combat card holds {n} {c} gem{'' if n == 1 else 's'}.", "no_gem")
    held = common.held(state, seat) if common.NAME in state["ext"] else 0
    if diamonds > held:
        raise IllegalAction(f"You have {held} diamond{'' if held == 1 else 's'} behind your screen.", "no_diamond")
    if card_diamonds > card["diamonds"]:
        n = card["diamonds"]
        raise IllegalAction(f"Your combat card holds {n} diamond{'' if n == 1 else 's'}.", "no_diamond")
    paid = {c: gems[c] + card_gems[c] for c in COLORS}
    out = {"type": "combat", "defeat": defeat, "gems": gems, "card_gems": card_gems, "diamonds": diamonds,
           "card_diamonds": card_diamonds, "recolour": [], "stand_for": zero(),
           "reward": check_reward_choice(action.get("reward"))}
    if defeat == 0:
        if gem_total(paid) or diamonds or card_diamonds:
            raise IllegalAction("You defeat no monster: pay nothing (and take a combat penalty card).", "overpay")
        return out
    changes, stand_for = settle_payment(paid, diamonds + card_diamonds, stack_cost(stack, defeat),
                                        combat_science(state, seat), action.get("recolour"))
    out.update({"recolour": changes, "stand_for": stand_for})
    return out


def _plan_text(plan: dict, stack: list[int]) -> str:
    n = plan["defeat"]
    if not n:
        return "defeats no monster"
    paid = {c: plan["gems"][c] + plan["card_gems"][c] for c in COLORS}
    parts = [fmt_gems(paid)] if gem_total(paid) else []
    d = plan["diamonds"] + plan["card_diamonds"]
    if d:
        parts.append(f"{d} diamond{'s' if d != 1 else ''}")
    text = f"defeats {n} (up to {label(stack[n - 1])}) paying " + " and ".join(parts)
    if plan["recolour"]:
        text += " (science recolours " + ", ".join(f"{r['from']} to {r['to']}" for r in plan["recolour"]) + ")"
    return text


def resolve_combat(state: dict, choices: dict[int, dict], events: list) -> None:
    stack = _ext(state)["stack"]
    public = {str(s): {k: c[k] for k in ("defeat", "gems", "card_gems", "diamonds", "card_diamonds", "recolour",
                                          "stand_for")} for s, c in choices.items()}
    text = "; ".join(f"{p(s)} {_plan_text(c, stack)}" for s, c in sorted(choices.items()))
    ev(events, "all", "combat_reveal", f"Combat revealed: {text}.", choices=public)
    winners = [s for s, c in choices.items() if c["defeat"]]
    order = sorted(priority_order(state, winners), key=lambda s: -choices[s]["defeat"])
    state["queue"].append({"op": "combat_pay", "choices": public})
    for seat in order:
        state["queue"].append({"op": "monster_reward", "seat": seat, "index": choices[seat]["defeat"] - 1,
                               "choice": choices[seat]["reward"]})
    state["queue"].append({"op": "combat_end", "failed": priority_order(state, [s for s in choices if s not in winners]),
                           "defeat": {str(s): c["defeat"] for s, c in choices.items()}})


def step_combat_pay(state: dict, step: dict, events: list) -> bool:
    """Everything paid goes to the reserve (gems) and the diamond reserve."""
    x = _ext(state)
    for key, plan in step["choices"].items():
        seat = int(key)
        card = combat_card(state, seat)
        gems = state["players"][seat]["gems"]
        for c in COLORS:
            gems[c] -= plan["gems"][c]
            card["gems"][c] -= plan["card_gems"][c]
            state["reserve"][c] += plan["gems"][c] + plan["card_gems"][c]
        if plan["diamonds"] or plan["card_diamonds"]:
            d = common.slice_of(state)
            d["held"][seat] -= plan["diamonds"]
            card["diamonds"] -= plan["card_diamonds"]
            d["reserve"] += plan["diamonds"] + plan["card_diamonds"]
        if plan["defeat"]:
            x["victories"][seat] += 1
            x["defeated"][seat] += plan["defeat"]
    return True


def _takeable(state: dict, seat: int, items: list[dict]) -> bool:
    """Whether a reward can be taken in full (gems from the reserve or the combat card, cards from the decks)."""
    gems = sum(i["amount"] for i in items if i["type"] == "gems")
    cards = sum(i["amount"] for i in items if i["type"] == "cards")
    diamonds = sum(i["amount"] for i in items if i["type"] == DIAMONDS)
    pool = gem_total(available(state, seat))
    if diamonds:
        short = max(0, diamonds - common.slice_of(state)["reserve"] - combat_card(state, seat)["diamonds"])
        gems += short  # short of diamonds: one gem per missing diamond
    return gems <= pool and cards <= len(state["small_deck"]) + len(state["law_deck"])


def step_monster_reward(state: dict, step: dict, events: list) -> bool:
    seat = step["seat"]
    stack = _ext(state)["stack"]
    while True:
        number = stack[step["index"]]
        items = monster(number)["reward"]
        if step["index"] == 0 or step.get("taking") or _takeable(state, seat, items):
            break
        answer = step.pop("answer", None)
        if answer is None:
            lower = stack[step["index"] - 1]
            return ask(state, seat, "monster_fallback",
                       f"The reward of {label(number)} ({reward_text(items)}) cannot be taken in full. Take what there "
                       f"is, or the reward of the next lower monster, {label(lower)} ({reward_text(monster(lower)['reward'])})?",
                       monster=number, lower=lower, options=["take", "lower"])
        if answer["choice"] == "take":
            step["taking"] = True
        else:
            step["index"] -= 1
    grant = Grant(state, {"seat": seat, "slot": "", "choice": step.get("choice")}, events)
    grant.entry = combat_card(state, seat)  # tokens lie on the combat card
    table = state_rewards(state)
    for item in items:
        handler = table.get(item["type"])
        if handler is not None:
            handler(grant, item)
    ev(events, "all", "monster_reward", f"{p(seat)} defeats {label(number)} and gains {reward_text(items)}.",
       seat=seat, monster=number)
    followups = grant.followups
    if grant.draws:
        followups.extend(draw(state, seat, list(grant.choice.get("draw") or []), grant.draws, events))
    if grant.gems:
        followups.append({"op": "gain_gems", "seat": seat, "count": grant.gems, "choice": grant.choice.get("gems"),
                          "why": f"reward of {label(number)}"})
    push(state, *followups)
    return True


def state_rewards(state: dict) -> dict:
    from ..rules import rules_for

    return rules_for(state).rewards


def _check_fallback(state: dict, seat: int, decision: dict, action: dict) -> dict:
    choice = action.get("choice")
    if choice not in decision["options"]:
        raise IllegalAction("Answer 'take' (what there is of this reward) or 'lower' (the next lower monster's).",
                            "bad_choice")
    return {"choice": choice}


def _default_fallback(state: dict, seat: int, decision: dict) -> dict:
    lower = monster(decision["lower"])["reward"]
    return {"type": "decide", "choice": "lower" if _takeable(state, seat, lower) else "take"}


def step_combat_end(state: dict, step: dict, events: list) -> bool:
    """Penalty cards for those who defeated none, the rest discarded, a new stack."""
    x = _ext(state)
    stack = x["stack"]
    for seat in step["failed"]:
        if stack:
            x["penalties"][seat].append(stack.pop())
            ev(events, "all", "combat_penalty", f"{p(seat)} defeated no monster and takes a combat penalty card "
               f"({PENALTY_PP} PP at the end).", seat=seat)
    x["discard"].extend(stack)
    x["stack"] = []
    x["combats"] += 1
    x["last"] = {"turn": state["turn"], "defeat": dict(step["defeat"])}
    ev(events, "all", "combat_over", "The combat is over; a new monster stack starts.")
    return True


def default_combat(state: dict, seat: int) -> dict:
    """The most monsters the seat can defeat, paying with the combat card first (its gems cannot paint)."""
    plan = best_plan(state, seat)
    return plan if plan is not None else {"type": "combat", "defeat": 0}


def plans(state: dict, seat: int) -> list[dict]:
    """A payable plan for each number of monsters the seat can defeat (index = monsters), 0 first."""
    out = [{"type": "combat", "defeat": 0}]
    stack = _ext(state)["stack"]
    for n in range(1, len(stack) + 1):
        plan = auto_plan(state, seat, stack_cost(stack, n))
        if plan is None:
            break
        out.append(dict(plan, defeat=n))
    return out


def best_plan(state: dict, seat: int) -> dict | None:
    options = plans(state, seat)
    return options[-1] if len(options) > 1 else None


def auto_plan(state: dict, seat: int, cost: dict[str, int]) -> dict | None:
    """Gems that pay ``cost`` exactly: combat card first, then the screen, then recolours, then diamonds."""
    card = combat_card(state, seat)
    screen = state["players"][seat]["gems"]
    left = dict(cost)
    card_gems, gems = zero(), zero()
    for source, into in ((card["gems"], card_gems), (screen, gems)):
        for c in COLORS:
            take = min(left[c], source[c] - into[c])
            into[c] += take
            left[c] -= take
    science = combat_science(state, seat)
    for source, into in ((card["gems"], card_gems), (screen, gems)):
        for c in COLORS:
            while science and gem_total(left) and source[c] - into[c] > 0:
                into[c] += 1
                target = next(t for t in COLORS if left[t])
                left[target] -= 1
                science -= 1
    rest = gem_total(left)
    card_diamonds = min(rest, card["diamonds"])
    held = common.held(state, seat) if common.NAME in state["ext"] else 0
    diamonds = min(rest - card_diamonds, held)
    if card_diamonds + diamonds < rest:
        return None
    return {"type": "combat", "gems": gems, "card_gems": card_gems, "diamonds": diamonds,
            "card_diamonds": card_diamonds}


def ai_combat(state: dict, seat: int, rng: random.Random) -> dict:
    options = plans(state, seat)
    if len(options) > 2 and rng.random() < 0.25:
        return rng.choice(options[1:])
    return options[-1]


def ai_fallback(state: dict, seat: int, rng: random.Random) -> dict:
    return _default_fallback(state, seat, state["decision"])


def combat_choices(state: dict, seat: int, prompt: dict) -> dict:
    """What the combat prompt offers: the stack's lines with their cumulative cost, and what can pay."""
    stack = _ext(state)["stack"]
    card = combat_card(state, seat)
    payable = plans(state, seat)
    return {
        "stack": [{"monster": n, "name": monster(n)["name"], "tier": monster(n)["tier"], "cost": list(monster(n)["cost"]),
                   "reward": [dict(i) for i in monster(n)["reward"]], "total": stack_cost(stack, i + 1)}
                  for i, n in enumerate(stack)],
        "gems": dict(state["players"][seat]["gems"]),
        "diamonds": common.held(state, seat) if common.NAME in state["ext"] else 0,
        "card_gems": dict(card["gems"]),
        "card_diamonds": card["diamonds"],
        "science": combat_science(state, seat),
        "plans": payable,
    }


COMBAT_PHASE = Phase(
    name="combat",
    start=start_combat,
    validate=validate_combat,
    resolve=resolve_combat,
    advance=lambda state, events: DONE,
    inactive="You have already fought this combat.",
    default=default_combat,
)


# ------------------------------------------------------------------------------------------- the end


def _wrap_painting(inner):  # noqa: ANN001, ANN202
    def start(state: dict, events: list) -> None:
        """Gems and diamonds on the combat cards go back to the reserve: they cannot paint."""
        d = state["ext"].get(common.NAME)
        for seat, card in enumerate(_ext(state)["cards"]):
            n = gem_total(card["gems"]) + card["diamonds"]
            for c in COLORS:
                state["reserve"][c] += card["gems"][c]
            if d is not None:
                d["reserve"] += card["diamonds"]
            if n:
                ev(events, "all", "combat_card_cleared",
                   f"{p(seat)}'s combat card returns {n} gem{'s' if n != 1 else ''} and diamonds to the reserve.",
                   seat=seat, count=n)
            card["gems"], card["diamonds"] = zero(), 0
        inner(state, events)

    return start


def _combat_card_tokens(state: dict, seat: int) -> list[dict]:
    x = state["ext"].get(NAME)
    return x["cards"][seat]["tokens"] if x is not None and seat < len(x["cards"]) else []


# The tokens on a combat card count like the tokens in the pyramid (they are not on a pyramid card), and a
# rule that discards a token may take it from there.
combat_tokens = common.TokenZone("combat", "combat card", _combat_card_tokens)


def penalty_points(ctx) -> int:  # noqa: ANN001  (a scoring.ScoreContext)
    if ctx.state is None or NAME not in ctx.state["ext"]:
        return 0
    return PENALTY_PP * len(_ext(ctx.state)["penalties"][ctx.seat])


# ------------------------------------------------------------------------------------------- laws


def _levy(state: dict, seat: int, plan: dict, events: list) -> None:
    """Levy: one gem of each colour from the reserve onto the combat card."""
    play_placed(state, seat, plan, events)
    card = combat_card(state, seat)["gems"]
    taken = zero()
    for c in COLORS:
        if state["reserve"][c] > 0:
            state["reserve"][c] -= 1
            card[c] += 1
            taken[c] = 1
    ev(events, "all", "levy", f"{p(seat)} levies {fmt_gems(taken)} onto the combat card.", seat=seat, gems=taken)


def hall_points(ctx, slot: str, entry: dict) -> int:  # noqa: ANN001
    if ctx.state is None or NAME not in ctx.state["ext"]:
        return 0
    return HALL_PP * _ext(ctx.state)["victories"][ctx.seat]


def pardon_points(ctx, slot: str, entry: dict) -> int:  # noqa: ANN001
    if ctx.state is None or NAME not in ctx.state["ext"]:
        return 0
    return -PENALTY_PP if _ext(ctx.state)["penalties"][ctx.seat] else PARDON_PP


# ------------------------------------------------------------------------------------------- secrets


def card_gems(state: dict) -> dict[str, int]:
    """The gems lying on every combat card (public)."""
    total = zero()
    for card in _ext(state)["cards"]:
        for c in COLORS:
            total[c] += card["gems"][c]
    return total


def redraw_pile(state: dict, out: dict, seat: int, rng: random.Random) -> None:
    """The unrevealed monsters are unknown: each place of the pile gets an unseen monster of its tier."""
    x = _ext(state)
    seen = set(x["stack"]) | set(x["discard"]) | {n for cards in x["penalties"] for n in cards}
    unseen = {tier: [n for n in numbers if n not in seen] for tier, numbers in TIERS.items()}
    for pool in unseen.values():
        rng.shuffle(pool)
    out["ext"][NAME]["pile"] = [unseen[monster(n)["tier"]].pop() for n in x["pile"]]


# ------------------------------------------------------------------------------------------- views


def view(state: dict, seat: int | None, out: dict, prompts: dict) -> None:
    x = state["ext"].get(NAME)
    if x is None:
        return
    out["invasion"] = {
        "stack": [{"monster": n, "name": monster(n)["name"], "tier": monster(n)["tier"], "cost": list(monster(n)["cost"]),
                   "reward": [dict(i) for i in monster(n)["reward"]]} for n in x["stack"]],
        "pile": len(x["pile"]),
        "discard": list(x["discard"]),
        "combats": x["combats"],
        "last": dict(x["last"], defeat=dict(x["last"]["defeat"])) if x["last"] else None,
    }
    for s, pv in enumerate(out["players"]):
        card = x["cards"][s]
        pv["combat_card"] = {"gems": dict(card["gems"]), "diamonds": card["diamonds"],
                             "tokens": [dict(t) for t in card["tokens"]]}
        pv["penalty_cards"] = len(x["penalties"][s])  # face down
        pv["victories"] = x["victories"][s]


# ------------------------------------------------------------------------------------------- install


class Invasion:
    name = NAME
    order = 40  # after the modules that wrap the auction and the painting (diamonds)

    def install(self, rules: Ruleset) -> None:
        common.install(rules)
        rules.setup.append(setup)
        rules.reveal_hooks.append(reveal_monster)
        rules.bid_gem = _wrap_bid_gem(rules.bid_gem)
        rules.steps["gain_gems"] = _wrap_gain_gems(rules.steps["gain_gems"])
        rules.decisions["gems"] = Decision(_check_gems, _default_gems)
        rules.rewards["infinite_gem"] = _wrap_infinite(rules.rewards["infinite_gem"])
        rules.rewards[DIAMONDS] = _wrap_diamonds(rules.rewards[DIAMONDS])
        development = rules.phases["development"]
        rules.phases["combat"] = replace(COMBAT_PHASE, next=development.next)
        rules.phases["development"] = replace(development, next=_after_development(development.next))
        painting = rules.phases["painting"]
        rules.phases["painting"] = replace(painting, start=_wrap_painting(painting.start))
        rules.steps["combat_pay"] = step_combat_pay
        rules.steps["monster_reward"] = step_monster_reward
        rules.steps["combat_end"] = step_combat_end
        rules.decisions["monster_fallback"] = Decision(_check_fallback, _default_fallback)
        rules.token_zones.append(combat_tokens)
        rules.public_gems.append(card_gems)
        rules.gem_fallbacks.append(gem_from_card)
        rules.determinize.append(redraw_pile)
        rules.scorers.append(Scorer("combat_penalties", penalty_points, "Combat penalty cards"))
        rules.law_cards = tuple(rules.law_cards) + INVASION_LAWS
        rules.add_law(LEVY, Law(play=_levy))
        rules.add_law(HALL_OF_HEROES, Law(play=play_placed, score=hall_points))
        rules.add_law(ROYAL_PARDON, Law(play=play_placed, score=pardon_points))
        rules.views.append(view)
        rules.ai["combat"] = ai_combat
        rules.ai["monster_fallback"] = ai_fallback
        rules.ai["gems"] = lambda state, seat, rng: _default_gems(state, seat, state["decision"])
        rules.prompt_choices["combat"] = combat_choices


MODULE = Invasion()

__all__ = ["MODULE", "MONSTER_CARDS", "ROMAN", "combat_card", "deck_layout", "settle_payment", "stack_cost"]
