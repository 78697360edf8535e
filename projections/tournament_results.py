"""The results policy: a finished tournament game records its result, exactly once.

It runs like any view: in the runner's transaction it reads the concluded
game's tournament, records the result and appends the tournament's new events
to ``tournaments_events``; the same transaction moves this view's tracking
position.  A crash rolls back both, a second runner waits on the tracking row
lock, and ``Tournament.record_result`` is a no-op for a game it already has,
so a result is applied once whatever happens.  A conflicting concurrent write
(an organiser starting a round at the same moment) fails the batch, which the
projector retries against the new state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent

from projections.base import LogEvent, View

EVENTS_TABLE = "tournaments_events"
NOTIFY_CHANNEL = "ledger_game_events"
"""The log's notification channel (``services.recorder.NOTIFY_CHANNEL``; a
test pins the two equal, since projections import nothing from services)."""


class TournamentResultsView(View):
    name = "tournament_results"
    topics = ("ledger.GameConcluded",)
    tables = ()

    def create(self, curs: Any) -> None:
        from services.tournaments import TOURNAMENT_DDL

        curs.execute(TOURNAMENT_DDL)

    def apply(self, curs: Any, events: Sequence[LogEvent]) -> None:
        from services.tournaments import TournamentMapper

        mapper = TournamentMapper()
        loaded: dict[Any, Any] = {}
        for event in events:
            curs.execute(
                "SELECT tournament_id FROM tournament_games WHERE game_id = %s",
                (event.game_id,),
            )
            row = curs.fetchone()
            if row is None:
                continue
            tid = row["tournament_id"]
            if tid not in loaded:
                loaded[tid] = self._load(curs, mapper, tid)
            loaded[tid].record_result(
                str(event.game_id), tuple(event.body["outcome"]["ranks"])
            )
        pending = [e for t in loaded.values() for e in t.collect_events()]
        if pending:
            # the events table's ordering lock: through the owner's function
            # when `ledger db setup` made one (a service role may not LOCK)
            curs.execute(
                "SELECT to_regprocedure('ledger_lock_events(text)') IS NOT NULL AS via_function"
            )
            if curs.fetchone()["via_function"]:
                curs.execute("SELECT ledger_lock_events(%s)", (EVENTS_TABLE,))
            else:
                curs.execute(f"LOCK TABLE {EVENTS_TABLE} IN EXCLUSIVE MODE")
            curs.executemany(
                f"INSERT INTO {EVENTS_TABLE} (originator_id, originator_version, topic, state) VALUES (%s, %s, %s, %s)",
                [
                    (s.originator_id, s.originator_version, s.topic, s.state)
                    for s in (mapper.to_stored_event(e) for e in pending)
                ],
            )
            # wake StreamStandings (delivered at commit), as the desk's saves do
            heads = {e.originator_id: e.originator_version for e in pending}
            curs.execute(
                "SELECT pg_notify(%s, note) FROM unnest(%s::text[]) AS note",
                (
                    NOTIFY_CHANNEL,
                    [f"{tid}:{version}" for tid, version in heads.items()],
                ),
            )

    @staticmethod
    def _load(curs: Any, mapper: Any, tournament_id: Any) -> Any:
        curs.execute(
            f"SELECT originator_version, topic, state FROM {EVENTS_TABLE} WHERE originator_id = %s"
            " ORDER BY originator_version",
            (tournament_id,),
        )
        tournament = None
        for r in curs.fetchall():
            stored = StoredEvent(
                tournament_id, r["originator_version"], r["topic"], bytes(r["state"])
            )
            tournament = mapper.to_domain_event(stored).mutate(tournament)
        return tournament
