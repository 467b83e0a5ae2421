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


def _laid(d: int, direction: str) -> tuple:
    (ca, ma), (cb, mb) = DOMINOES[d]
    r = ROTATION[direction]
    return DIR_OFFSET[direction], ca, ROTATE[r][ma], cb, ROTATE[r][mb]


# (domino, direction) -> (offset of block b, colour a, icons a, colour b, icons b), icons already rotated
_LAID: dict[tuple[int, str], tuple] = {(d, k): _laid(d, k) for d in range(len(DOMINOES)) for k in DIR_OFFSET}


def piece_blocks(piece: dict) -> list[tuple[Cell, BlockInfo, str]]:
    """The two blocks of a laid domino: (cell, (colour, mask, gem), which block 'a'/'b')."""
    (dx, dy), ca, ma, cb, mb = _LAID[(piece["d"], piece["dir"])]
    x, y = piece["at"]
    gem = piece.get("gem")
    card = piece.get("card")
    out = []
    for which, cell, colour, mask in (("a", (x, y), ca, ma), ("b", (x + dx, y + dy), cb, mb)):
        g = colour if gem == which else None
        if card is not None and card["block"] == which:
            colour = card["side"]
            mask = QUADRANT_BIT[card["icon"]]
            g = colour if card.get("gem") else None
        out.append((cell, (colour, mask, g), which))
    return out


def floor_blocks(player: dict, floor: int) -> dict[Cell, BlockInfo]:
    """Every block of one floor: dominoes (with any single block card on them) and gap-filling cards."""
    blocks: dict[Cell, BlockInfo] = {}
    laid = _LAID
    for piece in player["floors"][floor - 1]:
        if piece.get("card") is not None:
            for cell, info, _ in piece_blocks(piece):
                blocks[cell] = info
            continue
        (dx, dy), ca, ma, cb, mb = laid[(piece["d"], piece["dir"])]
        x, y = piece["at"]
        gem = piece.get("gem")
        blocks[(x, y)] = (ca, ma, ca if gem == "a" else None)
        blocks[(x + dx, y + dy)] = (cb, mb, cb if gem == "b" else None)
    for fill in player["fills"][floor - 1]:
        blocks[(fill["at"][0], fill["at"][1])] = (fill["side"], QUADRANT_BIT[fill["icon"]], None)
    return blocks


def occupied(player: dict, floor: int) -> set[Cell]:
    cells: set[Cell] = set()
    add = cells.add
    offset = DIR_OFFSET
    for piece in player["floors"][floor - 1]:
        x, y = piece["at"]
        dx, dy = offset[piece["dir"]]
        add((x, y))
        add((x + dx, y + dy))
    for fill in player["fills"][floor - 1]:
        add((fill["at"][0], fill["at"][1]))
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


def lower_layers(player: dict, top_floor: int) -> list[tuple]:
    """The floors below ``top_floor`` as ``_flat_areas`` reads them (to score several top floors on them)."""
    return [(floor - 1, False, floor_blocks(player, floor)) for floor in range(1, top_floor)]


def _flat_areas(player: dict, top_floor: int, lower: list[tuple] | None = None) -> list[dict]:
    """Areas as ``areas(visible(...))`` gives them, on flat arrays (the scoring runs 16 times a game)."""
    if lower is None:
        lower = lower_layers(player, top_floor)
    layers = [*lower, (top_floor - 1, True, floor_blocks(player, top_floor))]
    shape = player.get("shape")
    if shape:
        qx0 = qy0 = 0
        qx1, qy1 = 2 * shape[0] - 1, 2 * shape[1] - 1
    else:  # a 1st floor not yet settled at (0, 0)
        quads = [(2 * x + off, 2 * y + off) for off, _, blocks in layers for x, y in blocks]
        if not quads:
            return []
        qx0 = min(q[0] for q in quads)
        qy0 = min(q[1] for q in quads)
        qx1 = max(q[0] for q in quads) + 1
        qy1 = max(q[1] for q in quads) + 1
    w = qx1 - qx0 + 1
    n = w * (qy1 - qy0 + 1)
    colour: list[str | None] = [None] * n
    icon = [0] * n
    gem = [False] * n
    for off, top, blocks in layers:
        for (x, y), (c, mask, g) in blocks.items():
            i = (2 * y + off - qy0) * w + (2 * x + off - qx0)
            has_gem = top and g is not None
            for bit, j in ((1, i), (2, i + 1), (4, i + w), (8, i + w + 1)):
                colour[j] = c
                icon[j] = 1 if mask & bit else 0
                gem[j] = has_gem
    seen = [False] * n
    out = []
    for start in range(n):
        c = colour[start]
        if c is None or seen[start]:
            continue
        seen[start] = True
        stack = [start]
        cells = []
        icons = 0
        scored = False
        while stack:
            i = stack.pop()
            cells.append(i)
            icons += icon[i]
            scored = scored or gem[i]
            x = i % w
            for j in (i - w, i + w, i - 1 if x else -1, i + 1 if x + 1 < w else -1):
                if 0 <= j < n and not seen[j] and colour[j] == c:
                    seen[j] = True
                    stack.append(j)
        if scored:
            cells.sort()
        out.append({"colour": c, "icons": icons, "gem": scored,
                    "cells": [[qx0 + i % w, qy0 + i // w] for i in cells] if scored else None})
    return out


def score_floor(player: dict, floor: int, lower: list[tuple] | None = None) -> dict:
    """The floor's score sheet: each scored area, Mino's bonus (the smallest scored area once more), total.
    ``lower``: ``lower_layers(player, floor)`` when already worked out."""
    scored = [a for a in _flat_areas(player, floor, lower) if a["gem"]]
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
