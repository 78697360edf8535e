"""What a move selects on the board: ``"field:value"`` targets of a command.

Why: a board drawn for a seat marks each selectable thing with
``data-target="<field>:<value>"``, named by the command field that selects it
and its value as the command carries it (``card:r05@1``, ``conflict:a13``,
``lane:attacking``).  A move listed beside the board carries the same strings
(``data-targets``), so a click on the board narrows the list to the moves
that select what was clicked, for every game, without a line of game code.

Scalars are the command's own fields; a field that holds a list contributes
each of its scalar items under the list's name, and a nested model (a
Terralore ``Play``) contributes its own fields under their own names (a
``Play(card="c1", lane="attacking")`` selects ``card:c1`` and
``lane:attacking``).  ``None`` and booleans select nothing.
"""

from __future__ import annotations

import enum
from typing import Any

from pydantic import BaseModel

#: Field names that tag a command's type rather than select anything.
TYPE_TAGS = frozenset({"type", "kind", "command"})


def move_targets(command: BaseModel) -> tuple[str, ...]:
    """Every ``"field:value"`` ``command`` selects, in field order, once each.

    >>> from pydantic import BaseModel
    >>> class Play(BaseModel):
    ...     card: str
    ...     lane: str
    >>> class Place(BaseModel):
    ...     plays: tuple[Play, ...] = ()
    ...     discards: tuple[str, ...] = ()
    ...     pass_: bool = False
    >>> move_targets(Place(plays=(Play(card="c1", lane="attacking"),), discards=("c2",)))
    ('card:c1', 'lane:attacking', 'discards:c2')
    """
    found: dict[str, None] = {}
    _collect(command, found)
    return tuple(found)


def _collect(model: BaseModel, found: dict[str, None]) -> None:
    for name in type(model).model_fields:
        if name in TYPE_TAGS:
            continue
        _add(name, getattr(model, name), found)


def _add(name: str, value: Any, found: dict[str, None]) -> None:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, BaseModel):
        _collect(value, found)
    elif isinstance(value, list | tuple | frozenset | set):
        for item in value:
            _add(name, item, found)
    elif isinstance(value, enum.Enum):
        found[f"{name}:{value.value}"] = None
    elif isinstance(value, str | int):
        found[f"{name}:{value}"] = None
