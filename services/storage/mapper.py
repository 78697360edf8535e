"""How game events are stored: the mapper (the recorder is in ``services.storage.recorder``).

Why a custom mapper: eventsourcing's default stores the Python class path and
pickled-ish dict state.  We store each game event under its stable type name
(``thalara.CardPlayed``) with a canonical-JSON record that carries the hash
chain, so the rows are readable by any language and hashable by an auditor
without this code.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent

from domain.games import all_games
from domain.ledger import records, stored_events
from domain.ledger.aggregate import Game, record_type


def _game_of_event_class() -> dict[type, str]:
    return {cls: game.name for game in all_games() for cls in game.event_types}


class LedgerMapper(Mapper[UUID]):
    """Stores ledger events as ``(type name, record)`` in :mod:`domain.ledger.records`' format.

    A recorded event already carries its record (the aggregate encoded it
    once, with its hash); the mapper only names its type.
    """

    def __init__(self) -> None:
        super().__init__(transcoder=JSONTranscoder())
        self._games: dict[type, str] | None = None

    def _game_type_of(self, payload: Any) -> str:
        if self._games is None or type(payload) not in self._games:
            self._games = _game_of_event_class()
        return self._games[type(payload)]

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if isinstance(domain_event, Game.Snapshot):
            topic = records.SNAPSHOT_TYPE
            state = records.encode_snapshot(domain_event.timestamp, domain_event.state)
        else:
            game_type = (
                self._game_type_of(domain_event.payload)
                if isinstance(domain_event, Game.Decided)
                else ""
            )
            topic = record_type(game_type, domain_event)
            state = domain_event.stored or stored_events.encode_event(domain_event)
            # The bytes are needed once, here; an event outlives its commit in
            # the game cache's recent tail, and keeping every record there
            # tripled the memory per open game.  A retry re-encodes (same bytes).
            object.__setattr__(domain_event, "stored", None)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=topic,
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        # trusted: these rows are the ledger's own append-only, hash-chained
        # records (the audit reads them with validation, domain.audit.game_audit)
        return stored_events.decode(
            stored_event.originator_id,
            stored_event.originator_version,
            stored_event.topic,
            stored_event.state,
            trusted=True,
        )
