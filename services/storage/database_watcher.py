"""Is PostgreSQL reachable?  A background probe that health checks and pools act on.

Why a connection of its own rather than one borrowed from the pool: under
load every pooled connection can be busy for a while, and a probe that
waits for one would report an outage that is only a queue.  The probe
runs ``SELECT 1`` every ``interval`` seconds; a failure gets one immediate
reconnect (a restart that finished between two probes is no outage), and
only a second failure counts.  A ``SELECT 1`` not answered within
``timeout`` seconds is a failure too: a database that hangs (stopped, or
cut off without a reset) answers nothing, so its connection is cut
(:class:`~services.storage.datastore.InFlight`), and the reconnect is bounded
by libpq's ``connect_timeout``.  On each change it

- marks every :class:`~services.storage.datastore.LedgerDatastore` (fail fast while
  down, so calls answer ``UNAVAILABLE`` at once instead of queueing) and,
  going down, cuts every connection in use on it: calls waiting on a hung
  database answer ``UNAVAILABLE`` now, not when it wakes,
- on recovery, has each pool check its idle connections (all dead after a
  restart) and grow back to its size,
- calls ``on_change(up)``, which the server uses for ``grpc.health.v1``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import psycopg

from services.observability.metrics import DATABASE_ERRORS, DATABASE_UP
from services.storage.datastore import InFlight, tcp_timeouts

log = logging.getLogger(__name__)


class DatabaseWatcher:
    def __init__(
        self,
        url: str,
        interval: float,
        datastores: Sequence[Any],
        on_change: Callable[[bool], Awaitable[None]],
        timeout: float = 3.0,
    ) -> None:
        self._url = url
        self.interval = interval
        self.timeout = timeout
        """Seconds a ``SELECT 1`` may take before it counts as failed
        (``LEDGER_DB_WAIT_SECONDS``)."""
        self._datastores = list(datastores)
        self._on_change = on_change
        self._conn: psycopg.Connection[Any] | None = None
        self._probing = InFlight()
        """The probe's connection while its ``SELECT 1`` waits."""
        self._task: asyncio.Task[None] | None = None
        self.up = True
        """The last verdict (the database was reachable when the server started)."""

    async def start(self) -> None:
        await self._check()
        self._task = asyncio.create_task(self._run(), name="ledger-db-watcher")

    async def stop(self) -> None:
        self._probing.cut()  # a probe waiting on a hung database ends now
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._conn is not None:
            self._conn.close()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            await self._check()

    async def _check(self) -> None:
        up = await self._probe()
        DATABASE_UP.set(1 if up else 0)
        if not up:
            DATABASE_ERRORS.labels("health_probe").inc()
        if up == self.up:
            return
        self.up = up
        for datastore in self._datastores:
            datastore.unreachable = not up
        if up:
            log.warning("the database is reachable again")
            for datastore in self._datastores:
                await asyncio.to_thread(_refresh, datastore)
        else:
            # after marking: a call between the two is refused, not left waiting
            cut = sum(datastore.in_flight.cut() for datastore in self._datastores)
            log.error(
                "the database is unreachable; answering UNAVAILABLE"
                " (%d connections in use cut)",
                cut,
            )
        await self._on_change(up)

    async def _probe(self) -> bool:
        """:meth:`probe` in a thread, its ``SELECT 1`` cut after ``timeout`` s.

        A cut probe fails (and reconnects once, within ``connect_timeout``),
        so each round of this loop ends the probe or moves it on.
        """
        probe = asyncio.ensure_future(asyncio.to_thread(self.probe))
        while not (await asyncio.wait({probe}, timeout=self.timeout))[0]:
            self._probing.cut()
        return probe.result()

    def probe(self) -> bool:
        """One ``SELECT 1``, with one reconnect if the connection is dead."""
        for _ in range(2):
            try:
                if self._conn is None or self._conn.closed:
                    wait = min(self.interval * 2, self.timeout)
                    self._conn = psycopg.connect(
                        self._url,
                        autocommit=True,
                        connect_timeout=max(2, round(wait)),  # libpq's least is 2
                        **tcp_timeouts(self._url),
                    )
                with self._probing.hold(self._conn):
                    self._conn.execute("SELECT 1")
                return True
            except psycopg.Error as exc:
                log.debug("database probe failed: %s", exc)
                if self._conn is not None:
                    self._conn.close()
                self._conn = None
        return False


def _refresh(datastore: Any) -> None:
    """Drop the pool's dead connections and let it grow back (psycopg_pool ``check``)."""
    with contextlib.suppress(Exception):  # a pool never opened has nothing to check
        datastore.pool.check()
