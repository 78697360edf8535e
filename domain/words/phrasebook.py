"""A game's ``describe`` as a table: each event class and the sentence it reads as.

Written per game, ``describe`` is the same long ``match``: redact the event,
name the seats, one ``case`` per event, ``TypeError`` at the end.  The parts
that differ are the sentences, so a game lists only those:

- a *template* for a sentence made of the event's fields
  (``"{seat} passes."``), each in words (see :func:`field_words`), or a field
  of a field (``{act.seat}``), or read one of the :data:`WAYS`
  (``{size:count card}`` reads ``7 cards``), or one of the game's own
  ways (``{item:item}`` reads ``the Runic Sword``); words in brackets show
  only when their fields say something (``"is discarded[ from the {source}]."``);
- a *function* ``(event, who) -> str`` for a sentence that chooses between
  wordings: a ``lambda`` in the same table when it is one expression, else
  registered with :meth:`Phrasebook.on`.

A template is checked when the table is built: one that names a field its
event lacks, or a way there is not, raises at import, not when a reader first
meets that event.  So the word rules every game shares (counting, a list of
seats, a shuffle's order, hidden cards as a count) are written once, here,
and not again in each game's lambdas.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from domain.words.sentences import (
    SEAT_FIELDS,
    SEAT_LISTS,
    Names,
    cards_or_count,
    counted,
    listing,
    order_shown,
    seat_name,
    value_words,
    words,
)

if TYPE_CHECKING:
    from domain.contract.core import Viewer

E = TypeVar("E", bound=BaseModel)


@dataclass(frozen=True)
class Who:
    """Names a seat for the reader (:func:`~domain.words.sentences.seat_name`)."""

    names: Names

    def __call__(self, seat: int | None) -> str:
        return seat_name(self.names, seat)

    def each(self, values: Iterable[object], between: str = " ") -> str:
        """Each seat's name with its value, in seat order (``rita 12, sam 9``).

        >>> Who({0: "rita"}).each((12, 9)), Who({}).each(("a", "b"), " as ")
        ('rita 12, seat 2 9', 'seat 1 as a, seat 2 as b')
        """
        return ", ".join(f"{self(s)}{between}{v}" for s, v in enumerate(values))


Sentence = Callable[[Any, Who], str]
"""``sentence(event, who)``: the words for one (already redacted) event."""


def field_words(field: str, value: Any, who: Who) -> str:
    """One field of an event as a template shows it.

    A seat field (:data:`~domain.words.sentences.SEAT_FIELDS`) holding a seat
    or ``None`` reads as the player's name (or "nobody"), ``seats`` as the
    listed names, any other list as :func:`~domain.words.sentences.listing`
    ("nothing" when empty), an enum as its value, a model as the boards read
    it (:func:`~domain.words.sentences.value_words`: in its game's words where
    it has them), anything else as ``str``.

    >>> who = Who({0: "rita"})
    >>> field_words("seat", 0, who), field_words("seats", (0, 1), who)
    ('rita', 'rita and seat 2')
    >>> field_words("cards", ("a1", "a2"), who), field_words("round", 3, who)
    ('a1 and a2', '3')
    """
    if field in SEAT_FIELDS and (value is None or type(value) is int):
        return who(value)
    if isinstance(value, tuple | list):
        if field in SEAT_LISTS:
            return listing([who(s) for s in value])
        return listing(value)
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, BaseModel):
        return value_words(value, who.names)
    return str(value)


class Phrasebook(Generic[E]):
    """The ruleset's ``describe(event, viewer, names)``, built from sentences.

    ``redact`` is the game's own: every sentence is written from the event as
    ``viewer`` may see it, so it cannot say what that viewer may not.  An event
    class with no sentence raises :class:`TypeError` (a game's words cover
    every event it declares; a test walks them all).
    """

    def __init__(
        self,
        game: str,
        redact: Callable[[E, Viewer], E],
        sentences: Mapping[type[E], str | Sentence],
        ways: Mapping[str, Way] | None = None,
    ) -> None:
        """``ways`` are the game's own ways to read a field, ``{field:name}``:
        how it names its things (an item, a location), so a sentence that only
        names them is a template and not a function.

        :raises ValueError: if a template names a field its event lacks or a
            way there is not, or a way of ``ways`` has a shared way's name.
        """
        self.game = game
        self.redact = redact
        self.sentences: dict[type, Sentence] = {}
        own = dict(ways or {})
        shared = {way.partition(" ")[0] for way in WAYS}
        if clash := sorted(shared & own.keys()):
            raise ValueError(f"{game}: ways {clash} are shared ways' names")
        for event_type, sentence in sentences.items():
            if isinstance(sentence, str):
                sentence = _template(event_type, sentence, own)
            self._add(event_type, sentence)

    def on(self, *event_types: type[E]) -> Callable[[Sentence], Sentence]:
        """Register a function as the sentence of ``event_types``."""

        def register(sentence: Sentence) -> Sentence:
            for event_type in event_types:
                self._add(event_type, sentence)
            return sentence

        return register

    def _add(self, event_type: type, sentence: Sentence) -> None:
        if event_type in self.sentences:
            raise ValueError(f"{self.game}: two sentences for {event_type.__name__}")
        self.sentences[event_type] = sentence

    def __call__(self, event: E, viewer: Viewer, names: Names) -> str:
        """One sentence for ``event`` as ``viewer`` may see it.

        :raises TypeError: for an event class with no sentence.
        """
        shown = self.redact(event, viewer)
        sentence = self.sentences.get(type(shown))
        if sentence is None:
            raise TypeError(f"no words for {type(shown).__name__}")
        return sentence(shown, Who(names))


Fill = Callable[[Any, Who], str]
"""``fill(event, who)``: the words of one placeholder of a template."""

Way = Callable[[Any], str]
"""A game's own way to read a field: ``way(value) -> words`` (Thorgal's
``item`` reads ``runic_sword`` as ``the Runic Sword``)."""

WAYS = {
    "count NOUN": "a number, or a list's length, counted: ``7 cards``",
    "each": "one value per seat, with its seat's name: ``rita 12, sam 9``",
    "each WORD": "the same, the word between: ``rita as Myrja``",
    "or NUMBER NOUN": (
        "the list, or where the viewer may not see it (redacted empty) the"
        " event's field NUMBER counted: ``7 cards``"
    ),
    "shown": "a shuffle's order after a colon, or nothing where it is hidden",
    "words": "an identifier as words: ``first_player`` reads ``first player``",
    "from 1": "a 0-based index counted from 1, as people count",
}
"""The ways a template may read a field: ``{field:way}``, beside plain ``{field}``."""


_SECTION = re.compile(r"\[([^\[\]]*)\]")
"""``[ from the {source}]``: words shown only when every field in them says
something (not ``None``, empty or ``False``)."""


def _template(
    event_type: type[BaseModel], template: str, ways: Mapping[str, Way]
) -> Sentence:
    pieces: list[tuple[list[tuple[str, Fill | None]], list[Callable[[Any], Any]]]]
    pieces, at = [], 0
    for section in _SECTION.finditer(template):
        before = template[at : section.start()]
        pieces.append(_piece(event_type, template, ways, before))
        pieces.append(
            _piece(event_type, template, ways, section.group(1), optional=True)
        )
        at = section.end()
    pieces.append(_piece(event_type, template, ways, template[at:]))

    def sentence(event: Any, who: Who) -> str:
        return "".join(
            text + (fill(event, who) if fill else "")
            for parts, needs in pieces
            if all(_says_something(need(event)) for need in needs)
            for text, fill in parts
        )

    return sentence


def _piece(
    event_type: type[BaseModel],
    template: str,
    ways: Mapping[str, Way],
    text: str,
    optional: bool = False,
) -> tuple[list[tuple[str, Fill | None]], list[Callable[[Any], Any]]]:
    """One stretch of a template: its words and placeholders, and (for an
    optional ``[...]`` section) the fields that must say something."""
    if "[" in text or "]" in text:
        raise ValueError(
            f"{event_type.__name__}: template {template!r} has a lone bracket"
        )
    parts: list[tuple[str, Fill | None]] = []
    needs: list[Callable[[Any], Any]] = []
    for literal, field, way, conversion in string.Formatter().parse(text):
        fill = None
        if field is not None:
            if not field or conversion:
                raise _bad(event_type, template, field or "", ways)
            path = field.split(".")
            fill = _placeholder(event_type, template, ways, path, way or "")
            if optional:
                needs.append(functools.partial(_follow, path))
        parts.append((literal, fill))
    return parts, needs


def _follow(path: list[str], event: Any) -> Any:
    for step in path:
        event = getattr(event, step)
    return event


def _says_something(value: Any) -> bool:
    return value is not None and value is not False and value not in ("", ())


def _bad(
    event_type: type[BaseModel], template: str, name: str, ways: Mapping[str, Way]
) -> ValueError:
    return ValueError(
        f"{event_type.__name__}: template {template!r} names {[name]}, not a"
        f" field of the event or a way to read one ({', '.join([*WAYS, *ways])})"
    )


def _placeholder(
    event_type: type[BaseModel],
    template: str,
    ways: Mapping[str, Way],
    path: list[str],
    way: str,
) -> Fill:
    """What one ``{path:way}`` reads as; every field the path crosses must exist.

    :raises ValueError: for a field the event (or a field's model) lacks, or a
        way that is neither one of :data:`WAYS` nor one of the game's ``ways``.
    """
    model: Any = event_type
    for name in path:
        fields = getattr(model, "model_fields", None)
        if fields is None or name not in fields:
            raise _bad(event_type, template, ".".join(path), ways)
        model = fields[name].annotation
    name = path[-1]

    value = functools.partial(_follow, path)
    kind, _, arg = way.partition(" ")
    if not way:
        return lambda e, who: field_words(name, value(e), who)
    if way in ways:
        own = ways[way]
        return lambda e, who: own(value(e))
    if kind == "count" and arg:
        return lambda e, who: counted(_number(value(e)), arg)
    if kind == "each":
        between = f" {arg} " if arg else " "
        return lambda e, who: who.each(value(e), between)
    if kind == "or" and arg:
        number, _, noun = arg.partition(" ")
        if number not in event_type.model_fields or not noun:
            raise _bad(event_type, template, f"{name}:{way}", ways)
        return lambda e, who: cards_or_count(value(e), getattr(e, number), noun)
    if way == "shown":
        return lambda e, who: order_shown(value(e))
    if way == "words":
        return lambda e, who: words(str(value(e)))
    if way == "from 1":
        return lambda e, who: str(value(e) + 1)
    raise _bad(event_type, template, f"{name}:{way}", ways)


def _number(value: Any) -> int:
    return value if isinstance(value, int) else len(value)
