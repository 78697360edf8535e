"""What a seat's play page shows, in words and boards: one function each.

Why one function per thing drawn: the board (:func:`seat_board`) and a
move's sentence (:func:`move_sentence`) have richer versions on their way
(SVG boards, a game's own ``describe_move``); each is swapped here, once,
and every play page and test follows.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.words.board_html import board
from domain.words.sentences import plain_sentence
from domain.words.targets import move_targets

#: Elements of a board that can be a target (drawn text of one card, lane...).
_MARKABLE = ("li", "td", "dd", "span", "b", "code", "strong")


def move_sentence(command: Any, names: Mapping[int, str]) -> str:
    """A legal move as ``ledger play`` lists it."""
    return plain_sentence(command, names)


def seat_board(
    ruleset: Any, view: Any, names: Mapping[int, str], targets: Sequence[str]
) -> str:
    """The board a seat sees (drawn from its own view), each drawn thing that
    one of ``targets`` names marked ``data-target="field:value"``, focusable."""
    drawn = board(ruleset, view, names)
    return mark_targets(drawn, targets)


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


def moves_listed(
    commands: Sequence[Any], names: Mapping[int, str]
) -> list[dict[str, Any]]:
    """``[{index, sentence, targets}]`` for the page's move list."""
    return [
        {
            "index": i,
            "sentence": move_sentence(c, names),
            "targets": " ".join(move_targets(c)),
        }
        for i, c in enumerate(commands)
    ]
