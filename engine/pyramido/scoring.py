"""Floor scoring: the pyramid seen from above, its areas, and Mino's bonus.

Seen from above, every quadrant shows the top-most block over it. An area is a group of edge-connected
visible quadrants of one colour (so areas run across floors); an area holding a gem is scored: 1 point per
visible gem icon in it. Mino's bonus scores the icons of the smallest scored area once more.
"""

from __future__ import annotations

from .geometry import DIR_OFFSET, ROTATE, ROTATION
from .tiles import CARD_FACES, DOMINOES, QUADRANT_BIT

Cell = tuple[int, int]
# A block as laid: (colour, icon mask after rotation, colour of the gem on it or None).
BlockInfo = tuple[str, int, str | None]

_QUAD_OFFSETS: tuple[tuple[int, int, int], ...] = ((1, 0, 0), (2, 1, 0), (4, 0, 1), (8, 1, 1))


def piece_blocks(piece: dict) -> list[tuple[Cell, BlockInfo, str]]:
    """The two blocks of a laid domino: (cell, (colour, mask, gem), which block 'a'/'b')."""
    (ca, ma), (cb, mb) = DOMINOES[piece["d"]]
    direction = piece["dir"]
    r = ROTATION[direction]
    x, y = piece["at"]
    dx, dy = DIR_OFFSET[direction]
    out = []
    for which, cell, colour, mask in (("a", (x, y), ca, ma), ("b", (x + dx, y + dy), cb, mb)):
        mask = ROTATE[r][mask]
        gem = colour if piece.get("gem") == which else None
        card = piece.get("card")
        if card is not None and card["block"] == which:
            colour = card["side"]
            mask = QUADRANT_BIT[card["icon"]]
            gem = colour if card.get("gem") else None
        out.append((cell, (colour, mask, gem), which))
    return out


def floor_blocks(player: dict, floor: int) -> dict[Cell, BlockInfo]:
    """Every block of one floor: dominoes (with any single block card on them) and gap-filling cards."""
    blocks: dict[Cell, BlockInfo] = {}
    for piece in player["floors"][floor - 1]:
        for cell, info, _ in piece_blocks(piece):
            blocks[cell] = info
    for fill in player["fills"][floor - 1]:
        blocks[(fill["at"][0], fill["at"][1])] = (fill["side"], QUADRANT_BIT[fill["icon"]], None)
    return blocks


def occupied(player: dict, floor: int) -> set[Cell]:
    cells: set[Cell] = set()
    for piece in player["floors"][floor - 1]:
        x, y = piece["at"]
        dx, dy = DIR_OFFSET[piece["dir"]]
        cells.add((x, y))
        cells.add((x + dx, y + dy))
    for fill in player["fills"][floor - 1]:
        cells.add((fill["at"][0], fill["at"][1]))
    return cells


def visible(player: dict, top_floor: int) -> dict[Cell, tuple[str, bool, int, str | None]]:
    """Quadrant grid seen from above: (qx, qy) -> (colour, shows an icon, floor, gem colour on its block).

    Only gems on ``top_floor`` count: the gems of lower floors went back after their scoring."""
    grid: dict[Cell, tuple[str, bool, int, str | None]] = {}
    for floor in range(1, top_floor + 1):
        off = floor - 1
        for (x, y), (colour, mask, gem) in floor_blocks(player, floor).items():
            if floor != top_floor:
                gem = None
            bx, by = 2 * x + off, 2 * y + off
            for bit, qx, qy in _QUAD_OFFSETS:
                grid[(bx + qx, by + qy)] = (colour, bool(mask & bit), floor, gem)
    return grid


def areas(grid: dict[Cell, tuple[str, bool, int, str | None]]) -> list[dict]:
    """Every area: {"colour", "icons", "cells", "gem"} (gem: the area holds a gem), in reading order."""
    seen: set[Cell] = set()
    out = []
    for start in sorted(grid, key=lambda c: (c[1], c[0])):
        if start in seen:
            continue
        colour = grid[start][0]
        stack = [start]
        seen.add(start)
        cells = []
        icons = 0
        gem = False
        while stack:
            c = stack.pop()
            cells.append(c)
            _, icon, _, g = grid[c]
            icons += icon
            gem = gem or g is not None
            x, y = c
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n not in seen and n in grid and grid[n][0] == colour:
                    seen.add(n)
                    stack.append(n)
        cells.sort(key=lambda c: (c[1], c[0]))
        out.append({"colour": colour, "icons": icons, "cells": [list(c) for c in cells], "gem": gem})
    return out


def score_floor(player: dict, floor: int) -> dict:
    """The floor's score sheet: each scored area, Mino's bonus (the smallest scored area once more), total."""
    scored = [a for a in areas(visible(player, floor)) if a["gem"]]
    rows = [{"colour": a["colour"], "icons": a["icons"], "cells": a["cells"]} for a in scored]
    mino = min(rows, key=lambda a: a["icons"]) if rows else None
    area_points = sum(a["icons"] for a in rows)
    mino_points = mino["icons"] if mino else 0
    return {
        "floor": floor,
        "areas": rows,
        "mino": None if mino is None else {"colour": mino["colour"], "icons": mino["icons"],
                                           "index": rows.index(mino)},
        "area_points": area_points,
        "mino_points": mino_points,
        "total": area_points + mino_points,
    }


def card_faces(card: int) -> tuple[str, str]:
    return CARD_FACES[card]
