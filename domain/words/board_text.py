"""Boards in words, for a terminal: a view as a few short lines.

Why from the same layout as the drawn board (:mod:`domain.words.board_layout`):
``ledger play`` and the dashboard then say the same thing in the same
words (a card is ``r05@1 (Remnant, strength 5, red)`` in both, Thorgal's
goods are named, not a row of counts).  A game without a layout gets its
view's plain fields on a first line and one line per part of each list.

Drawn from a *view* the caller was given, never from a state, so it can only
say what that viewer may see; a hidden zone reads as its size, face down.
"""

from __future__ import annotations

from pydantic import BaseModel

from domain.words.board_layout import Board, Zone, layout_for
from domain.words.sentences import (
    Names,
    fields_words,
    listing,
    seat_name,
    value_words,
    words,
)

#: View fields that list seats (read as names, like ``seats`` in sentences).
SEAT_LISTS = frozenset({"to_act", "winners"})


def board_lines(view: BaseModel, names: Names) -> list[str]:
    """``view`` as lines: its game's layout (:func:`layout_lines`), or, for a
    game without one, its plain fields first, then each list of parts.

    >>> from pydantic import BaseModel
    >>> class Player(BaseModel):
    ...     seat: int
    ...     score: int
    >>> class View(BaseModel):
    ...     round: int
    ...     players: tuple[Player, ...]
    >>> board_lines(View(round=2, players=(Player(seat=0, score=3),)), {0: "ann"})
    ['round 2', 'players:', '  - seat ann, score 3']
    """
    layout = layout_for(view)
    if layout is not None:
        return layout_lines(layout(view, names))
    plain: list[str] = []
    parts: list[str] = []
    for name in type(view).model_fields:
        value = getattr(view, name)
        if name == "hidden" or value is None or value == () or value == "":
            continue
        if isinstance(value, tuple) and all(isinstance(v, BaseModel) for v in value):
            parts.append(f"{words(name)}:")
            parts.extend(
                f"  - {fields_words(item, names) or words(type(item).__name__)}"
                for item in value
            )
        elif name in SEAT_LISTS and isinstance(value, tuple):
            plain.append(
                f"{words(name)} {listing([seat_name(names, s) for s in value])}"
            )
        else:
            plain.append(f"{words(name)} {value_words(value, names, name)}")
    return ([", ".join(plain)] if plain else []) + parts


def layout_lines(board: Board) -> list[str]:
    """A laid-out board as lines: its title and facts, then each section
    (title and facts) with one indented line per zone.

    >>> from domain.words.board_layout import Piece, Section
    >>> b = Board("g", "Round 1", ("play",), (Section("rita", ("3 VP",), (
    ...     Zone("hand", (Piece("5", "r05@0 (strength 5, red)"),), face_down=0),
    ...     Zone("supply", face_down=13),)),))
    >>> layout_lines(b)
    ['Round 1: play', 'rita: 3 VP', '  hand: r05@0 (strength 5, red)', '  supply: 13 cards face down']
    """
    lines = [_headed(board.title, board.facts)]
    for section in board.sections:
        lines.append(_headed(section.title, section.facts))
        lines.extend(f"  {line}" for zone in section.zones for line in _zone(zone))
    return lines


def _headed(title: str, facts: tuple[str, ...]) -> str:
    return f"{title}: {' · '.join(facts)}" if facts else title


def _zone(zone: Zone) -> list[str]:
    said = [p.words for p in zone.pieces]
    if zone.face_down:
        said.append(
            f"{zone.face_down} card{'s' if zone.face_down != 1 else ''} face down"
        )
    head = zone.title + (f" ({zone.note})" if zone.note else "")
    shown = ", ".join(said) if said else ("" if zone.grid is not None else "none")
    out = [f"{head}: {shown}".rstrip(": ") if not shown else f"{head}: {shown}"]
    if zone.grid is not None:
        if zone.grid.legend:
            out.append(f"  {zone.grid.legend}")
        out.extend(
            "  " + " ".join(" " if c.blank else (c.text or ".") for c in row)
            for row in zone.grid.rows
        )
    return out
