"""Click targets: how a drawn thing on a board names the moves that select it.

The contract between the boards (:mod:`domain.words.board_svg`) and a page
that lets a person move by clicking the table:

- A drawn thing a move can select carries ``data-target``: a
  space-separated list of *alternatives*.
- An alternative is one or more ``field:value`` pairs joined by ``,``:
  ``card:r05@1``, or ``location:keep,index:0`` for the first Enemy token at
  the keep.
- ``field`` is the name of a field of the command, at any depth (a nested
  model's own field name: ``card`` of Terralore's ``Play``, ``location`` of
  Thorgal's ``Choose.option.pick_location``); ``value`` is the value as the
  command carries it (strings verbatim, integers in decimal, booleans
  ``true``/``false``, an enum by its value).  Each element of a list field
  is a pair of its own (``cards:r05@1``).
- A move *selects* the thing when every pair of one of its alternatives is
  among the move's pairs (:func:`selects`).

So a Thalara hand card ``card:r05@1 cards:r05@1`` is selected by the
``PlayCard`` that plays it and by a ``ReturnRemnants`` that returns it.
Targets name what a thing *is*, not whether a move may use it now: the
page filters the legal moves it was given, and the board, drawn from a view
alone, knows nothing of legality.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel


def command_pairs(command: BaseModel) -> frozenset[str]:
    """Every ``field:value`` pair of ``command``, at any depth.

    >>> from pydantic import BaseModel
    >>> class Play(BaseModel):
    ...     card: str
    ...     lane: str
    >>> class Place(BaseModel):
    ...     plays: tuple[Play, ...]
    ...     discards: tuple[str, ...]
    >>> sorted(command_pairs(Place(plays=(Play(card="imp", lane="attacking"),),
    ...                            discards=("hound",))))
    ['card:imp', 'discards:hound', 'lane:attacking']
    """
    return frozenset(_pairs(command))


def _pairs(model: BaseModel) -> Iterator[str]:
    for name in type(model).model_fields:
        yield from _values(name, getattr(model, name))


def _values(name: str, value: Any) -> Iterator[str]:
    if value is None:
        return
    if isinstance(value, BaseModel):
        yield from _pairs(value)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _values(name, item)
    else:
        yield f"{name}:{scalar(value)}"


def scalar(value: object) -> str:
    """A value as a target spells it.

    >>> scalar(True), scalar(3), scalar("a13")
    ('true', '3', 'a13')
    """
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def targets(*alternatives: str | None) -> str:
    """The ``data-target`` value of a piece: its alternatives, space-separated
    (``None`` and empty ones left out); see the module docstring.

    >>> targets("card:r05@1", None, "cards:r05@1")
    'card:r05@1 cards:r05@1'
    """
    return " ".join(a for a in alternatives if a)


def pair(field_name: str, value: object) -> str:
    """``field:value`` as the command carries the value (ints in decimal,
    booleans ``true``/``false``).

    >>> pair("conflict", "a13"), pair("target", 2), pair("agree", True)
    ('conflict:a13', 'target:2', 'agree:true')
    """
    text = scalar(value)
    if not text or any(c in text for c in " ,"):
        raise ValueError(f"a target value has no space or comma: {text!r}")
    return f"{field_name}:{text}"


def alternatives(target: str) -> list[frozenset[str]]:
    """The alternatives of a ``data-target`` value, each a set of pairs."""
    return [frozenset(alt.split(",")) for alt in target.split() if alt]


def selects(target: str, command: BaseModel) -> bool:
    """Whether ``command`` selects the thing whose ``data-target`` is ``target``.

    >>> from pydantic import BaseModel
    >>> class PlayCard(BaseModel):
    ...     card: str
    ...     conflict: str
    >>> move = PlayCard(card="r05@1", conflict="a13")
    >>> selects("card:r05@1 cards:r05@1", move), selects("conflict:a02", move)
    (True, False)
    """
    pairs = command_pairs(command)
    return any(alt <= pairs for alt in alternatives(target))
