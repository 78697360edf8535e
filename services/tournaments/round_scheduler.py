"""The round scheduler: starts each automatic round when its wait is over.

Why like the timekeeper (``services.ledger.timekeeper``): the results policy
records, in the transaction that completes a round, when the next round is
due (``tournament_round_schedule``, from the tournament's own events:
:mod:`domain.tournament.schedule`).  One server sweeps the due rows at a time
under a :class:`~services.storage.leader_lock.LeaderLock` (a session lock: a
holder killed with ``kill -9`` drops it and the next server takes over).
The lock only saves work: what makes a round start exactly once is
:meth:`TournamentDesk.start_scheduled_round`, which starts it under the
tournament's advisory lock only while the previous round is the current one,
with the round journal adopting any games a crashed start left.  Nothing is
held in memory, so a server started during the wait, or after it ended,
starts the round on its first sweep.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from domain.contract.core import RuleError
from services.ledger.leader_sweep import LeaderSweep

if TYPE_CHECKING:
    from services.tournaments.desk import TournamentDesk

BATCH = 20


class RoundScheduler(LeaderSweep, job="ledger.round-scheduler", what="round scheduler"):
    """Starts due automatic rounds every ``interval`` seconds while it holds the lock."""

    def __init__(self, desk: TournamentDesk, interval: float = 1.0) -> None:
        super().__init__(desk.ledger, interval, asyncio.to_thread)
        self.desk = desk

    def sweep(self) -> int:
        """Start every round due now; how many this call started."""
        started = 0
        for row in self.desk.store.due_rounds(BATCH):
            tid, number = row["tournament_id"], row["round"]
            try:
                done = self.desk.start_scheduled_round(tid, number)
            except RuleError as refused:
                self.log.error(
                    "automatic round %d of %s not started: %s", number, tid, refused
                )
                continue
            if done in ("started", "finished"):
                self.log.info("tournament %s: round %d %s by itself", tid, number, done)
            started += done == "started"
        return started

    async def has_work(self) -> bool:
        return bool(await asyncio.to_thread(self.desk.store.has_scheduled_rounds))

    async def sweep_due(self) -> None:
        await asyncio.to_thread(self.sweep)
