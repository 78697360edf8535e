"""The immutable bases of every ruleset's messages: commands, events, states.

Why apart from :mod:`domain.core`: the outcome, error and statistics modules
build on these bases too, and :mod:`domain.core` re-exports them all, so a
game still imports its whole vocabulary from one place.
"""

from __future__ import annotations

from typing import TypeAlias

from pydantic import BaseModel, ConfigDict

Seat: TypeAlias = int
"""A seat at the table, 0-based, in clockwise order."""


class Model(BaseModel):
    """Immutable pydantic base for commands, events, states, views and setups.

    ``extra="forbid"`` turns a misspelt field into an error instead of a silent
    default, which matters for payloads that arrive from other languages.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")


class Command(Model):
    """Base class of every move a seat can submit (imperative names: ``PlayCard``)."""


class Event(Model):
    """Base class of every decided fact (past tense, one fact each: ``CardPlayed``)."""


class State(Model):
    """Base class of a ruleset's full (unredacted) state."""
