"""Polyomino geometry shared by Wounds, Journey and Combat.

Why one module: the rulebook uses the same tiles three ways (a character's
Wound area, the Journey Path over Terrain cards, the grid of an Enemy card) and
the three differ only in which cells are blocked and which adjacency rule
applies.  Cells are ``(row, col)`` pairs; a shape is a frozenset of cells.
Orientations are the distinct results of the 4 rotations and 2 reflections,
in a fixed order, so ``(shape, orientation, row, col)`` names a placement
uniquely and ``legal_commands`` never lists the same covered cells twice.
Moves name an orientation by its pose (``rotation``, ``mirrored``; see
:func:`posed` and :func:`pose`), which a client can compute without this
module's ordering.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

Cell = tuple[int, int]

#: The tile set (sizes 1-5); the rulebook prints shapes only as pictures.
SHAPES: dict[str, frozenset[Cell]] = {
    "I1": frozenset({(0, 0)}),
    "I2": frozenset({(0, 0), (0, 1)}),
    "I3": frozenset({(0, 0), (0, 1), (0, 2)}),
    "V3": frozenset({(0, 0), (1, 0), (1, 1)}),
    "I4": frozenset({(0, 0), (0, 1), (0, 2), (0, 3)}),
    "L4": frozenset({(0, 0), (1, 0), (2, 0), (2, 1)}),
    "O4": frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}),
    "T4": frozenset({(0, 0), (0, 1), (0, 2), (1, 1)}),
    "S4": frozenset({(0, 1), (0, 2), (1, 0), (1, 1)}),
    "P5": frozenset({(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)}),
    "L5": frozenset({(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)}),
    "U5": frozenset({(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)}),
}


def size(shape: str) -> int:
    """Number of cells of a named shape.

    >>> size("P5")
    5
    """
    return len(SHAPES[shape])


def shapes_of_size(n: int) -> tuple[str, ...]:
    """Every named shape with exactly ``n`` cells (a "Wound (n)")."""
    return tuple(name for name, cells in SHAPES.items() if len(cells) == n)


def normalize(cells: frozenset[Cell] | set[Cell]) -> frozenset[Cell]:
    """Translate so the smallest row and column are 0."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def rotate(cells: frozenset[Cell]) -> frozenset[Cell]:
    """Quarter turn clockwise, normalized."""
    return normalize({(c, -r) for r, c in cells})


def reflect(cells: frozenset[Cell]) -> frozenset[Cell]:
    """Mirror left-right, normalized."""
    return normalize({(r, -c) for r, c in cells})


@cache
def orientations(shape: str) -> tuple[frozenset[Cell], ...]:
    """Distinct orientations of ``shape`` (rotations, then reflected rotations).

    >>> [len(orientations(s)) for s in ("I1", "I2", "O4", "T4", "L4", "S4")]
    [1, 2, 1, 4, 8, 4]
    """
    out: list[frozenset[Cell]] = []
    cells = normalize(SHAPES[shape])
    for mirrored in (cells, reflect(cells)):
        cur = mirrored
        for _ in range(4):
            if cur not in out:
                out.append(cur)
            cur = rotate(cur)
    return tuple(out)


def cells_at(shape: str, orientation: int, row: int, col: int) -> frozenset[Cell]:
    """Absolute cells of a placement; ``ValueError`` on a bad orientation."""
    options = orientations(shape)
    if not 0 <= orientation < len(options):
        raise ValueError(f"{shape} has {len(options)} orientations")
    return frozenset((r + row, c + col) for r, c in options[orientation])


def posed(shape: str, rotation: int, mirrored: bool) -> frozenset[Cell]:
    """``shape`` mirrored left-right (if ``mirrored``), then turned ``rotation``
    quarter turns clockwise, translated so its top-left corner is ``(0, 0)``.

    >>> sorted(posed("V3", 1, False))
    [(0, 0), (0, 1), (1, 0)]

    :raises ValueError: if ``rotation`` is not 0-3.
    """
    if not 0 <= rotation < 4:
        raise ValueError("rotation is 0 to 3 quarter turns")
    cells = normalize(SHAPES[shape])
    if mirrored:
        cells = reflect(cells)
    for _ in range(rotation):
        cells = rotate(cells)
    return cells


@cache
def pose(shape: str, orientation: int) -> tuple[int, bool]:
    """The first ``(rotation, mirrored)`` giving the ``orientation``-th form.

    >>> [pose("I2", o) for o in range(2)]
    [(0, False), (1, False)]
    """
    form = orientations(shape)[orientation]
    for mirrored in (False, True):
        for rotation in range(4):
            if posed(shape, rotation, mirrored) == form:
                return rotation, mirrored
    raise AssertionError("every orientation is a rotation or reflection")


def cells_posed(
    shape: str, rotation: int, mirrored: bool, row: int, col: int
) -> frozenset[Cell]:
    """Absolute cells of ``posed(shape, rotation, mirrored)`` with its corner at ``(row, col)``."""
    return frozenset((r + row, c + col) for r, c in posed(shape, rotation, mirrored))


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    r, c = cell
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def is_adjacent(a: frozenset[Cell], b: frozenset[Cell]) -> bool:
    """Whether ``a`` shares at least one edge with ``b`` (and does not overlap it)."""
    if a & b:
        return False
    return any(n in b for cell in a for n in neighbours(cell))


def is_connected(cells: frozenset[Cell]) -> bool:
    """Whether the cells form one edge-connected group."""
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def fits(
    cells: frozenset[Cell], rows: int, cols: int, blocked: frozenset[Cell]
) -> bool:
    """Inside a ``rows x cols`` grid and on no blocked or occupied cell."""
    return all(
        0 <= r < rows and 0 <= c < cols and (r, c) not in blocked for r, c in cells
    )


def is_rightward(cells: frozenset[Cell], path_right: int) -> bool:
    """The Journey rule: no cell left of the path's current rightmost column."""
    return min(c for _, c in cells) >= path_right


def generate_placements(
    shape: str,
    rows: int,
    cols: int,
    blocked: frozenset[Cell],
    touch: frozenset[Cell] | None = None,
    min_col: int = 0,
    need_col: int | None = None,
) -> Iterator[tuple[int, int, int, frozenset[Cell]]]:
    """Every legal ``(orientation, row, col, cells)`` of ``shape``.

    :param touch: when given, the placement must be edge-adjacent to it.
    :param min_col: the rightward rule (every cell at this column or right).
    :param need_col: when given, some cell must lie in this column (the first
        Journey tile must start at the left edge of the path).
    """
    for index, form in enumerate(orientations(shape)):
        height = 1 + max(r for r, _ in form)
        width = 1 + max(c for _, c in form)
        for row in range(rows - height + 1):
            for col in range(min_col, cols - width + 1):
                cells = frozenset((r + row, c + col) for r, c in form)
                if not fits(cells, rows, cols, blocked):
                    continue
                if touch is not None and not is_adjacent(cells, touch):
                    continue
                if need_col is not None and all(c != need_col for _, c in cells):
                    continue
                yield index, row, col, cells
