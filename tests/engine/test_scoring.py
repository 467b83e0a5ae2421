"""End-of-game scoring (RULES.md §9) and the end-game laws (§10)."""

from __future__ import annotations

import pytest

from engine.viceroy.scoring import final_scores, score_player


def entry(slot: str, card: int, tokens: list[dict] | None = None, **fields: object) -> dict:
    result = {"card": card, "slot": slot, "tokens": tokens or [], "tucked": []}
    result.update(fields)
    return result


def pyramid(*entries: dict) -> dict:
    return {"cards": {e["slot"]: e for e in entries}}


def player(p: dict | None = None, attacks: int = 0) -> dict:
    return {"pyramid": p or {"cards": {}}, "attacks": attacks, "gems": {}, "hand": []}


def game(*players: dict) -> dict:
    return {"options": {"players": len(players)}, "players": list(players)}


def tok(kind: str, **fields: object) -> dict:
    return {"type": kind, **fields}


# Herbalist / Scout under Gunner: a red circle on level 2.
def red_circle(extra_tokens: list[dict] | None = None) -> list[dict]:
    return [entry("1:0", 3, extra_tokens), entry("1:2", 5), entry("2:1", 9)]


def test_scoring_magic_example_21() -> None:
    p = pyramid(
        entry("1:0", 1, [tok("magic"), tok("magic"), tok("magic_bonus", value=5)]),
        entry("1:2", 2, [tok("magic"), tok("magic_bonus", value=2)]),
    )
    result = score_player(game(player(p)), 0)
    assert result["breakdown"]["magic"] == 21
    assert result["total"] == 21


def test_magic_is_zero_without_bonus() -> None:
    p = pyramid(entry("1:0", 1, [tok("magic", amount=4)]))
    assert score_player(game(player(p)), 0)["breakdown"]["magic"] == 0


def test_sets_example_24() -> None:
    tokens = [tok("defense")] * 2 + [tok("magic")] * 5 + [tok("science")] * 3
    result = score_player(game(player(pyramid(entry("1:0", 1, tokens)))), 0)
    assert result["details"]["sets"] == 2
    assert result["breakdown"]["sets"] == 24
    assert result["total"] == 24  # no magic bonus, so magic scores 0


def test_attack_example_minus_12() -> None:
    me = player(pyramid(entry("1:0", 1, [tok("defense"), tok("defense")])), attacks=4)
    opponent_a = player(pyramid(entry("1:0", 2)), attacks=2)
    # The second opponent has 2 behind the screen and 1 lying on Militia Levy (law 71).
    opponent_b = player(pyramid(entry("1:0", 3), entry("1:2", 71, [tok("attack")])), attacks=2)
    result = score_player(game(me, opponent_a, opponent_b), 0)
    assert result["breakdown"]["attack"] == -12
    # My own unused attacks do not hurt me; they count against the others (4 vs no defense).
    assert score_player(game(me, opponent_a, opponent_b), 1)["breakdown"]["attack"] == -4 * (4 + 3)


def test_attack_example_minus_20_without_defense() -> None:
    # The rulebook's example before defense: opponents hold 2 and 3 unused attack tokens: 4 x (2 + 3).
    me = player(pyramid(entry("1:0", 1)))
    result = score_player(game(me, player(pyramid(entry("1:0", 2)), attacks=2),
                               player(pyramid(entry("1:0", 3)), attacks=3)), 0)
    assert result["breakdown"]["attack"] == -20


def test_attack_tokens_on_conscription_count_as_unused() -> None:
    me = player(pyramid(entry("1:0", 1)))
    them = player(pyramid(entry("1:0", 2), entry("1:2", 77, [tok("attack")])))
    assert score_player(game(me, them), 0)["breakdown"]["attack"] == -4


def test_attack_never_positive_when_defense_exceeds() -> None:
    me = player(pyramid(entry("1:0", 1, [tok("defense", amount=5)])))
    them = player(pyramid(entry("1:0", 2)), attacks=1)
    assert score_player(game(me, them), 0)["breakdown"]["attack"] == 0


def test_solo_attack_is_zero() -> None:
    me = player(pyramid(entry("1:0", 1)), attacks=3)
    state = {"options": {"players": 1, "virtual_opponents": 3}, "players": [me]}
    assert score_player(state, 0)["breakdown"]["attack"] == 0


def test_single_colour_circle_scores_level_plus_bonus_of_its_colour() -> None:
    bonus = [tok("circle_bonus", color="red", value=2), tok("circle_bonus", color="red", value=1)]
    bonus.append(tok("circle_bonus", color="blue", value=5))
    result = score_player(game(player(pyramid(*red_circle(bonus)))), 0)
    assert result["breakdown"]["circles"] == 2 + 3
    assert result["details"]["circles"] == [{"slot": "2:1", "color": "red", "points": 5}]


def test_circle_bonus_counts_for_each_circle_of_its_colour() -> None:
    # Two red circles: Herbalist/Boatswain under Gunner (2:1) and Boatswain/Scout under Arcanist (2:3).
    p = pyramid(
        entry("1:0", 3, [tok("circle_bonus", color="red", value=2)]),
        entry("1:2", 1),
        entry("1:4", 5),
        entry("2:1", 9),
        entry("2:3", 13),
    )
    assert score_player(game(player(p)), 0)["breakdown"]["circles"] == (2 + 2) * 2


def test_circle_example_green_level_2_with_plus_4_bonus_is_6() -> None:
    # The rulebook's example: a green circle between levels 1 and 2 (2) with a +4 green bonus token.
    # Chancellor's top right, Margrave's top left and Herbalist's bottom are all green.
    p = pyramid(entry("1:0", 6, [tok("circle_bonus", color="green", value=4)]), entry("1:2", 33), entry("2:1", 3))
    result = score_player(game(player(p)), 0)
    assert result["details"]["circles"] == [{"slot": "2:1", "color": "green", "points": 6}]
    assert result["breakdown"]["circles"] == 6


def test_mixed_circle_scores_nothing() -> None:
    p = pyramid(entry("1:0", 3), entry("1:2", 4), entry("2:1", 1))
    assert score_player(game(player(p)), 0)["breakdown"]["circles"] == 0


def test_painted_circle_scores() -> None:
    p = pyramid(entry("1:0", 3), entry("1:2", 4, paint={"top_left": "red"}), entry("2:1", 1))
    assert score_player(game(player(p)), 0)["breakdown"]["circles"] == 2


def test_infinite_gem_scores_card_level_plus_bonus() -> None:
    p = pyramid(
        entry("1:0", 3, [tok("infinite_gem", color="green"), tok("circle_bonus", color="green", value=3)]),
        entry("1:2", 5),
        entry("2:1", 9, [tok("infinite_gem", color="blue")]),
    )
    result = score_player(game(player(p)), 0)
    assert result["breakdown"]["infinite_gems"] == (1 + 3) + (2 + 0)


def test_infinite_gem_example_yellow_level_3_with_plus_4_is_7() -> None:
    # The rulebook's example: a yellow infinite gem on level 3 (3) and a +4 yellow circle bonus.
    cards = [entry(f"{lv}:{lv - 1 + 2 * j}", 10 + 5 * lv + j) for lv in (1, 2) for j in range(4 - lv)]
    cards.append(entry("3:2", 3, [tok("infinite_gem", color="yellow")]))
    cards[0]["tokens"] = [tok("circle_bonus", color="yellow", value=4)]
    result = score_player(game(player(pyramid(*cards))), 0)
    assert result["details"]["infinite_gems"] == [{"slot": "3:2", "color": "yellow", "points": 7}]
    assert result["breakdown"]["infinite_gems"] == 7


def test_power_points_are_summed() -> None:
    p = pyramid(entry("1:0", 1, [tok("power_points", value=10)]), entry("1:2", 2, [tok("power_points", value=15)]))
    assert score_player(game(player(p)), 0)["breakdown"]["power_points"] == 25


def test_law_68_census_one_per_card_including_tucked() -> None:
    p = pyramid(entry("1:0", 1, tucked=[66]), entry("1:2", 72, tucked=[5, 6]), entry("1:4", 68))
    result = score_player(game(player(p)), 0)
    census = [d for d in result["details"]["laws"] if d["card"] == 68]
    assert census == [{"slot": "1:4", "card": 68, "points": 6}]


def test_law_72_secret_service_five_per_tucked_card() -> None:
    p = pyramid(entry("1:0", 72, tucked=[5, 6, 7]))
    assert score_player(game(player(p)), 0)["breakdown"]["laws"] == 15


@pytest.mark.parametrize(("level", "points"), [(1, 3), (2, 6), (3, 9), (4, 12)])
def test_law_74_royal_favor_by_level(level: int, points: int) -> None:
    cards = [entry(f"{lv}:{lv - 1 + 2 * j}", 10 + 5 * lv + j) for lv in range(1, level + 1) for j in range(2 + level - lv)]
    cards[-1] = entry(cards[-1]["slot"], 74, tucked=[60])
    result = score_player(game(player(pyramid(*cards))), 0)
    assert result["breakdown"]["laws"] == points


def test_law_75_academy_three_per_set() -> None:
    tokens = [tok("defense", amount=2), tok("magic", amount=3), tok("science", amount=2)]
    p = pyramid(entry("1:0", 1, tokens), entry("1:2", 75))
    result = score_player(game(player(p)), 0)
    assert result["breakdown"]["laws"] == 6
    assert result["breakdown"]["sets"] == 24


def test_law_76_treasury_two_per_gem() -> None:
    p = pyramid(entry("1:0", 76, gems={"red": 3, "green": 0, "blue": 2, "yellow": 1}))
    assert score_player(game(player(p)), 0)["breakdown"]["laws"] == 12


def test_law_78_archive_four_per_tucked_card() -> None:
    p = pyramid(entry("1:0", 78, tucked=[12, 13]))
    assert score_player(game(player(p)), 0)["breakdown"]["laws"] == 8


def test_law_79_heraldry_one_per_circle_and_infinite_gem() -> None:
    cards = red_circle([tok("infinite_gem", color="red"), tok("infinite_gem", color="blue")])
    cards.append(entry("1:4", 79))
    result = score_player(game(player(pyramid(*cards))), 0)
    assert result["breakdown"]["laws"] == 1 + 2


@pytest.mark.parametrize("law", [85, 86, 87, 88])
def test_laws_85_88_alliance_two_per_adjacent_character(law: int) -> None:
    # The alliance at 2:3 touches 2:1 (character), 2:5 (law), 1:2 and 1:4 (characters), 3:2 (character).
    p = pyramid(
        entry("1:0", 1), entry("1:2", 2), entry("1:4", 3), entry("1:6", 4),
        entry("2:1", 5), entry("2:3", law), entry("2:5", 70), entry("3:2", 6),
    )  # fmt: skip
    result = score_player(game(player(p)), 0)
    alliance = [d for d in result["details"]["laws"] if d["card"] == law]
    assert alliance == [{"slot": "2:3", "card": law, "points": 2 * 4}]


def test_law_without_end_game_effect_scores_nothing() -> None:
    p = pyramid(entry("1:0", 70), entry("1:2", 81, [tok("power_points", value=6)]))
    result = score_player(game(player(p)), 0)
    assert result["breakdown"]["laws"] == 0 and result["total"] == 6


def test_total_is_the_sum_of_the_seven_categories() -> None:
    tokens = [tok("magic", amount=2), tok("magic_bonus", value=3), tok("science"), tok("defense")]
    tokens += [tok("power_points", value=4), tok("infinite_gem", color="red")]
    cards = red_circle(tokens) + [entry("1:4", 79)]
    them = player(pyramid(entry("1:0", 2)), attacks=3)
    result = score_player(game(player(pyramid(*cards)), them), 0)
    assert set(result["breakdown"]) == {"circles", "infinite_gems", "laws", "power_points", "magic", "sets", "attack"}
    assert result["breakdown"] == {
        "circles": 2, "infinite_gems": 1, "laws": 2, "power_points": 4, "magic": 6, "sets": 12, "attack": -8,
    }  # fmt: skip
    assert result["total"] == sum(result["breakdown"].values()) == 19


def test_score_does_not_mutate_state() -> None:
    import copy

    state = game(player(pyramid(*red_circle())), player(pyramid(entry("1:0", 2)), attacks=1))
    before = copy.deepcopy(state)
    score_player(state, 0)
    final_scores(state)
    assert state == before


def test_highest_total_wins() -> None:
    a = player(pyramid(entry("1:0", 1, [tok("power_points", value=10)])))
    b = player(pyramid(entry("1:0", 2, [tok("power_points", value=12)])))
    rows = final_scores(game(a, b))
    assert [(r["seat"], r["total"], r["winner"]) for r in rows] == [(0, 10, False), (1, 12, True)]
    assert rows[1]["breakdown"]["power_points"] == 12


def test_shared_victory_on_equal_totals() -> None:
    a = player(pyramid(entry("1:0", 1, [tok("power_points", value=12)])))
    b = player(pyramid(entry("1:0", 2, [tok("power_points", value=12)])))
    c = player(pyramid(entry("1:0", 3, [tok("power_points", value=5)])))
    rows = final_scores(game(a, b, c))
    assert [r["winner"] for r in rows] == [True, True, False]


def test_final_scores_solo_is_the_player_total() -> None:
    me = player(pyramid(entry("1:0", 1, [tok("power_points", value=7)])), attacks=2)
    rows = final_scores({"options": {"players": 1}, "players": [me]})
    assert rows == [{"seat": 0, "total": 7, "breakdown": rows[0]["breakdown"], "winner": True}]
    assert rows[0]["breakdown"]["attack"] == 0
