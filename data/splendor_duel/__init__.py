"""Splendor Duel card and board data (cards.json) and the player-facing rules page (rules.md)."""
