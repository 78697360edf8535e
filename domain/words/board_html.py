"""Markup built as element trees, and the board of a game that draws none.

Why ElementTree and not string templates: each fragment is built as an
element tree and serialised once, so every text and attribute is escaped by
the serialiser (a card or player name such as ``<b>`` stays text) and the
fragment is always well-formed; no game can forget an ``escape`` call.  The
drawn boards (:mod:`domain.words.board_svg`) are built with :func:`el` too.

:func:`board` is the fallback for a game without a board of its own: its
view's fields in words, drawn from a *view* (``Ruleset.view(state,
viewer)``), never from the state.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from domain.words.sentences import fields_words

if TYPE_CHECKING:
    from domain.contract.core import Model, Ruleset


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


def _fragment(game: str, paragraph: ET.Element) -> str:
    return render(el("section", paragraph, class_=f"board board-{game}"))


def board(ruleset: Ruleset[Any], view: Model, names: Mapping[int, str]) -> str:
    """The game's board for ``view`` (a view the caller was given), as a
    fragment of a page: the game's drawing (inline SVG, :mod:`domain.words.board_svg`),
    or, for a game without a ``board`` of its own, its view's fields in words.
    """
    if ruleset.board is not None:
        return ruleset.board(view, names)
    return _fragment(ruleset.name, el("p", fields_words(view, names)))
