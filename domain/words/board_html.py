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

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
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


def facts(pairs: Iterable[tuple[str, object]]) -> ET.Element:
    """A small definition list: ``name: value`` pairs (``None`` values skipped)."""
    dl = el("dl", class_="facts")
    for name, value in pairs:
        if value is None:
            continue
        dl.append(el("dt", name))
        dl.append(el("dd", str(value)))
    return dl


def board(ruleset: Ruleset[Any], view: Model, names: Mapping[int, str]) -> str:
    """The game's board for ``view`` (a view the caller was given), as a fragment.

    A game without a ``board`` of its own gets its view's fields in words.
    """
    if ruleset.board is not None:
        return ruleset.board(view, names)
    return render(
        el(
            "section",
            el("p", fields_words(view, names)),
            class_=f"board board-{ruleset.name}",
        )
    )
