"""The immutable bases of every ruleset's messages: commands, events, states.

Why apart from :mod:`domain.contract.core`: the outcome, error and statistics modules
build on these bases too, and :mod:`domain.contract.core` re-exports them all, so a
game still imports its whole vocabulary from one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeAlias

from pydantic import BaseModel, ConfigDict

Seat: TypeAlias = int
"""A seat at the table, 0-based, in clockwise order."""


class Model(BaseModel):
    """Immutable pydantic base for commands, events, states, views and setups.

    ``extra="forbid"`` turns a misspelt field into an error instead of a silent
    default, which matters for payloads that arrive from other languages.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Self:
        """pydantic's shallow copy, without its general machinery.

        Why: ``evolve`` copies a state (and a seat or a card in it) for nearly
        every event, so a replay is mostly copies.  pydantic's ``__copy__``
        goes through ``copy.copy`` for the fields, the extras and the fields
        set, and checks for private attributes, on every call.  These models
        are frozen, forbid extras and have no private attributes, so a copy
        is a new ``__dict__`` and fields set, exactly what pydantic's would
        hold.  As in pydantic, ``update`` is not validated.
        """
        if deep or self.__pydantic_private__ is not None:
            return super().model_copy(update=update, deep=deep)
        copied = object.__new__(type(self))
        fields = self.__dict__.copy()
        fields_set = self.__pydantic_fields_set__.copy()
        if update:
            fields.update(update)
            fields_set.update(update)
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
