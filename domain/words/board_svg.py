"""Boards drawn as SVG: a game's layout (:mod:`domain.words.board_layout`) on a page.

Why SVG built as a tree of :class:`Node` and written once: every text and
attribute is escaped by the writer (a player called ``<b>`` stays text), the
drawing is well-formed XML and well-formed HTML alike, and it carries no script, no style element
and no inline ``style`` attribute (presentation attributes only), so a page
with a strict Content-Security-Policy shows it as it is.

Drawn from a layout, which is made from a *view* only, so the picture holds
no more than that viewer's view; hidden cards are a face-down count.

Accessibility and size: the root is ``role="img"`` with a ``<title>`` (the
game and the moment) and a ``<desc>`` (the whole board in words, the lines
of :mod:`domain.words.board_text`); every piece has its own ``<title>``;
colour is never alone (each coloured card spells its colour); text is near
black on light tints (contrast above 12:1).  The canvas is
:data:`WIDTH` units wide, one column, so on a 390 px phone the text is
drawn near its nominal size; ``width="100%"`` and the ``viewBox`` let it
scale, and the page caps its width on wide screens.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from html import escape
from typing import TYPE_CHECKING, Any

from domain.words.board_layout import Board, Grid, Piece, Section, Zone
from domain.words.board_text import layout_lines

if TYPE_CHECKING:
    from domain.contract.core import Model
    from domain.words.sentences import Names

WIDTH = 400
PAD = 8
INK = "#111827"
MUTED = "#374151"
"""Secondary text: still above 10:1 on white."""
CARD_W, CARD_H, GAP = 70, 80, 5
TAG_H = 20

PALETTE: dict[str, tuple[str, str]] = {
    "red": ("#fee2e2", "#b91c1c"),
    "blue": ("#dbeafe", "#1d4ed8"),
    "green": ("#dcfce7", "#15803d"),
    "gold": ("#fef3c7", "#a16207"),
    "yellow": ("#fef9c3", "#a16207"),
    "orange": ("#ffedd5", "#c2410c"),
    "purple": ("#f3e8ff", "#7e22ce"),
    "black": ("#d1d5db", "#111827"),
    "brown": ("#efe6dc", "#7c4a1e"),
    "grey": ("#f1f5f9", "#475569"),
    "pink": ("#fce7f3", "#be185d"),
    "sky": ("#e0f2fe", "#0369a1"),
}
"""Colour name -> (fill, stroke).  Game colours map onto these (:data:`ALIASES`)."""

ALIASES: dict[str, str] = {
    "fire": "red",
    "water": "blue",
    "earth": "brown",
    "air": "sky",
    "material": "brown",
    "ore": "grey",
    "gossip": "pink",
    "magic": "purple",
    "power": "red",
    "fate": "gold",
    "meadow": "green",
    "forest": "green",
    "mountain": "grey",
    "field": "yellow",
    "village": "brown",
    "river": "blue",
}


class Drawn(str):
    """Markup this module wrote (escaped when it was written): kept verbatim."""


class Node:
    """An element being drawn: a tag, its attributes and its children.

    Why not ElementTree: a board has thousands of elements and a replay page
    draws 25 boards; writing them as text here is several times faster.
    Escaping stays in one place: :meth:`write` escapes every attribute value
    and every text child, and only :class:`Drawn` (what ``write`` itself
    produced) passes as it is.
    """

    __slots__ = ("attrs", "children", "tag")

    def __init__(self, tag: str, children: list[Node | str], attrs: dict[str, str]):
        self.tag, self.children, self.attrs = tag, children, attrs

    def append(self, child: Node | str) -> None:
        self.children.append(child)

    def insert(self, index: int, child: Node | str) -> None:
        self.children.insert(index, child)

    def set(self, name: str, value: object) -> None:
        self.attrs[name] = str(value)

    def write(self, out: list[str]) -> None:
        out.append(f"<{self.tag}")
        for name, value in self.attrs.items():
            safe = value if isinstance(value, Drawn) else escape(value)
            out.append(f' {name}="{safe}"')
        out.append(">")
        for child in self.children:
            if isinstance(child, Node):
                child.write(out)
            elif isinstance(child, Drawn):
                out.append(child)
            else:
                out.append(escape(child, quote=False))
        out.append(f"</{self.tag}>")

    def text(self) -> Drawn:
        out: list[str] = []
        self.write(out)
        return Drawn("".join(out))


def el(tag: str, *children: Node | str | int | None, **attrs: object) -> Node:
    """An element; ``class_`` sets ``class``, ``_`` in other names reads as
    ``-`` (``data_seat`` -> ``data-seat``); ``None`` children and values are
    left out.

    >>> el("text", "a < b", x=1, class_="n", data_target=None).text()
    '<text x="1" class="n">a &lt; b</text>'
    """
    return Node(
        tag,
        [c if isinstance(c, Node | str) else str(c) for c in children if c is not None],
        {_name(k): _value(v) for k, v in attrs.items() if v is not None},
    )


@lru_cache(maxsize=256)
def _name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _value(value: object) -> str:
    """A number needs no escaping (most attributes are coordinates)."""
    if isinstance(value, int | float):
        return Drawn(value)
    return str(value)


def colours(name: str | None) -> tuple[str, str]:
    """(fill, stroke) of a colour name; an unknown or absent one is grey."""
    key = ALIASES.get(name or "", name or "grey")
    return PALETTE.get(key, PALETTE["grey"])


def _text(x: float, y: float, content: str, size: int = 12, **attrs: object) -> Node:
    return el("text", content, x=round(x, 1), y=round(y, 1), font_size=size, **attrs)


def _fit(text: str, size: int, width: float) -> str:
    """``text`` cut with an ellipsis to about ``width`` units at ``size``."""
    most = max(1, int(width / (size * 0.58)))
    return text if len(text) <= most else text[: most - 1] + "…"


def wrap(text: str, size: int, width: float) -> list[str]:
    """``text`` broken at spaces into lines of about ``width`` units.

    >>> wrap("round 2 · play · Artifact stack 9 cards", 12, 120)
    ['round 2 · play ·', 'Artifact stack 9', 'cards']
    """
    most = max(4, int(width / (size * 0.58)))
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > most:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [_fit(x, size, width) for x in lines] or [""]


class Pen:
    """Draws down a column: each call adds below what is there (``y``)."""

    def __init__(self, parent: Node, x: float, width: float, y: float) -> None:
        self.parent, self.x, self.width, self.y = parent, x, width, y

    def lines(
        self, text: str, size: int = 12, colour: str = INK, **attrs: object
    ) -> None:
        for line in wrap(text, size, self.width):
            self.y += size + 3
            self.parent.append(_text(self.x, self.y, line, size, fill=colour, **attrs))
        self.y += 2

    def zones(self, zones: tuple[Zone, ...]) -> None:
        """``zones`` down the column; a zone of one row of cards goes beside
        the one before it when both fit the width (an Artifact beside the
        cards played for it), so a phone scrolls less."""
        used, top, bottom = 0.0, self.y, self.y
        for zone in zones:
            width = self._narrow(zone)
            if width is not None and used and used + 3 * GAP + width <= self.width:
                pen = Pen(self.parent, self.x + used + 3 * GAP, width, top)
                used += 3 * GAP + width
            else:
                top = bottom
                pen = Pen(self.parent, self.x, width or self.width, top)
                used = self.width if width is None else width
            pen.zone(zone)
            bottom = max(bottom, pen.y)
        self.y = bottom

    def _narrow(self, zone: Zone) -> float | None:
        """The width of a zone that is one row of cards, else ``None``."""
        if zone.grid is not None or zone.compact:
            return None
        count = len(zone.pieces) + (1 if zone.face_down else 0)
        head = zone.title + (f" ({zone.note})" if zone.note else "")
        title = min(len(head) * 11 * 0.6 + 4, self.width)
        width = max(count * (CARD_W + GAP) - GAP, title)
        return width if width <= self.width else None

    def zone(self, zone: Zone) -> None:
        group = el("g", class_="zone", data_target=zone.targets or None)
        self.parent.append(group)
        head = zone.title + (f" ({zone.note})" if zone.note else "")
        inner = Pen(group, self.x, self.width, self.y)
        inner.lines(head, 11, MUTED, font_weight="bold")
        if zone.grid is not None:
            inner.grid(zone.grid)
        if zone.compact:
            inner.tags(zone.pieces)
        else:
            inner.cards(zone.pieces, zone.face_down)
        if zone.compact and zone.face_down:
            inner.cards((), zone.face_down)
        if zone.empty:
            inner.lines("none", 11, MUTED)
        if zone.targets:
            # the whole zone takes a click, not only its drawn text and cards
            # (a lane with nothing in it is mostly blank)
            group.insert(
                0,
                el(
                    "rect",
                    x=round(self.x, 1),
                    y=round(self.y, 1),
                    width=round(self.width, 1),
                    height=round(inner.y - self.y, 1),
                    fill="none",
                    pointer_events="all",
                ),
            )
        self.y = inner.y + 2

    def cards(self, pieces: tuple[Piece, ...], face_down: int) -> None:
        per_row = max(1, int((self.width + GAP) // (CARD_W + GAP)))
        drawn = [_card(p) for p in pieces]
        if face_down:
            drawn.append(_back(face_down))
        for i, card in enumerate(drawn):
            col, row = i % per_row, i // per_row
            x = self.x + col * (CARD_W + GAP)
            y = self.y + 2 + row * (CARD_H + GAP)
            card.set("transform", f"translate({round(x, 1)},{round(y, 1)})")
            self.parent.append(card)
        if drawn:
            rows = (len(drawn) + per_row - 1) // per_row
            self.y += 2 + rows * (CARD_H + GAP)

    def tags(self, pieces: tuple[Piece, ...]) -> None:
        x, y = self.x, self.y + 2
        for piece in pieces:
            text = _fit(" ".join((piece.label, *piece.detail)), 11, self.width - 12)
            w = min(self.width, len(text) * 11 * 0.58 + 12)
            if x + w > self.x + self.width and x > self.x:
                x, y = self.x, y + TAG_H + 4
            fill, stroke = colours(piece.colour)
            tag = el(
                "g",
                el("title", piece.words),
                el(
                    "rect",
                    width=round(w, 1),
                    height=TAG_H,
                    rx=4,
                    fill=fill,
                    stroke=stroke,
                    stroke_dasharray="3 2" if piece.marked else None,
                ),
                _text(6, 14, text, 11, fill=INK),
                class_=f"piece tag {piece.marked}".strip(),
                transform=f"translate({round(x, 1)},{round(y, 1)})",
                data_target=piece.targets or None,
            )
            self.parent.append(tag)
            x += w + 4
        if pieces:
            self.y = y + TAG_H + 4

    def grid(self, grid: Grid) -> None:
        cols = max((len(r) for r in grid.rows), default=0)
        if not cols:
            return
        size = min(22.0, (self.width - 2) / cols)
        top = self.y + 2
        group = el("g", class_="grid")
        for r, row in enumerate(grid.rows):
            for c, cell in enumerate(row):
                if cell.blank:
                    continue
                fill, stroke = (
                    colours(cell.colour) if cell.colour else ("#ffffff", "#94a3b8")
                )
                x, y = self.x + c * size, top + r * size
                group.append(
                    el(
                        "g",
                        el("title", cell.words) if cell.words else None,
                        el(
                            "rect",
                            x=round(x, 1),
                            y=round(y, 1),
                            width=round(size, 1),
                            height=round(size, 1),
                            fill=fill,
                            stroke=stroke,
                            fill_opacity=0 if cell.blank else None,
                            stroke_opacity=0 if cell.blank else None,
                        ),
                        _text(
                            x + size / 2,
                            y + size * 0.7,
                            cell.text,
                            max(8, int(size * 0.5)),
                            fill=INK,
                            text_anchor="middle",
                        )
                        if cell.text
                        else None,
                        class_="cell",
                        data_target=cell.targets or None,
                    )
                )
        self.parent.append(group)
        self.y = top + len(grid.rows) * size + 2
        if grid.legend:
            self.lines(grid.legend, 10, MUTED)


def _card(piece: Piece) -> Node:
    """A card at the origin (the caller places it): its frame and face are
    the same wherever it lies, so they are written once per piece."""
    return el(
        "g",
        _face(piece),
        class_=f"piece card {piece.marked}".strip(),
        data_target=piece.targets or None,
    )


@lru_cache(maxsize=4096)
def _face(piece: Piece) -> Drawn:
    """The inside of a card's ``<g>``: title, frame, label and details."""
    fill, stroke = colours(piece.colour)
    destroyed = piece.marked == "destroyed"
    size = 15 if len(piece.label) <= 6 else 12 if len(piece.label) <= 9 else 11
    details: list[str] = []
    for line in piece.detail:
        details += wrap(line, 10, CARD_W - 6)
    inside = el(
        "g",
        el("title", piece.words),
        el(
            "rect",
            width=CARD_W,
            height=CARD_H,
            rx=6,
            fill=fill,
            stroke=stroke,
            stroke_width=2,
            stroke_dasharray="5 3" if piece.marked else None,
        ),
        _text(
            CARD_W / 2,
            20,
            _fit(piece.label, size, CARD_W - 6),
            size,
            fill=INK,
            font_weight="bold",
            text_anchor="middle",
        ),
        *(
            _text(CARD_W / 2, 35 + 11 * i, line, 10, fill=INK, text_anchor="middle")
            for i, line in enumerate(details[:4])
        ),
        el("line", x1=4, y1=CARD_H - 4, x2=CARD_W - 4, y2=4, stroke=INK, stroke_width=2)
        if destroyed
        else None,
    ).text()
    return Drawn(inside[len("<g>") : -len("</g>")])


def _back(count: int) -> Node:
    words = f"{count} card{'s' if count != 1 else ''} face down"
    return el(
        "g",
        el("title", words),
        el("rect", width=CARD_W, height=CARD_H, rx=6, fill="#475569", stroke=INK),
        _text(
            CARD_W / 2,
            32,
            f"×{count}",
            16,
            fill="#ffffff",
            text_anchor="middle",
            font_weight="bold",
        ),
        _text(CARD_W / 2, 52, "face", 10, fill="#ffffff", text_anchor="middle"),
        _text(CARD_W / 2, 64, "down", 10, fill="#ffffff", text_anchor="middle"),
        class_="piece back",
        data_count=count,
    )


def _section(section: Section, y: float) -> tuple[Node, float]:
    group = el(
        "g",
        class_="section seat" if section.seat is not None else "section",
        data_seat=section.seat,
        data_target=section.targets or None,
    )
    pen = Pen(group, PAD + 8, WIDTH - 2 * PAD - 16, y + 2)
    pen.lines(section.title, 14, INK, font_weight="bold")
    if section.facts:
        pen.lines(" · ".join(section.facts), 12, MUTED)
    pen.zones(section.zones)
    height = pen.y - y + 6
    group.insert(
        0,
        el(
            "rect",
            x=PAD,
            y=round(y, 1),
            width=WIDTH - 2 * PAD,
            height=round(height, 1),
            rx=8,
            fill="#eff6ff" if section.highlight else "#ffffff",
            stroke="#1d4ed8" if section.highlight else "#94a3b8",
            stroke_width=2 if section.highlight else 1,
        ),
    )
    return group, y + height


def draw(board: Board) -> str:
    """``board`` as an SVG element (text), with its words as ``<desc>``."""
    root = el(
        "svg",
        el("title", board.title),
        el("desc", "\n".join(layout_lines(board))),
        xmlns="http://www.w3.org/2000/svg",
        class_=f"board board-{board.game}",
        role="img",
        width="100%",
        font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    )
    pen = Pen(root, PAD, WIDTH - 2 * PAD, PAD - 4)
    pen.lines(board.title, 15, INK, font_weight="bold")
    if board.facts:
        pen.lines(" · ".join(board.facts), 12, MUTED)
    y = pen.y + 4
    for section in board.sections:
        group, y = _section(section, y)
        root.append(group)
        y += 6
    root.set("viewBox", f"0 0 {WIDTH} {round(y + PAD)}")
    return str(root.text())


def drawing(
    view_model: type[Model], layout: Callable[[Any, Names], Board]
) -> Callable[[Model, Mapping[int, str]], str]:
    """A game's ``Ruleset.board`` from its layout: the view laid out, then drawn.

    The layout is typed for its game's view; the board takes any view (as
    ``Ruleset.board`` does) and checks the class, so a board handed another
    game's view fails loudly.

    :raises TypeError: (from the board) for a view not of ``view_model``.
    """

    def board(view: Model, names: Mapping[int, str]) -> str:
        if not isinstance(view, view_model):
            raise TypeError(
                f"{layout.__module__} draws a {view_model.__name__},"
                f" not a {type(view).__name__}"
            )
        return draw(layout(view, names))

    board.__doc__ = f"The table of ``{layout.__module__}`` drawn as SVG."
    return board
