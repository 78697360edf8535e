"""Boards as HTML fragments: the builder every game's ``board.py`` draws with.

Why ElementTree and not string templates: each board is built as an element
tree and serialised once, so every text and attribute is escaped by the
serialiser (a card or player name such as ``<b>`` stays text) and the
fragment is always well-formed; no game can forget an ``escape`` call.

A board is drawn from a *view* (``Ruleset.view(state, viewer)``), never from
the state, so it can only show what that viewer may see.  A hidden list is
drawn as its size, face down: ``<ol class="cards hidden" data-count="7">``
with no card in it.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from domain.words.sentences import Names, fields_words, seat_name

if TYPE_CHECKING:
    from domain.contract.core import Model, Ruleset

V = TypeVar("V", bound="Model")


def el(
    tag: str, *children: ET.Element | str | int | None, **attrs: object
) -> ET.Element:
    """An element with ``children`` (elements, or text; ``None`` is skipped).

    ``class_`` sets ``class``; other attributes keep their names with ``_``
    read as ``-`` (``data_seat`` -> ``data-seat``); ``None`` values are left out.

    >>> render(el("p", "a < b", el("b", "c"), class_="x"))
    '<p class="x">a &lt; b<b>c</b></p>'
    """
    node = ET.Element(tag)
    for key, value in attrs.items():
        if value is not None:
            node.set(key.rstrip("_").replace("_", "-"), str(value))
    last: ET.Element | None = None
    for child in children:
        if child is None:
            continue
        if isinstance(child, ET.Element):
            node.append(child)
            last = child
        elif last is None:
            node.text = (node.text or "") + str(child)
        else:
            last.tail = (last.tail or "") + str(child)
    return node


def render(node: ET.Element) -> str:
    """The fragment as text (XHTML: parseable as XML and as HTML)."""
    return ET.tostring(
        node, encoding="unicode", method="xml", short_empty_elements=False
    )


def cards(
    items: Sequence[str], count: int | None = None, kind: str = "cards"
) -> ET.Element:
    """A list of cards face up, or, when the viewer may not see them (``items``
    empty but ``count`` > 0), face down as a count."""
    size = len(items) if count is None else count
    if not items and size:
        return el("ol", f"{size} face down", class_=f"{kind} hidden", data_count=size)
    return el(
        "ol",
        *(el("li", item, class_="card") for item in items),
        class_=kind,
        data_count=size,
    )


def facts(named: Mapping[str, object]) -> ET.Element:
    """A small definition list of ``{name: value}`` in order (``None`` values skipped).

    A mapping, because a board names each fact once; a value of ``None`` is a
    fact this viewer or moment has not got (no result yet, nothing committed).
    """
    dl = el("dl", class_="facts")
    for name, value in named.items():
        if value is None:
            continue
        dl.append(el("dt", name))
        dl.append(el("dd", str(value)))
    return dl


def titled(title: str, *content: ET.Element | None) -> tuple[ET.Element | None, ...]:
    """``<h5>title</h5>`` and what it titles: one zone of a board (a hand, a row).

    Spread into the parent: ``el("li", *titled("hand", cards(p.hand)))``.
    """
    return (el("h5", title), *content)


class Seated(Protocol):
    """A seat's part of a view (a player, a hero): it knows its seat."""

    @property
    def seat(self) -> int: ...


def seat_entry(
    part: Seated,
    heading: str,
    names: Names,
    named: Mapping[str, object],
    *children: ET.Element | None,
) -> ET.Element:
    """One seat of a board, drawn from that seat's ``part`` of the view:
    ``<li class="seat" data-seat="N">`` headed by the player's name and
    ``heading`` (``rita · Myrja``), then its :func:`facts` ``named``, then
    ``children`` (its zones of cards)."""
    return el(
        "li",
        el("h4", f"{seat_name(names, part.seat)} · {heading}"),
        facts(named),
        *children,
        class_="seat",
        data_seat=part.seat,
    )


def seat_list(entries: Iterable[ET.Element]) -> ET.Element:
    """The board's seats in seat order: ``<ol class="seats">``."""
    return el("ol", *entries, class_="seats")


def table(named: Mapping[str, object], *parts: ET.Element | None) -> ET.Element:
    """A whole board, the element every board is: ``<section class="board">``
    holding the table's :func:`facts` ``named`` (none when empty), then
    ``parts``; :func:`drawn_from` names the game on it and renders it."""
    return el("section", facts(named) if named else None, *parts, class_="board")


def drawn_from(
    view_model: type[V], game: str
) -> Callable[[Callable[[V, Names], ET.Element]], Callable[[Model, Names], str]]:
    """A game's ``board(view, names)`` as ``Ruleset.board``, which takes any view.

    The game's function is typed for its own view model and draws its
    :func:`table`; the wrapper checks the class, so a board handed another
    game's view fails loudly, and renders the table as the fragment every
    board is, ``<section class="board board-<game>">``.

    :raises TypeError: (from the wrapper) for a view not of ``view_model``.
    """

    def wrap(draw: Callable[[V, Names], ET.Element]) -> Callable[[Model, Names], str]:
        @functools.wraps(draw)
        def board(view: Model, names: Names) -> str:
            if not isinstance(view, view_model):
                raise TypeError(
                    f"{draw.__module__}.board draws a {view_model.__name__},"
                    f" not a {type(view).__name__}"
                )
            return _fragment(game, draw(view, names))

        return board

    return wrap


def _fragment(game: str, section: ET.Element) -> str:
    section.set("class", f"board board-{game}")
    return render(section)


def board(ruleset: Ruleset[Any], view: Model, names: Mapping[int, str]) -> str:
    """The game's board for ``view`` (a view the caller was given), as a fragment.

    A game without a ``board`` of its own gets its view's fields in words.
    """
    if ruleset.board is not None:
        return ruleset.board(view, names)
    return _fragment(ruleset.name, table({}, el("p", fields_words(view, names))))
