"""The aristocrats module: the rules of aristocrat cards, and one test per designed aristocrat and law."""

from __future__ import annotations

import pytest

from engine.viceroy import IllegalAction, apply_action
from engine.viceroy import cards as C
from engine.viceroy import moves as M
from engine.viceroy import pyramid as P
from engine.viceroy.modules import common
from engine.viceroy.modules.carddata import ARISTOCRAT_LAWS, ARISTOCRATS
from engine.viceroy.rules import rules_for
from engine.viceroy.scoring import score_player
from engine.viceroy.state import science_count
from tests.darkness.helpers import game, started
from tests.engine.helpers import gems, set_hand, set_pyramid, settle, to_development


def dev(hand: list[int], layout: dict[str, int] | None = None, seat_gems=None, modules=("aristocrats",)) -> dict:
    state = started(list(modules), 2, seed=11)
    to_development(state)
    set_pyramid(state, 0, layout or {"1:0": 1})
    set_hand(state, 0, hand)
    set_hand(state, 1, [])
    state["active"] = [0]
    state["reserve"] = gems(6, 6, 6, 6)
    state["players"][0]["gems"] = seat_gems or gems(2, 2, 2, 2)
    return state


def play(state: dict, number: int, slot: str, **extra) -> None:
    level = P.level_of(slot)
    payment = M.auto_payment(state["players"][0], number, level, state)
    assert payment is not None
    apply_action(state, 0, {"type": "play", "card": number, "slot": slot, **payment, "reward": {}, **extra})
    settle(state)


# ------------------------------------------------------------------------------------------- rules


def test_aristocrats_are_shuffled_into_the_character_deck_and_laws_into_the_law_deck():
    state = started(["aristocrats"], 2, seed=4)
    rules = rules_for(state)
    assert set(ARISTOCRATS) <= set(rules.characters) and set(ARISTOCRAT_LAWS) <= set(rules.law_cards)
    everywhere = set(state["large_deck"]) | set(state["small_deck"]) | set(state["law_deck"])
    for s in state["auction"]:
        everywhere |= {s["base"], s["tip"]}
    for player in state["players"]:
        everywhere |= set(player["hand"]) | {e["card"] for e in player["pyramid"]["cards"].values()}
    assert set(ARISTOCRATS) | set(ARISTOCRAT_LAWS) <= everywhere


def test_aristocrats_leave_the_large_deck_size_unchanged():
    state = started(["aristocrats"], 3)
    assert len(state["large_deck"]) == 48 - 4
    assert len(started(["aristocrats", "duo"], 2)["large_deck"]) == 24 - 2


def test_aristocrat_level_1_costs_two_gems_of_any_colours():
    assert C.cost(89, 1) == gems() and C.any_cost(89, 1) == 2
    state = dev([89], seat_gems=gems(blue=1, yellow=1))
    apply_action(state, 0, {"type": "play", "card": 89, "slot": "1:2", "pay": gems(blue=1, yellow=1), "reward": {}})
    settle(state)
    assert state["players"][0]["pyramid"]["cards"]["1:2"]["card"] == 89


def test_aristocrat_level_1_cost_must_be_two_gems():
    state = dev([89], seat_gems=gems(3, 3, 3, 3))
    with pytest.raises(IllegalAction, match="2 gems of any colours"):
        apply_action(state, 0, {"type": "play", "card": 89, "slot": "1:2", "pay": gems(red=1), "reward": {}})
    with pytest.raises(IllegalAction, match="2 gems of any colours"):
        apply_action(state, 0, {"type": "play", "card": 89, "slot": "1:2", "pay": gems(red=3), "reward": {}})


def test_aristocrat_higher_levels_add_their_row_colours_to_the_two_gems():
    assert C.cost(89, 3) == gems(red=1, green=1) and C.any_cost(89, 3) == 2
    assert C.cost(89, 5) == gems(red=1, green=1, blue=2)


def test_aristocrat_has_no_level_1_reward():
    state = dev([90], seat_gems=gems(2, 2, 2, 2))
    before = (dict(state["reserve"]), len(state["players"][0]["hand"]))
    play(state, 90, "1:2")
    entry = state["players"][0]["pyramid"]["cards"]["1:2"]
    assert entry["tokens"] == [] and len(state["players"][0]["hand"]) == before[1] - 1


def test_aristocrat_lower_sections_cannot_form_a_circle():
    pyramid = {"cards": {"1:0": {"card": 1}, "1:2": {"card": 13}, "2:1": {"card": 89}}}
    circle = P.circles(pyramid)[0]
    assert not circle["single"] and circle["colors"][2:] == ["none", "none"]


def test_aristocrat_lower_sections_cannot_be_painted():
    pyramid = {"cards": {"1:0": {"card": 1}, "1:2": {"card": 13}, "2:1": {"card": 89}}}
    assert ("2:1", "bottom_left") not in P.paintable_sections(pyramid)
    assert ("1:0", "top_right") in P.paintable_sections(pyramid)


def test_aristocrat_top_sections_form_circles_as_usual():
    pyramid = {"cards": {"1:0": {"card": 89}, "1:2": {"card": 1}, "2:1": {"card": 13}}}  # Lord red | red | red bottom
    assert P.circles(pyramid)[0]["color"] == "red"


def test_aristocrat_extra_reward_is_gained_on_any_level():
    state = started(["aristocrats"], 2)
    set_pyramid(state, 0, {"1:0": 1, "1:2": 4, "2:1": 90})
    assert science_count(state["players"][0]) == 1


def test_science_image_gives_a_pass_gem():
    state = started(["aristocrats"], 2)
    set_pyramid(state, 0, {"1:0": 90})
    assert M.auction_options(state, 0)["pass_gems"] == 4


def test_attack_image_hurts_opponents_at_the_end_but_cannot_be_bid():
    state = started(["aristocrats"], 2)
    set_pyramid(state, 0, {"1:0": 89})
    state["players"][0]["attacks"] = 0
    assert M.auction_options(state, 0)["attack"] == []
    with pytest.raises(IllegalAction, match="attack token"):
        apply_action(state, 0, {"type": "attack", "card": state["auction"][0]["base"]})
    set_pyramid(state, 1, {"1:0": 2})
    state["players"][1]["attacks"] = 0
    assert score_player(state, 1)["breakdown"]["attack"] == -4


def test_token_images_are_not_tokens_for_endowment():
    state = dev([66], layout={"1:0": 92})  # Countess: a defense image
    apply_action(state, 0, {"type": "play", "card": 66, "target": "1:0", "reward": {}})
    settle(state)
    entry = state["players"][0]["pyramid"]["cards"]["1:0"]
    assert entry["tokens"] == [] and P.token_count(state["players"][0]["pyramid"], "defense") == 1


# ------------------------------------------------------------------------------------------- one test per card


def aristocrat_score(number: int, layout: dict[str, int], tokens: dict | None = None) -> int:
    state = started(["aristocrats"], 2)
    set_pyramid(state, 0, layout, tokens)
    return score_player(state, 0)


def test_aristocrat_89_lord_attack_image():
    assert P.token_count({"cards": {"1:0": {"card": 89}}}, "attack") == 1


def test_aristocrat_90_lady_science_image():
    assert P.token_count({"cards": {"1:0": {"card": 90}}}, "science") == 1


def test_aristocrat_91_count_magic_image():
    result = aristocrat_score(91, {"1:0": 91, "1:2": 20}, {"1:2": [{"type": "magic_bonus", "value": 3}]})
    assert result["breakdown"]["magic"] == 3  # the image is one magic token


def test_aristocrat_92_countess_defense_image():
    assert P.token_count({"cards": {"1:0": {"card": 92}}}, "defense") == 1


def test_aristocrat_93_viscount_magic_bonus_image():
    result = aristocrat_score(93, {"1:0": 93, "1:2": 6}, {"1:2": [{"type": "magic"}]})
    assert result["breakdown"]["magic"] == 2


def test_aristocrat_94_viscountess_any_colour_circle_bonus_image():
    result = aristocrat_score(94, {"1:0": 1, "1:2": 13, "2:1": 9, "1:4": 94})  # a red circle
    assert result["breakdown"]["any_circle_bonus"] == 1


def test_aristocrat_95_duke_two_pp_per_law():
    result = aristocrat_score(95, {"1:0": 95, "1:2": 80, "1:4": 81})
    assert result["breakdown"]["aristocrats"] == 4


def test_aristocrat_96_duchess_two_pp_per_adjacent_character():
    result = aristocrat_score(96, {"1:0": 1, "1:2": 96, "1:4": 4, "1:6": 80})
    assert result["breakdown"]["aristocrats"] == 4


def test_aristocrat_97_marquis_three_pp_per_set():
    result = aristocrat_score(97, {"1:0": 97, "1:2": 1}, {"1:2": [{"type": "magic"}, {"type": "science"}, {"type": "defense"}]})
    assert result["breakdown"]["aristocrats"] == 3 and result["breakdown"]["sets"] == 12


def test_aristocrat_98_marchioness_one_pp_per_card_on_level_1():
    result = aristocrat_score(98, {"1:0": 98, "1:2": 1, "1:4": 4, "2:1": 13})
    assert result["breakdown"]["aristocrats"] == 3


def test_aristocrat_99_archduke_two_pp_per_magic_token():
    result = aristocrat_score(99, {"1:0": 99, "1:2": 1}, {"1:2": [{"type": "magic"}, {"type": "magic"}]})
    assert result["breakdown"]["aristocrats"] == 4


def test_aristocrat_100_archduchess_two_pp_per_level():
    result = aristocrat_score(100, {"1:0": 1, "1:2": 4, "2:1": 100})
    assert result["breakdown"]["aristocrats"] == 4


def test_aristocrat_95_duke_level_2_diamond_reward():
    state = dev([95], layout={"1:0": 1, "1:2": 4}, seat_gems=gems(2, 2, 2, 2))
    play(state, 95, "2:1")
    assert common.held(state, 0) == 2


def test_aristocrat_law_101_patronage_three_pp_per_aristocrat():
    result = aristocrat_score(101, {"1:0": 101, "1:2": 89, "1:4": 90})
    assert [d["points"] for d in result["details"]["laws"]] == [6]


def test_aristocrat_law_102_court_of_honour_diamonds_or_any_colour_bonus():
    state = dev([102])
    apply_action(state, 0, {"type": "play", "card": 102, "slot": "1:2", "reward": {"option": 0}})
    settle(state)
    assert common.held(state, 0) == 2
    state = dev([102])
    apply_action(state, 0, {"type": "play", "card": 102, "slot": "1:2", "reward": {"option": 1}})
    settle(state)
    assert state["players"][0]["pyramid"]["cards"]["1:2"]["tokens"] == [{"type": "any_circle_bonus", "value": 1}]


def test_aristocrat_law_103_letters_patent_magic_or_diamonds():
    state = dev([103])
    apply_action(state, 0, {"type": "play", "card": 103, "slot": "1:2", "reward": {"option": 0}})
    settle(state)
    assert P.token_count(state["players"][0]["pyramid"], "magic") == 1
    state = dev([103])
    apply_action(state, 0, {"type": "play", "card": 103, "slot": "1:2", "reward": {"option": 1}})
    settle(state)
    assert common.held(state, 0) == 2


def test_aristocrats_alone_bring_diamonds_into_play():
    assert game(["aristocrats"], 3)["ext"]["diamonds"]["reserve"] == 12


def test_ai_plays_aristocrats():
    from engine.viceroy.ai import play_game

    played = 0
    for seed in range(6):
        state, _ = play_game({"players": 3, "modules": ["aristocrats"]}, seed)
        played += sum(1 for pl in state["players"] for e in pl["pyramid"]["cards"].values() if e["card"] in ARISTOCRATS)
    assert played > 0
