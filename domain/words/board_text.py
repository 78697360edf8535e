"""Boards in words, for a terminal: a view as a few short lines.

Why a separate renderer from :mod:`domain.words.board_html`: a terminal cannot
draw the HTML fragments, and one line of every field (``fields_words``) runs
to hundreds of characters for a Thalara table.  So the view's plain fields
share a first line, and each list of parts (players, conflicts, lands) gets a
heading and one line per part.

Drawn from a *view* the caller was given, never from a state, so it can only
say what that viewer may see; a hidden list reads as its size.
"""

from __future__ import annotations

from pydantic import BaseModel

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
    """``view`` as lines: its plain fields first, then each list of parts.

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
