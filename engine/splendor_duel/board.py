"""The 5×5 token board: space names, the lines tokens may be taken along, and the spiral fill.

Spaces are numbered 0-24 row by row internally; players see them as a column letter and a row number
("A1" top left, "E5" bottom right), the labels printed around the board image.
"""

from __future__ import annotations

from .cards import GOLD

SIZE = 5
COLUMNS = "ABCDE"
CELL_NAMES: tuple[str, ...] = tuple(f"{COLUMNS[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE))
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}

# Directions along which a line may run: right, down, down-right, down-left.
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _lines() -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = [(i,) for i in range(SIZE * SIZE)]
    for length in (2, 3):
        for r in range(SIZE):
            for c in range(SIZE):
                for dr, dc in _DIRECTIONS:
                    cells = [(r + k * dr, c + k * dc) for k in range(length)]
                    if all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in cells):
                        out.append(tuple(rr * SIZE + cc for rr, cc in cells))
    return tuple(out)


# Every straight run of 1-3 adjacent spaces (145 of them), each as a tuple of spaces in board order.
LINES: tuple[tuple[int, ...], ...] = _lines()
LINE_SET: dict[frozenset[int], tuple[int, ...]] = {frozenset(line): line for line in LINES}
# Lines through each space, for menus that start from one token.
LINES_THROUGH: dict[int, tuple[tuple[int, ...], ...]] = {
    i: tuple(line for line in LINES if i in line) for i in range(SIZE * SIZE)}


def cell_index(name: object) -> int | None:
    """The space a player named ('c3' or 'C3'), or None."""
    if not isinstance(name, str):
        return None
    return CELL_INDEX.get(name.strip().upper())


def as_line(cells: list[int]) -> tuple[int, ...] | None:
    """The cells ordered along their line when they form one straight unbroken run, else None."""
    if len(set(cells)) != len(cells):
        return None
    return LINE_SET.get(frozenset(cells))


def takeable(board: list, line: tuple[int, ...]) -> bool:
    """True when every space of the line holds a gem or a pearl (no gold, no empty space)."""
    for i in line:
        token = board[i]
        if token is None or token == GOLD:
            return False
    return True


def takeable_lines(board: list) -> list[tuple[int, ...]]:
    return [line for line in LINES if takeable(board, line)]


def names(cells: tuple[int, ...] | list[int]) -> list[str]:
    return [CELL_NAMES[i] for i in cells]
