"""A board as pieces and words, before it is drawn: what both renderers share.

Why a layout between a view and its drawing: the dashboard draws a board as
SVG (:mod:`domain.words.board_svg`) and ``ledger play`` prints it as lines
(:mod:`domain.words.board_text`); each game lays its view out once, as
sections (a conflict, a seat, the Atlas), zones (a hand, a lane, a row) and
pieces (a card, a token), each piece with its words already written
("r05@1: Remnant, strength 5, red").  So the terminal and the page say the
same thing, and a game's rules of what to show live in one function.

A layout is made from a *view* only (the model ``Ruleset.view`` gave a
viewer), never from the state, so it cannot hold what that viewer may not
see; a hidden zone is a count of cards face down (``Zone.face_down``).

Click targets (``targets`` on pieces, zones, sections and grid cells) follow
the contract of :mod:`domain.words.targets`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from domain.words.sentences import Names, words

if TYPE_CHECKING:
    from pydantic import BaseModel

V = TypeVar("V", bound="BaseModel")


@dataclass(frozen=True)
class Piece:
    """One drawn thing: a card, a token, a Land, an Action chip.

    ``label`` is the big text on its face (a strength, a name), ``detail`` the
    small lines under it (a colour, a cost), ``words`` the whole piece in one
    phrase (the text board's and the tooltip's), so the face may abbreviate
    but never says what ``words`` does not.
    """

    label: str
    words: str
    detail: tuple[str, ...] = ()
    colour: str | None = None
    """A colour name (:data:`domain.words.board_svg.PALETTE`), also spelled in ``words``."""
    targets: str = ""
    marked: str = ""
    """A state that changes how it is drawn: ``destroyed``, ``used``, ``face down``."""


@dataclass(frozen=True)
class Cell:
    """One square of a grid (a Wound area, a Terrain card)."""

    text: str = ""
    """One or two characters printed in it (an icon letter, a tile's mark)."""
    colour: str | None = None
    words: str = ""
    targets: str = ""
    blank: bool = False
    """Not part of the grid (drawn as nothing)."""


@dataclass(frozen=True)
class Grid:
    rows: tuple[tuple[Cell, ...], ...]
    legend: str = ""
    """What the cells' letters mean, in words."""


@dataclass(frozen=True)
class Zone:
    """A place on the table holding pieces: a hand, a lane, a row, a pile."""

    title: str
    pieces: tuple[Piece, ...] = ()
    face_down: int = 0
    """Cards the viewer may not see: drawn as their count, face down."""
    note: str = ""
    """A short phrase after the title ("faces sam's defending lane")."""
    targets: str = ""
    grid: Grid | None = None
    compact: bool = False
    """Pieces drawn as small tags (piles the eye only skims: a discard)."""

    @property
    def empty(self) -> bool:
        return not self.pieces and not self.face_down and self.grid is None


@dataclass(frozen=True)
class Section:
    """A part of the table: a seat, a conflict, the Atlas's Area."""

    title: str
    facts: tuple[str, ...] = ()
    zones: tuple[Zone, ...] = ()
    targets: str = ""
    seat: int | None = None
    highlight: bool = False
    """Drawn stronger: the seat to act, the conflict just won."""


@dataclass(frozen=True)
class Board:
    game: str
    title: str
    facts: tuple[str, ...] = ()
    sections: tuple[Section, ...] = field(default=())


def end_facts(reason: str) -> tuple[str, ...]:
    """A finished game's reason as the board's last fact (``ended: castle
    destroyed``), or none while its view's reason is empty (the game runs).

    >>> end_facts("castle_destroyed"), end_facts("")
    (('ended: castle destroyed',), ())
    """
    return (f"ended: {words(reason)}",) if reason else ()


Layout = Callable[["BaseModel", Names], Board]

_LAYOUTS: dict[type, Layout] = {}


def laid_out(
    view_model: type[V],
) -> Callable[[Callable[[V, Names], Board]], Callable[[V, Names], Board]]:
    """Register a game's ``layout(view, names)`` for views of ``view_model``.

    Why a registry keyed by the view's class: ``ledger play`` holds a view and
    the seat names, not the ruleset's board hook, and the text board must be
    the same layout as the drawn one.  A game's board module registers when
    its ruleset loads (``kit.ruleset`` imports it).
    """

    def register(fn: Callable[[V, Names], Board]) -> Callable[[V, Names], Board]:
        _LAYOUTS[view_model] = fn  # type: ignore[assignment]
        return fn

    return register


def layout_for(view: BaseModel) -> Layout | None:
    """The registered layout of ``view``'s class (``None``: the game has none)."""
    return _LAYOUTS.get(type(view))
