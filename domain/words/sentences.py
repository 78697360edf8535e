"""Words for events: the vocabulary every ruleset's ``describe`` shares.

A replay read by a person is a log of sentences ("sam plays r18 on a10"),
not event bodies.  Each game says what its own events mean in its
``describe.py``; what they all need is here, once: how a seat is named, how
a list of cards reads, and a plain sentence for any event a ruleset has not
worded (the default of ``Ruleset.describe``, so a game registered from
elsewhere still reads as words).

Seats are named for people: the player's name when the game has one, else
"seat 1" counted from 1, as people count.  The API keeps 0-based seat
numbers; only these sentences (and other text for people) count from 1.

Every sentence is written from an event *already redacted* for its viewer
(``Ruleset.redact``), so it can only say what that viewer may see: a hidden
field is empty there, and a sentence falls back to counting ("rita selects
7 cards").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any

from pydantic import BaseModel

Names = Mapping[int, str]
"""Seat -> the name of the player sitting there (missing: "seat N", 1-based)."""

SEAT_FIELDS = frozenset(
    {
        "seat",
        "owner",
        "thief",
        "victim",
        "from_seat",
        "starter",
        "first",
        "winner",
        "current",
        "caster",
        "last_player",
    }
)
"""Field names that hold one seat number, in every game's events and views."""

SEAT_LISTS = frozenset(
    {"seats", "to_act", "winners", "fighter_pending", "absent", "done"}
)
"""Field names that hold a list of seat numbers (read as the seats' names)."""


def seat_name(names: Names, seat: int | None) -> str:
    """How a person reads ``seat``: its player's name, else "seat N" (1-based).

    A negative seat (a model's "no seat yet", ``-1``) reads as "nobody" too,
    never as "seat 0".

    >>> seat_name({0: "rita"}, 0), seat_name({}, 1), seat_name({}, None)
    ('rita', 'seat 2', 'nobody')
    >>> seat_name({}, -1)
    'nobody'
    """
    if seat is None or seat < 0:
        return "nobody"
    return names.get(seat) or f"seat {seat + 1}"


def listing(items: Sequence[object], empty: str = "nothing") -> str:
    """``a, b and c``; ``empty`` for no items.

    >>> listing(["a10"]), listing(["a", "b", "c"]), listing([])
    ('a10', 'a, b and c', 'nothing')
    """
    texts = [str(i) for i in items]
    if not texts:
        return empty
    if len(texts) == 1:
        return texts[0]
    return f"{', '.join(texts[:-1])} and {texts[-1]}"


def counted(n: int, noun: str) -> str:
    """``1 card``, ``3 cards`` (English plurals by ``s`` only).

    >>> counted(1, "card"), counted(0, "card"), counted(7, "card")
    ('1 card', '0 cards', '7 cards')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def cards_or_count(cards: Sequence[str], count: int, noun: str = "card") -> str:
    """The cards themselves when the viewer may see them, else how many.

    Why one helper: a redacted event keeps the count and empties the list, so
    "which" and "how many" are the same sentence for owner and spectator.

    >>> cards_or_count(("a1", "a2"), 2), cards_or_count((), 2)
    ('a1 and a2', '2 cards')
    """
    return listing(cards) if cards else counted(count, noun)


def order_shown(order: Sequence[object]) -> str:
    """``: a, b and c`` to end a shuffle's sentence, or nothing.

    A redacted shuffle keeps its size and empties its order (only admins see
    it), so the same sentence reads "is shuffled." for the table and "is
    shuffled: a1 and a2." for an admin.

    >>> order_shown(("a1", "a2")), order_shown(())
    (': a1 and a2', '')
    """
    return f": {listing(order)}" if order else ""


def words(identifier: str) -> str:
    """``CardPlayed`` or ``first_player`` as words: ``card played``, ``first player``.

    >>> words("CardPlayed"), words("first_player"), words("HP")
    ('card played', 'first player', 'hp')
    """
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", identifier).replace("_", " ")
    return spaced.lower().strip()


def value_words(value: Any, names: Names, field: str = "") -> str:
    """One field's value as words (seats named, lists joined, models flattened)."""
    if field in SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return seat_name(names, value)
    if field in SEAT_LISTS and isinstance(value, tuple):
        return listing([seat_name(names, s) for s in value if isinstance(s, int)])
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, BaseModel):
        return fields_words(value, names) or words(type(value).__name__)
    if isinstance(value, tuple | list):
        return listing([value_words(v, names) for v in value], "none")
    return str(value)


ModelWords = Callable[[Any, Names], str]
"""``words(model, names)``: a whole model in a game's own words."""

_MODEL_WORDS: dict[type, ModelWords] = {}


def worded_as(*model_types: type) -> Callable[[ModelWords], ModelWords]:
    """Register a game's own words for the parts of its views (a Thorgal
    ``Hero`` reads "Aaricia in the Fjord; 1 Material and 2 Ore; ..." and not
    "goods 1, 2, 0, 0, 0 and 0").  :func:`fields_words`, and so every board
    in words and plain sentence, reads a registered model through them.

    :raises ValueError: a model worded twice.
    """

    def register(fn: ModelWords) -> ModelWords:
        for model_type in model_types:
            if model_type in _MODEL_WORDS:
                raise ValueError(f"{model_type.__name__} is worded twice")
            _MODEL_WORDS[model_type] = fn
        return fn

    return register


def model_words(model: BaseModel, names: Names) -> str | None:
    """``model`` in its game's own words (:func:`worded_as`); ``None`` if none."""
    own = _MODEL_WORDS.get(type(model))
    return None if own is None else own(model, names)


FieldWords = Callable[[Any, Names], str]
"""``words(value, names)``: one field of a view as ``label value``, in its
game's words; ``""`` leaves the field out (an engine detail)."""

_FIELD_WORDS: dict[tuple[type, str], FieldWords] = {}


def field_worded_as(
    model_type: type, *fields: str
) -> Callable[[FieldWords], FieldWords]:
    """Register a game's words for ``fields`` of ``model_type`` (Thorgal's
    ``row`` reads "Action Row: Action card 2 (Move 1), ..." and not "row C02,
    ...").  :func:`field_text`, and :func:`fields_words` through it, reads
    them.

    :raises ValueError: a field worded twice, or one the model lacks.
    """

    def register(fn: FieldWords) -> FieldWords:
        for field in fields:
            key = (model_type, field)
            if field not in getattr(model_type, "model_fields", {}):
                raise ValueError(f"{model_type.__name__} has no field {field}")
            if key in _FIELD_WORDS:
                raise ValueError(f"{model_type.__name__}.{field} is worded twice")
            _FIELD_WORDS[key] = fn
        return fn

    return register


def field_text(model: BaseModel, field: str, names: Names) -> str:
    """One field of ``model`` as ``label value``: in its game's words where
    registered (:func:`field_worded_as`), else its name and value in words;
    ``""`` for a field that says nothing (empty, ``None``, ``hidden``, or
    left out by its game).

    >>> from pydantic import BaseModel
    >>> class View(BaseModel):
    ...     current: int
    ...     note: str = ""
    >>> field_text(View(current=0), "current", {}), field_text(View(current=0), "note", {})
    ('current seat 1', '')
    """
    value = getattr(model, field)
    if field == "hidden" or value is None or value == () or value == "":
        return ""
    own = _FIELD_WORDS.get((type(model), field))
    if own is not None:
        return own(value, names)
    return f"{words(field)} {value_words(value, names, field)}"


def fields_words(
    model: BaseModel, names: Names, skip: frozenset[str] = frozenset()
) -> str:
    """``name value, name value`` for the fields of ``model`` that say something.

    Empty lists, ``None`` and the ``hidden`` flag say nothing to a reader and
    are left out; so is every field a redaction emptied.  A model its game
    words itself (:func:`worded_as`) reads in those words instead.
    """
    own = model_words(model, names) if not skip else None
    if own is not None:
        return own
    texts = (
        field_text(model, n, names) for n in type(model).model_fields if n not in skip
    )
    return ", ".join(t for t in texts if t)


def plain_sentence(event: BaseModel, names: Names) -> str:
    """A sentence for any event: its seat first, then its name and fields in words.

    The default of ``Ruleset.describe``: readable, never wrong, never as good
    as a game's own words.

    >>> from pydantic import BaseModel
    >>> class MarkPlaced(BaseModel):
    ...     seat: int
    ...     cell: int
    >>> plain_sentence(MarkPlaced(seat=0, cell=4), {0: "ann"})
    'ann: mark placed (cell 4)'
    """
    seat = getattr(event, "seat", None)
    head = words(type(event).__name__)
    rest = fields_words(event, names, frozenset({"seat"}))
    if isinstance(seat, int) and not isinstance(seat, bool):
        head = f"{seat_name(names, seat)}: {head}"
    return f"{head} ({rest})" if rest else head
