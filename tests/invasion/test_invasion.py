"""The invasion module: monsters in the large deck, combat cards, combat, penalty cards and the three laws."""

from __future__ import annotations

import copy
import json

import pytest

from engine.viceroy import IllegalAction, apply_action, prompt_key, view
from engine.viceroy import moves as M
from engine.viceroy.modules import common
from engine.viceroy.modules.invasion import (
    HALL_OF_HEROES,
    LEVY,
    ROYAL_PARDON,
    combat_card,
    deck_layout,
    stack_cost,
)
from engine.viceroy.modules.invasion_data import MONSTER_CARDS, PENALTY_PP, TIERS, monster
from engine.viceroy.rewards import Grant
from engine.viceroy.rules import rules_for
from engine.viceroy.scoring import score_player
from tests.engine.helpers import events_of, set_auction, set_hand, set_pyramid, submit, to_development
from tests.invasion.helpers import (
    COLORS,
    at_combat,
    game,
    gems,
    invasion,
    play_until,
    set_screen,
    settle,
    total_diamonds,
    total_gems,
)

GOBLINS, WOLVES, GIANT_RATS, ORCS, TROLL, HARPIES = 201, 202, 204, 207, 208, 209
ARCHIVE = 78
DRAGON, LICH = 217, 218
STACK = [GOBLINS, ORCS, TROLL, DRAGON]  # costs: r g b | r r | g b | r
NONE = {"type": "combat", "defeat": 0}


def fight(defeat: int, screen: dict | None = None, **extra: object) -> dict:
    return {"type": "combat", "defeat": defeat, "gems": screen or gems(), **extra}


def after_setup(modules: tuple[str, ...] = ("invasion",), players: int = 2, seed: int = 1) -> dict:
    return play_until(game(modules, players, seed), lambda s: s["phase"] == "auction")


# ------------------------------------------------------------------------------------------- the deck


def test_monsters_are_three_of_tier_one_six_of_tier_two_and_three_of_tier_three_drawn_at_random():
    seen = set()
    for seed in range(6):
        x = invasion(game(seed=seed))
        tiers = sorted(monster(n)["tier"] for n in x["pile"])
        assert tiers == [1] * 3 + [2] * 6 + [3] * 3
        seen.add(tuple(x["pile"]))
    assert len(seen) > 1


def test_interleaving_a_monster_is_every_fifth_card_of_the_large_deck():
    state = after_setup()
    layout = deck_layout(state)
    assert len(layout) == 44 + 11  # the top four characters and the first monster are revealed
    monsters = [i for i, card in enumerate(layout) if "monster" in card]
    assert monsters == list(range(0, 55, 5))
    tiers = [monster(layout[i]["monster"])["tier"] for i in monsters]
    assert tiers == [3, 2, 2, 1, 3, 2, 2, 1, 3, 2, 2]  # MIII-4C-MII-4C-MII-4C-MI-4C, bottom first


def test_interleaving_with_the_duo_auction_a_monster_is_every_third_card():
    state = after_setup(("invasion", "duo"), 2)
    layout = deck_layout(state)
    assert len(layout) == 22 + 11
    assert [i for i, card in enumerate(layout) if "monster" in card] == list(range(0, 33, 3))


def test_a_monster_is_revealed_with_each_set_of_auction_cards_tier_one_first():
    state = after_setup()
    x = invasion(state)
    assert len(x["stack"]) == 1 and monster(x["stack"][0])["tier"] == 1
    play_until(state, lambda s: s["turn"] == 2)
    assert [monster(n)["tier"] for n in x["stack"]] == [1, 2]


def test_combat_happens_after_the_development_of_turns_three_seven_and_eleven():
    state = game(seed=3)
    turns = []
    play_until(state, lambda s: (s["phase"] == "combat" and (not turns or turns[-1] != s["turn"])
                                 and turns.append(s["turn"]) and False) or s["phase"] == "over")
    assert turns == [3, 7, 11]
    assert invasion(state)["combats"] == 3


# ------------------------------------------------------------------------------------------- combat cards


def test_a_bid_that_wins_no_card_lies_on_the_combat_card_instead_of_the_reserve():
    state = after_setup()
    set_auction(state, {"red": (5, None), "blue": (6, None)})
    set_screen(state, 0, gems(red=1, blue=1))
    set_screen(state, 1, gems(red=1, blue=1))
    submit(state, {0: {"type": "bid", "color": "red"}, 1: {"type": "bid", "color": "red"}})
    assert combat_card(state, 0)["gems"] == gems(red=1) and combat_card(state, 1)["gems"] == gems(red=1)
    submit(state, {0: {"type": "bid", "color": "blue"}, 1: {"type": "pass"}})
    settle(state)
    assert 6 in state["players"][0]["hand"]
    assert combat_card(state, 0)["gems"] == gems(red=1)  # the winning bid went to the reserve
    assert total_gems(state) == dict.fromkeys(COLORS, 16)


def test_a_diamond_bid_that_wins_no_card_lies_on_the_combat_card():
    state = after_setup()
    set_auction(state, {"red": (5, None)})
    set_screen(state, 1, gems(red=1))
    d = common.slice_of(state)
    d["reserve"] -= 1
    d["held"][0] += 1
    submit(state, {0: {"type": "bid", "diamond": True}, 1: {"type": "bid", "color": "red"}})
    apply_action(state, 0, {"type": "decide", "color": "red", "card": 5})
    assert combat_card(state, 0)["diamonds"] == 1 and d["held"][0] == 0
    assert combat_card(state, 1)["gems"] == gems(red=1)
    assert total_diamonds(state) == 8


def test_gems_the_reserve_lacks_may_come_from_the_combat_card():
    state = after_setup()
    set_screen(state, 0, gems(), card=gems(red=3))
    state["players"][1]["gems"]["red"] += state["reserve"]["red"]
    state["reserve"]["red"] = 0
    set_auction(state, {"blue": (6, None)})
    submit(state, {0: {"type": "pass", "gems": gems(red=2, green=1)}, 1: {"type": "bid", "color": "blue"}
                   if state["players"][1]["gems"]["blue"] else {"type": "pass"}})
    settle(state)
    assert state["players"][0]["gems"]["red"] == 2 and combat_card(state, 0)["gems"]["red"] == 1
    assert total_gems(state) == dict.fromkeys(COLORS, 16)


def test_an_infinite_gem_the_reserve_lacks_may_come_from_the_combat_card():
    state = after_setup()
    set_screen(state, 0, gems(), card=gems(blue=1))
    state["players"][1]["gems"]["blue"] += state["reserve"]["blue"]
    state["reserve"]["blue"] = 0
    slot = next(iter(state["players"][0]["pyramid"]["cards"]))
    grant = Grant(state, {"seat": 0, "slot": slot, "choice": {}}, [])
    rules_for(state).rewards["infinite_gem"](grant, {"type": "infinite_gem", "color": "blue"})
    assert {"type": "infinite_gem", "color": "blue"} in state["players"][0]["pyramid"]["cards"][slot]["tokens"]
    assert combat_card(state, 0)["gems"]["blue"] == 0
    assert total_gems(state) == dict.fromkeys(COLORS, 16)


def test_tokens_on_the_combat_card_count_like_pyramid_tokens():
    state = after_setup()
    before = score_player(state, 0)
    passing = M.auction_options(state, 0)["pass_gems"]
    combat_card(state, 0)["tokens"] += [{"type": "power_points", "value": 5}, {"type": "science"}]
    after = score_player(state, 0)
    assert after["breakdown"]["power_points"] == before["breakdown"]["power_points"] + 5
    assert after["details"]["science"] == before["details"]["science"] + 1
    assert M.auction_options(state, 0)["pass_gems"] == passing + 1  # a science token gives its pass gem


# ------------------------------------------------------------------------------------------- combat


def test_combat_exact_pay_defeats_the_bottom_monsters_and_gains_the_topmost_reward():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=3, green=1, blue=1))
    reserve = dict(state["reserve"])
    submit(state, {0: fight(2, gems(red=3, green=1, blue=1)), 1: NONE})
    settle(state)
    assert state["players"][0]["gems"] == gems()
    assert {"type": "power_points", "value": 8} in combat_card(state, 0)["tokens"]  # the Orc Warband's reward
    assert all(state["reserve"][c] == reserve[c] + gems(3, 1, 1)[c] for c in COLORS)  # paid gems to the reserve
    assert invasion(state)["stack"] == [] and state["phase"] != "combat"


def test_combat_no_partial_defeat_the_whole_cost_of_every_monster():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=2, green=1, blue=1))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as err:
        apply_action(state, 0, fight(2, gems(red=2, green=1, blue=1)))
    assert err.value.code == "cannot_pay" and "no partial" in err.value.message
    assert state == before


def test_combat_pays_the_exact_cost_not_more():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=2, green=1, blue=1))
    with pytest.raises(IllegalAction) as err:
        apply_action(state, 0, fight(1, gems(red=2, green=1, blue=1)))
    assert err.value.code == "overpay"


def test_combat_defeating_none_pays_nothing():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=1))
    with pytest.raises(IllegalAction):
        apply_action(state, 0, fight(0, gems(red=1)))


def test_combat_science_recolours_one_paid_gem_per_token():
    state = at_combat(stack=STACK)
    combat_card(state, 0)["tokens"].append({"type": "science"})
    set_screen(state, 0, gems(red=1, green=1, yellow=2))
    with pytest.raises(IllegalAction) as err:  # two yellows would need two recolours
        apply_action(state, 0, fight(1, gems(red=1, yellow=2)))
    assert err.value.code == "no_science"
    apply_action(state, 0, fight(1, gems(red=1, green=1, yellow=1), recolour=[{"from": "yellow", "to": "blue"}]))
    assert state["choices"]["0"]["recolour"] == [{"from": "yellow", "to": "blue"}]


def test_combat_science_recolours_are_worked_out_when_not_named():
    state = at_combat(stack=STACK)
    combat_card(state, 0)["tokens"].append({"type": "science"})
    set_screen(state, 0, gems(red=1, green=1, yellow=1))
    apply_action(state, 0, fight(1, gems(red=1, green=1, yellow=1)))
    assert state["choices"]["0"]["recolour"] == [{"from": "yellow", "to": "blue"}]


def test_combat_gems_and_diamonds_from_the_combat_card_pay_too():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=1), card=gems(green=1))
    d = common.slice_of(state)
    d["reserve"] -= 1
    combat_card(state, 0)["diamonds"] = 1
    submit(state, {0: fight(1, gems(red=1), card_gems=gems(green=1), card_diamonds=1), 1: NONE})
    settle(state)
    assert combat_card(state, 0)["gems"] == gems() and combat_card(state, 0)["diamonds"] == 0
    assert d["reserve"] == 8 and total_diamonds(state) == 8
    assert total_gems(state) == dict.fromkeys(COLORS, 16)


def test_combat_diamonds_from_behind_the_screen_stand_for_any_colour():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=1))
    d = common.slice_of(state)
    d["reserve"] -= 2
    d["held"][0] += 2
    apply_action(state, 0, fight(1, gems(red=1), diamonds=2))
    assert state["choices"]["0"]["stand_for"] == gems(green=1, blue=1)


def test_combat_reward_order_highest_monster_first():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=1, green=1, blue=1))
    set_screen(state, 1, gems(red=3, green=2, blue=2))
    events = submit(state, {0: fight(1, gems(red=1, green=1, blue=1)), 1: fight(3, gems(red=3, green=2, blue=2))})
    events += settle(state)
    assert [e["seat"] for e in events_of(events, "monster_reward")] == [1, 0]


def test_combat_reward_order_ties_by_pyramid_number():
    state = at_combat(stack=STACK)
    set_pyramid(state, 0, {"1:0": 40})
    set_pyramid(state, 1, {"1:0": 12})
    for seat in (0, 1):
        set_screen(state, seat, gems(red=1, green=1, blue=1))
    events = submit(state, {0: fight(1, gems(red=1, green=1, blue=1)), 1: fight(1, gems(red=1, green=1, blue=1))})
    events += settle(state)
    assert [e["seat"] for e in events_of(events, "monster_reward")] == [1, 0]


def _short_reserve(state: dict, left: int) -> None:
    """Leave ``left`` gems in the reserve (the others go behind seat 1's screen)."""
    for c in COLORS:
        keep = min(state["reserve"][c], left)
        left -= keep
        state["players"][1]["gems"][c] += state["reserve"][c] - keep
        state["reserve"][c] = keep


def test_combat_fallback_to_the_next_lower_monster_when_a_reward_cannot_be_taken():
    state = at_combat(stack=[WOLVES, TROLL, ORCS, DRAGON])  # Troll: 6 gems; below it the Wolf Pack: 5 PP
    set_screen(state, 0, gems(green=3, yellow=1, blue=1))
    _short_reserve(state, 0)
    submit(state, {0: fight(2, gems(green=3, yellow=1, blue=1)), 1: NONE})
    # the payment has gone back to the reserve (5 gems): short of the Troll's 6
    assert state["decision"]["kind"] == "monster_fallback" and state["decision"]["seat"] == 0
    apply_action(state, 0, {"type": "decide", "choice": "lower"})
    settle(state)
    assert {"type": "power_points", "value": 5} in combat_card(state, 0)["tokens"]
    assert state["players"][0]["gems"] == gems()


def test_combat_a_reward_that_cannot_be_taken_in_full_may_be_taken_as_it_is():
    state = at_combat(stack=[WOLVES, TROLL, ORCS, DRAGON])
    set_screen(state, 0, gems(green=3, yellow=1, blue=1))
    _short_reserve(state, 0)
    submit(state, {0: fight(2, gems(green=3, yellow=1, blue=1)), 1: NONE})
    apply_action(state, 0, {"type": "decide", "choice": "take"})
    settle(state)
    assert sum(state["players"][0]["gems"].values()) == 5  # all the reserve had
    assert combat_card(state, 0)["tokens"] == []


def test_combat_two_cards_drawn_under_archive_are_two_questions_with_two_prompt_keys():
    """The Giant Rats draw two cards: with Archive in the pyramid each is a question, and a "no" to the first
    (nothing public happens) must not leave the second under the same prompt key, or the game master takes
    the second question for the one already answered and never asks it."""
    state = at_combat(stack=[GIANT_RATS])
    set_pyramid(state, 0, {"1:0": 50, "1:2": ARCHIVE})
    set_screen(state, 0, gems(red=1, yellow=2))
    submit(state, {0: fight(1, gems(red=1, yellow=2)), 1: NONE})
    first = state["decision"]
    assert first["kind"] == "archive" and first["seat"] == 0
    key = prompt_key(state, 0)
    log = len(state["log"])
    apply_action(state, 0, {"type": "decide", "archive": False})
    second = state["decision"]
    assert second["kind"] == "archive" and second["seat"] == 0 and second["card"] != first["card"]
    assert len(state["log"]) == log  # nothing public in between
    assert prompt_key(state, 0) != key
    apply_action(state, 0, {"type": "decide", "archive": False})
    assert first["card"] in state["players"][0]["hand"] and second["card"] in state["players"][0]["hand"]


def test_combat_penalty_card_for_defeating_no_monster():
    state = at_combat(stack=STACK)
    submit(state, {0: NONE, 1: NONE})
    settle(state)
    x = invasion(state)
    assert [len(p) for p in x["penalties"]] == [1, 1]
    assert score_player(state, 0)["breakdown"]["combat_penalties"] == PENALTY_PP == -4
    assert view(state, 1)["players"][0]["penalty_cards"] == 1


def test_combat_the_rest_of_the_stack_is_discarded_and_a_new_stack_starts():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=1, green=1, blue=1))
    submit(state, {0: fight(1, gems(red=1, green=1, blue=1)), 1: NONE})
    settle(state)
    x = invasion(state)
    assert x["stack"] == [] and sorted(x["discard"][-3:] + x["penalties"][1]) == sorted(STACK)
    play_until(state, lambda s: len(x["stack"]) == 1)
    assert monster(x["stack"][0])["tier"] == 1


def test_combat_card_gems_are_discarded_at_the_end_and_cannot_paint():
    state = play_until(game(seed=2), lambda s: s["phase"] == "development" and s["last_turn"] and s["decision"] is None)
    set_screen(state, 0, state["players"][0]["gems"], card=gems(red=1, blue=1))
    combat_card(state, 0)["diamonds"] = 1
    common.slice_of(state)["reserve"] -= 1
    play_until(state, lambda s: s["phase"] in ("painting", "over"))
    assert all(card["gems"] == gems() and card["diamonds"] == 0 for card in invasion(state)["cards"])
    assert total_gems(state) == dict.fromkeys(COLORS, 16) and total_diamonds(state) == 8


def test_combat_choices_are_sealed_until_the_reveal():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=1, green=1, blue=1))
    other = copy.deepcopy(state)
    apply_action(state, 0, fight(1, gems(red=1, green=1, blue=1)))
    apply_action(other, 0, NONE)
    for seat in (1, None):
        assert json.dumps(view(state, seat), sort_keys=True) == json.dumps(view(other, seat), sort_keys=True)
    assert "gems" not in view(state, 1)["players"][0]  # the screen stays hidden
    assert view(state, 0)["my_choice"]["defeat"] == 1


def test_the_combat_default_defeats_as_many_as_can_be_paid():
    state = at_combat(stack=STACK)
    set_screen(state, 0, gems(red=3, green=1, blue=1, yellow=3))
    plan = rules_for(state).phases["combat"].default(state, 0)
    assert plan["defeat"] == 2
    apply_action(state, 0, plan)  # legal as it is


def test_stack_cost_is_the_sum_of_the_lines():
    assert stack_cost(STACK, 4) == gems(red=4, green=2, blue=2)


# ------------------------------------------------------------------------------------------- each monster


@pytest.mark.parametrize("number", sorted(MONSTER_CARDS), ids=[MONSTER_CARDS[n]["name"] for n in sorted(MONSTER_CARDS)])
def test_monster_reward_when_it_is_the_topmost_defeated(number: int):
    others = [n for n in STACK if n != number][:3]
    state = at_combat(stack=[number, *others])
    cost = stack_cost([number], 1)
    set_screen(state, 0, cost)
    player = state["players"][0]
    hand, attacks = len(player["hand"]), player["attacks"]
    diamonds = common.held(state, 0)
    submit(state, {0: fight(1, cost), 1: NONE})
    settle(state)
    tokens = combat_card(state, 0)["tokens"]
    for item in monster(number)["reward"]:
        kind = item["type"]
        if kind == "gems":
            assert sum(player["gems"].values()) == item["amount"]
        elif kind == "diamonds":
            assert common.held(state, 0) == diamonds + item["amount"]
        elif kind == "attack":
            assert player["attacks"] == attacks + item["amount"]
        elif kind == "cards":
            assert len(player["hand"]) == hand + item["amount"]
        elif kind == "power_points":
            assert {"type": "power_points", "value": item["amount"]} in tokens
        elif kind in ("magic_bonus", "circle_bonus"):
            assert any(t["type"] == kind and t["value"] == item["value"] for t in tokens)
        else:
            assert sum(1 for t in tokens if t["type"] == kind) == item["amount"]
    assert total_gems(state) == dict.fromkeys(COLORS, 16)


def test_each_tier_has_its_line_cost():
    for tier, numbers in TIERS.items():
        for n in numbers:
            assert len(monster(n)["cost"]) == {1: 3, 2: 2, 3: 1}[tier]


# ------------------------------------------------------------------------------------------- laws


def _develop_law(number: int) -> dict:
    state = after_setup()
    to_development(state)
    set_hand(state, 0, [number])
    set_hand(state, 1, [])
    state["active"] = [0]
    slot = M.law_targets(state, 0, number)["slots"][0]
    apply_action(state, 0, {"type": "play", "card": number, "slot": slot})
    settle(state)
    return state


def test_law_levy_puts_one_gem_of_each_colour_on_the_combat_card():
    state = _develop_law(LEVY)
    assert combat_card(state, 0)["gems"] == gems(1, 1, 1, 1)
    assert total_gems(state) == dict.fromkeys(COLORS, 16)


def test_law_hall_of_heroes_scores_two_per_combat_won():
    state = _develop_law(HALL_OF_HEROES)
    invasion(state)["victories"][0] = 3
    law = next(d for d in score_player(state, 0)["details"]["laws"] if d["card"] == HALL_OF_HEROES)
    assert law["points"] == 6


def test_law_royal_pardon_cancels_one_penalty_card_or_gives_two():
    state = _develop_law(ROYAL_PARDON)
    law = next(d for d in score_player(state, 0)["details"]["laws"] if d["card"] == ROYAL_PARDON)
    assert law["points"] == 2
    invasion(state)["penalties"][0] = [DRAGON, LICH]
    result = score_player(state, 0)
    law = next(d for d in result["details"]["laws"] if d["card"] == ROYAL_PARDON)
    assert law["points"] == 4 and result["breakdown"]["combat_penalties"] == -8


def test_invasion_laws_are_in_the_law_deck_only_with_the_module():
    assert {LEVY, HALL_OF_HEROES, ROYAL_PARDON} <= set(rules_for(game()).law_cards)
    assert not {LEVY, HALL_OF_HEROES, ROYAL_PARDON} & set(rules_for(game(("darkness",))).law_cards)


# ------------------------------------------------------------------------------------------- secrets


def test_the_order_of_the_unrevealed_monsters_is_secret_even_to_search_samples():
    import random

    from engine.viceroy.determinize import determinize

    state = after_setup(seed=4)
    other = copy.deepcopy(state)
    pile = invasion(other)["pile"]
    first, second = [i for i, n in enumerate(pile) if monster(n)["tier"] == 2][:2]
    pile[first], pile[second] = pile[second], pile[first]  # a different deal the seat cannot tell apart
    assert json.dumps(view(state, 0), sort_keys=True) == json.dumps(view(other, 0), sort_keys=True)
    a = determinize(state, 0, random.Random(9))
    b = determinize(other, 0, random.Random(9))
    assert invasion(a)["pile"] == invasion(b)["pile"]
    assert [monster(n)["tier"] for n in invasion(a)["pile"]] == [monster(n)["tier"] for n in pile]


def test_a_circle_gem_the_reserve_lacks_comes_from_the_combat_card():
    from engine.viceroy import pyramid as P
    from engine.viceroy.rewards import circle_gem

    state = after_setup()
    set_pyramid(state, 0, {"1:0": 1, "1:2": 3, "2:1": 5})
    assert P.single_colour(state["players"][0]["pyramid"], "2:1") == "red"
    set_screen(state, 0, gems(), card=gems(red=1))
    state["players"][1]["gems"]["red"] += state["reserve"]["red"]
    state["reserve"]["red"] = 0
    events: list = []
    circle_gem(state, 0, "2:1", events)
    assert state["players"][0]["gems"]["red"] == 1 and combat_card(state, 0)["gems"]["red"] == 0
    assert events_of(events, "circle_gem")
    assert total_gems(state) == dict.fromkeys(COLORS, 16)
