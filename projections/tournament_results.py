"""The results policy: a finished tournament game records its result, exactly once.

It runs like any view: in the runner's transaction it hands each concluded
game's ranks to the tournament application (the :class:`TournamentResults`
port, which ``services.runtime.bootstrap`` wires), and the same transaction moves
this view's tracking position.  A crash rolls back both, a second runner
waits on the tracking row lock, and ``Tournament.record_result`` is a no-op
for a game it already has, so a result is applied once whatever happens.

Why a port and not the desk itself: projections consume the log and know
nothing of services.  The tournament application owns its events table,
its lock and the notification that pushes ``StreamStandings``; this module
only says which game ended with which ranks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from domain.ledger.records import CONCLUDED_TYPE
from projections.base import LogEvent, View, ViewNotReadyError


@dataclass(frozen=True)
class GameResult:
    """One concluded game's ranks (``Outcome.ranks``: seat -> rank)."""

    game_id: UUID
    ranks: tuple[int, ...]
    termination: str = ""
    """``Outcome.termination``: standings count forfeits apart, and score no
    aborted game (it is replayed or rescheduled)."""
    absent: tuple[int, ...] = ()
    """``Outcome.absent``: the seats that never moved score nothing."""


class TournamentResults(Protocol):
    """The tournament application's use case the policy calls."""

    def prepare(self, curs: Any) -> None:
        """Make (or check) what :meth:`record_results` reads and writes."""

    def record_results(self, curs: Any, results: Sequence[GameResult]) -> None:
        """Record each result in its game's tournament inside ``curs``' transaction.

        A game in no tournament, or one already recorded, changes nothing.
        """


class NotWiredError(ViewNotReadyError):
    """Raised when the policy runs without the tournament application wired in."""


class TournamentResultsView(View):
    name = "tournament_results"
    topics = (CONCLUDED_TYPE,)
    tables = ()

    def __init__(self, results: TournamentResults | None = None) -> None:
        self.results = results

    def create(self, curs: Any) -> None:
        if self.results is not None:
            self.results.prepare(curs)

    def apply(self, curs: Any, events: Sequence[LogEvent]) -> None:
        if self.results is None:
            raise NotWiredError(
                "tournament_results needs the tournament application: build the "
                "runners with services.runtime.bootstrap.view_runners"
            )
        self.results.record_results(
            curs,
            [
                GameResult(
                    e.game_id,
                    tuple(e.body["outcome"]["ranks"]),
                    e.body["outcome"]["termination"],
                    tuple(e.body["outcome"].get("absent", ())),
                )
                for e in events
            ],
        )
