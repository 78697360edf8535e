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

from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import resolve_topic

from projections.tournament_results import GameResult
from services.storage.tournament_store import (
    EVENTS_TABLE,
    TOURNAMENT_DDL,
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
            curs.execute(TOURNAMENT_DDL)

    def record_results(self, curs: Any, results: Sequence[GameResult]) -> None:
        loaded: dict[Any, Any] = {}
        for result in results:
            curs.execute(
                "SELECT tournament_id FROM tournament_games WHERE game_id = %s",
                (result.game_id,),
            )
            row = curs.fetchone()
            if row is None:
                continue
            tid = row["tournament_id"]
            if tid not in loaded:
                loaded[tid] = self._load(curs, tid)
            loaded[tid].record_result(
                str(result.game_id), result.ranks, result.termination
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
        curs.execute(
            f"SELECT originator_version, topic, state FROM {EVENTS_TABLE}"
            " WHERE originator_id = %s ORDER BY originator_version",
            (tournament_id,),
        )
        tournament = None
        for r in curs.fetchall():
            stored = StoredEvent(
                tournament_id, r["originator_version"], r["topic"], bytes(r["state"])
            )
            tournament = self.mapper.to_domain_event(stored).mutate(tournament)
        return tournament
