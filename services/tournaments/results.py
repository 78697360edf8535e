"""The tournament application's side of the results policy (``projections.tournament_results``).

Why not ``TournamentDesk.save``: the policy must record a result in the same
transaction that moves its tracking position, or a crash between the two
would record a result twice or lose it.  So the desk's write model (its
aggregate, mapper and recorder class, with the recorder's lock and the
``ledger_game_events`` notification that pushes ``StreamStandings``) runs
here on the policy's cursor.  The recorder object holds no connections.

Why a refused result raises an alarm instead of failing the batch: the
policy is one view over every tournament's games, and a view stops at an
event it cannot apply.  A result one tournament refuses (a ranking written
by an older release, say) stopped every tournament on the server.  Each
result is now taken or refused by its own tournament: a refusal is recorded
in ``tournament_alarms`` (with the game and the rule), logged and counted
(``ledger_tournament_results_refused_total``), and shown by ``ledger
projections status`` and the health service's list; that tournament's round
cannot complete, so it stops there, and every other tournament goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from eventsourcing.utils import resolve_topic
from prometheus_client import Counter

from domain.contract.errors import RuleError
from projections.tournament_results import GameResult
from services.storage import tournament_store
from services.storage.tournament_store import (
    EVENTS_TABLE,
    TournamentMapper,
    recorder_topic,
)

log = logging.getLogger(__name__)

REFUSED = Counter(
    "ledger_tournament_results_refused_total",
    "Concluded tournament games whose result their tournament refused (an alarm each)",
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
            try:
                loaded[tid].record_result(
                    str(result.game_id),
                    result.ranks,
                    result.termination,
                    result.absent,
                )
            except RuleError as refused:
                # the command raised before recording anything: the
                # tournament's pending events are still consistent
                self._alarm(curs, tid, result, refused)
        for tid, tournament in loaded.items():
            due = tournament.next_round_at
            if due is not None:  # its round completed: the next starts by itself
                number = tournament.state.current_round + 1
                tournament_store.schedule_round(curs, tid, number, due)
        pending = [e for t in loaded.values() for e in t.collect_events()]
        if pending:
            stored = [self.mapper.to_stored_event(e) for e in pending]
            # the two steps of the recorder's own insert, on this cursor: the
            # ledger notification (wakes StreamStandings at commit), then the
            # events table's ordering lock and the INSERT
            self.recorder._insert_events(curs, stored)
            self.recorder._insert_stored_events(curs, stored)

    def _alarm(
        self, curs: Any, tournament_id: Any, result: GameResult, refused: RuleError
    ) -> None:
        reason = f"ranks {list(result.ranks)}: {refused}"
        if tournament_store.raise_alarm(curs, tournament_id, result.game_id, reason):
            REFUSED.inc()
            log.error(
                "tournament %s refused the result of game %s (%s); that tournament "
                "stops at this round, the others go on (`ledger projections status`)",
                tournament_id,
                result.game_id,
                reason,
            )

    def _load(self, curs: Any, tournament_id: Any) -> Any:
        tournament = None
        for stored in tournament_store.stored_events(curs, tournament_id):
            tournament = self.mapper.to_domain_event(stored).mutate(tournament)
        return tournament


def halted(curs: Any) -> list[dict[str, Any]]:
    """``[{tournament_id, game_id, reason, raised_at}]``: the results their
    tournaments refused, each one a tournament stopped at its round."""
    return tournament_store.alarms(curs)
