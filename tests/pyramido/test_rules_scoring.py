"""Floor scoring: scored areas, areas across floors, Mino's bonus, gems back after each floor.

The worked examples use hand-built pyramids of real dominoes (see tiles.json):
  #0  brown (icon bottom-left)  | brown (icon top-right)
  #44 brown (icon top-left)     | brown (icon top-right)
  #11 brown (icon top-left)     | brown (icon bottom-right)
  #26 blue  (icon top-right)    | blue  (icon top-right)
  #52 yellow (icon top-right)   | yellow (icon top-right)
"""

from __future__ import annotations

from engine.pyramido import game as G
from engine.pyramido import scoring as sc


def _piece(d, at, direction="E", gem=None, card=None):
    return {"d": d, "at": list(at), "dir": direction, "gem": gem, "card": card}


def _player(floor1, floor2=(), shape=(5, 4)):
    player = G._new_player()
    player["floors"][0] = list(floor1)
    player["floors"][1] = list(floor2)
    player["shape"] = list(shape)
    return player


def test_scored_area_scores_one_point_per_gem_icon():
    player = _player([_piece(0, (0, 0), gem="a")])
    sheet = sc.score_floor(player, 1)
    assert [(a["colour"], a["icons"]) for a in sheet["areas"]] == [("brown", 2)]
    assert sheet["area_points"] == 2


def test_area_without_a_gem_scores_nothing():
    player = _player([_piece(0, (0, 0), gem="a"), _piece(52, (2, 0))])
    sheet = sc.score_floor(player, 1)
    assert [a["colour"] for a in sheet["areas"]] == ["brown"]
    assert sheet["area_points"] == 2


def test_minos_bonus_single_area_is_the_smallest():
    player = _player([_piece(0, (0, 0), gem="a")])
    sheet = sc.score_floor(player, 1)
    assert sheet["mino"]["icons"] == 2 and sheet["mino_points"] == 2
    assert sheet["total"] == 4


def test_minos_bonus_scores_the_smallest_scored_area_once_more():
    # brown 2×2 of #0 over #44 (4 icons, gem), blue #26 standing north-south at x = 2 (2 icons, gem),
    # yellow #52 at x = 3 without a gem.
    player = _player([_piece(0, (0, 0), gem="a"), _piece(44, (0, 1)), _piece(26, (2, 0), "S", gem="a"),
                      _piece(52, (3, 0), "S")])
    sheet = sc.score_floor(player, 1)
    assert sorted((a["colour"], a["icons"]) for a in sheet["areas"]) == [("blue", 2), ("brown", 4)]
    assert sheet["mino"]["colour"] == "blue" and sheet["mino_points"] == 2
    assert sheet["total"] == 4 + 2 + 2


def test_minos_bonus_is_zero_without_a_scored_area():
    player = _player([_piece(52, (0, 0))])
    sheet = sc.score_floor(player, 1)
    assert sheet["areas"] == [] and sheet["mino"] is None and sheet["total"] == 0


def test_two_gems_in_one_area_score_it_once():
    player = _player([_piece(0, (0, 0), gem="a"), _piece(44, (0, 1), gem="b")])
    sheet = sc.score_floor(player, 1)
    assert len(sheet["areas"]) == 1 and sheet["area_points"] == 4


def test_areas_across_floors_worked_example():
    # Floor 1: #0 at (0,0) east, #44 at (0,1) east: a 2×2 brown square with icons at quadrants
    #   (0,1) [block (0,0) bottom-left], (3,0) [block (1,0) top-right], (0,2) [block (0,1) top-left] and
    #   (3,2) [block (1,1) top-right].
    # Floor 2: #11 at (0,0) east covers quadrants x 1..4, y 1..2, hiding the icon at (3,2); its own icons sit
    #   at (1,1) and (4,2). One brown area with 3 + 2 = 5 icons, scored by the gem on floor 2.
    player = _player([_piece(0, (0, 0)), _piece(44, (0, 1))], [_piece(11, (0, 0), gem="a")])
    grid = sc.visible(player, 2)
    assert grid[(3, 2)][2] == 2  # the floor-1 icon there is covered
    sheet = sc.score_floor(player, 2)
    assert [(a["colour"], a["icons"]) for a in sheet["areas"]] == [("brown", 5)]
    assert sheet["total"] == 5 + 5  # single scored area: Mino's bonus too


def test_areas_across_floors_are_split_by_another_colour_above():
    # The same 1st floor under a blue domino (#26) with a blue gem: the brown below is not scored.
    player = _player([_piece(0, (0, 0)), _piece(44, (0, 1))], [_piece(26, (0, 0), gem="a")])
    sheet = sc.score_floor(player, 2)
    assert [(a["colour"], a["icons"]) for a in sheet["areas"]] == [("blue", 2)]


def test_earlier_floor_gems_do_not_score_later_floors():
    # Gems go back after each floor: a gem left on floor 1 in the state never scores floor 2.
    player = _player([_piece(0, (0, 0), gem="a"), _piece(44, (0, 1))], [_piece(26, (0, 0))])
    assert sc.score_floor(player, 2)["areas"] == []


def test_single_block_card_counts_as_a_block_of_its_colour():
    card = {"card": 0, "side": "blue", "block": "a", "icon": "br", "gem": True}
    player = _player([_piece(52, (0, 0), card=card)])
    sheet = sc.score_floor(player, 1)
    assert [(a["colour"], a["icons"]) for a in sheet["areas"]] == [("blue", 1)]


def test_gems_go_back_after_each_floor_scoring():
    from .helpers import ai_turn, fresh

    state = fresh(2, seed=3)
    while state["floor"] == 1:
        ai_turn(state)
    for player in state["players"]:
        assert len(player["gems"]) == 6
        assert len(player["scores"]) == 1


def test_fast_area_count_agrees_with_the_plain_one():
    from .helpers import ai_turn, fresh

    def key(area):
        cells = sorted(map(tuple, area["cells"])) if area["gem"] else []
        return area["colour"], area["icons"], area["gem"], cells

    state = fresh(3, seed=21)
    while not state["over"]:
        ai_turn(state)
        if state["over"]:
            break
        for player in state["players"]:
            floor = state["floor"]
            plain = sorted(map(key, sc.areas(sc.visible(player, floor))))
            fast = sorted(map(key, sc._flat_areas(player, floor)))
            assert plain == fast


def test_minos_bonus_of_a_scored_area_without_gem_icons_is_zero():
    # #2 blue (2 icons) / brown (no icon), brown gem; #52 yellow (1 + 1 icons) below it, yellow gem.
    player = _player([_piece(2, (0, 0), gem="b"), _piece(52, (0, 1), gem="a")])
    sheet = sc.score_floor(player, 1)
    assert sorted((a["colour"], a["icons"]) for a in sheet["areas"]) == [("brown", 0), ("yellow", 2)]
    assert sheet["mino"]["colour"] == "brown" and sheet["mino_points"] == 0
    assert sheet["total"] == 2


def test_minos_bonus_with_tied_smallest_areas_counts_one_of_them():
    # brown #0 (2 icons) and yellow #52 (2 icons), both scored: the bonus is 2, not 4.
    player = _player([_piece(0, (0, 0), gem="a"), _piece(52, (0, 1), gem="a")])
    sheet = sc.score_floor(player, 1)
    assert sorted((a["colour"], a["icons"]) for a in sheet["areas"]) == [("brown", 2), ("yellow", 2)]
    assert sheet["mino_points"] == 2 and sheet["total"] == 6
