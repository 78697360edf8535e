"""Stable stored names and JSON bodies for tournament events.

Why here and not in the service's mapper: the stored name and body of an event
are part of the domain's contract (they outlive class renames), and keeping
the encoding next to the event classes lets a unit test check the round trip
without PostgreSQL.  A mapper only needs :func:`record_type`,
:func:`event_body` and :func:`decode_event`; the body is plain JSON values, so
``domain.ledger.records.canonical_json`` can serialise it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from domain.tournament.aggregate import Tournament
from domain.tournament.state import TableAssignment

TOPIC = f"{Tournament.__module__}:{Tournament.__qualname__}"

#: stored type name -> event class.  Never rename a key.
EVENT_TYPES: dict[str, type[Any]] = {
    "tournament.TournamentCreated": Tournament.Created,
    "tournament.PlayerRegistered": Tournament.PlayerRegistered,
    "tournament.PlayerWithdrawn": Tournament.PlayerWithdrawn,
    "tournament.RoundStarted": Tournament.RoundStarted,
    "tournament.ResultRecorded": Tournament.ResultRecorded,
    "tournament.TournamentFinished": Tournament.TournamentFinished,
    "tournament.GameReplayed": Tournament.GameReplayed,
}
_NAMES = {cls: name for name, cls in EVENT_TYPES.items()}
_ENVELOPE = ("originator_id", "originator_version", "timestamp", "originator_topic")
_NEW_OPTIONAL = ("automatic_rounds",)
"""Fields added after tournaments were first stored: left out of a body
while unset, so a tournament created without them encodes as before."""


def is_tournament_event(event: Any) -> bool:
    return type(event) in _NAMES


def record_type(event: Any) -> str:
    """The stable stored name of a tournament event.

    :raises TypeError: for anything else.
    """
    try:
        return _NAMES[type(event)]
    except KeyError:
        raise TypeError(f"not a tournament event: {event!r}") from None


def event_body(event: Any) -> dict[str, Any]:
    """The event's own fields as JSON values (no id, version or timestamp)."""
    record_type(event)
    body: dict[str, Any] = {}
    for key, value in vars(event).items():
        if key in _ENVELOPE or (key in _NEW_OPTIONAL and value is None):
            continue
        if key == "tables":
            value = [t.model_dump(mode="json") for t in value]
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, dict):
            value = dict(value)
        body[key] = value
    return body


def decode_event(
    type_name: str,
    originator_id: UUID,
    version: int,
    timestamp: datetime,
    body: dict[str, Any],
) -> Any:
    """Rebuild a tournament event from its stored name and body.

    :raises KeyError: for an unknown stored name.
    """
    cls = EVENT_TYPES[type_name]
    fields = dict(body)
    if "tables" in fields:
        fields["tables"] = tuple(
            TableAssignment.model_validate(t) for t in fields["tables"]
        )
    for key in ("byes", "ranks", "absent"):
        if key in fields:
            fields[key] = tuple(fields[key])
    envelope: dict[str, Any] = {
        "originator_id": originator_id,
        "originator_version": version,
        "timestamp": timestamp,
    }
    if cls is Tournament.Created:
        envelope["originator_topic"] = TOPIC
    return cls(**envelope, **fields)
