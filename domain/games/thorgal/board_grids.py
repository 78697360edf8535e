"""Thorgal's grids laid out from a view: the Wound area, the Terrain cards of
the Journey, the Enemy cards of a Combat.

Each is a :class:`~domain.words.board_layout.Grid` of cells with the
rulebook's icons; during a tile question the grid asked about carries the
corner ``row:r,col:c`` of each ``PlaceTile`` on its cells (targets, see
:mod:`domain.words.targets`).
"""

from __future__ import annotations

from domain.words.board_layout import Cell, Grid, Piece, Zone
from domain.words.sentences import listing
from domain.words.targets import pair, targets

from .board_words import ICONS
from .content import ICON_GOOD, Content
from .state import WIDTH, Combat, Hero
from .view import ThorgalView


def wound_grid(c: Content | None, h: Hero, placing: bool, healing: bool) -> Grid | None:
    if c is None:
        return None
    try:
        rows = c.character(h.character).wound_rows
    except KeyError:
        return None
    tile_of = {cell: i for i, t in enumerate(h.wounds) for cell in t.cells}
    out = []
    for r, line in enumerate(rows):
        cells = []
        for col, icon in enumerate(line):
            enc = r * WIDTH + col
            corner = ",".join((pair("row", r), pair("col", col)))
            if icon == "#":
                cells.append(Cell(blank=True, targets=corner if placing else ""))
            elif enc in tile_of:
                i = tile_of[enc]
                cells.append(
                    Cell(
                        "W",
                        "red",
                        f"Wound tile {i + 1} ({h.wounds[i].shape})",
                        targets(
                            pair("index", i) if healing else None,
                            corner if placing else None,
                        ),
                    )
                )
            else:
                cells.append(Cell("", None, "free", corner if placing else ""))
        out.append(tuple(cells))
    return Grid(tuple(out), "W: a Wound tile")


def journey(view: ThorgalView, c: Content | None) -> Zone:
    if c is None or not view.terrain:
        return Zone("Terrain cards", note="none")
    try:
        cards = [c.terrain_card(t).rows for t in view.terrain]
    except KeyError:
        return Zone("Terrain cards", tuple(Piece(t, t) for t in view.terrain))
    path = {cell for t in view.path for cell in t.cells}
    tokens = set(view.collect_tokens)
    placing = view.pending is not None and view.pending.kind == "place_journey"
    rows = []
    for r in range(max(len(x) for x in cards)):
        line = "".join(card[r] if r < len(card) else "" for card in cards)
        cells = []
        for col, icon in enumerate(line):
            enc = r * WIDTH + col
            said = ICONS.get(icon, icon)
            alts = [pair("cell", enc)]
            if placing:
                alts.append(",".join((pair("row", r), pair("col", col))))
            if icon == "#":
                cells.append(Cell(blank=True, targets=targets(*alts[1:])))
            elif enc in path:
                cells.append(
                    Cell("J", "sky", f"Journey tile on {said}", targets(*alts))
                )
            elif enc in tokens:
                cells.append(
                    Cell("C", "gold", f"Collect token on {said}", targets(*alts))
                )
            else:
                text = "" if icon == "." else icon
                cells.append(Cell(text, ICON_GOOD.get(icon), said, targets(*alts)))
        rows.append(tuple(cells))
    legend = (
        "J Journey tile, C Collect token; M material, O ore, G gossip, A magic,"
        " F fate, W power, * the Area's good, H Heal, X Experience,"
        " D Discovery, r/y red/yellow penalty"
    )
    return Zone(
        "Terrain cards",
        note=listing(list(view.terrain)),
        grid=Grid(tuple(rows), legend),
    )


def combat_grid(view: ThorgalView, fight: Combat) -> Grid:
    """The Enemy cards of a Combat, side by side: hearts, penalties, the
    Combat tiles placed; during the tile question each cell carries the
    corner ``row:r,col:c`` a ``PlaceTile`` puts there."""
    placing = view.pending is not None and view.pending.kind == "place_combat"
    covered = {cell for tile in fight.placed for cell in tile.cells}
    rows = []
    for r, line in enumerate(fight.rows):
        cells = []
        for col, icon in enumerate(line):
            corner = ",".join((pair("row", r), pair("col", col))) if placing else ""
            if icon == "#":
                cells.append(Cell(blank=True, targets=corner))
            elif r * WIDTH + col in covered:
                cells.append(Cell("T", "sky", "covered by a Combat tile", corner))
            else:
                said = ICONS.get(icon, icon)
                text = "" if icon == "." else icon
                colour = "red" if icon == "h" else ICON_GOOD.get(icon)
                cells.append(Cell(text, colour, said, corner))
        rows.append(tuple(cells))
    grid = Grid(
        tuple(rows),
        "h Enemy heart (cover every heart to win), T Combat tile,"
        " r/y red/yellow penalty, X Experience",
    )
    return grid
