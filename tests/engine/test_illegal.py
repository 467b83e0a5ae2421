"""Illegal actions thrown at random states: each raises IllegalAction with a message and changes nothing."""

from __future__ import annotations

import random

import pytest

from engine.contract import exact_copy
from engine.viceroy import IllegalAction, apply_action, new_game, pending
from engine.viceroy import cards as C
from engine.viceroy import game as G
from engine.viceroy.ai import choose_action, play_game

JUNK = [None, True, False, -1, 0, 999, 3.5, "", "red", "1:0", [], [1], {}, {"red": 1}, "purple", 10**9]


def illegal_actions(state: dict, rng: random.Random) -> list[tuple[object, object]]:
    """(seat, action) pairs that the rules never allow in this state."""
    n = len(state["players"])
    prompts = pending(state)
    out: list[tuple[object, object]] = []
    seat = min(prompts) if prompts else 0
    # Malformed actions and seats.
    for junk in (None, [], "pass", 5, {"type": 3}, {"kind": "pass"}, {"type": None}):
        out.append((seat, junk))
    for bad_seat in (-1, n, 99, "0", None, 1.0):
        out.append((bad_seat, {"type": "pass"}))
    out.append((seat, {"type": "fly"}))
    if state["phase"] == "over":
        out.append((0, {"type": "pass"}))
        out.append((0, {"type": "paint", "paint": []}))
        return out
    # Seats with nothing to do now.
    for other in range(n):
        if other not in prompts:
            out.append((other, {"type": "pass"}))
            out.append((other, {"type": "decide", "card": 1}))
    decision = state["decision"]
    if decision is None:
        out.append((seat, {"type": "decide"}))
        out.append((seat, {"type": "decide", "gems": {"red": 1}}))
    else:
        seat = decision["seat"]
        out.append((seat, {"type": "pass"}))  # answer the question first
        out.append((seat, {"type": "decide"}))
        kind = decision["kind"]
        if kind == "gems":
            out.append((seat, {"type": "decide", "gems": {"red": decision["count"] + 1}}))
            out.append((seat, {"type": "decide", "gems": {"purple": decision["count"]}}))
            out.append((seat, {"type": "decide", "gems": {"red": -1}}))
        elif kind in ("attack_pick", "solo_discard"):
            out.append((seat, {"type": "decide", "card": 999}))
            out.append((seat, {"type": "decide", "card": [decision["options"][0]]}))
        elif kind == "royal_favor":
            out.append((seat, {"type": "decide", "slot": "9:99"}))
        elif kind == "archive":
            out.append((seat, {"type": "decide", "archive": "yes"}))
        elif kind == "chancery_return":
            out.append((seat, {"type": "decide", "cards": [999]}))
            out.append((seat, {"type": "decide", "cards": "all"}))
        elif kind == "replan":
            out.append((seat, {"type": "decide", "plan": "pass"}))
            out.append((seat, {"type": "decide", "plan": {"type": "bid", "color": "red"}}))
        return out
    phase = state["phase"]
    player = state["players"][seat]
    hand = player["hand"]
    not_in_hand = [c for c in C.CARDS if c not in hand]
    if phase == "setup":
        out.append((seat, {"type": "setup", "start": rng.choice(not_in_hand), "keep": hand[0]}))
        out.append((seat, {"type": "setup", "start": "1", "keep": hand[0]}))
        if state["options"]["deal"] == 4:
            out.append((seat, {"type": "setup", "start": hand[0], "keep": hand[0]}))
        out.append((seat, {"type": "setup", "start": hand[0], "keep": hand[1], "reward": {"gems": {"red": -2}}}))
        out.append((seat, {"type": "setup", "start": hand[0], "keep": hand[1], "reward": {"draw": ["deck"]}}))
        out.append((seat, {"type": "bid", "color": "red"}))
    elif phase == "auction":
        out.append((seat, {"type": "bid", "color": "purple"}))
        out.append((seat, {"type": "bid", "color": None}))
        for colour in C.COLORS:
            if player["gems"][colour] == 0 or not G.cards_at(state, colour):
                out.append((seat, {"type": "bid", "color": colour}))
            if player["gems"][colour] and len(G.cards_at(state, colour)) == 2:
                out.append((seat, {"type": "bid", "color": colour}))  # must name the card
            if G.cards_at(state, colour):
                out.append((seat, {"type": "bid", "color": colour, "card": 999}))
        if player["attacks"] == 0:
            out.append((seat, {"type": "attack", "card": (G.auction_offer(state) or [1])[0]}))
        out.append((seat, {"type": "attack", "card": 999}))
        out.append((seat, {"type": "bid", "color": "red", "archive": "yes"}))
        allowed = G.PASS_GEMS + G.science_count(player)
        out.append((seat, {"type": "pass", "gems": {"red": allowed + 1}}))
        out.append((seat, {"type": "pass", "gems": {"red": -1}}))
        out.append((seat, {"type": "pass", "gems": {"red": True}}))
        out.append((seat, {"type": "pass", "gems": ["red"]}))
        out.append((seat, {"type": "play", "card": hand[0] if hand else 1}))
    elif phase == "development":
        out.append((seat, {"type": "play", "card": rng.choice(not_in_hand), "slot": "1:2"}))
        out.append((seat, {"type": "play", "card": "12"}))
        out.append((seat, {"type": "play", "card": True}))
        out.append((seat, {"type": "discard", "card": rng.choice(not_in_hand)}))
        out.append((seat, {"type": "discard", "card": 999}))
        if hand:
            out.append((seat, {"type": "discard", "card": hand[0], "gems": {"red": 3}}))
            for slot in ("9:9", "x", None, 5, "5:", "1:1"):
                out.append((seat, {"type": "play", "card": hand[0], "slot": slot, "target": slot}))
            chars = [c for c in hand if not C.is_law(c)]
            for c in chars:
                slots = G.P.legal_slots(player["pyramid"], c)
                cost = C.cost(c, G.playable_level(slots[0]))
                wrong = dict(cost, red=cost["red"] + 1)
                out.append((seat, {"type": "play", "card": c, "slot": slots[0], "pay": wrong}))
                out.append((seat, {"type": "play", "card": c, "slot": slots[0], "pay": cost, "infinite": ["1:0/purple"]}))
                out.append((seat, {"type": "play", "card": c, "slot": slots[0], "pay": cost, "infinite": "1:0/red"}))
        out.append((seat, {"type": "bid", "color": "red"}))
        out.append((seat, {"type": "paint", "paint": []}))
    elif phase == "painting":
        out.append((seat, {"type": "paint", "paint": "all"}))
        out.append((seat, {"type": "paint", "paint": [{"slot": "9:9", "section": "top_left", "color": "red"}]}))
        out.append((seat, {"type": "paint", "paint": [{"slot": "1:0", "section": "middle", "color": "red"}]}))
        out.append((seat, {"type": "paint", "paint": [{"slot": "1:0", "section": "top_left", "color": "pink"}]}))
        out.append((seat, {"type": "pass"}))
    return out


def random_action(rng: random.Random) -> object:
    """A random, mostly malformed, action built from plausible keys and junk values."""
    keys = ["type", "card", "color", "gems", "slot", "pay", "infinite", "reward", "target", "take", "tuck",
            "give", "store", "archive", "start", "keep", "plan", "cards", "paint", "section"]
    types = ["bid", "attack", "pass", "play", "discard", "setup", "decide", "paint", "nope"]
    action: dict = {"type": rng.choice(types)}
    for key in rng.sample(keys[1:], rng.randint(0, 5)):
        action[key] = rng.choice(JUNK + [rng.randint(-5, 100), {"red": rng.randint(-2, 9)}, {"slot": "1:0", "token": 0}])
    return action


def check_illegal(state: dict, seat: object, action: object, before: dict | None = None) -> None:
    """`before`: a copy of `state` as it is now (every refusal leaves the state equal to it, so the checks of one
    state share one copy)."""
    if before is None:
        before = exact_copy(state)
    with pytest.raises(IllegalAction) as exc:
        apply_action(state, seat, action)  # type: ignore[arg-type]
    assert isinstance(exc.value.message, str) and exc.value.message.strip()
    assert exc.value.code
    assert state == before, (seat, action)


def check_fuzz(state: dict, seat: int, action: object) -> None:
    """A random action is either legal or refused cleanly; it never crashes and a refusal changes nothing."""
    trial = exact_copy(state)
    try:
        apply_action(trial, seat, action)  # type: ignore[arg-type]
    except IllegalAction as exc:
        assert exc.message.strip()
        assert trial == state, (seat, action)


@pytest.mark.parametrize(("players", "virtual", "deal"), [(1, 0, 4), (2, 1, 2), (3, 0, 4), (4, 0, 4)])
def test_illegal_actions_raise_and_change_nothing(players: int, virtual: int, deal: int) -> None:
    for game in range(4):
        seed = 500 + 10 * players + game
        rng = random.Random(seed)
        state = new_game({"players": players, "virtual_opponents": virtual, "deal": deal}, seed)
        count = 0
        while True:
            if rng.random() < 0.25 or state["decision"] is not None or state["phase"] in ("setup", "painting", "over"):
                before = exact_copy(state)
                for seat, action in illegal_actions(state, rng):
                    check_illegal(state, seat, action, before)
                    count += 1
                prompts = pending(state)
                for _ in range(5):
                    check_fuzz(state, min(prompts) if prompts else 0, random_action(rng))
            prompts = pending(state)
            if not prompts:
                break
            seat = min(s for s, p in prompts.items() if not p.get("submitted"))
            apply_action(state, seat, choose_action(state, seat, rng))
        before = exact_copy(state)
        for seat, action in illegal_actions(state, rng):
            check_illegal(state, seat, action, before)
        assert count > 100


def test_illegal_setup_options() -> None:
    for options in ({"players": 0}, {"players": 5}, {"players": "2"}, {"players": 2, "deal": 3},
                    {"players": 2, "virtual_opponents": 3}, {"players": 2, "virtual_opponents": -1}):
        with pytest.raises(IllegalAction) as exc:
            new_game(options, 1)
        assert exc.value.message


def test_illegal_after_the_game_is_over() -> None:
    state, _ = play_game({"players": 2}, 3)
    check_illegal(state, 0, {"type": "pass"})
    check_illegal(state, 1, {"type": "paint", "paint": []})


def test_card_numbers_and_options_must_be_whole_numbers() -> None:
    """A card, seat or option named by ``True`` or ``1.0`` is refused (it would equal 1 and slip into the state)."""
    from tests.engine.helpers import gems, set_auction, set_hand, set_pyramid, started, to_development

    state = new_game({"players": 2}, 3)
    set_hand(state, 0, [1, 2, 3, 4])
    for start in (1.0, True):
        check_illegal(state, 0, {"type": "setup", "start": start, "keep": 2})
    check_illegal(state, 0, {"type": "setup", "start": 1, "keep": 2.0})

    state = started(2)
    set_auction(state, {"red": (20, None), "blue": (21, 1)})
    state["players"][0]["attacks"] = 1
    for card in (20.0, True):
        check_illegal(state, 0, {"type": "attack", "card": card})

    state = started(2)
    to_development(state)
    set_hand(state, 0, [69, 67, 73])
    set_auction(state, {"red": (20, None), "blue": (21, 1)})
    set_pyramid(state, 0, {"1:0": 50}, tokens={"1:0": [{"type": "magic"}]})
    set_pyramid(state, 1, {"1:0": 51}, tokens={"1:0": [{"type": "defense"}]})
    state["players"][0]["gems"] = gems(red=3)
    for take in (20.0, True):
        check_illegal(state, 0, {"type": "play", "card": 69, "slot": "1:2", "take": take})
    check_illegal(state, 0, {"type": "play", "card": 67, "slot": "1:2", "give": {"slot": "1:0", "token": 0},
                             "take": {"seat": True, "slot": "1:0", "token": 0}, "pay": gems(red=3)})
    for option in (1.0, True, [1]):
        check_illegal(state, 0, {"type": "play", "card": 73, "slot": "1:2", "reward": {"option": option, "color": "red"}})

    # A decision naming a card.
    state = started(2)
    state["decision"] = {"seat": 0, "kind": "attack_pick", "text": "", "options": [20, 21]}
    state["queue"] = [{"op": "attack", "seat": 0, "card": 1, "archive": None}]
    check_illegal(state, 0, {"type": "decide", "card": 20.0})
    state["decision"] = {"seat": 0, "kind": "chancery_return", "text": "", "options": [80, 81], "count": 2}
    state["queue"] = [{"op": "chancery", "seat": 0}]
    set_hand(state, 0, [80, 81])
    for cards in ([80.0, 81], [[80], [81]], [{}, {}]):
        check_illegal(state, 0, {"type": "decide", "cards": cards})


def test_unhashable_reward_and_paint_choices_are_refused() -> None:
    from tests.engine.helpers import gems, set_hand, set_pyramid, started, to_development

    state = started(2)
    to_development(state)
    set_hand(state, 0, [32])
    state["players"][0]["gems"] = gems(green=1)
    for draw in ([[1]], [{}], [None]):
        check_illegal(state, 0, {"type": "play", "card": 32, "slot": "1:2", "pay": gems(green=1), "reward": {"draw": draw}})

    state, _ = play_game({"players": 2}, 3)
    state["phase"] = "painting"
    state["scores"] = None
    set_pyramid(state, 0, {"1:0": 3, "1:2": 4, "2:1": 1})
    state["players"][0]["painted"] = None
    state["players"][0]["gems"] = gems(red=1)
    for colour in (["red"], {"red": 1}):
        check_illegal(state, 0, {"type": "paint", "paint": [{"slot": "1:2", "section": "top_left", "color": colour}]})
