"""The timekeeper: records the timeout of every game whose clock ran out.

Why a sweep over an index and a leader lock (see ``docs/decisions.md``,
"Timekeeper"): each move stores the game's next deadline in
``ledger_games.next_deadline`` (a partial index over running games), so a
sweep is one indexed query however many games run.  One process among the
servers sweeps at a time (:class:`~services.storage.leader_lock.LeaderLock`,
a session advisory lock: a holder killed with ``kill -9`` drops it with its
session and the next server takes over).  The lock only saves work: what
makes each timeout happen exactly once is the event store's unique
``(game, version)``, so two sweepers, or a sweeper and a late move, can
never both append (:meth:`GameLedger.claim_timeout`).  Nothing is claimed or
leased, so a crash leaves nothing behind, and a server started after a
deadline passed finds the game on its first sweep.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.contract.core import RuleError
from services.ledger.game_cache import GameNotFoundError
from services.ledger.leader_sweep import LeaderSweep

if TYPE_CHECKING:
    from services.ledger.application import GameLedger

BATCH = 100


class Timekeeper(LeaderSweep, job="ledger.timekeeper", what="timekeeper"):
    """Sweeps due games every ``interval`` seconds while it holds the lock."""

    def __init__(self, ledger: GameLedger, interval: float = 1.0) -> None:
        super().__init__(ledger, interval, ledger.io)
        self.ledger = ledger

    async def sweep(self) -> int:
        """Record the timeout of every game due now; how many this call recorded."""
        recorded = 0
        for game_id in await self.ledger.io(self.ledger.due_games, BATCH):
            try:
                await self.ledger.claim_timeout(game_id)
            except (RuleError, GameNotFoundError) as exc:
                self.log.debug(
                    "no timeout for %s: %s", game_id, exc
                )  # a move or a peer won
                continue
            recorded += 1
        return recorded

    async def has_work(self) -> bool:
        """The lock, and its connection, are held only while some running game
        has a clock: a server with nothing to time holds no more connections
        than one without a timekeeper."""
        return bool(await self.ledger.io(self.ledger.has_running_clocks))

    async def sweep_due(self) -> None:
        await self.sweep()
