"""The immutable bases of every ruleset's messages: commands, events, states.

Why apart from :mod:`domain.contract.core`: the outcome, error and statistics modules
build on these bases too, and :mod:`domain.contract.core` re-exports them all, so a
game still imports its whole vocabulary from one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Self, TypeAlias

from pydantic import BaseModel, ConfigDict

Seat: TypeAlias = int
"""A seat at the table, 0-based, in clockwise order."""


_FIELDS_SETS: dict[frozenset[str], set[str]] = {}


def shared_fields(names: Iterable[str]) -> set[str]:
    """The one set of these field names that every model holding them shares.

    Why: pydantic gives each model instance a set of the fields it was
    given (``model_fields_set``, read by ``exclude_unset`` dumps), some 200
    to 500 bytes: a quarter of a held game's decided state.  The models are
    frozen, so the set is never changed, and there are only as many distinct
    ones as field combinations the code spells (``extra="forbid"``).
    """
    key = frozenset(names)
    return _FIELDS_SETS.get(key) or _FIELDS_SETS.setdefault(key, set(key))


class Model(BaseModel):
    """Immutable pydantic base for commands, events, states, views and setups.

    ``extra="forbid"`` turns a misspelt field into an error instead of a silent
    default, which matters for payloads that arrive from other languages.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __init__(self, /, **data: Any) -> None:
        """pydantic's validation (what ``BaseModel.__init__`` runs), then the
        fields set :func:`shared_fields`."""
        self.__pydantic_validator__.validate_python(data, self_instance=self)
        if self.model_config.get("frozen"):  # a mutable model adds to its own
            fields_set = shared_fields(self.__pydantic_fields_set__)
            object.__setattr__(self, "__pydantic_fields_set__", fields_set)

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Self:
        """pydantic's shallow copy, without its general machinery.

        Why: ``evolve`` copies a state (and a seat or a card in it) for nearly
        every event, so a replay is mostly copies.  pydantic's ``__copy__``
        goes through ``copy.copy`` for the fields, the extras and the fields
        set, and checks for private attributes, on every call.  These models
        are frozen, forbid extras and have no private attributes, so a copy
        is a new ``__dict__`` and the fields set pydantic's would hold,
        shared (:func:`shared_fields`).  As in pydantic, ``update`` is not
        validated.
        """
        if deep or self.__pydantic_private__ is not None:
            return super().model_copy(update=update, deep=deep)
        copied = object.__new__(type(self))
        fields = self.__dict__.copy()
        fields_set = self.__pydantic_fields_set__
        if update:
            fields.update(update)
            if not fields_set.issuperset(update):
                fields_set = shared_fields(fields_set.union(update))
        object.__setattr__(copied, "__dict__", fields)
        object.__setattr__(copied, "__pydantic_fields_set__", fields_set)
        object.__setattr__(copied, "__pydantic_extra__", None)
        object.__setattr__(copied, "__pydantic_private__", None)
        return copied


class Command(Model):
    """Base class of every move a seat can submit (imperative names: ``PlayCard``)."""


class Event(Model):
    """Base class of every decided fact (past tense, one fact each: ``CardPlayed``)."""


class State(Model):
    """Base class of a ruleset's full (unredacted) state."""
