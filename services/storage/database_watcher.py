"""Is PostgreSQL reachable?  A background probe that health checks and pools act on.

Why a connection of its own rather than one borrowed from the pool: under
load every pooled connection can be busy for a while, and a probe that
waits for one would report an outage that is only a queue.  The probe
runs ``SELECT 1`` every ``interval`` seconds; a failure gets one immediate
reconnect (a restart that finished between two probes is no outage), and
only a second failure counts.  On each change it

- marks every :class:`~services.storage.datastore.LedgerDatastore` (fail fast while
  down, so calls answer ``UNAVAILABLE`` at once instead of queueing),
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

log = logging.getLogger(__name__)


class DatabaseWatcher:
    def __init__(
        self,
        url: str,
        interval: float,
        datastores: Sequence[Any],
        on_change: Callable[[bool], Awaitable[None]],
    ) -> None:
        self._url = url
        self.interval = interval
        self._datastores = list(datastores)
        self._on_change = on_change
        self._conn: psycopg.Connection[Any] | None = None
        self._task: asyncio.Task[None] | None = None
        self.up = True
        """The last verdict (the database was reachable when the server started)."""

    async def start(self) -> None:
        await self._check()
        self._task = asyncio.create_task(self._run(), name="ledger-db-watcher")

    async def stop(self) -> None:
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
        up = await asyncio.to_thread(self.probe)
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
            log.error("the database is unreachable; answering UNAVAILABLE")
        await self._on_change(up)

    def probe(self) -> bool:
        """One ``SELECT 1``, with one reconnect if the connection is dead."""
        for _ in range(2):
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = psycopg.connect(
                        self._url,
                        autocommit=True,
                        connect_timeout=max(2, round(self.interval * 2)),
                    )
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
