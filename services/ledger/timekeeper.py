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

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError

from domain.contract.core import RuleError
from services.ledger.game_cache import GameNotFoundError
from services.storage.leader_lock import LeaderLock

if TYPE_CHECKING:
    from services.ledger.application import GameLedger

log = logging.getLogger(__name__)
UNREACHABLE = (psycopg.OperationalError, OperationalError, InterfaceError)
"""What a database outage raises (a pool that cannot connect, a dropped link)."""
JOB = "ledger.timekeeper"
BATCH = 100


class Timekeeper:
    """Sweeps due games every ``interval`` seconds while it holds the lock."""

    def __init__(self, ledger: GameLedger, interval: float = 1.0) -> None:
        self.ledger = ledger
        self.interval = interval
        self.lock = LeaderLock(
            ledger.store.connect_kwargs(),
            JOB,
            getattr(ledger.datastore, "in_flight", None),  # cut in an outage
        )
        self._task: asyncio.Task[None] | None = None

    async def sweep(self) -> int:
        """Record the timeout of every game due now; how many this call recorded."""
        recorded = 0
        for game_id in await self.ledger.io(self.ledger.due_games, BATCH):
            try:
                await self.ledger.claim_timeout(game_id)
            except (RuleError, GameNotFoundError) as exc:
                log.debug("no timeout for %s: %s", game_id, exc)  # a move or a peer won
                continue
            recorded += 1
        return recorded

    async def run(self) -> None:
        """Sweep while leader, forever; a failed sweep is logged and retried.

        The lock, and its connection, are held only while some running game
        has a clock: a server with nothing to time holds no more connections
        than one without a timekeeper.
        """
        unreachable = False
        while True:
            try:
                if not await self.ledger.io(self.ledger.has_running_clocks):
                    await self.ledger.io(self.lock.release)
                elif await self.ledger.io(self.lock.try_hold):
                    await self.sweep()
            except UNREACHABLE as exc:
                # one line per outage, not a traceback per interval: an outage
                # is the operator's news once, and the health service says it
                if not unreachable:
                    log.warning(
                        "timekeeper paused: the database is unreachable (%s)", exc
                    )
                unreachable = True
            except Exception:  # a bug, not an outage: keep sweeping, loudly
                log.exception("timekeeper sweep failed")
            else:
                if unreachable:
                    log.warning("timekeeper resumed: the database is back")
                unreachable = False
            await asyncio.sleep(self.interval)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await asyncio.to_thread(self.lock.release)
