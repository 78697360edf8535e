"""A game's ``describe`` as a table: each event class and the sentence it reads as.

Every game used to write ``describe`` as the same long ``match``: redact the
event, name the seats, one ``case`` per event, ``TypeError`` at the end.  The
parts that differ are the sentences, so a game now lists only those:

- a *template* for a sentence made of the event's fields as they are
  (``"{seat} passes."``), formatted with each field in words (see
  :func:`field_words`);
- a *function* ``(event, who) -> str`` for a sentence that computes (a count,
  a choice between two wordings, a field of a field): a ``lambda`` in the same
  table when it is one expression, else registered with :meth:`Phrasebook.on`.

A template is checked when the table is built: one that names a field its
event lacks raises at import, not when a reader first meets that event.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from domain.words.sentences import SEAT_FIELDS, Names, listing, seat_name

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
    ("nothing" when empty), an enum as its value, anything else as ``str``.

    >>> who = Who({0: "rita"})
    >>> field_words("seat", 0, who), field_words("seats", (0, 1), who)
    ('rita', 'rita and seat 2')
    >>> field_words("cards", ("a1", "a2"), who), field_words("round", 3, who)
    ('a1 and a2', '3')
    """
    if field in SEAT_FIELDS and (value is None or type(value) is int):
        return who(value)
    if isinstance(value, tuple | list):
        if field == "seats":
            return listing([who(s) for s in value])
        return listing(value)
    if isinstance(value, Enum):
        return str(value.value)
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
    ) -> None:
        """:raises ValueError: if a template names a field its event lacks."""
        self.game = game
        self.redact = redact
        self.sentences: dict[type, Sentence] = {}
        for event_type, sentence in sentences.items():
            if isinstance(sentence, str):
                sentence = _template(event_type, sentence)
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


def _template(event_type: type[BaseModel], template: str) -> Sentence:
    fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
    unknown = [f for f in fields if f not in event_type.model_fields]
    if unknown or any(not f for f in fields):
        raise ValueError(
            f"{event_type.__name__}: template {template!r} names {unknown or ['']},"
            " not a field of the event"
        )

    def sentence(event: Any, who: Who) -> str:
        return template.format_map(
            {f: field_words(f, getattr(event, f), who) for f in fields}
        )

    return sentence
