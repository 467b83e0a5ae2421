"""The designed Invasion cards: marked as designed by this project, validated at load."""

from __future__ import annotations

import copy
import re

import pytest

from engine.viceroy import cards as C
from engine.viceroy.cards import CardDataError
from engine.viceroy.modules import invasion_data as D
from engine.viceroy.modules.carddata import _read


def raw() -> dict:
    return _read(D.FILE)


def test_the_invasion_file_and_every_card_is_marked_as_designed_by_this_project():
    data = raw()
    assert data["designed_by_project"] is True and "not the printed cards" in data["note"]
    for card in data["monsters"] + data["laws"] + [data["combat_card"]]:
        assert card["designed_by_project"] is True, card["name"]


def test_there_are_22_monsters_six_ten_and_six_per_tier_and_four_combat_cards():
    tiers = [m["tier"] for m in raw()["monsters"]]
    assert (tiers.count(1), tiers.count(2), tiers.count(3)) == (6, 10, 6)
    assert raw()["combat_card"]["count"] == 4


def test_invasion_laws_are_registered_as_laws_and_monsters_are_not_pyramid_cards():
    for number in D.INVASION_LAWS:
        assert C.is_law(number) and C.label(number).startswith(f"#{number} ")
    assert not any(n in C.CARDS for n in D.MONSTERS)


def test_the_shipped_data_validates():
    D.validate(raw())


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["monsters"][0].update(cost=["red"]), "monster #201 (Goblin Raiders): field 'cost'"),
    (lambda d: d["monsters"][8].update(tier=3), "monster #209 (Harpies): field 'tier'"),
    (lambda d: d["monsters"][3]["reward"].append({"type": "infinite_gem", "color": "red"}),
     "monster #204 (Giant Rats): field 'reward[1].type'"),
    (lambda d: d["monsters"][5].pop("designed_by_project"), "field 'designed_by_project'"),
    (lambda d: d["laws"][1].pop("text"), "law #232 (Hall of Heroes): field 'text'"),
    (lambda d: d.update(penalty_pp=4), "penalty_pp"),
])
def test_invasion_data_errors_name_the_card_and_the_field(change, message):
    data = copy.deepcopy(raw())
    change(data)
    with pytest.raises(CardDataError, match=re.escape(message)):
        D.validate(data)
