"""Pyramido component data (tiles.json) and the rules page (rules.md)."""
