"""The underworld module: criminals on level 0, judgement tokens, bribes, relocation, the end-of-phase return,
the judgement at the end of the game, and the underworld laws."""

from __future__ import annotations

import copy
import random

import pytest

from engine.viceroy import GAME, IllegalAction, apply_action, new_game, view
from engine.viceroy import cards as C
from engine.viceroy import pyramid as P
from engine.viceroy.modules.carddata import DOMAIN
from engine.viceroy.modules.criminals import BRIBE_TOKENS, CRIMINALS, JUDGEMENT, UNDERWORLD_LAWS
from engine.viceroy.modules.underworld import judgement_plans, relocation_options
from engine.viceroy.scoring import score_player
from tests.darkness.helpers import game, started
from tests.engine.helpers import gems, submit
from tests.underworld.helpers import (
    MODULES,
    PASS,
    ROW,
    decide,
    dev_game,
    ext,
    give_tokens,
    kind_ids,
    play,
    pyramid,
    stack_reserve,
)

SMUGGLER, FENCE, FORGER, INFORMER, PIRATE, SPY = 130, 131, 132, 133, 134, 135
BLACKMAILER, SWINDLER = 136, 137
AMNESTY, CORRUPTION, GUILD = UNDERWORLD_LAWS
NONE_IDS = kind_ids("none")


# ------------------------------------------------------------------------------------------- options and setup


def test_underworld_needs_the_darkness_module():
    with pytest.raises(IllegalAction, match="darkness"):
        new_game({"players": 2, "modules": ["underworld"]}, 1)
    with pytest.raises(IllegalAction, match="domain cards"):
        GAME.options_for({"modules": ["underworld", "aristocrats"]}, 3)


def test_underworld_plays_with_every_seat_count_and_with_duo():
    for seats in (1, 2, 3, 4):
        assert sorted(GAME.options_for({"modules": MODULES}, seats)["modules"]) == ["darkness", "underworld"]
    assert sorted(GAME.options_for({"modules": ["duo", *MODULES]}, 2)["modules"]) == ["darkness", "duo", "underworld"]


def test_each_player_is_dealt_one_criminal_after_the_domain_card():
    state = game(MODULES, 3)
    assert state["phase"] == "domain"
    x = ext(state)
    for player in state["players"]:
        assert [c for c in player["hand"] if c in CRIMINALS] and len(player["hand"]) == 1
    held = [c for pl in state["players"] for c in pl["hand"]]
    assert sorted(x["deck"] + held) == list(CRIMINALS)


def test_the_dealt_criminal_stays_in_hand_through_the_domain_setup():
    state = started(MODULES, 2)
    for player in state["players"]:
        assert sum(1 for c in player["hand"] if c in CRIMINALS) == 1
        assert sum(1 for c in player["hand"] if C.is_law(c)) == 3


def test_reserves_hold_32_judgement_tokens_and_15_bribe_tokens():
    state = game(MODULES, 3)
    x = ext(state)
    assert sorted(x["reserve"]) == list(range(32)) and len(JUDGEMENT) == 32 and x["box"] == []
    assert x["bribes"] == {"reserve": BRIBE_TOKENS, "held": [0, 0, 0]} and BRIBE_TOKENS == 15


@pytest.mark.parametrize("players", [1, 2])
def test_with_one_or_two_players_two_no_penalty_judgement_tokens_stay_in_the_box(players: int):
    state = game(MODULES, players)
    x = ext(state)
    none = kind_ids("none")
    assert len(x["box"]) == 2 and set(x["box"]) <= set(none)
    assert sorted(x["reserve"] + x["box"]) == list(range(32)) and len(set(none) & set(x["reserve"])) == 3
    assert view(state, 0)["underworld"]["judgement_reserve"] == 30


def test_underworld_laws_are_shuffled_into_the_law_deck():
    state = started(MODULES, 2)
    laws = state["law_deck"] + [c for pl in state["players"] for c in pl["hand"] if C.is_law(c)]
    assert set(UNDERWORLD_LAWS) <= set(laws)


# ------------------------------------------------------------------------------------------- level 0


def test_level_0_geometry_criminal_goes_under_two_adjacent_level_1_cards():
    state = dev_game(layout=ROW, cards=[SMUGGLER])
    pyr = state["players"][0]["pyramid"]
    assert P.legal_slots(pyr, SMUGGLER) == ["0:1", "0:3"]
    assert P.legal_slots(pyr, 1) == ["1:-2", "1:6", "2:1", "2:3"]  # characters never go on level 0


def test_level_0_needs_two_level_1_cards_and_holds_one_criminal_per_place():
    state = dev_game(layout={"1:0": DOMAIN}, cards=[SMUGGLER])
    assert P.legal_slots(state["players"][0]["pyramid"], SMUGGLER) == []
    with pytest.raises(IllegalAction, match="level 0"):
        play(state, SMUGGLER, "0:1", 0)
    state = dev_game(layout={**ROW, "0:1": FENCE}, cards=[SMUGGLER])
    assert P.legal_slots(state["players"][0]["pyramid"], SMUGGLER) == ["0:3"]


def test_level_1_card_with_a_criminal_under_it_is_not_free_and_a_criminal_is_never_free():
    state = dev_game(layout={**ROW, "0:3": FENCE})
    free = P.free_cards(state["players"][0]["pyramid"])
    assert "1:4" not in free and "0:3" not in free
    assert "1:0" not in free  # the domain card is never a target


def test_criminal_costs_no_gems_and_lies_on_level_0():
    state = dev_game(layout=ROW, cards=[FENCE])
    before = dict(state["players"][0]["gems"])
    play(state, FENCE, "0:1", 0, reward={"gems": gems(red=1)})  # top line: 1 gem
    entry = state["players"][0]["pyramid"]["cards"]["0:1"]
    assert entry["card"] == FENCE and P.level_of("0:1") == 0
    if state["decision"]:
        decide(state, token=state["decision"]["tokens"][0])
    assert state["players"][0]["gems"]["red"] == before["red"] + 1
    assert sum(state["players"][0]["gems"].values()) == sum(before.values()) + 1


def test_circle_gem_with_a_criminal():
    # Boatswain (#1, all red) on level 1 closes the circle over Smuggler's red top-right and Pirate's red
    # top-left corners: playing the Pirate completes a single-colour red circle.
    state = dev_game(layout={**ROW, "1:6": 9, "0:1": SMUGGLER}, cards=[PIRATE])
    reds = state["players"][0]["gems"]["red"]
    events = play(state, PIRATE, "0:3", 0)
    assert any(e["type"] == "circle_gem" and e["color"] == "red" for e in events)
    assert state["players"][0]["gems"]["red"] == reds + 1
    circle = P.completed_circle(state["players"][0]["pyramid"], "1:2")
    assert circle["single"] and circle["level"] == 1


def test_criminal_sections_under_level_1_can_be_painted():
    state = dev_game(layout={**ROW, "0:1": SMUGGLER, "0:3": FORGER})
    sections = P.paintable_sections(state["players"][0]["pyramid"])
    assert ("0:1", "top_right") in sections and ("0:3", "top_left") in sections
    assert ("0:1", "top_left") not in sections  # under the domain card's side: no circle there yet


def test_criminal_cannot_be_discarded_for_gems():
    state = dev_game(layout=ROW, cards=[FENCE])
    with pytest.raises(IllegalAction, match="cannot be discarded"):
        apply_action(state, 0, {"type": "discard", "card": FENCE, "gems": gems(red=2)})


def test_criminal_needs_one_of_its_three_lines():
    state = dev_game(layout=ROW, cards=[FENCE])
    for bad in (None, 3, -1, "top", True):
        with pytest.raises(IllegalAction, match="three lines"):
            play(state, FENCE, "0:1", bad)


# ------------------------------------------------------------------------------------------- judgement tokens


@pytest.mark.parametrize("line,taken", [(0, 2), (1, 3), (2, 4)], ids=["top_takes_2", "middle_takes_3", "bottom_takes_4"])
def test_criminal_line_takes_judgement_tokens_and_returns_one(line: int, taken: int):
    state = dev_game(layout=ROW, cards=[SMUGGLER])
    play(state, SMUGGLER, "0:1", line)
    decision = state["decision"]
    assert decision["kind"] == "judgement_return" and len(decision["tokens"]) == taken
    assert len(ext(state)["held"][0]) == taken
    decide(state, token=decision["tokens"][0])
    assert len(ext(state)["held"][0]) == taken - 1
    assert decision["tokens"][0] in ext(state)["reserve"]


def test_judgement_return_goes_back_to_the_reserve_which_is_shuffled():
    state = dev_game(layout=ROW, cards=[SMUGGLER])
    pp3 = kind_ids("pp", value=3)[0]
    stack_reserve(state, [NONE_IDS[0], pp3])
    before = list(ext(state)["reserve"])
    play(state, SMUGGLER, "0:1", 0)
    assert sorted(state["decision"]["tokens"]) == sorted([NONE_IDS[0], pp3])
    decide(state, token=pp3)
    x = ext(state)
    assert x["held"][0] == [NONE_IDS[0]]
    assert sorted(x["reserve"]) == sorted(t for t in before if t != NONE_IDS[0])
    assert x["reserve"] != [t for t in before if t not in (NONE_IDS[0], pp3)] + [pp3]  # shuffled, not just appended


def test_judgement_return_must_be_one_of_the_tokens_just_taken():
    state = dev_game(layout=ROW, cards=[SMUGGLER])
    give_tokens(state, 0, [NONE_IDS[-1]])
    play(state, SMUGGLER, "0:1", 0)
    with pytest.raises(IllegalAction, match="just took"):
        decide(state, token=NONE_IDS[-1])


def test_judgement_tokens_run_short_take_what_is_left():
    state = dev_game(layout=ROW, cards=[SMUGGLER])
    x = ext(state)
    keep = x["reserve"][-1:]
    give_tokens(state, 1, x["reserve"][:-1])
    assert x["reserve"] == keep
    play(state, SMUGGLER, "0:1", 2)
    assert state["decision"]["tokens"] == keep
    decide(state, token=keep[0])
    assert x["held"][0] == []


# ------------------------------------------------------------------------------------------- bribes


def _regain_layout(level: int) -> dict[str, int]:
    """A pyramid with Mentor (#4) on ``level`` (levels below filled with other characters)."""
    layout = {"1:0": DOMAIN, "1:2": 3, "1:4": 5, "1:6": 6, "1:8": 7}
    fill = iter([8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
    for lv in range(2, level + 1):
        for j in range(6 - lv):
            layout[f"{lv}:{lv - 1 + 2 * j}"] = next(fill)
    top = next(s for s in sorted(layout, key=P.parse_slot, reverse=True) if P.level_of(s) == level)
    layout[top] = 4
    return layout


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_bribe_regain_on_each_level(level: int):
    layout = _regain_layout(level) if level < 5 else {}
    if level == 5:
        layout = {"1:0": DOMAIN, "1:2": 3, "1:4": 5, "1:6": 6, "1:8": 7,
                  "2:1": 8, "2:3": 9, "2:5": 10, "2:7": 11, "3:2": 12, "3:4": 13, "3:6": 14,
                  "4:3": 15, "4:5": 16, "5:4": 4}
    state = dev_game(layout=layout, cards=[SMUGGLER])
    ext(state)["bribes"]["held"][0] = 4  # bribes from an earlier criminal
    mentor = next(s for s, e in state["players"][0]["pyramid"]["cards"].items() if e["card"] == 4)
    assert P.level_of(mentor) == level
    play(state, SMUGGLER, "0:3", 2)  # bottom line: 4 bribes
    decide(state, token=state["decision"]["tokens"][0])
    assert state["decision"]["kind"] == "bribe" and ext(state)["bribes"]["held"][0] == 8
    levels = {o["level"] for o in state["decision"]["options"]}
    assert level in levels and levels <= {1, 2, 3, 4, 5}
    reward = {"level5": "rows", "gems": gems(red=4)} if level == 5 else {"gems": gems(red=4)}
    before = state["players"][0]["gems"]["red"]
    decide(state, slot=mentor, reward=reward)
    x = ext(state)["bribes"]
    assert x["held"][0] == 8 - level and x["reserve"] == BRIBE_TOKENS - 4 + level
    onto = state["players"][0]["pyramid"]["cards"]["0:3"]["tokens"]
    expected = {1: [{"type": "power_points", "value": 3}], 2: [], 3: [{"type": "magic"}], 4: [{"type": "science"}] * 2,
                5: [{"type": "power_points", "value": 3}, {"type": "magic"}]}[level]
    assert onto == expected  # tokens of the regained reward lie on the criminal
    if level in (2, 5):
        assert state["players"][0]["gems"]["red"] == before + 4  # Mentor's level-2 reward: 4 gems


def test_bribe_tokens_can_be_kept_for_later():
    state = dev_game(layout=_regain_layout(2), cards=[SMUGGLER])
    play(state, SMUGGLER, "0:3", 1)  # middle line: 2 bribes
    decide(state, token=state["decision"]["tokens"][0])
    assert state["decision"]["kind"] == "bribe"
    decide(state, slot=None)
    assert ext(state)["bribes"]["held"][0] == 2 and state["decision"] is None


def test_bribe_needs_a_character_on_a_level_the_bribes_reach():
    state = dev_game(layout=_regain_layout(3), cards=[SMUGGLER])
    play(state, SMUGGLER, "0:3", 1)  # middle line, 2 bribes: levels 1 and 2 only
    decide(state, token=state["decision"]["tokens"][0])
    assert {o["level"] for o in state["decision"]["options"]} == {1, 2}
    three = next(s for s in state["players"][0]["pyramid"]["cards"] if P.level_of(s) == 3)
    with pytest.raises(IllegalAction, match="bribes"):
        decide(state, slot=three)


def test_bribe_reserve_short_gives_what_is_left():
    state = dev_game(layout=_regain_layout(1), cards=[SMUGGLER])
    b = ext(state)["bribes"]
    b["reserve"], b["held"][1] = 1, BRIBE_TOKENS - 1
    events = play(state, SMUGGLER, "0:3", 2)
    events += decide(state, token=state["decision"]["tokens"][0])
    assert b["held"][0] == 1 and any("short" in e["text"] for e in events if e["type"] == "bribes_taken")


# ------------------------------------------------------------------------------------------- discard judgement


def test_discard_judgement_tokens_may_return_the_ones_just_taken():
    state = dev_game(layout=ROW, cards=[INFORMER])
    give_tokens(state, 0, [kind_ids("pp", value=1)[0]])
    pp4 = kind_ids("pp", value=4)[0]
    pp3 = kind_ids("pp", value=3)
    stack_reserve(state, [pp4, pp3[0], pp3[1], NONE_IDS[0]])
    play(state, INFORMER, "0:1", 2, reward={})  # bottom: 4 tokens, then discard 2 + 1 PP
    decide(state, token=pp4)
    assert state["decision"]["kind"] == "judgement_discard" and state["decision"]["count"] == 2
    decide(state, tokens=pp3[:2])
    assert sorted(ext(state)["held"][0]) == sorted([kind_ids("pp", value=1)[0], NONE_IDS[0]])
    assert state["players"][0]["pyramid"]["cards"]["0:1"]["tokens"] == [{"type": "power_points", "value": 1}]


def test_discard_judgement_must_name_that_many_tokens():
    state = dev_game(layout=ROW, cards=[INFORMER])
    play(state, INFORMER, "0:1", 2)
    decide(state, token=state["decision"]["tokens"][0])
    tokens = state["decision"]["tokens"]
    for bad in ([tokens[0]], [tokens[0], tokens[0]], [99, tokens[0]], "all"):
        with pytest.raises(IllegalAction, match="Choose 2"):
            decide(state, tokens=bad)


# ------------------------------------------------------------------------------------------- relocation


def test_relocation_keeps_tokens_and_gains_the_new_level_reward():
    layout = {"1:0": DOMAIN, "1:2": 3, "1:4": 5, "1:6": 7, "1:8": 6, "2:3": 4, "2:5": 12}
    state = dev_game(layout=layout, cards=[FORGER])
    cards = state["players"][0]["pyramid"]["cards"]
    cards["1:8"]["tokens"] = [{"type": "magic"}]  # Chancellor (#6) got a magic token on level 1
    play(state, FORGER, "0:1", 1)  # middle: relocate
    decide(state, token=state["decision"]["tokens"][0])
    assert state["decision"]["kind"] == "relocate"
    options = state["decision"]["options"]
    assert "1:8" in options and "3:4" in options["1:8"] and "1:8" not in options["1:8"]
    decide(state, **{"from": "1:8", "to": "3:4"})
    assert "1:8" not in cards and cards["3:4"]["card"] == 6 and cards["3:4"]["slot"] == "3:4"
    assert cards["3:4"]["tokens"] == [{"type": "magic"}]  # it keeps its tokens
    assert cards["0:1"]["tokens"] == [{"type": "power_points", "value": 8}]  # Chancellor's level 3: 8 PP, on the criminal


def test_relocation_an_infinite_gem_used_this_turn_stays_used():
    # Each infinite gem lowers one payment per turn: moving its card does not make it fresh again.
    from engine.viceroy.payment import unused_infinite

    layout = {"1:0": DOMAIN, "1:2": 3, "1:4": 5, "1:6": 7, "1:8": 6, "2:3": 4, "2:5": 12}
    state = dev_game(layout=layout, cards=[FORGER, 70])  # a law left in hand: the turn goes on
    player = state["players"][0]
    player["pyramid"]["cards"]["1:8"]["tokens"] = [{"type": "infinite_gem", "color": "red"}]
    player["used_infinite"] = ["1:8/red"]
    play(state, FORGER, "0:1", 1)
    decide(state, token=state["decision"]["tokens"][0])
    decide(state, **{"from": "1:8", "to": "3:4"})
    assert state["phase"] == "development" and state["round"] == 2
    assert player["pyramid"]["cards"]["3:4"]["tokens"] == [{"type": "infinite_gem", "color": "red"}]
    assert unused_infinite(player) == []


def test_relocation_to_the_same_level_gains_that_reward_again():
    state = dev_game(layout={"1:0": DOMAIN, "1:2": 3, "1:4": 5, "1:6": 6}, cards=[FORGER])
    play(state, FORGER, "0:1", 1)
    decide(state, token=state["decision"]["tokens"][0])
    assert "1:-2" in state["decision"]["options"]["1:6"]
    decide(state, **{"from": "1:6", "to": "1:-2"})
    cards = state["players"][0]["pyramid"]["cards"]
    assert cards["1:-2"]["card"] == 6 and cards["0:1"]["tokens"] == [{"type": "magic"}]


def test_relocation_completes_a_circle_and_takes_its_gem():
    # Mentor (#4, all blue) moves onto Ambassador's (#2) blue top-right and Grandee's (#18) blue top-left.
    state = dev_game(layout={"1:0": DOMAIN, "1:2": 2, "1:4": 18, "1:6": 4}, cards=[FORGER])
    blues = state["players"][0]["gems"]["blue"]
    play(state, FORGER, "0:1", 1)
    decide(state, token=state["decision"]["tokens"][0])
    events = decide(state, **{"from": "1:6", "to": "2:3"})
    assert any(e["type"] == "circle_gem" and e["color"] == "blue" for e in events)
    assert state["players"][0]["gems"]["blue"] == blues + 1


def test_relocation_is_optional_and_needs_a_free_character():
    state = dev_game(layout=ROW, cards=[FORGER])
    play(state, FORGER, "0:1", 1)
    decide(state, token=state["decision"]["tokens"][0])
    decide(state, **{"from": None})
    assert state["decision"] is None
    state = dev_game(layout={"1:0": DOMAIN, "1:2": 3, "0:1": SMUGGLER}, cards=[])
    assert relocation_options(state, 0) == {}  # #3 has a criminal under it: not free


# ------------------------------------------------------------------------------------------- the card reward


def test_a_criminal_can_be_taken_as_a_card_reward():
    state = dev_game(layout=ROW, cards=[FORGER])
    top = ext(state)["deck"][-1]
    play(state, FORGER, "0:1", 0, reward={"draw": ["criminal"]})  # top line: 1 card
    decide(state, token=state["decision"]["tokens"][0])
    assert top in state["players"][0]["hand"]


# ------------------------------------------------------------------------------------------- end of the phase


def _end_of_development(state: dict) -> None:
    state["active"] = [0]
    apply_action(state, 0, PASS)


def test_end_of_development_a_criminal_may_go_under_the_criminal_deck():
    state = dev_game(layout=ROW, cards=[SMUGGLER, FENCE])
    _end_of_development(state)
    assert state["phase"] == "underworld" and 0 in state["active"]
    apply_action(state, 0, {"type": "criminal_return", "card": FENCE})
    assert ext(state)["deck"][0] == FENCE and state["players"][0]["hand"] == [SMUGGLER]
    assert state["phase"] == "auction"


def test_end_of_development_a_player_without_a_criminal_draws_one():
    state = dev_game(layout=ROW, cards=[SMUGGLER])
    top = ext(state)["deck"][-1]
    _end_of_development(state)
    apply_action(state, 0, {"type": "criminal_return", "card": SMUGGLER})
    assert state["players"][0]["hand"] == [top]  # returned the only one: draws a new one
    assert all(any(c in CRIMINALS for c in pl["hand"]) for pl in state["players"])  # seat 1 drew too


def test_end_of_development_keeping_the_criminals_changes_nothing():
    state = dev_game(layout=ROW, cards=[SMUGGLER])
    _end_of_development(state)
    apply_action(state, 0, {"type": "criminal_return", "card": None})
    assert SMUGGLER in state["players"][0]["hand"]
    with pytest.raises(IllegalAction):
        apply_action(state, 0, {"type": "criminal_return", "card": SMUGGLER})


def test_no_criminal_return_after_the_last_turn():
    state = dev_game(layout=ROW, cards=[SMUGGLER])
    state["last_turn"] = True
    _end_of_development(state)
    assert state["phase"] in ("judgement", "painting", "over")


# ------------------------------------------------------------------------------------------- end of the game


def _score(state: dict, seat: int = 0) -> dict:
    return score_player(state, seat)


def test_judgement_no_penalty_token_costs_nothing():
    state = dev_game(layout=ROW)
    give_tokens(state, 0, NONE_IDS[:3])
    assert _score(state)["breakdown"]["judgement"] == 0


def test_judgement_negative_power_points():
    state = dev_game(layout=ROW)
    give_tokens(state, 0, [kind_ids("pp", value=2)[0], kind_ids("pp", value=3)[0]])
    assert _score(state)["breakdown"]["judgement"] == -5


def test_judgement_negative_bonus_per_circle_and_infinite_gem():
    # A single-colour red circle (Boatswain over two red corners) and one infinite gem: -2.
    state = dev_game(layout={**ROW, "0:1": SMUGGLER, "0:3": PIRATE})
    state["players"][0]["pyramid"]["cards"]["1:4"]["tokens"] = [{"type": "infinite_gem", "color": "green"}]
    give_tokens(state, 0, kind_ids("per_circle")[:1])
    assert _score(state)["breakdown"]["judgement"] == -2


@pytest.mark.parametrize("token", ["magic", "defense", "science"])
def test_judgement_negative_bonus_per_token(token: str):
    state = dev_game(layout=ROW)
    cards = state["players"][0]["pyramid"]["cards"]
    cards["1:2"]["tokens"] = [{"type": token}, {"type": token}]
    cards["1:4"]["tokens"] = [{"type": token}]
    give_tokens(state, 0, kind_ids("per_token", token=token))
    assert _score(state)["breakdown"]["judgement"] == -3


def test_judgement_token_images_are_not_tokens():
    state = started(["darkness", "aristocrats", "underworld"], 2, seed=3)
    pyramid(state, 0, {"1:0": DOMAIN, "1:2": 90})  # Lady: a science image
    give_tokens(state, 0, kind_ids("per_token", token="science"))
    assert _score(state)["breakdown"]["judgement"] == 0


def _to_judgement(state: dict) -> None:
    state["last_turn"] = True
    state["active"] = [0]
    apply_action(state, 0, PASS)


def test_end_of_game_judgement_tokens_are_revealed_to_everyone():
    state = dev_game(layout=ROW)
    give_tokens(state, 1, [kind_ids("pp", value=4)[0]])
    assert "judgement_tokens" not in GAME.view(state, None)["players"][1]
    _to_judgement(state)
    public = GAME.view(state, None)["players"][1]
    assert public["judgement_tokens"] == [{"id": kind_ids("pp", value=4)[0], **JUDGEMENT[kind_ids("pp", value=4)[0]]}]


def test_end_of_game_discard_token_discards_one_of_the_shown_tokens_before_scoring():
    state = dev_game(layout=ROW)
    cards = state["players"][0]["pyramid"]["cards"]
    cards["1:2"]["tokens"] = [{"type": "magic"}, {"type": "defense"}]
    magic_or_defense = kind_ids("discard", tokens=["magic", "defense"])[0]
    give_tokens(state, 0, [magic_or_defense])
    _to_judgement(state)
    assert state["phase"] == "judgement" and state["active"] == [0]
    apply_action(state, 0, {"type": "judgement", "discards": [{"token": magic_or_defense, "slot": "1:2",
                                                               "kind": "magic"}]})
    assert cards["1:2"]["tokens"] == [{"type": "defense"}]
    assert state["phase"] != "judgement"


def _with_combat_card(tokens: list[dict]) -> dict:
    state = dev_game(layout=ROW, modules=[*MODULES, "invasion"])
    state["ext"]["invasion"]["cards"][0]["tokens"] = tokens
    return state


def test_judgement_discard_tokens_may_take_a_token_from_the_combat_card():
    # "Discard one of the indicated tokens from the cards in your pyramid, domain card, or combat card."
    state = _with_combat_card([{"type": "magic"}, {"type": "science"}])
    magic_or_defense = kind_ids("discard", tokens=["magic", "defense"])[0]
    give_tokens(state, 0, [magic_or_defense])
    _to_judgement(state)
    assert state["phase"] == "judgement" and state["active"] == [0]  # only the combat card holds one
    events = apply_action(state, 0, {"type": "judgement", "discards": [{"token": magic_or_defense, "slot": "combat",
                                                                        "kind": "magic"}]})
    assert state["ext"]["invasion"]["cards"][0]["tokens"] == [{"type": "science"}]
    assert any("from their combat card" in e["text"] for e in events if e["type"] == "judgement_discard")


def test_judgement_discard_tokens_from_the_combat_card_is_a_must_too():
    state = _with_combat_card([{"type": "defense"}])
    magic_or_defense = kind_ids("discard", tokens=["magic", "defense"])[0]
    give_tokens(state, 0, [magic_or_defense])
    _to_judgement(state)
    with pytest.raises(IllegalAction, match="must discard"):
        apply_action(state, 0, {"type": "judgement", "discards": [{"token": magic_or_defense, "slot": None,
                                                                   "kind": None}]})
    with pytest.raises(IllegalAction, match="must discard"):
        apply_action(state, 0, {"type": "judgement", "discards": [{"token": magic_or_defense, "slot": "combat",
                                                                   "kind": "magic"}]})
    assert state["ext"]["invasion"]["cards"][0]["tokens"] == [{"type": "defense"}]


def test_judgement_discard_from_the_combat_card_lowers_its_per_token_penalty():
    state = _with_combat_card([{"type": "magic"}])
    per_magic = kind_ids("per_token", token="magic")[0]
    magic_or_defense = kind_ids("discard", tokens=["magic", "defense"])[0]
    give_tokens(state, 0, [per_magic, magic_or_defense])
    assert _score(state)["breakdown"]["judgement"] == -JUDGEMENT[per_magic]["value"]
    _to_judgement(state)
    apply_action(state, 0, {"type": "judgement", "discards": [{"token": magic_or_defense, "slot": "combat",
                                                               "kind": "magic"}]})
    assert _score(state)["breakdown"]["judgement"] == 0


def test_judgement_plans_offer_the_combat_card_tokens():
    state = _with_combat_card([{"type": "magic"}])
    give_tokens(state, 0, [kind_ids("discard", tokens=["magic", "defense"])[0]])
    _to_judgement(state)
    assert [plan["text"] for plan in judgement_plans(state, 0)] == ["discard a magic token"]
    assert judgement_plans(state, 0)[0]["discards"][0]["slot"] == "combat"


def test_end_of_game_judgement_resolution_in_the_owner_order():
    # Two discard tokens: "science or magic" and "defense or science"; the pyramid has one science and one
    # magic token. Resolving "defense or science" first takes the science, then the other must take the
    # magic; the other order lets the first take the science and the second find nothing (no defense left
    # to choose; science gone), so the magic is kept.
    state = dev_game(layout=ROW)
    cards = state["players"][0]["pyramid"]["cards"]
    sm = kind_ids("discard", tokens=["science", "magic"])[0]
    ds = kind_ids("discard", tokens=["defense", "science"])[0]
    give_tokens(state, 0, [sm, ds])
    cards["1:2"]["tokens"] = [{"type": "science"}, {"type": "magic"}]
    _to_judgement(state)
    with pytest.raises(IllegalAction, match="must discard"):
        apply_action(state, 0, {"type": "judgement", "discards": [
            {"token": ds, "slot": "1:2", "kind": "science"}, {"token": sm, "slot": None, "kind": None}]})
    apply_action(state, 0, {"type": "judgement", "discards": [
        {"token": sm, "slot": "1:2", "kind": "science"}, {"token": ds, "slot": None, "kind": None}]})
    assert cards["1:2"]["tokens"] == [{"type": "magic"}]


def test_end_of_game_discard_token_without_a_matching_token_discards_nothing():
    state = dev_game(layout=ROW)
    give_tokens(state, 0, kind_ids("discard", tokens=["magic", "defense"]))
    _to_judgement(state)
    assert state["phase"] != "judgement"  # nothing to choose: no prompt


def test_end_of_game_judgement_must_list_every_discard_token():
    state = dev_game(layout=ROW)
    state["players"][0]["pyramid"]["cards"]["1:2"]["tokens"] = [{"type": "magic"}]
    ids = kind_ids("discard", tokens=["science", "magic"]) + kind_ids("discard", tokens=["magic", "defense"])
    give_tokens(state, 0, ids)
    _to_judgement(state)
    with pytest.raises(IllegalAction, match="once"):
        apply_action(state, 0, {"type": "judgement", "discards": [{"token": ids[0], "slot": "1:2", "kind": "magic"}]})


# ------------------------------------------------------------------------------------------- laws


def _law_game(number: int) -> dict:
    state = dev_game(layout=ROW, cards=[number])
    return state


def test_law_amnesty_returns_two_judgement_tokens():
    state = _law_game(AMNESTY)
    bad = [kind_ids("pp", value=3)[0], kind_ids("pp", value=4)[0], NONE_IDS[0]]
    give_tokens(state, 0, bad)
    apply_action(state, 0, {"type": "play", "card": AMNESTY, "slot": "1:6"})
    assert state["decision"]["kind"] == "judgement_discard" and state["decision"]["count"] == 2
    decide(state, tokens=bad[:2])
    assert ext(state)["held"][0] == [NONE_IDS[0]]


def test_law_corruption_gives_three_bribes_and_a_regained_reward_lies_on_the_law():
    state = _law_game(CORRUPTION)
    apply_action(state, 0, {"type": "play", "card": CORRUPTION, "slot": "2:1"})
    assert ext(state)["bribes"]["held"][0] == 3 and state["decision"]["kind"] == "bribe"
    decide(state, slot="1:4", reward={"gems": gems(red=3)})  # Scout (#5) level 1: 3 gems
    assert ext(state)["bribes"]["held"][0] == 2


def test_law_thieves_guild_scores_2_pp_per_criminal():
    state = dev_game(layout={**ROW, "1:6": 6, "0:1": SMUGGLER, "0:3": FENCE, "2:1": GUILD})
    laws = _score(state)["details"]["laws"]
    assert [d["points"] for d in laws if d["card"] == GUILD] == [4]


# ------------------------------------------------------------------------------------------- whole games


def test_a_whole_game_replays_to_the_identical_state():
    from engine.viceroy.ai import play_game

    for players in (1, 2, 3, 4):
        options = GAME.options_for({"modules": MODULES}, players)
        state, record = play_game(options, 11)
        rebuilt = GAME.rebuild(options, 11, players, [(r["seat"], r["action"]) for r in record])
        assert rebuilt == state
        assert state["scores"] and all("judgement" in row["breakdown"] for row in state["scores"])


def test_sealed_development_reveal_names_the_criminal_line():
    state = dev_game(layout=ROW, cards=[FENCE])
    events = submit(state, {0: {"type": "play", "card": FENCE, "slot": "0:1", "line": 1}})
    assert any(e["type"] == "criminal_lines" and "middle line" in e["text"] for e in events)


def test_judgement_prompt_offers_every_distinct_outcome_and_each_is_legal():
    state = dev_game(layout=ROW)
    cards = state["players"][0]["pyramid"]["cards"]
    sm = kind_ids("discard", tokens=["science", "magic"])[0]
    ds = kind_ids("discard", tokens=["defense", "science"])[0]
    give_tokens(state, 0, [sm, ds])
    cards["1:2"]["tokens"] = [{"type": "science"}, {"type": "magic"}]
    _to_judgement(state)
    plans = GAME.pending(state)[0].choices["plans"]
    assert sorted(p["text"] for p in plans) == ["discard a magic token, a science token", "discard a science token"]
    for plan in plans:
        trial = copy.deepcopy(state)
        apply_action(trial, 0, {"type": "judgement", "discards": plan["discards"]})
        assert trial["phase"] != "judgement"


def test_with_invasion_the_criminal_return_comes_before_the_combat():
    from engine.viceroy.ai import choose_action

    options = GAME.options_for({"modules": ["darkness", "underworld", "invasion"]}, 3)
    state = new_game(options, 0, 3)
    rng = random.Random(0)
    seen: list[tuple[int, str]] = []
    while GAME.pending(state):
        if not seen or seen[-1] != (state["turn"], state["phase"]):
            seen.append((state["turn"], state["phase"]))
        seat = min(s for s, p in GAME.pending(state).items() if p.waiting)
        apply_action(state, seat, choose_action(state, seat, rng))
    both = 0
    for turn in (3, 7, 11):
        phases = [ph for t, ph in seen if t == turn]
        assert "combat" in phases, phases
        if "underworld" in phases:  # skipped in a turn where nobody holds a criminal to return
            both += 1
            assert phases.index("underworld") < phases.index("combat"), phases
    assert both


# ------------------------------------------------------------------------------------------- malformed answers


@pytest.mark.parametrize("card", [float(FENCE), str(FENCE), [FENCE], {"card": FENCE}, True])
def test_end_of_development_criminal_return_names_the_card_by_its_number(card):
    state = dev_game(layout=ROW, cards=[SMUGGLER, FENCE])
    _end_of_development(state)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="criminal card in your hand"):
        apply_action(state, 0, {"type": "criminal_return", "card": card})
    assert state == before


@pytest.mark.parametrize("shape", ["string", "float", "bool", "list"])
def test_end_of_game_judgement_names_each_discard_token_by_its_number(shape):
    state = dev_game(layout=ROW)
    state["players"][0]["pyramid"]["cards"]["1:2"]["tokens"] = [{"type": "magic"}]
    token = kind_ids("discard", tokens=["science", "magic"])[0]
    give_tokens(state, 0, [token])
    _to_judgement(state)
    before = copy.deepcopy(state)
    bad = {"string": str(token), "float": float(token), "bool": True, "list": [token]}[shape]
    with pytest.raises(IllegalAction, match="once"):
        apply_action(state, 0, {"type": "judgement", "discards": [{"token": bad, "slot": "1:2", "kind": "magic"}]})
    assert state == before
