"""What a seat's play page shows, in words and boards: one function each.

Why one function per thing drawn: the board (:func:`seat_board`, the game's
drawn SVG from the seat's own view) and a move's sentence
(:func:`move_sentence`, the game's own words from that view) are each made
here, once, and every play page and test follows.

Click targets follow :mod:`domain.words.targets`: a drawn thing's
``data-target`` lists alternatives of ``field:value`` pairs, and a listed
move carries its own pairs (``data-targets``), so the page narrows the list
to the moves that select what was clicked.
"""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.words import move_words
from domain.words.board_html import board
from domain.words.targets import command_pairs, selects

log = logging.getLogger(__name__)

#: Elements of a board that can be a target (drawn text of one card, lane...).
_MARKABLE = ("li", "td", "dd", "span", "b", "code", "strong")


def move_sentence(
    ruleset: Any, command: Any, seat: int, view: Any, names: Mapping[int, str]
) -> str:
    """A legal move of ``seat`` as that seat reads it (``view``: its own);
    should a game's words fail, the plain ones (logged), as ListLegalMoves
    does: a wording bug must not cost the player the list of moves."""
    try:
        return move_words.move_sentence(ruleset, command, seat, view, names)
    except Exception:
        log.exception("%s: no words for %r", ruleset.name, command)
        return move_words.plain_move(command, seat, names)


def move_targets(command: Any) -> list[str]:
    """The ``field:value`` pairs ``command`` selects, in a stable order."""
    return sorted(command_pairs(command))


def seat_board(
    ruleset: Any, view: Any, names: Mapping[int, str], targets: Sequence[str]
) -> str:
    """The board a seat sees (drawn from its own view), each drawn thing that
    one of ``targets`` names marked ``data-target="field:value"``, focusable."""
    drawn = board(ruleset, view, names)
    if drawn.startswith("<svg"):
        return pressable(drawn)
    return mark_targets(drawn, targets)


SVG = "http://www.w3.org/2000/svg"


def pressable(svg: str) -> str:
    """A drawn board whose targets a keyboard reaches: each innermost thing
    with a ``data-target`` becomes a focusable ``role="button"`` (its
    ``<title>`` names it), and the drawing a ``group`` rather than an
    ``img`` (whose parts a screen reader would not enter).

    Why innermost only: a conflict drawn around its cards carries the
    conflict's target too, and a button inside a button is neither
    operable nor announced; each card there names the conflict as well.
    """
    ET.register_namespace("", SVG)
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return svg
    root.set("role", "group")
    for node in root.iter():
        if "data-target" not in node.attrib:
            continue
        if any("data-target" in d.attrib for d in node.iter() if d is not node):
            continue
        node.set("tabindex", "0")
        node.set("role", "button")
    return ET.tostring(root, encoding="unicode", short_empty_elements=False)


def mark_targets(fragment: str, targets: Sequence[str]) -> str:
    """``fragment`` with ``data-target`` on each element whose whole text is a
    target's value; of the fields that carry that value, the one most moves
    select it by (``targets`` lists each move's, repeats included).

    Why by text: the HTML boards draw a card, a lane or a conflict as an
    element holding its id, so the value the command carries is the text the
    board shows; the SVG boards mark their own.
    """
    counts = Counter(targets)
    by_value: dict[str, str] = {}
    for target, _ in counts.most_common():
        by_value.setdefault(target.partition(":")[2], target)
    if not by_value or not fragment:
        return fragment
    try:
        root = ET.fromstring(f"<root>{fragment}</root>")
    except ET.ParseError:
        return fragment
    for node in list(root.iter()):
        if node.tag in ("ol", "ul") and not len(node) and (node.text or "").strip():
            # a list drawn as its size ("4 face down"): one item, so the
            # list is still a list to a screen reader
            item = ET.SubElement(node, "li")
            item.text, node.text = node.text, None
            continue
        if node.tag not in _MARKABLE or len(node):
            continue
        text = (node.text or "").strip()
        if text in by_value:
            # a button inside the drawn thing: focusable, pressed by Enter
            # or Space, and the list it sits in stays a list
            button = ET.SubElement(
                node,
                "button",
                {
                    "type": "button",
                    "class": "target",
                    "data-target": by_value[text],
                    "aria-label": f"show the moves with {text}",
                },
            )
            button.text, node.text = node.text, None
    return (root.text or "") + "".join(
        ET.tostring(child, encoding="unicode", short_empty_elements=False)
        for child in root
    )


#: Moves whose targets mark the board, at most (spread over the whole list).
BOARD_SAMPLE = 2000


def board_targets(commands: Sequence[Any]) -> list[str]:
    """The targets of a spread of ``commands`` (repeats kept, for
    :func:`mark_targets`' majority): a Thalara hand choice has tens of
    thousands of moves, and every card is in some of every stretch."""
    step = max(1, len(commands) // BOARD_SAMPLE)
    return [t for c in commands[::step] for t in move_targets(c)]


def moves_listed(
    ruleset: Any,
    commands: Sequence[Any],
    seat: int,
    view: Any,
    names: Mapping[int, str],
    limit: int,
    query: str = "",
    target: str = "",
) -> tuple[list[dict[str, Any]], bool]:
    """``([{index, sentence, targets}], complete)``: up to ``limit`` of
    ``seat``'s moves that match ``query`` (words of the sentence) and
    ``target`` (a clicked thing they select, :func:`domain.words.targets.selects`),
    in list order; ``complete`` when none was left out.

    Each move is worded only when it is looked at, and the search stops at
    ``limit``: the page of a 77,520-move hand choice words 300.
    """
    rows: list[dict[str, Any]] = []
    for i, command in enumerate(commands):
        if target and not selects(target, command):
            continue
        targets = move_targets(command)
        words = move_sentence(ruleset, command, seat, view, names)
        if query and query not in words.lower():
            continue
        if len(rows) == limit:
            return rows, False
        rows.append({"index": i, "sentence": words, "targets": " ".join(targets)})
    return rows, True
