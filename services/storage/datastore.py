"""eventsourcing's PostgreSQL datastore, made to notice dead connections and outages.

Why: when PostgreSQL restarts, every idle connection in a pool is dead, and
the pool (without a pre-ping) hands them out one after another.  Calls that
eventsourcing wraps in its own retry survived that; everything else (the
auth interceptor's token lookup, seed reads, view queries) failed with
``terminating connection due to administrator command`` until each dead
connection had been used once.  A pre-ping (``check=check_connection``)
would fix it at one round trip per checkout, several per move.  Here a
checkout costs one ``poll()`` on the socket instead: a healthy idle
connection has nothing to read, while one the server has closed (restart,
``pg_terminate_backend``, idle timeout) has its goodbye waiting, and only
then is a round trip spent to find out.  Dead ones are closed, so the pool
replaces them, and the next connection is tried.

While :mod:`services.storage.database_watcher` knows the database is unreachable, a
checkout fails at once (``unreachable``) instead of waiting out the pool
timeout, so callers get ``UNAVAILABLE`` in a second or two, not after
minutes of eventsourcing's retries, and no thread is parked meanwhile.
"""

from __future__ import annotations

import functools
import select
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Concatenate, ParamSpec, TypeVar

import psycopg
from eventsourcing.persistence import OperationalError
from eventsourcing.postgres import PostgresDatastore, PostgresFactory
from psycopg_pool import ConnectionPool

S = TypeVar("S")
P = ParamSpec("P")
T = TypeVar("T")

FACTORY_TOPIC = "services.storage.datastore:LedgerPostgresFactory"


class DatabaseUnavailableError(OperationalError):
    """Raised when a connection is wanted while PostgreSQL is known to be unreachable.

    A subclass of eventsourcing's ``OperationalError``, so its recorders
    retry it for a moment (a blip passes unnoticed) and the error table maps
    it like any other lost connection.
    """


def is_alive(conn: psycopg.Connection[Any]) -> bool:
    """Whether an idle connection is usable: no round trip unless the server spoke."""
    if conn.closed:
        return False
    poller = select.poll()
    try:
        poller.register(conn.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
    except (psycopg.Error, OSError, ValueError):
        return False
    if not poller.poll(0):
        return True  # nothing arrived since it was last used
    try:
        ConnectionPool.check_connection(conn)
    except psycopg.Error:
        conn.close()  # the pool discards closed connections and makes a new one
        return False
    return True


_FORGET_PREPARED = (psycopg.IntegrityError, psycopg.errors.InvalidSqlStatementName)


def is_stale_statement(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is psycopg's cache disagreeing with the server."""
    while exc is not None:
        if isinstance(exc, psycopg.errors.InvalidSqlStatementName):
            return True
        exc = exc.__cause__  # type: ignore[assignment]
    return False


def retried_on_stale_statements(
    method: Callable[Concatenate[S, P], T],
) -> Callable[Concatenate[S, P], T]:
    """Run ``method`` again when a connection's prepared statements were stale.

    :class:`LedgerDatastore` closes such a connection, so the next try checks
    out another; each pooled connection can fail this way at most once, which
    bounds the tries by the pool's size.  Only for methods that store nothing
    when they fail (reads, and an insert whose transaction rolled back).  The
    instance's ``datastore`` attribute is the datastore it uses.
    """

    @functools.wraps(method)
    def wrapper(self: S, *args: P.args, **kwargs: P.kwargs) -> T:
        tries = self.datastore.pool.max_size + 1  # type: ignore[attr-defined]
        for _ in range(tries - 1):
            try:
                return method(self, *args, **kwargs)
            except Exception as exc:
                if not is_stale_statement(exc):
                    raise
        return method(self, *args, **kwargs)

    return wrapper


class LedgerDatastore(PostgresDatastore):
    """:class:`PostgresDatastore` whose checkouts skip dead connections and fail
    fast during an outage (see the module docstring)."""

    unreachable: bool = False
    """Set by :class:`services.storage.database_watcher.DatabaseWatcher` while probes fail."""

    @contextmanager
    def get_connection(self) -> Iterator[Any]:
        if self.unreachable:
            raise DatabaseUnavailableError("the database is unreachable")
        # Every connection of a full pool may be dead after a restart; each one
        # found dead is closed and replaced, so this loop is bounded.
        for _ in range(self.pool.max_size + 1):
            with super().get_connection() as conn:
                if is_alive(conn):
                    try:
                        yield conn
                    except _FORGET_PREPARED:
                        # psycopg's prepared-statement cache can disagree with
                        # the server after a rollback in pipeline mode (the
                        # event insert's); the next statement then fails with
                        # 'prepared statement "_pg3_N" does not exist'.  A lost
                        # race is rare, a reconnect is cheap: start afresh.
                        conn.close()
                        raise
                    return
        raise DatabaseUnavailableError("no live connection to the database")


class LedgerPostgresFactory(PostgresFactory):
    """eventsourcing's PostgreSQL factory, building a :class:`LedgerDatastore`.

    ``BasePostgresFactory.__init__`` constructs ``PostgresDatastore`` itself
    from a dozen ``POSTGRES_*`` settings and offers no hook for the class;
    rather than copy that parsing, the instance is given the subclass, which
    adds behaviour but no state (pinned by ``tests/faults/test_outage.py``).
    """

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.datastore.__class__ = LedgerDatastore
