"""The darkness module: domain cards and their setup, diamonds, the any-colour circle bonus, revised laws."""

from __future__ import annotations

import copy
import json

import pytest

from engine.viceroy import IllegalAction, apply_action, default_action, view
from engine.viceroy import cards as C
from engine.viceroy import moves as M
from engine.viceroy import pyramid as P
from engine.viceroy.modules import common
from engine.viceroy.modules.carddata import DOMAIN
from engine.viceroy.rules import rules_for
from engine.viceroy.scoring import score_player
from engine.viceroy.state import new_entry, science_count
from tests.darkness.helpers import diamond_total, game, give_diamonds, started, through_setup
from tests.engine.helpers import (
    events_of,
    gem_totals,
    gems,
    set_hand,
    set_pyramid,
    settle,
    submit,
    to_development,
)

PASS = {"type": "pass"}


def with_domain(state: dict, seat: int, layout: dict[str, int], domain_slot: str = "1:0", tokens=None) -> dict:
    """Set a pyramid of base cards plus the seat's domain card at ``domain_slot``."""
    cards = set_pyramid(state, seat, layout, tokens)
    while DOMAIN in state["discard"]:
        state["discard"].remove(DOMAIN)  # the domain card is never discarded
    cards[domain_slot] = new_entry(DOMAIN, domain_slot)
    return cards


def dev_game(modules=("darkness",), hand=(), layout=None, seat_gems=None) -> dict:
    state = started(list(modules), 2, seed=5)
    to_development(state)
    if layout is not None:
        with_domain(state, 0, layout)
    set_hand(state, 0, list(hand))
    set_hand(state, 1, [])
    state["active"] = [0]
    state["reserve"] = gems(6, 6, 6, 6)
    state["players"][0]["gems"] = seat_gems or gems(2, 2, 2, 2)
    return state


# ------------------------------------------------------------------------------------------- setup


def test_domain_card_lies_in_the_first_row_instead_of_a_starting_character():
    state = game(["darkness"], 3)
    assert state["phase"] == "domain"
    for player in state["players"]:
        assert [e["card"] for e in player["pyramid"]["cards"].values()] == [DOMAIN]
        assert player["hand"] == []


def test_domain_reward_any_four_gems():
    state = game(["darkness"])
    before = sum(state["players"][0]["gems"].values())
    apply_action(state, 0, {"type": "domain", "reward": "gems", "gems": gems(red=4)})
    apply_action(state, 1, {"type": "domain", "reward": "attack"})
    assert state["players"][0]["gems"]["red"] >= 4
    assert sum(state["players"][0]["gems"].values()) == before + 4


def test_domain_reward_science_token_is_placed_on_the_domain_card():
    state = game(["darkness"])
    submit(state, {0: {"type": "domain", "reward": "science"}, 1: {"type": "domain", "reward": "attack"}})
    entry = state["players"][0]["pyramid"]["cards"]["1:0"]
    assert entry["tokens"] == [{"type": "science"}]
    assert science_count(state["players"][0]) == 1  # it gives a pass gem like any science token


def test_domain_reward_attack_token_goes_behind_the_screen():
    state = game(["darkness"])
    events = submit(state, {0: {"type": "domain", "reward": "attack"}, 1: {"type": "domain", "reward": "science"}})
    assert state["players"][0]["attacks"] == 1
    assert events_of(events, "attacks_gained")[0]["seat"] == 0  # public, so determinization can count it


def test_domain_reward_law_card_joins_the_hand():
    state = game(["darkness"])
    top = state["law_deck"][-1]
    submit(state, {0: {"type": "domain", "reward": "card", "deck": "law"}, 1: {"type": "domain", "reward": "attack"}})
    hand = state["players"][0]["hand"]
    assert top in hand and sum(1 for c in hand if C.is_character(c)) == 3
    assert state["ext"]["darkness"]["keep"][0] == 1


def test_three_characters_drawn_and_one_kept_replace_the_free_starting_card():
    state = game(["darkness"])
    submit(state, {0: {"type": "domain", "reward": "attack"}, 1: {"type": "domain", "reward": "attack"}})
    assert state["phase"] == "setup"
    hand = state["players"][0]["hand"]
    assert len(hand) == 3 and all(C.is_character(c) for c in hand)
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "setup", "keep": hand[:2]})
    apply_action(state, 0, {"type": "setup", "keep": [hand[1]]})
    apply_action(state, 1, default_action(state, 1))
    settle(state)
    player = state["players"][0]
    assert [c for c in player["hand"] if C.is_character(c)] == [hand[1]]
    assert sum(1 for c in player["hand"] if C.is_law(c)) == 3  # then the laws are dealt as usual
    assert len(player["pyramid"]["cards"]) == 1  # no free starting character
    assert len(state["large_deck"]) == 48 - 4 and state["phase"] == "auction"


def test_card_reward_character_lets_the_player_keep_two_of_the_four():
    state = game(["darkness"])
    submit(state, {0: {"type": "domain", "reward": "card", "deck": "character"}, 1: {"type": "domain", "reward": "attack"}})
    hand = state["players"][0]["hand"]
    assert len(hand) == 4 and state["ext"]["darkness"]["keep"][0] == 2
    reward_card = hand[0]
    # Return the chosen card and keep two of the new ones.
    apply_action(state, 0, {"type": "setup", "keep": hand[1:3]})
    apply_action(state, 1, default_action(state, 1))
    settle(state)
    kept = [c for c in state["players"][0]["hand"] if C.is_character(c)]
    assert kept == hand[1:3] and reward_card not in state["players"][0]["hand"]


@pytest.mark.parametrize("shape", ["nested list", "dict", "empty list", "float", "bool", "string", "mapping"])
def test_three_characters_drawn_the_kept_one_is_named_by_its_number(shape):
    state = game(["darkness"])
    submit(state, {0: {"type": "domain", "reward": "attack"}, 1: {"type": "domain", "reward": "attack"}})
    card = state["players"][0]["hand"][0]
    keep = {"nested list": [[card]], "dict": [{"card": card}], "empty list": [[]], "float": [float(card)],
            "bool": [True], "string": str(card), "mapping": {"keep": card}}[shape]
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="Keep 1 of the characters"):
        apply_action(state, 0, {"type": "setup", "keep": keep})
    assert state == before


def test_domain_reward_choice_is_secret_until_everyone_has_chosen():
    state = game(["darkness"])
    apply_action(state, 0, {"type": "domain", "reward": "science"})
    for seat in (1, None):
        shown = json.dumps([view(state, seat), state["log"]])
        assert "science" not in shown and view(state, seat)["domain"]["rewards"] == {}
    assert view(state, 0)["my_choice"]["reward"] == "science"  # the owner sees their own choice
    apply_action(state, 1, {"type": "domain", "reward": "attack"})
    assert view(state, 1)["domain"]["rewards"] == {"0": "science", "1": "attack"}  # revealed together


def test_the_three_characters_drawn_are_seen_only_by_their_owner():
    state = game(["darkness"])
    submit(state, {0: {"type": "domain", "reward": "attack"}, 1: {"type": "domain", "reward": "attack"}})
    drawn = state["players"][0]["hand"]
    other = view(state, 1)
    assert "hand" not in other["players"][0] and other["players"][0]["hand_size"] == 3
    assert view(state, 0)["players"][0]["hand"] == drawn


def test_domain_phase_refuses_an_unknown_reward():
    state = game(["darkness"])
    with pytest.raises(IllegalAction, match="domain card gives"):
        apply_action(state, 0, {"type": "domain", "reward": "diamonds"})


# ------------------------------------------------------------------------------------------- the domain in the pyramid


def test_domain_sections_are_multicoloured_for_circles_and_circle_gems():
    # Domain at 1:0, Boatswain (all red) at 1:2; Gunner (red bottom) on level 2 completes a red circle.
    state = dev_game(hand=[9], layout={"1:2": 1})
    reserve_red = state["reserve"]["red"]
    plan = {"type": "play", "card": 9, "slot": "2:1", **M.auto_payment(state["players"][0], 9, 2, state), "reward": {}}
    events = apply_action(state, 0, plan)
    settle(state)
    assert events_of(events, "circle_gem")[0]["color"] == "red"
    assert state["reserve"]["red"] <= reserve_red  # the circle gem came from the reserve
    circle = P.circles(state["players"][0]["pyramid"])[0]
    assert circle["single"] and circle["color"] == "red"


def test_domain_sections_take_another_colour_in_another_circle():
    state = started(["darkness"], 2)
    pyramid = {"cards": {}}
    pyramid["cards"]["1:0"] = new_entry(4, "1:0")  # Mentor, all blue
    pyramid["cards"]["1:2"] = new_entry(DOMAIN, "1:2")
    pyramid["cards"]["1:4"] = new_entry(1, "1:4")  # Boatswain, all red
    pyramid["cards"]["2:1"] = new_entry(29, "2:1")  # Strategist, blue bottom
    pyramid["cards"]["2:3"] = new_entry(13, "2:3")  # Arcanist, red bottom
    circles = P.circles(pyramid)
    assert [(c["slot"], c["color"]) for c in circles] == [("2:1", "blue"), ("2:3", "red")]
    assert state is not None


def test_domain_sections_need_no_paint():
    pyramid = {"cards": {"1:0": new_entry(DOMAIN, "1:0"), "1:2": new_entry(4, "1:2"), "2:1": new_entry(13, "2:1")}}
    sections = P.paintable_sections(pyramid)
    assert ("1:0", "top_right") not in sections and ("1:2", "top_left") in sections


def test_domain_is_not_a_card_in_the_pyramid_for_usurpation():
    state = dev_game(hand=[65], layout={"1:2": 1})
    with pytest.raises(IllegalAction, match="Usurpation"):
        apply_action(state, 0, {"type": "play", "card": 65, "target": "1:0", "reward": {}})
    assert M.law_targets(state, 0, 65) == {"targets": ["1:2"]}


def test_domain_is_not_a_free_card_for_royal_favor():
    pyramid = {"cards": {"1:0": new_entry(DOMAIN, "1:0"), "1:2": new_entry(4, "1:2")}}
    assert P.free_cards(pyramid) == ["1:2"]


def test_domain_is_not_a_character_for_alliances():
    state = started(["darkness"], 2)
    with_domain(state, 0, {"1:2": 85})
    ctx = score_player(state, 0)
    assert [d["points"] for d in ctx["details"]["laws"]] == [0]


def test_domain_does_not_decide_priority():
    state = started(["darkness"], 3)
    with_domain(state, 2, {"1:2": 3})
    from engine.viceroy.state import priority_order
    assert priority_order(state, [0, 1, 2]) == [2, 0, 1]  # only real cards count; ties by seat


# ------------------------------------------------------------------------------------------- diamonds


def test_diamonds_four_per_player_in_the_reserve():
    for players in (2, 3, 4):
        state = game(["darkness"], players)
        assert state["ext"]["diamonds"]["reserve"] == 4 * players


def test_no_diamonds_without_an_expansion_module():
    assert "diamonds" not in game([], 2)["ext"]
    assert "diamonds" not in game(["duo"], 2)["ext"]  # nothing in the duo game gives diamonds


def test_diamond_reward_puts_diamonds_behind_the_screen():
    state = dev_game(hand=[72], layout={"1:2": 1})
    apply_action(state, 0, {"type": "play", "card": 72, "slot": "1:4", "tuck": [], "reward": {}})
    settle(state)
    assert common.held(state, 0) == 1 and state["ext"]["diamonds"]["reserve"] == 7


def test_diamond_short_of_supply_gives_a_gem_of_choice_per_missing_diamond():
    state = dev_game(hand=[72], layout={"1:2": 1})
    give_diamonds(state, 1, 8)  # the reserve is empty
    before = dict(state["players"][0]["gems"])
    events = apply_action(state, 0, {"type": "play", "card": 72, "slot": "1:4", "tuck": [],
                                     "reward": {"gems": gems(blue=1)}})
    settle(state)
    assert common.held(state, 0) == 0
    assert state["players"][0]["gems"]["blue"] == before["blue"] + 1
    assert events_of(events, "diamonds_short")


def test_diamonds_cannot_be_infinite_gems():
    # An infinite gem comes from the reserve or the screen: gems only, never a diamond.
    state = dev_game(hand=[18], layout={"1:2": 1})
    give_diamonds(state, 0, 2)
    state["reserve"]["blue"] = 0
    state["players"][0]["gems"] = gems(green=1)
    apply_action(state, 0, {"type": "play", "card": 18, "slot": "1:4", "pay": gems(green=1), "reward": {}})
    settle(state)
    entry = state["players"][0]["pyramid"]["cards"]["1:4"]
    assert entry["tokens"] == [] and common.held(state, 0) == 2


def test_diamonds_are_not_taken_as_gems():
    state = started(["darkness"], 2)
    reserve = state["ext"]["diamonds"]["reserve"]
    submit(state, {0: PASS, 1: PASS})
    settle(state)
    assert state["ext"]["diamonds"]["reserve"] == reserve and common.held(state, 0) == 0


def test_diamond_pays_as_a_gem_of_any_colour():
    state = dev_game(hand=[1], layout={"1:2": 4}, seat_gems=gems())
    give_diamonds(state, 0, 1)
    with pytest.raises(IllegalAction, match="costs"):
        apply_action(state, 0, {"type": "play", "card": 1, "slot": "1:4", "pay": gems(), "reward": {}})
    apply_action(state, 0, {"type": "play", "card": 1, "slot": "1:4", "pay": gems(), "diamonds": gems(yellow=1),
                            "reward": {"draw": ["small"]}})
    settle(state)
    assert "1:4" in state["players"][0]["pyramid"]["cards"] and common.held(state, 0) == 0
    assert state["ext"]["diamonds"]["reserve"] == 8


def test_diamond_payment_needs_the_diamonds():
    state = dev_game(hand=[1], layout={"1:2": 4}, seat_gems=gems())
    with pytest.raises(IllegalAction, match="diamond"):
        apply_action(state, 0, {"type": "play", "card": 1, "slot": "1:4", "diamonds": gems(yellow=1), "reward": {}})


def test_auto_payment_uses_diamonds_only_for_what_gems_cannot_pay():
    state = dev_game(hand=[1], layout={"1:2": 4}, seat_gems=gems(yellow=1))
    give_diamonds(state, 0, 2)
    pay = M.auto_payment(state["players"][0], 1, 1, state)
    assert pay["pay"] == gems(yellow=1) and pay["diamonds"] is None
    state["players"][0]["gems"] = gems()
    assert M.auto_payment(state["players"][0], 1, 1, state)["diamonds"] == gems(yellow=1)


def test_diamond_bid_chooses_its_colour_after_the_reveal():
    state = started(["darkness"], 2)
    give_diamonds(state, 0, 1)
    spot = next(s for s in state["auction"] if "green" in s["colors"])
    submit(state, {0: {"type": "bid", "diamond": True}, 1: PASS})
    assert state["decision"]["kind"] == "diamond_bid" and state["decision"]["seat"] == 0
    assert state["decision"]["bids"]["1"]["type"] == "pass"  # the others' bids are shown first
    card = spot["base"]
    apply_action(state, 0, {"type": "decide", "color": "green", "card": card})
    settle(state)
    assert card in state["players"][0]["hand"]
    assert common.held(state, 0) == 0 and state["ext"]["diamonds"]["reserve"] == 8


def test_diamond_bid_needs_a_diamond():
    state = started(["darkness"], 2)
    with pytest.raises(IllegalAction, match="no diamond"):
        apply_action(state, 0, {"type": "bid", "diamond": True})


def test_diamond_paints_one_section_at_the_end():
    state = started(["darkness"], 2)
    with_domain(state, 0, {"1:2": 4, "1:4": 1, "2:3": 13}, domain_slot="1:0")  # Mentor | Boatswain, Arcanist red bottom
    give_diamonds(state, 0, 1)
    state["players"][0]["gems"] = gems()
    rules = rules_for(state)
    rules.phases["painting"].start(state, [])
    state["players"][1]["painted"] = []
    apply_action(state, 0, {"type": "paint", "paint": [{"slot": "1:2", "section": "top_right", "color": "red",
                                                        "diamond": True}]})
    assert state["phase"] == "over"
    circle = next(c for c in P.circles(state["players"][0]["pyramid"]) if c["slot"] == "2:3")
    assert circle["single"] and circle["color"] == "red"
    assert state["ext"]["diamonds"]["painted"][0] and diamond_total(state) == 8


def test_painting_with_more_diamonds_than_held_is_refused():
    state = started(["darkness"], 2)
    with_domain(state, 0, {"1:2": 4, "1:4": 1, "2:3": 13})
    rules_for(state).phases["painting"].start(state, [])
    if state["players"][0]["painted"] is None:
        with pytest.raises(IllegalAction, match="diamond"):
            apply_action(state, 0, {"type": "paint", "paint": [{"slot": "1:2", "section": "top_right",
                                                                "color": "red", "diamond": True}]})


def test_diamonds_stay_behind_the_screen_in_other_views():
    state = started(["darkness"], 2)
    give_diamonds(state, 0, 2)
    assert view(state, 0)["players"][0]["diamonds"] == 2
    assert "diamonds" not in view(state, 1)["players"][0]
    assert "diamonds" not in view(state, None)["players"][0]
    assert view(state, None)["diamonds"]["reserve"] == 6


# ------------------------------------------------------------------------------------------- any-colour bonus


def test_any_colour_circle_bonus_counts_circles_and_infinite_gems():
    state = started(["darkness"], 2)
    cards = with_domain(state, 0, {"1:2": 1, "2:1": 9, "1:4": 4})  # a red circle at 2:1
    cards["1:4"]["tokens"] = [{"type": "infinite_gem", "color": "blue"}, {"type": "any_circle_bonus", "value": 1}]
    result = score_player(state, 0)
    assert result["breakdown"]["any_circle_bonus"] == 2  # one circle + one infinite gem


def test_any_colour_circle_bonus_of_any_colour():
    state = started(["darkness"], 2)
    cards = with_domain(state, 0, {"1:2": 4, "1:4": 2, "2:3": 29})  # a blue circle
    cards["1:2"]["tokens"] = [{"type": "any_circle_bonus", "value": 1}, {"type": "any_circle_bonus", "value": 1}]
    assert score_player(state, 0)["breakdown"]["any_circle_bonus"] == 2


# ------------------------------------------------------------------------------------------- revised laws


def test_revised_laws_replace_the_base_entries_by_number():
    rules = rules_for(game(["darkness"]))
    base = rules_for(game([]))
    for number in (66, 67, 68, 72):
        assert rules.laws[number] is not base.laws[number]
    assert rules.laws[69] is base.laws[69]


def test_revised_law_66_endowment_may_go_under_the_domain_card():
    state = dev_game(hand=[66], layout={"1:2": 1})
    state["players"][0]["pyramid"]["cards"]["1:0"]["tokens"] = [{"type": "science"}]
    apply_action(state, 0, {"type": "play", "card": 66, "target": "1:0", "reward": {}})
    settle(state)
    domain = state["players"][0]["pyramid"]["cards"]["1:0"]
    assert domain["tokens"] == [{"type": "science"}, {"type": "science"}] and domain["tucked"] == [66]


def test_revised_law_67_exchange_without_a_swap_gives_a_diamond():
    state = dev_game(hand=[67], layout={"1:2": 1})
    apply_action(state, 0, {"type": "play", "card": 67, "slot": "1:4", "reward": {}})
    settle(state)
    assert common.held(state, 0) == 1


def test_revised_law_67_exchange_swaps_a_domain_token_paid_partly_with_diamonds():
    state = dev_game(hand=[67], layout={"1:2": 1})
    state["players"][0]["pyramid"]["cards"]["1:2"]["tokens"] = [{"type": "magic"}]
    state["players"][1]["pyramid"]["cards"]["1:0"]["tokens"] = [{"type": "science"}]
    give_diamonds(state, 0, 1)
    apply_action(state, 0, {"type": "play", "card": 67, "slot": "1:4", "reward": {},
                            "give": {"slot": "1:2", "token": 0}, "take": {"seat": 1, "slot": "1:0", "token": 0},
                            "pay": gems(red=2), "diamonds": 1})
    settle(state)
    assert state["players"][0]["pyramid"]["cards"]["1:2"]["tokens"] == [{"type": "science"}]
    assert state["players"][1]["pyramid"]["cards"]["1:0"]["tokens"] == [{"type": "magic"}]
    assert common.held(state, 1) == 1 and common.held(state, 0) == 0


def test_revised_law_68_census_counts_characters_and_the_domain_card():
    state = started(["darkness"], 2)
    cards = with_domain(state, 0, {"1:2": 68, "1:4": 1, "1:6": 80})
    cards["1:4"]["tucked"] = [2, 81]
    points = score_player(state, 0)["details"]["laws"]
    # Domain, Boatswain and the tucked Ambassador; not the laws (Census, Garrison Act, the tucked Arcane Charter).
    assert points[0] == {"slot": "1:2", "card": 68, "points": 3}


def test_revised_law_72_secret_service_gives_a_diamond():
    state = dev_game(hand=[72, 5], layout={"1:2": 1})
    apply_action(state, 0, {"type": "play", "card": 72, "slot": "1:4", "tuck": [5], "reward": {}})
    settle(state)
    entry = state["players"][0]["pyramid"]["cards"]["1:4"]
    assert entry["tucked"] == [5] and common.held(state, 0) == 1
    assert score_player(state, 0)["details"]["laws"][0]["points"] == 5


def test_gems_are_conserved_through_a_darkness_setup():
    state = game(["darkness"], 4, seed=9)
    through_setup(state)
    assert gem_totals(state) == {c: 16 for c in C.COLORS}
