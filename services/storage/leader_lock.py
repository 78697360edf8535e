"""One process among many holds a named job: a PostgreSQL session advisory lock.

Why a session lock on its own connection: the lock lives exactly as long as
the holder's session, so a holder killed with ``kill -9`` (or cut off by the
network) drops it when PostgreSQL notices the session ended, and the next
process that asks takes over; nothing is left to expire or clean up.  Pooled
connections end idle sessions and are shared, so the holder keeps its own.
"""

from __future__ import annotations

import contextlib
import os
import zlib
from typing import Any

import psycopg
from psycopg.rows import tuple_row

from services.storage.datastore import InFlight

LOCK_CLASS = 0x1ED6
"""The first key of every lock taken here (the second names the job)."""


class LeaderLock:
    """``try_hold()`` is true while this process holds ``job``'s lock."""

    def __init__(
        self,
        connect_kwargs: dict[str, Any],
        job: str,
        in_flight: InFlight | None = None,
    ) -> None:
        self._in_flight = in_flight or InFlight()
        """Where its queries wait (the ledger datastore's: an outage cuts them)."""
        self._kwargs = dict(connect_kwargs)
        # names the holder in pg_stat_activity (which process to ask, or kill)
        self._kwargs["application_name"] = f"{job}-{os.getpid()}"
        self._kwargs["row_factory"] = tuple_row  # the pool's may be dict_row
        self._key = zlib.crc32(job.encode()) - 2**31
        self._conn: psycopg.Connection[Any] | None = None

    def try_hold(self) -> bool:
        """Take the lock if nobody holds it; keep it if held; ``False`` otherwise
        (or when the database cannot be reached)."""
        try:
            if self._conn is not None and not self._conn.closed:
                with self._in_flight.hold(self._conn):
                    self._conn.execute("SELECT 1")
                return True
            self._conn = psycopg.connect(
                **self._kwargs, autocommit=True, connect_timeout=5
            )
            with self._in_flight.hold(self._conn):
                row = self._conn.execute(
                    "SELECT pg_try_advisory_lock(%s, %s)", (LOCK_CLASS, self._key)
                ).fetchone()
            if row is not None and row[0]:
                return True
        except psycopg.Error:
            pass
        self.release()
        return False

    def release(self) -> None:
        """Give the lock up (closing the session releases it)."""
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
        self._conn = None
