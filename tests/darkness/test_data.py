"""The designed card data: marked as designed by this project, validated at load, in the ranges of the base cards."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from engine.viceroy import cards as C
from engine.viceroy.cards import CardDataError
from engine.viceroy.modules import carddata as D


def raw(name: str) -> dict:
    return json.loads(resources.files("data.viceroy").joinpath("darkness", name).read_text(encoding="utf-8"))


BASE = json.loads(resources.files("data.viceroy").joinpath("cards.json").read_text(encoding="utf-8"))


def _base_ranges() -> dict[tuple[int, str], int]:
    """The largest amount (or value) of each reward type on each level of the base characters."""
    top: dict[tuple[int, str], int] = {}
    for card in BASE["characters"]:
        for row in card["rows"]:
            for r in row["reward"]:
                key = (row["level"], r["type"])
                top[key] = max(top.get(key, 0), r.get("amount", r.get("value", 1)))
    return top


def test_every_designed_file_and_card_is_marked_as_designed_by_this_project():
    for name in ("aristocrats.json", "laws.json", "domain.json"):
        data = raw(name)
        assert data["designed_by_project"] is True and "not the printed cards" in data["note"]
    for card in raw("aristocrats.json")["characters"] + raw("aristocrats.json")["laws"] + raw("laws.json")["laws"]:
        assert card["designed_by_project"] is True, card["name"]
    assert raw("domain.json")["domain"]["designed_by_project"] is True


def test_designed_cards_are_registered_with_the_card_tables():
    assert C.label(89) == "#89 Lord" and C.is_character(89) and not C.is_law(89)
    assert C.is_law(101) and C.is_law(103) and not C.is_character(101)
    assert not C.in_pyramid(D.DOMAIN) and not C.is_character(D.DOMAIN) and not C.is_law(D.DOMAIN)


def test_aristocrat_rewards_stay_in_the_ranges_of_the_base_cards():
    top = _base_ranges()
    diamond_gem_value = 1  # a diamond is a gem of any colour
    for card in raw("aristocrats.json")["characters"]:
        for row in card["rows"][1:]:
            for r in row["reward"]:
                kind = "gems" if r["type"] == "diamonds" else r["type"]
                amount = r.get("amount", r.get("value", 1)) * (diamond_gem_value if r["type"] == "diamonds" else 1)
                assert (row["level"], kind) in top, (card["name"], row["level"], kind)
                assert amount <= top[(row["level"], kind)], (card["name"], row["level"], kind)


def test_aristocrat_costs_are_like_base_costs_plus_two_any_gems():
    for number in D.ARISTOCRATS:
        for level in range(1, 6):
            assert sum(C.cost(number, level).values()) == min(level, 4) - 1 + (1 if level == 5 else 0)
            assert C.any_cost(number, level) == 2


def test_the_domain_card_offers_the_four_rewards_of_the_rulebook():
    assert list(D.DOMAIN_REWARDS) == ["gems", "science", "attack", "card"]
    assert D.DOMAIN_REWARDS["gems"] == {"type": "gems", "amount": 4}
    assert C.section_colors(D.DOMAIN) == dict.fromkeys(C.SECTIONS, "any")


def test_revised_laws_keep_their_numbers_names_and_sections():
    base = {law["number"]: law for law in BASE["laws"]}
    for law in raw("laws.json")["laws"]:
        assert law["name"] == base[law["number"]]["name"]
        assert law["sections"] == base[law["number"]]["sections"]
        assert law["text"] != base[law["number"]]["text"]


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["characters"][0].update(number=7), "aristocrat #7 (Lord): field 'number'"),
    (lambda d: d["characters"][1].pop("name"), "field 'name' is missing"),
    (lambda d: d["characters"][2]["sections"].update(bottom="red"), "Count): field 'sections.bottom'"),
    (lambda d: d["characters"][3]["rows"][0].update(count=3), "Countess): field 'rows[0]'"),
    (lambda d: d["characters"][4]["rows"][0].update(reward=[{"type": "gems", "amount": 1}]), "field 'rows[0].reward'"),
    (lambda d: d["characters"][5]["rows"][2].update(cost="purple"), "Viscountess): field 'rows[2].cost'"),
    (lambda d: d["characters"][6]["rows"][1]["reward"][0].update(type="gold"), "Duke): field 'rows[1].reward[0].type'"),
    (lambda d: d["characters"][7]["rows"][3]["reward"][0].update(amount=0), "Duchess): field 'rows[3].reward[0].amount'"),
    (lambda d: d["characters"][8].update(extra="song"), "Marquis): field 'extra'"),
    (lambda d: d["characters"][9]["score"].update(kind="per_song"), "Marchioness): field 'score.kind'"),
    (lambda d: d["characters"][0]["images"].append({"type": "gems"}), "Lord): field 'images[1].type'"),
    (lambda d: d["characters"][10].update(designed_by_project=False), "Archduke): field 'designed_by_project'"),
    (lambda d: d["laws"][1]["effect"]["options"].pop(), "law #102 (Court of Honour): field 'effect.options'"),
    (lambda d: d["laws"][0].pop("text"), "law #101 (Patronage): field 'text'"),
    (lambda d: d.pop("note"), "designed by this project"),
])
def test_aristocrat_data_errors_name_the_card_and_the_field(change, message):
    data = copy.deepcopy(raw("aristocrats.json"))
    change(data)
    with pytest.raises(CardDataError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(").replace(")", r"\)")):
        D.validate_aristocrats(data)


def test_revised_law_data_errors_name_the_law_and_the_field():
    data = copy.deepcopy(raw("laws.json"))
    data["laws"][2]["sections"]["bottom"] = "any"
    with pytest.raises(CardDataError, match=r"law #68 \(Census\): field 'sections.bottom'"):
        D.validate_revised(data)
    data = copy.deepcopy(raw("laws.json"))
    data["laws"][0]["number"] = 65
    with pytest.raises(CardDataError, match="field 'number' must be 66"):
        D.validate_revised(data)


def test_domain_data_errors_name_the_field():
    data = copy.deepcopy(raw("domain.json"))
    data["domain"]["sections"]["top_left"] = "red"
    with pytest.raises(CardDataError, match="field 'sections'"):
        D.validate_domain(data)
    data = copy.deepcopy(raw("domain.json"))
    data["domain"]["rewards"].pop()
    with pytest.raises(CardDataError, match="field 'rewards'"):
        D.validate_domain(data)


def test_the_shipped_data_validates():
    D.validate_aristocrats(raw("aristocrats.json"))
    D.validate_revised(raw("laws.json"))
    D.validate_domain(raw("domain.json"))
