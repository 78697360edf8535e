"""The tournament application's side of the results policy (``projections.tournament_results``).

Why not ``TournamentDesk.save``: the policy must record a result in the same
transaction that moves its tracking position, or a crash between the two
would record a result twice or lose it.  So the desk's write model (its
aggregate, mapper and recorder class, with the recorder's lock and the
``ledger_game_events`` notification that pushes ``StreamStandings``) runs
here on the policy's cursor.  The recorder object holds no connections.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.utils import resolve_topic

from projections.tournament_results import GameResult
from services.storage import tournament_store
from services.storage.tournament_store import (
    EVENTS_TABLE,
    TournamentMapper,
    recorder_topic,
)


class ResultsDesk:
    """Records concluded games in their tournaments (the policy's port)."""

    def __init__(self, datastore: Any, create_tables: bool = True) -> None:
        self.create_tables = create_tables
        self.mapper = TournamentMapper()
        recorder_cls = resolve_topic(recorder_topic(create_tables))
        self.recorder = recorder_cls(datastore, events_table_name=EVENTS_TABLE)

    def prepare(self, curs: Any) -> None:
        if self.create_tables:
            tournament_store.ensure_tables(curs)

    def record_results(self, curs: Any, results: Sequence[GameResult]) -> None:
        loaded: dict[Any, Any] = {}
        for result in results:
            tid = tournament_store.tournament_of(curs, result.game_id)
            if tid is None:
                continue
            if tid not in loaded:
                loaded[tid] = self._load(curs, tid)
            loaded[tid].record_result(
                str(result.game_id), result.ranks, result.termination, result.absent
            )
        pending = [e for t in loaded.values() for e in t.collect_events()]
        if pending:
            stored = [self.mapper.to_stored_event(e) for e in pending]
            # the two steps of the recorder's own insert, on this cursor: the
            # ledger notification (wakes StreamStandings at commit), then the
            # events table's ordering lock and the INSERT
            self.recorder._insert_events(curs, stored)
            self.recorder._insert_stored_events(curs, stored)

    def _load(self, curs: Any, tournament_id: Any) -> Any:
        tournament = None
        for stored in tournament_store.stored_events(curs, tournament_id):
            tournament = self.mapper.to_domain_event(stored).mutate(tournament)
        return tournament
