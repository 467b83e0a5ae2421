"""Pyramid geometry: block cells per floor, legal domino positions, and whether a floor can still be completed.

Coordinates. Each floor has its own block grid. The 1st floor grows freely from its first domino (placed at
(0, 0)) and may use any 5×4 or 4×5 rectangle; when it is complete it is shifted so its corner is (0, 0) and
its size (W, H) is fixed. Floor f (2..4) is then the (W-f+1)×(H-f+1) grid whose block (x, y) rests with its
corners on the centres of the blocks (x..x+1, y..y+1) of the floor below.

Seen from above, everything is drawn on a quadrant grid of 2W×2H cells: block (x, y) of floor f covers the
quadrants (2x+f-1 .. 2x+f, 2y+f-1 .. 2y+f), so each upper block covers one quadrant of four blocks below.

A domino lies with its first block ("a") on a cell and its second block ("b") next to it in one of four
directions; the direction is also its rotation (quarter turns clockwise from "b east of a").
"""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]

DIRS: tuple[str, ...] = ("E", "S", "W", "N")
DIR_OFFSET: dict[str, Cell] = {"E": (1, 0), "S": (0, 1), "W": (-1, 0), "N": (0, -1)}
DIR_NAME: dict[str, str] = {"E": "east", "S": "south", "W": "west", "N": "north"}
ROTATION: dict[str, int] = {d: i for i, d in enumerate(DIRS)}

FLOOR_DOMINOES: tuple[int, ...] = (10, 6, 3, 1)
FIRST_FLOOR_SIZES: tuple[Cell, ...] = ((5, 4), (4, 5))
FLOORS = 4

_NEIGHBOURS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _rotate_once(mask: int) -> int:
    # Quarter turn clockwise: top-left -> top-right -> bottom-right -> bottom-left -> top-left.
    out = 0
    if mask & 1:
        out |= 2
    if mask & 2:
        out |= 8
    if mask & 8:
        out |= 4
    if mask & 4:
        out |= 1
    return out


def _rotate_n(mask: int, turns: int) -> int:
    for _ in range(turns % 4):
        mask = _rotate_once(mask)
    return mask


# ROTATE[r][mask]: an icon mask after r quarter turns clockwise.
ROTATE: tuple[tuple[int, ...], ...] = tuple(tuple(_rotate_n(m, r) for m in range(16)) for r in range(4))


def other_cell(at: Cell, direction: str) -> Cell:
    dx, dy = DIR_OFFSET[direction]
    return at[0] + dx, at[1] + dy


def upper_size(shape: Cell, floor: int) -> Cell:
    """Block grid size of floor ``floor`` (2..4) over a first floor of ``shape``."""
    return shape[0] - floor + 1, shape[1] - floor + 1


def fits_first_floor(min_x: int, max_x: int, min_y: int, max_y: int) -> bool:
    w, h = max_x - min_x + 1, max_y - min_y + 1
    return max(w, h) <= 5 and min(w, h) <= 4


def _bbox(cells: Iterable[Cell]) -> tuple[int, int, int, int]:
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    return min(xs), max(xs), min(ys), max(ys)


def legal_pairs(floor: int, occupied: set[Cell] | dict, shape: Cell | None) -> list[tuple[Cell, Cell]]:
    """Every pair of cells a domino may cover now, each pair once (cell order: the smaller first).

    Floor 1: the first domino lies at (0, 0); later ones share a full block side with the floor and keep it
    within 5×4 or 4×5. Floors 2-4: any two free neighbouring cells of the floor's grid (all connected).
    """
    pairs: list[tuple[Cell, Cell]] = []
    if floor == 1:
        if not occupied:
            # Where the first domino lies does not matter: it is (0, 0), lying east-west or north-south.
            return [((0, 0), (1, 0)), ((0, 0), (0, 1))]
        min_x, max_x, min_y, max_y = _bbox(occupied)
        # Every cell a block may use: within 5 of the floor's far edge in both directions (a finer
        # 5×4/4×5 check follows per pair).
        seen: set[tuple[Cell, Cell]] = set()
        for x, y in occupied:
            for c in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if c in occupied:
                    continue
                cx, cy = c
                for d in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if d in occupied:
                        continue
                    pair = (c, d) if c < d else (d, c)
                    if pair in seen:
                        continue
                    seen.add(pair)
                    dx, dy = d
                    w = max(max_x, cx, dx) - min(min_x, cx, dx)
                    h = max(max_y, cy, dy) - min(min_y, cy, dy)
                    # w, h are one less than the sizes: fits 5×4 or 4×5.
                    if w <= 4 and h <= 4 and (w <= 3 or h <= 3):
                        pairs.append(pair)
        pairs.sort()
        return pairs
    assert shape is not None
    w, h = upper_size(shape, floor)
    for y in range(h):
        for x in range(w):
            if (x, y) in occupied:
                continue
            if x + 1 < w and (x + 1, y) not in occupied:
                pairs.append(((x, y), (x + 1, y)))
            if y + 1 < h and (x, y + 1) not in occupied:
                pairs.append(((x, y), (x, y + 1)))
    return pairs


def is_legal_pair(floor: int, occupied: set[Cell] | dict, shape: Cell | None, pair: tuple[Cell, Cell]) -> bool:
    """Whether a domino may cover exactly these two cells now (same rules as ``legal_pairs``)."""
    (ax, ay), (bx, by) = pair
    if abs(ax - bx) + abs(ay - by) != 1 or pair[0] in occupied or pair[1] in occupied:
        return False
    if floor == 1:
        if not occupied:
            return pair in (((0, 0), (1, 0)), ((0, 0), (0, 1)), ((1, 0), (0, 0)), ((0, 1), (0, 0)))
        touches = any(n in occupied for x, y in pair for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
        if not touches:
            return False
        min_x, max_x, min_y, max_y = _bbox(list(occupied) + list(pair))
        return fits_first_floor(min_x, max_x, min_y, max_y)
    assert shape is not None
    w, h = upper_size(shape, floor)
    return 0 <= ax < w and 0 <= bx < w and 0 <= ay < h and 0 <= by < h


def has_legal_pair(floor: int, occupied: set[Cell] | dict, shape: Cell | None) -> bool:
    """Whether any domino fits the floor now (stops at the first position found)."""
    if floor == 1:
        if not occupied:
            return True
        min_x, max_x, min_y, max_y = _bbox(occupied)
        for x, y in occupied:
            for c in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if c in occupied:
                    continue
                cx, cy = c
                for d in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if d in occupied:
                        continue
                    dx, dy = d
                    w = max(max_x, cx, dx) - min(min_x, cx, dx)
                    h = max(max_y, cy, dy) - min(min_y, cy, dy)
                    if w <= 4 and h <= 4 and (w <= 3 or h <= 3):
                        return True
        return False
    assert shape is not None
    w, h = upper_size(shape, floor)
    for y in range(h):
        for x in range(w):
            if (x, y) in occupied:
                continue
            if (x + 1 < w and (x + 1, y) not in occupied) or (y + 1 < h and (x, y + 1) not in occupied):
                return True
    return False


def placements_of(pair: tuple[Cell, Cell]) -> list[tuple[Cell, str]]:
    """The two ways (first block cell, direction) to lay a domino on a pair of cells."""
    (x0, y0), (x1, y1) = pair
    if y0 == y1:
        return [((x0, y0), "E"), ((x1, y1), "W")]
    return [((x0, y0), "S"), ((x1, y1), "N")]


# ---------------------------------------------------------------------------------------------------------
# Completion: the fewest cells of a floor that no domino can cover any more (each needs a single block card).

_GAP_MEMO: dict[tuple[int, int, int], int] = {}
_MEMO_LIMIT = 400_000


def min_gaps_in_rect(w: int, h: int, filled: int) -> int:
    """Fewest cells of a w×h rectangle (bit i = cell (i % w, i // w), set = already filled) left uncovered
    when the rest is covered by dominoes as well as possible."""
    if len(_GAP_MEMO) > _MEMO_LIMIT:
        _GAP_MEMO.clear()
    return _gaps(w, w * h, (1 << (w * h)) - 1, filled)


def _gaps(w: int, n: int, full: int, m: int) -> int:
    if m == full:
        return 0
    key = (w, n, m)
    got = _GAP_MEMO.get(key)
    if got is not None:
        return got
    i = ((~m) & (m + 1)).bit_length() - 1  # lowest free cell: every cell before it is decided
    bit = 1 << i
    best = n
    if (i % w) + 1 < w and not (m >> (i + 1)) & 1:
        best = _gaps(w, n, full, m | bit | (bit << 1))
    if best and i + w < n and not (m >> (i + w)) & 1:
        best = min(best, _gaps(w, n, full, m | bit | (bit << w)))
    if best:
        best = min(best, 1 + _gaps(w, n, full, m | bit))
    _GAP_MEMO[key] = best
    return best


def _rect_mask(cells: Iterable[Cell], ox: int, oy: int, w: int) -> int:
    m = 0
    for x, y in cells:
        m |= 1 << ((y - oy) * w + (x - ox))
    return m


def first_floor_rect(occupied: Iterable[Cell]) -> tuple[int, int, int, int, int] | None:
    """The 5×4 / 4×5 rectangle (ox, oy, w, h, gaps) that leaves the fewest gaps for these 1st-floor cells."""
    cells = list(occupied)
    if not cells:
        return 0, 0, 5, 4, 0
    min_x, max_x, min_y, max_y = _bbox(cells)
    best: tuple[int, int, int, int, int] | None = None
    for w, h in FIRST_FLOOR_SIZES:
        for ox in range(max_x - w + 1, min_x + 1):
            for oy in range(max_y - h + 1, min_y + 1):
                g = min_gaps_in_rect(w, h, _rect_mask(cells, ox, oy, w))
                if best is None or g < best[4]:
                    best = (ox, oy, w, h, g)
                    if g == 0:
                        return best
    return best


def floor_gaps(floor: int, occupied: Iterable[Cell], shape: Cell | None) -> int:
    """Fewest single block cards this floor will need at the end (0: it can still be completed)."""
    if floor == 1:
        found = first_floor_rect(occupied)
        return found[4] if found is not None else 20
    assert shape is not None
    w, h = upper_size(shape, floor)
    return min_gaps_in_rect(w, h, _rect_mask(occupied, 0, 0, w))


def empty_cells(floor: int, occupied: set[Cell] | dict, shape: Cell | None) -> list[Cell]:
    """The free cells of a floor whose frame is known (upper floors, or a 1st floor with no room to grow)."""
    if floor == 1:
        found = first_floor_rect(occupied)
        assert found is not None
        ox, oy, w, h, _ = found
    else:
        assert shape is not None
        ox, oy = 0, 0
        w, h = upper_size(shape, floor)
    return [(x, y) for y in range(oy, oy + h) for x in range(ox, ox + w) if (x, y) not in occupied]


def floor_cells(floor: int) -> int:
    return FLOOR_DOMINOES[floor - 1] * 2


def column_label(x: int) -> str:
    return "ABCDEFGHIJ"[x] if 0 <= x < 10 else str(x)
