"""Replaying a game's stored events into its aggregate.

Why not eventsourcing's ``project_aggregate``: it asserts
``isinstance(event, CanMutateProtocol)`` for every event, and that check on a
``runtime_checkable`` protocol walks the protocol's attributes each time.  On
a 5,000-event replay it cost more than decoding and evolving together.  The
events replayed here are ours (decoded by :mod:`domain.ledger.records`), and each
``mutate`` still checks that the event belongs to the aggregate and is the
next version, so dropping the assert loses no guarantee.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def replay(aggregate: Any, events: Iterable[Any]) -> Any:
    """``aggregate`` (``None`` before the first event) after each of ``events``.

    :raises OriginatorIDError, OriginatorVersionError: (from eventsourcing) an
        event of another game, or one out of sequence.
    """
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate
