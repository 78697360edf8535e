"""A sweep that one server runs at a time: the loop the timekeeper and the
round scheduler share.

Why one loop: both keep a due-work index in the database and sweep it every
``interval`` seconds while they hold a :class:`~services.storage.leader_lock.LeaderLock`
(a session advisory lock that a killed holder drops with its session), and
both must treat a database outage the same way: one line when it starts,
one when it ends, never a traceback per interval, while a bug in a sweep is
logged loudly and the loop goes on.  The lock is released while there is
no work, so a server with nothing to sweep holds no extra connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError

from services.storage.leader_lock import LeaderLock

if TYPE_CHECKING:
    from services.ledger.application import GameLedger

UNREACHABLE = (psycopg.OperationalError, OperationalError, InterfaceError)
"""What a database outage raises (a pool that cannot connect, a dropped link)."""


class LeaderSweep:
    """Calls :meth:`sweep_due` every ``interval`` seconds while it holds the
    lock named :attr:`job` and :meth:`has_work` says there is something to sweep.

    ``io`` runs the blocking calls (the lock, the index checks) off the event
    loop; the log lines name the sweeper :attr:`what`, on its module's logger.
    """

    job: ClassVar[str]
    """The leader lock's name: one holder among all servers."""
    what: ClassVar[str]
    """The sweeper's name in its log lines."""

    def __init_subclass__(cls, *, job: str, what: str) -> None:
        """A sweeper names its lock and itself where it is declared:
        ``class Timekeeper(LeaderSweep, job="ledger.timekeeper", what="timekeeper")``."""
        super().__init_subclass__()
        cls.job, cls.what = job, what

    def __init__(
        self, ledger: GameLedger, interval: float, io: Callable[..., Awaitable[Any]]
    ) -> None:
        self.interval = interval
        self.lock = LeaderLock(
            ledger.store.connect_kwargs(),
            self.job,
            getattr(ledger.datastore, "in_flight", None),  # cut in an outage
        )
        self._io = io
        self.log = logging.getLogger(type(self).__module__)
        """The sweeper's module's logger."""
        self._task: asyncio.Task[None] | None = None

    async def has_work(self) -> bool:
        """Whether anything may come due (else the lock is let go)."""
        raise NotImplementedError

    async def sweep_due(self) -> None:
        """One sweep of what is due now."""
        raise NotImplementedError

    async def run(self) -> None:
        """Sweep while leader, forever; a failed sweep is logged and retried."""
        unreachable = False
        while True:
            try:
                if not await self.has_work():
                    await self._io(self.lock.release)
                elif await self._io(self.lock.try_hold):
                    await self.sweep_due()
            except UNREACHABLE as exc:
                # one line per outage, not a traceback per interval: an outage
                # is the operator's news once, and the health service says it
                if not unreachable:
                    self.log.warning(
                        "%s paused: the database is unreachable (%s)", self.what, exc
                    )
                unreachable = True
            except Exception:
                self.log.exception("%s sweep failed", self.what)
            else:
                if unreachable:
                    self.log.warning("%s resumed: the database is back", self.what)
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
