"""One test per law card (RULES.md §10), played through the engine."""

from __future__ import annotations

import copy

import pytest

from engine.viceroy import IllegalAction, apply_action
from engine.viceroy import cards as C
from engine.viceroy import moves as M
from engine.viceroy import pyramid as P
from engine.viceroy.scoring import score_player
from tests.engine.helpers import (
    events_of,
    gems,
    set_auction,
    set_hand,
    set_pyramid,
    settle,
    spot,
    started,
    submit,
    to_development,
    token_types,
)

PASS = {"type": "pass"}


def law_game(hand: list[int], layout: dict[str, int] | None = None, tokens: dict | None = None) -> dict:
    """Seat 0 in development round 1 with ``hand``; seat 1 passes."""
    state = started(2, seed=31)
    to_development(state)
    set_pyramid(state, 0, layout or {"1:0": 50}, tokens)
    set_hand(state, 0, hand)
    set_hand(state, 1, [])
    state["active"] = [0]
    state["reserve"] = gems(red=6, green=6, blue=6, yellow=6)
    state["players"][0]["gems"] = gems(red=2, green=2, blue=2, yellow=2)
    return state


def play(state: dict, action: dict, answer: bool = True) -> list[dict]:
    events = apply_action(state, 0, {"type": "play", **action})
    if answer:
        events += settle(state)
    return events


def cards0(state: dict) -> dict:
    return state["players"][0]["pyramid"]["cards"]


def law_points(state: dict, seat: int = 0) -> int:
    return score_player(state, seat)["breakdown"]["laws"]


# ------------------------------------------------------------------------------------------ on play


def test_law_65_usurpation() -> None:
    layout = {"1:0": 3, "1:2": 17, "2:1": 10}
    state = law_game([65], layout, tokens={"2:1": [{"type": "science"}, {"type": "infinite_gem", "color": "blue"}]})
    cards0(state)["2:1"]["tucked"] = [45]
    before = dict(state["players"][0]["gems"])
    events = play(state, {"card": 65, "target": "2:1"})
    entry = cards0(state)["2:1"]
    assert entry["card"] == 65
    assert token_types(entry) == ["infinite_gem", "science"]  # the tokens move to the law
    assert entry["tucked"] == [45]
    assert 10 in state["players"][0]["hand"]
    # Ruling: red-red-red circle made by the law's bottom, but replacing gives no circle gem.
    assert not events_of(events, "circle_gem")
    assert state["players"][0]["gems"] == before


def test_law_65_not_on_level_5_and_returns_treasury_gems() -> None:
    state = law_game([65], {"1:0": 50, "1:2": 76})
    cards0(state)["1:2"]["gems"] = gems(red=3)
    state["players"][0]["gems"] = gems()
    cards0(state)["5:4"] = {"card": 51, "slot": "5:4", "tokens": [], "tucked": [], "gems": gems(), "paint": {}}
    with pytest.raises(IllegalAction):
        play(state, {"card": 65, "target": "5:4"})
    del cards0(state)["5:4"]
    play(state, {"card": 65, "target": "1:2"})
    # Ruling: gems stored on a replaced Treasury return behind the screen.
    assert state["players"][0]["gems"] == gems(red=3)
    assert 76 in state["players"][0]["hand"]


def test_law_66_endowment() -> None:
    tokens = [{"type": "science"}, {"type": "power_points", "value": 5}, {"type": "infinite_gem", "color": "red"}]
    state = law_game([66], {"1:0": 50}, tokens={"1:0": tokens})
    reserve_red = state["reserve"]["red"]
    play(state, {"card": 66, "target": "1:0"})
    entry = cards0(state)["1:0"]
    assert entry["tucked"] == [66]
    assert token_types(entry) == ["infinite_gem"] * 2 + ["power_points"] * 2 + ["science"] * 2
    assert state["reserve"]["red"] == reserve_red - 1  # the extra infinite gem is taken like a reward
    with pytest.raises(IllegalAction):
        state2 = law_game([66], {"1:0": 50, "1:2": 68})
        play(state2, {"card": 66, "target": "1:2"})  # only under a character


def test_law_67_exchange_of_favors() -> None:
    state = law_game([67], {"1:0": 50}, tokens={"1:0": [{"type": "magic"}]})
    set_pyramid(state, 1, {"1:0": 51}, tokens={"1:0": [{"type": "defense"}]})
    state["players"][1]["gems"] = gems()
    with pytest.raises(IllegalAction):
        play(state, {"card": 67, "slot": "1:2", "give": {"slot": "1:0", "token": 0},
                     "take": {"seat": 1, "slot": "1:0", "token": 0}, "pay": gems(red=2)})
    play(state, {"card": 67, "slot": "1:2", "give": {"slot": "1:0", "token": 0},
                 "take": {"seat": 1, "slot": "1:0", "token": 0}, "pay": gems(red=2, green=1)})
    assert cards0(state)["1:0"]["tokens"] == [{"type": "defense"}]
    assert state["players"][1]["pyramid"]["cards"]["1:0"]["tokens"] == [{"type": "magic"}]
    assert state["players"][1]["gems"] == gems(red=2, green=1)
    assert state["players"][0]["gems"] == gems(green=1, blue=2, yellow=2)


def test_law_67_exchange_cannot_swap_an_infinite_gem() -> None:
    # An infinite gem is a gem, not a token (RULES.md §1): Exchange of Favors swaps tokens only.
    state = law_game([67], {"1:0": 50}, tokens={"1:0": [{"type": "magic"}, {"type": "infinite_gem", "color": "red"}]})
    set_pyramid(state, 1, {"1:0": 51}, tokens={"1:0": [{"type": "infinite_gem", "color": "blue"}, {"type": "defense"}]})
    before = copy.deepcopy(state)
    for give, take in ((0, 0), (1, 1)):
        with pytest.raises(IllegalAction) as exc:
            play(state, {"card": 67, "slot": "1:2", "give": {"slot": "1:0", "token": give},
                         "take": {"seat": 1, "slot": "1:0", "token": take}, "pay": gems(red=2, green=1)})
        assert exc.value.code == "bad_swap" and "infinite gem" in exc.value.message
        assert state == before
    play(state, {"card": 67, "slot": "1:2", "give": {"slot": "1:0", "token": 0},
                 "take": {"seat": 1, "slot": "1:0", "token": 1}, "pay": gems(red=2, green=1)})
    assert token_types(cards0(state)["1:0"]) == ["defense", "infinite_gem"]
    assert token_types(state["players"][1]["pyramid"]["cards"]["1:0"]) == ["infinite_gem", "magic"]


def test_law_67_exchange_is_optional() -> None:
    state = law_game([67])
    play(state, {"card": 67, "slot": "1:2"})
    assert cards0(state)["1:2"]["card"] == 67
    assert state["players"][0]["gems"] == gems(red=2, green=2, blue=2, yellow=2)


def test_law_68_census() -> None:
    state = law_game([68], {"1:0": 50, "1:2": 51})
    cards0(state)["1:0"]["tucked"] = [45, 46]
    play(state, {"card": 68, "slot": "1:4"})
    assert law_points(state) == 3 + 2  # three cards and two tucked


def test_law_69_royal_decree() -> None:
    state = law_game([69])
    set_auction(state, {"red": (20, None), "blue": (21, 25)})
    top = state["small_deck"][-1]
    play(state, {"card": 69, "slot": "1:2", "take": 25, "archive": False})
    assert 25 in state["players"][0]["hand"]
    assert (spot(state, "blue")["base"], spot(state, "blue")["tip"]) == (21, top)  # refilled from the small deck
    assert state["players"][0]["skip_next_auction"]
    apply_action(state, 0, PASS)
    # The next auction phase goes on without seat 0.
    assert state["phase"] == "auction" and state["active"] == [1]
    assert not state["players"][0]["skip_next_auction"]
    with pytest.raises(IllegalAction):
        apply_action(state, 0, PASS)
    # Only that one auction: after it, seat 0 is back for the following turn.
    apply_action(state, 1, {"type": "pass"})
    settle(state)
    for seat in list(state["active"]):
        apply_action(state, seat, PASS)
    settle(state)
    assert state["phase"] == "auction" and state["active"] == [0, 1]


def test_law_70_chancery() -> None:
    state = law_game([70, 80])
    drawn = state["law_deck"][-3:]
    play(state, {"card": 70, "slot": "1:2"}, answer=False)
    decision = state["decision"]
    assert decision["kind"] == "chancery_return" and decision["count"] == 2
    assert set(drawn) <= set(state["players"][0]["hand"])
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "decide", "cards": [80]})
    apply_action(state, 0, {"type": "decide", "cards": [80, drawn[0]]})
    assert state["law_deck"][-1] == 80  # the first named goes on top
    assert state["law_deck"][-2] == drawn[0]
    assert sorted(n for n in state["players"][0]["hand"] if C.is_law(n)) == sorted(drawn[1:])


def choice(law: int, option: int, **reward: object) -> dict:
    state = law_game([law])
    state["players"][0]["gems"] = gems()
    play(state, {"card": law, "slot": "1:2", "reward": {"option": option, **reward}})
    return state


@pytest.mark.parametrize(
    ("law", "option", "tokens"),
    [
        (71, 0, [{"type": "attack"}]),
        (71, 1, [{"type": "power_points", "value": 6}]),
        (73, 0, [{"type": "defense"}]),
        (73, 1, [{"type": "infinite_gem", "color": "yellow"}]),
        (77, 0, [{"type": "attack"}]),
        (80, 0, [{"type": "defense"}]),
        (80, 1, [{"type": "power_points", "value": 6}]),
        (81, 0, [{"type": "magic"}]),
        (81, 1, [{"type": "science"}]),
        (82, 0, [{"type": "science"}]),
        (83, 0, [{"type": "magic"}, {"type": "magic_bonus", "value": 2}]),
        (83, 1, [{"type": "infinite_gem", "color": "yellow"}]),
        (84, 0, [{"type": "magic_bonus", "value": 3}]),
    ],
)
def test_choice_law_token_options(law: int, option: int, tokens: list[dict]) -> None:
    state = choice(law, option, color="yellow")
    assert cards0(state)["1:2"]["tokens"] == tokens
    assert state["players"][0]["attacks"] == 0  # laws 71/77: the attack token lies on the card


@pytest.mark.parametrize("law", [71, 73, 77, 80, 81, 82, 83, 84])
def test_choice_law_four_gems_option(law: int) -> None:
    state = choice(law, 2, gems=gems(red=2, blue=2), color="red")
    assert state["players"][0]["gems"] == gems(red=2, blue=2)
    assert cards0(state)["1:2"]["tokens"] == []


@pytest.mark.parametrize(("law", "option"), [(77, 1), (82, 1), (84, 1)])
def test_choice_law_card_option(law: int, option: int) -> None:
    state = law_game([law])
    top = state["law_deck"][-1]
    play(state, {"card": law, "slot": "1:2", "reward": {"option": option, "draw": ["law"]}})
    assert state["players"][0]["hand"] == [top]


def test_choice_law_needs_an_option() -> None:
    state = law_game([73])
    with pytest.raises(IllegalAction) as exc:
        play(state, {"card": 73, "slot": "1:2"})
    assert exc.value.code == "choose_option"
    with pytest.raises(IllegalAction) as exc:
        play(state, {"card": 73, "slot": "1:2", "reward": {"option": 1}})
    assert exc.value.code == "choose_colour"


def test_law_71_militia_levy() -> None:
    state = choice(71, 0)
    assert token_types(cards0(state)["1:2"]) == ["attack"]
    set_pyramid(state, 1, {"1:0": 51})
    # It cannot be spent in an auction, but the opponent is attacked by it at the end.
    assert score_player(state, 1)["breakdown"]["attack"] == -4


def test_law_72_secret_service() -> None:
    state = law_game([72, 40, 41, 42])
    with pytest.raises(IllegalAction):
        play(state, {"card": 72, "slot": "1:2", "tuck": [40, 99]})
    play(state, {"card": 72, "slot": "1:2", "tuck": [40, 41]})
    assert cards0(state)["1:2"]["tucked"] == [40, 41]
    assert state["players"][0]["hand"] == [42]
    assert law_points(state) == 10


def test_law_73_fortification_edict() -> None:
    state = choice(73, 1, color="green")
    assert cards0(state)["1:2"]["tokens"] == [{"type": "infinite_gem", "color": "green"}]
    assert state["reserve"]["green"] == 5


def test_law_74_royal_favor() -> None:
    state = law_game([74], {"1:0": 50, "1:2": 51}, tokens={"1:2": [{"type": "infinite_gem", "color": "blue"}, {"type": "science"}]})
    blue = state["reserve"]["blue"]
    play(state, {"card": 74, "slot": "1:-2"})  # 1:0 is now in the middle: 1:2 is the only free card
    assert "1:2" not in cards0(state)
    assert cards0(state)["1:-2"]["tucked"] == [51]
    assert state["reserve"]["blue"] == blue + 1  # the infinite gem returns to the reserve
    assert law_points(state) == 3


def test_law_74_royal_favor_asks_when_several_free_cards() -> None:
    state = law_game([74], {"1:0": 50, "1:2": 51, "1:4": 52, "2:1": 53})
    play(state, {"card": 74, "slot": "1:-2"}, answer=False)
    decision = state["decision"]
    assert decision["kind"] == "royal_favor" and sorted(decision["options"]) == ["1:4", "2:1"]
    apply_action(state, 0, {"type": "decide", "slot": "2:1"})
    assert cards0(state)["1:-2"]["tucked"] == [53]
    # Naming the card in the plan avoids the question.
    state = law_game([74], {"1:0": 50, "1:2": 51, "1:4": 52, "2:1": 53})
    play(state, {"card": 74, "slot": "1:-2", "tuck": "1:4"}, answer=False)
    assert state["decision"] is None and cards0(state)["1:-2"]["tucked"] == [52]


def test_law_74_royal_favor_refuses_a_card_that_is_not_free() -> None:
    state = law_game([74], {"1:0": 50, "1:2": 51, "1:4": 52, "2:1": 53})
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as err:
        play(state, {"card": 74, "slot": "1:-2", "tuck": "1:2"}, answer=False)  # in the middle of its row
    assert err.value.code == "not_free" and state == before
    # Royal Favor on 2:3 rests on 1:2 and 1:4: 1:4 is free now but will not be once the law is placed.
    with pytest.raises(IllegalAction) as err:
        play(state, {"card": 74, "slot": "2:3", "tuck": "1:4"}, answer=False)
    assert err.value.code == "not_free" and state == before


def test_law_74_royal_favor_offers_only_cards_free_once_placed() -> None:
    state = law_game([74], {"1:0": 50, "1:2": 51, "1:4": 52, "2:1": 53})
    pyramid = state["players"][0]["pyramid"]
    assert "1:4" in P.free_cards(pyramid)
    assert M.royal_favor_options(pyramid, "2:3") == ["2:1"]
    assert M.royal_favor_options(pyramid, "1:-2") == ["1:4", "2:1"]
    play(state, {"card": 74, "slot": "2:3", "tuck": "2:1"})
    assert cards0(state)["2:3"]["tucked"] == [53]


def test_law_74_royal_favor_asks_again_when_the_card_stops_being_free() -> None:
    state = law_game([74], {"1:0": 50, "1:2": 51, "1:4": 52, "2:1": 53})
    set_hand(state, 1, [40])
    state["active"] = [0, 1]
    apply_action(state, 0, {"type": "play", "card": 74, "slot": "1:-2", "tuck": "1:4"})
    # Before the round resolves, a card comes to rest on the named one (a built situation).
    set_pyramid(state, 0, {"1:0": 50, "1:2": 51, "1:4": 52, "2:1": 53, "2:3": 54})
    apply_action(state, 1, PASS)
    decision = state["decision"]
    assert decision["kind"] == "royal_favor" and "no longer free" in decision["text"]
    assert decision["options"] == ["2:1", "2:3"]
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "decide", "slot": "1:4"})
    apply_action(state, 0, {"type": "decide", "slot": "2:3"})
    assert cards0(state)["1:-2"]["tucked"] == [54]


def test_law_75_academy_charter() -> None:
    state = law_game([75], {"1:0": 50}, tokens={"1:0": [{"type": "science"}, {"type": "magic"}, {"type": "defense"}]})
    play(state, {"card": 75, "slot": "1:2"})
    assert cards0(state)["1:2"]["tokens"] == []
    assert law_points(state) == 3


def test_law_76_treasury() -> None:
    state = law_game([76])
    state["players"][0]["gems"] = gems(red=5, blue=5)
    with pytest.raises(IllegalAction):
        play(state, {"card": 76, "slot": "1:2", "store": gems(red=5, blue=4)})  # more than 8
    with pytest.raises(IllegalAction):
        play(state, {"card": 76, "slot": "1:2", "store": gems(green=1)})  # not behind the screen
    play(state, {"card": 76, "slot": "1:2", "store": gems(red=5, blue=2)})
    assert cards0(state)["1:2"]["gems"] == gems(red=5, blue=2)
    assert state["players"][0]["gems"] == gems(blue=3)
    assert law_points(state) == 14


def test_law_77_conscription() -> None:
    state = choice(77, 0)
    assert token_types(cards0(state)["1:2"]) == ["attack"]
    assert state["players"][0]["attacks"] == 0


def archive_game() -> dict:
    state = started(2, seed=31)
    set_pyramid(state, 0, {"1:0": 50, "1:2": 78})
    state["players"][0]["gems"] = gems(red=2, green=2, blue=2, yellow=2)
    return state


def test_law_78_archive_on_auction_card() -> None:
    state = archive_game()
    set_auction(state, {"red": (20, None), "blue": (21, None)})
    state["players"][0]["attacks"] = 1
    hand = list(state["players"][0]["hand"])
    submit(state, {0: {"type": "attack", "card": 20, "archive": True}, 1: PASS})
    assert cards0(state)["1:2"]["tucked"] == [20]
    assert state["players"][0]["hand"] == hand


def test_law_78_archive_asks_when_not_said() -> None:
    state = archive_game()
    set_auction(state, {"red": (20, None)})
    submit(state, {0: {"type": "bid", "color": "red"}, 1: PASS})
    assert state["decision"]["kind"] == "archive" and state["decision"]["card"] == 20
    apply_action(state, 0, {"type": "decide", "archive": False})
    assert 20 in state["players"][0]["hand"] and cards0(state)["1:2"]["tucked"] == []


def test_law_78_archive_on_card_reward_and_laws() -> None:
    state = archive_game()
    to_development(state)
    set_hand(state, 0, [32, 69])
    set_hand(state, 1, [])
    state["active"] = [0]
    top = state["small_deck"][-1]
    apply_action(state, 0, {"type": "play", "card": 32, "slot": "1:4", "pay": gems(green=1), "reward": {"draw": ["small"]}})
    assert state["decision"]["kind"] == "archive" and state["decision"]["card"] == top
    apply_action(state, 0, {"type": "decide", "archive": True})
    assert cards0(state)["1:2"]["tucked"] == [top]
    # Royal Decree's card is offered to the Archive too.
    offer = spot(state, "red")["base"] or spot(state, "green")["base"]
    apply_action(state, 0, {"type": "play", "card": 69, "slot": "1:6", "take": offer, "archive": True})
    settle(state)
    assert cards0(state)["1:2"]["tucked"] == [top, offer]
    assert law_points(state) == 8


def test_law_78_archive_on_usurpation() -> None:
    state = archive_game()
    to_development(state)
    set_hand(state, 0, [65])
    set_hand(state, 1, [])
    state["active"] = [0]
    apply_action(state, 0, {"type": "play", "card": 65, "target": "1:0", "archive": True})
    assert cards0(state)["1:2"]["tucked"] == [50]


def test_law_78_archive_offered_for_each_law_chancery_draws() -> None:
    # RULES.md §10: Archive applies to every card taken into the hand, the laws Chancery (70) draws included.
    state = archive_game()
    to_development(state)
    set_hand(state, 0, [70])
    set_hand(state, 1, [])
    state["active"] = [0]
    first, second, third = state["law_deck"][-1], state["law_deck"][-2], state["law_deck"][-3]
    apply_action(state, 0, {"type": "play", "card": 70, "slot": "1:4"})
    assert state["decision"]["kind"] == "archive" and state["decision"]["card"] == first
    apply_action(state, 0, {"type": "decide", "archive": True})
    assert state["decision"]["kind"] == "archive" and state["decision"]["card"] == second
    apply_action(state, 0, {"type": "decide", "archive": False})
    assert state["decision"]["kind"] == "archive" and state["decision"]["card"] == third
    apply_action(state, 0, {"type": "decide", "archive": False})
    # Two laws reached the hand: both go back to the law deck.
    assert state["decision"]["kind"] == "chancery_return"
    assert sorted(state["decision"]["options"]) == sorted([second, third]) and state["decision"]["count"] == 2
    apply_action(state, 0, {"type": "decide", "cards": [third, second]})
    assert cards0(state)["1:2"]["tucked"] == [first]
    assert state["law_deck"][-1] == third and state["players"][0]["hand"] == []
    assert law_points(state) == 4


def test_law_79_heraldry() -> None:
    # #3/#17 under #9: one red circle; plus one infinite gem.
    layout = {"1:0": 3, "1:2": 17, "2:1": 9}
    state = law_game([79], layout, tokens={"1:0": [{"type": "infinite_gem", "color": "blue"}]})
    play(state, {"card": 79, "slot": "1:4"})
    assert law_points(state) == 2


def test_law_80_garrison_act() -> None:
    assert cards0(choice(80, 0))["1:2"]["tokens"] == [{"type": "defense"}]


def test_law_81_arcane_charter() -> None:
    assert cards0(choice(81, 1))["1:2"]["tokens"] == [{"type": "science"}]


def test_law_82_guild_charter() -> None:
    state = law_game([82])
    top = state["small_deck"][-1]
    play(state, {"card": 82, "slot": "1:2", "reward": {"option": 1, "draw": ["small"]}})
    assert state["players"][0]["hand"] == [top]


def test_law_83_mystic_concord() -> None:
    state = choice(83, 0)
    assert token_types(cards0(state)["1:2"]) == ["magic", "magic_bonus"]


def test_law_84_court_magus() -> None:
    assert cards0(choice(84, 0))["1:2"]["tokens"] == [{"type": "magic_bonus", "value": 3}]


@pytest.mark.parametrize("law", [85, 86, 87, 88])
def test_law_85_88_alliance(law: int) -> None:
    # At 2:1 the neighbours are 1:0 and 1:2 (below) and 2:3 (right); 2:3 is a law, so it does not count.
    layout = {"1:0": 50, "1:2": 51, "1:4": 52, "2:3": 68}
    state = law_game([law], layout)
    play(state, {"card": law, "slot": "2:1"})
    assert law_points(state) == 2 * 2 + 5  # Census (68) adds 1 per card: 5 cards


def test_law_85_alliance() -> None:
    state = law_game([85], {"1:0": 50})
    play(state, {"card": 85, "slot": "1:2"})
    assert law_points(state) == 2


def test_law_86_alliance() -> None:
    state = law_game([86], {"1:0": 50, "1:2": 51})
    play(state, {"card": 86, "slot": "1:4"})
    assert law_points(state) == 2


def test_law_87_alliance() -> None:
    state = law_game([87], {"1:0": 50, "1:2": 51})
    play(state, {"card": 87, "slot": "2:1"})
    assert law_points(state) == 4


def test_law_88_alliance() -> None:
    state = law_game([88], {"1:0": 68, "1:2": 51})
    play(state, {"card": 88, "slot": "2:1"})
    assert law_points(state) == 2 + 3  # one character neighbour; Census counts 3 cards
