"""Pyramido component facts, loaded from ``data/pyramido/tiles.json`` and validated once at import.

A malformed file fails loudly with a message naming the domino and the field, so a bad edit can never start
a game with a wrong set. Blocks are kept as (colour, icon mask): the mask has one bit per quadrant
(top-left 1, top-right 2, bottom-left 4, bottom-right 8) before any rotation.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

COLOURS: tuple[str, ...] = ("brown", "blue", "yellow", "aqua", "red", "green")
QUADRANTS: tuple[str, ...] = ("tl", "tr", "bl", "br")
QUADRANT_BIT: dict[str, int] = {"tl": 1, "tr": 2, "bl": 4, "br": 8}
QUADRANT_LABEL: dict[str, str] = {"tl": "top-left", "tr": "top-right", "bl": "bottom-left", "br": "bottom-right"}
_FILE_QUADRANTS: dict[str, str] = {"top-left": "tl", "top-right": "tr", "bottom-left": "bl", "bottom-right": "br"}
DOMINO_COUNT = 90
ICONS_PER_DOMINO = 2

Block = tuple[str, int]


class TileDataError(ValueError):
    """The Pyramido data file is malformed."""


def _fail(where: str, field: str, problem: str) -> TileDataError:
    return TileDataError(f"tiles.json: {where}: field '{field}' {problem}")


def _block(raw: Any, where: str, field: str) -> Block:
    if not isinstance(raw, dict):
        raise _fail(where, field, "must be an object")
    colour = raw.get("colour")
    if colour not in COLOURS:
        raise _fail(where, f"{field}.colour", f"must be one of {', '.join(COLOURS)}, got {colour!r}")
    quadrants = raw.get("jewel_quadrants")
    if not isinstance(quadrants, list):
        raise _fail(where, f"{field}.jewel_quadrants", "must be a list")
    mask = 0
    for q in quadrants:
        if q not in _FILE_QUADRANTS:
            raise _fail(where, f"{field}.jewel_quadrants", f"has an unknown quadrant {q!r}")
        bit = QUADRANT_BIT[_FILE_QUADRANTS[q]]
        if mask & bit:
            raise _fail(where, f"{field}.jewel_quadrants", f"lists {q!r} twice")
        mask |= bit
    jewels = raw.get("jewels")
    if not isinstance(jewels, int) or isinstance(jewels, bool) or jewels != len(quadrants):
        raise _fail(where, f"{field}.jewels", f"must equal the number of jewel_quadrants ({len(quadrants)}), "
                    f"got {jewels!r}")
    return colour, mask


def validate(raw: Any) -> tuple[tuple[Block, Block], ...]:
    """The dominoes as ((colour, mask), (colour, mask)) by index; TileDataError names the first bad field."""
    if not isinstance(raw, dict):
        raise TileDataError("tiles.json: the file must hold one object")
    if tuple(raw.get("colours") or ()) != COLOURS:
        raise TileDataError(f"tiles.json: field 'colours' must be {list(COLOURS)}")
    dominoes = raw.get("dominoes")
    if not isinstance(dominoes, list) or len(dominoes) != DOMINO_COUNT:
        raise TileDataError(f"tiles.json: field 'dominoes' must list {DOMINO_COUNT} dominoes")
    out = []
    for i, d in enumerate(dominoes):
        where = f"domino #{d.get('index', '?') if isinstance(d, dict) else '?'} (entry {i})"
        if not isinstance(d, dict):
            raise TileDataError(f"tiles.json: {where} must be an object")
        if d.get("index") != i:
            raise _fail(where, "index", f"must be {i} (dominoes are numbered 0-{DOMINO_COUNT - 1} in order)")
        a = _block(d.get("tile_a"), where, "tile_a")
        b = _block(d.get("tile_b"), where, "tile_b")
        icons = bin(a[1]).count("1") + bin(b[1]).count("1")
        if icons != ICONS_PER_DOMINO:
            raise _fail(where, "jewels", f"every domino shows {ICONS_PER_DOMINO} gem icons, this one {icons}")
        out.append((a, b))
    cards = raw.get("single_block_cards_per_player")
    if not isinstance(cards, dict) or cards.get("count") != 3:
        raise TileDataError("tiles.json: field 'single_block_cards_per_player.count' must be 3")
    sides = cards.get("sides")
    if not isinstance(sides, list) or len(sides) != 3 or sorted(c for pair in sides for c in pair) != sorted(COLOURS):
        raise TileDataError("tiles.json: field 'single_block_cards_per_player.sides' must pair the 6 colours "
                            "on 3 cards")
    markers = raw.get("markers_per_player")
    if not isinstance(markers, dict) or tuple(markers.get("colours") or ()) != COLOURS:
        raise TileDataError("tiles.json: field 'markers_per_player.colours' must be one gem of each colour")
    return tuple(out)


def load(text: str | None = None) -> dict:
    """Load and validate the data (from the installed package unless ``text`` is given)."""
    if text is None:
        text = resources.files("data.pyramido").joinpath("tiles.json").read_text(encoding="utf-8")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TileDataError(f"tiles.json is not valid JSON: {exc}") from exc
    return {"dominoes": validate(raw), "card_faces": tuple(tuple(s) for s in raw["single_block_cards_per_player"]["sides"])}


_DATA = load()
DOMINOES: tuple[tuple[Block, Block], ...] = _DATA["dominoes"]
# The three double-sided single block cards every architect holds: (face, face).
CARD_FACES: tuple[tuple[str, str], ...] = _DATA["card_faces"]


def icon_count(mask: int) -> int:
    return bin(mask).count("1")


def quadrants_of(mask: int) -> list[str]:
    return [q for q in QUADRANTS if mask & QUADRANT_BIT[q]]
