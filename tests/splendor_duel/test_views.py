"""Views are built from scratch per seat: blind reserves only for their owner, deck order for nobody."""

from __future__ import annotations

import json

from engine.splendor_duel import GAME, view
from engine.splendor_duel.game import must_replenish
from tests.splendor_duel.helpers import fresh, give_reserved, set_board, set_tokens, to_pyramid


def test_view_blind_reserve_face_up_for_owner_back_for_others():
    state = fresh()
    give_reserved(state, 1, "L3-09", blind=True)
    give_reserved(state, 1, "L1-12", blind=False)
    own = view(state, 1)["players"][1]["reserved"]
    assert own == [{"card": "L3-09", "level": 3, "blind": True}, {"card": "L1-12", "level": 1, "blind": False}]
    for viewer in (0, None):
        v = view(state, viewer)
        assert v["players"][1]["reserved"][0] == {"card": None, "level": 3, "blind": True}
        assert v["players"][1]["reserved"][1]["card"] == "L1-12"
        assert "L3-09" not in json.dumps(v)


def test_view_shows_deck_sizes_not_cards():
    state = fresh()
    v = view(state, 0)
    assert v["decks"] == {"1": 25, "2": 20, "3": 10}
    text = json.dumps(v)
    assert not any(f'"{c}"' in text for lv in "123" for c in state["decks"][lv])
    assert "seed" not in v and "draws" not in v


def test_view_is_a_fresh_copy():
    state = fresh()
    v = view(state, 0)
    v["board"][0] = "gold"
    v["players"][0]["tokens"]["red"] = 9
    assert view(state, 0) != v


def test_view_public_log_has_no_private_event():
    state = fresh()
    from tests.splendor_duel.helpers import set_board, to_deck_top

    set_board(state, {"A1": "gold"})
    to_deck_top(state, "L2-16")
    GAME.apply(state, 0, {"type": "reserve", "gold": "A1", "deck": 2})
    assert "L2-16" not in json.dumps(view(state, None)) and "L2-16" not in json.dumps(view(state, 1))
    assert "L2-16" in json.dumps(view(state, 0))


def test_describe_actions():
    assert GAME.describe({"type": "take", "tokens": ["A1", "B2"], "privileges": ["E5"]}) == (
        "privileges on E5; take A1, B2")
    assert GAME.describe({"type": "reserve", "gold": "C3", "deck": 2}) == "gold from C3, reserve the top of deck 2"
    assert GAME.describe({"type": "buy", "card": "L1-26", "joker": "red"}).startswith("buy L1-26")


def test_view_must_replenish_hides_what_blind_reserves_allow():
    """Whether the active player is forced to replenish can hang on a blind reserve being affordable: the
    opponent and the public must not learn it from the view."""
    views = {}
    for blind_card in ("L1-01", "L1-02"):  # L1-01 costs 1 blue, green, red, black; L1-02 costs 3 blue
        state = set_tokens(set_board(fresh(), {"A1": "gold"}), 0, blue=3)
        for i, c in enumerate(("L1-03", "L1-04", "L1-05", "L1-06", "L1-08")):
            to_pyramid(state, c, i)
        for row in (("L2-01", "L2-02", "L2-03", "L2-04"), ("L3-01", "L3-02", "L3-03")):
            for i, c in enumerate(row):
                to_pyramid(state, c, i)
        give_reserved(state, 0, "L3-05")
        give_reserved(state, 0, "L3-07")
        give_reserved(state, 0, blind_card, blind=True)
        views[blind_card] = {viewer: view(state, viewer) for viewer in (0, 1, None)}
        assert views[blind_card][0]["must_replenish"] is must_replenish(state, 0)
    assert views["L1-01"][0]["must_replenish"] is True and views["L1-02"][0]["must_replenish"] is False
    for viewer in (1, None):
        assert views["L1-01"][viewer] == views["L1-02"][viewer]
