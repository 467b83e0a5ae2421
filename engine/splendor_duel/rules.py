"""Rule helpers shared by the engine, the views' users (presenter, AI) and the tests.

They take the plain pieces a seat can see (board list, a player's tokens and bonuses), so the same code
answers "can I buy this?" for the engine on the state and for the presenter on a view.
"""

from __future__ import annotations

from collections.abc import Mapping

from .cards import CARDS, GEM_COLORS, GOLD, Card

TokenCounts = Mapping[str, int]


def effective_cost(card: Card, bonus: TokenCounts) -> dict[str, int]:
    """What is left to pay once bonuses are taken off (never below zero; bonuses never reduce pearls)."""
    need: dict[str, int] = {}
    for kind, n, discounted in card.cost_items:
        left = n - bonus.get(kind, 0) if discounted else n
        if left > 0:
            need[kind] = left
    return need


def shortfall(card: Card, tokens: TokenCounts, bonus: TokenCounts) -> int:
    """How many gems/pearls are missing after spending matching tokens (before gold)."""
    missing = 0
    for kind, n, discounted in card.cost_items:
        left = n - bonus[kind] - tokens[kind] if discounted else n - tokens[kind]
        if left > 0:
            missing += left
    return missing


def has_colored_bonus(bonus: TokenCounts) -> bool:
    return any(bonus.get(c, 0) > 0 for c in GEM_COLORS)


def can_afford(card: Card, tokens: TokenCounts, bonus: TokenCounts) -> bool:
    """True when the tokens pay for the card (gold covering what the gems and pearls do not)."""
    if card.is_joker and not has_colored_bonus(bonus):
        return False
    return shortfall(card, tokens, bonus) <= tokens[GOLD]


def auto_payment(card: Card, tokens: TokenCounts, bonus: TokenCounts) -> dict[str, int] | None:
    """The usual payment: matching tokens first, gold for the rest; None when it cannot be paid."""
    pay: dict[str, int] = {}
    gold = 0
    for kind, left in effective_cost(card, bonus).items():
        have = tokens.get(kind, 0)
        use = left if have >= left else have
        if use:
            pay[kind] = use
        gold += left - use
    if gold > tokens.get(GOLD, 0):
        return None
    if gold:
        pay[GOLD] = gold
    return pay


def check_payment(card: Card, tokens: TokenCounts, bonus: TokenCounts, pay: TokenCounts) -> str | None:
    """None when ``pay`` settles the card exactly from the tokens held, else the player's explanation."""
    need = effective_cost(card, bonus)
    for kind, n in pay.items():
        if n > tokens.get(kind, 0):
            return f"You hold only {tokens.get(kind, 0)} {kind} token{'s' if tokens.get(kind, 0) != 1 else ''}, not {n}."
        if kind != GOLD and n > need.get(kind, 0):
            return f"{card.id} needs only {need.get(kind, 0)} {kind} after your bonuses."
    missing = sum(n - pay.get(kind, 0) for kind, n in need.items())
    if missing != pay.get(GOLD, 0):
        if missing > pay.get(GOLD, 0):
            short = missing - pay.get(GOLD, 0)
            return f"That payment is {short} token{'s' if short != 1 else ''} short for {card.id}."
        return f"That payment spends {pay.get(GOLD, 0) - missing} gold more than {card.id} needs."
    return None


def card_of(card_id: str) -> Card:
    return CARDS[card_id]


def token_total(tokens: TokenCounts) -> int:
    return sum(tokens.values())
