"""eventsourcing's PostgreSQL datastore, made to notice dead connections and outages.

Why: when PostgreSQL restarts, every idle connection in a pool is dead, and
the pool (without a pre-ping) hands them out one after another.  Calls that
eventsourcing wraps in its own retry survived that; everything else (the
call gate's token lookup, seed reads, view queries) failed with
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

A database that hangs instead of closing (its processes stopped, packets
dropped) answers nothing at all, so the calls already waiting on it would
wait for good: each connection in use is held in :class:`InFlight`, and when
the watcher declares the outage it cuts them (:meth:`InFlight.cut`).
"""

from __future__ import annotations

import functools
import os
import select
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Concatenate, ParamSpec, TypeVar

import psycopg
from eventsourcing.postgres import PostgresDatastore, PostgresFactory
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool

S = TypeVar("S")
P = ParamSpec("P")
T = TypeVar("T")

FACTORY_TOPIC = "services.storage.datastore:LedgerPostgresFactory"

TCP_TIMEOUTS: dict[str, int] = {
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 15_000,
}
"""libpq's connection parameters for a peer that stops answering at the TCP
level (a network partition, a firewall that forgot an idle flow): data left
unacknowledged for 15 s, or an idle connection that keepalive probes (from
10 s idle on) get no answer to, fails with a connection error instead of
after TCP's retransmissions (about 15 minutes) or never.  Set once per
connection, no round trip; libpq ignores them on Unix-domain sockets.  A
stopped PostgreSQL is not covered: its kernel still acknowledges everything,
so these never fire; that case is :class:`InFlight`'s."""


RECONNECT_TIMEOUT = 2.0
"""Seconds the pool keeps retrying a lost connection before it gives that
slot up (psycopg_pool's ``reconnect_timeout``; its default is 5 minutes).

Why short: the pool retries with exponential backoff (1, 2, 4, 8 s...), and
``ConnectionPool.check`` does not cut a pending retry short.  After an
outage of ten seconds (a Patroni failover), the next retry was up to 8 s
away when the database came back, and every call waited for it: the
failover test measured 5 s between the new primary and the first move.
With a slot given up instead, the watcher's ``check`` on recovery grows the
pool at once (the Patroni failover test reports the seconds from the kill
to the first move).  Nothing else is lost: a slot given up is grown again
as soon as a call waits for one."""


class DatabaseUnavailableError(psycopg.OperationalError):
    """Raised when a connection is wanted while PostgreSQL is known to be unreachable.

    A subclass of psycopg's ``OperationalError``, not eventsourcing's: its
    recorders retry their own ``OperationalError`` ten times with a sleep
    between, which held every call already in flight for seconds after the
    watcher had declared the outage (two failed probes: no blip).  The error
    table maps it like any other lost connection (``UNAVAILABLE``).
    """


def tcp_timeouts(url: str) -> dict[str, Any]:
    """:data:`TCP_TIMEOUTS` for a connection to ``url``, less those it sets itself."""
    named = conninfo_to_dict(url)
    return {key: value for key, value in TCP_TIMEOUTS.items() if key not in named}


def with_tcp_timeouts(datastore: Any) -> Any:
    """``datastore`` with :data:`TCP_TIMEOUTS` on every connection its pool opens
    (eventsourcing builds the pool from host, port, user and database alone)."""
    datastore.pool.kwargs.update(TCP_TIMEOUTS)
    return datastore


class InFlight:
    """The connections waiting on one database now, so a database that stops
    answering cannot hold them: :meth:`cut` shuts each one's socket down, and
    whatever waits on it (a thread in a query, a coroutine awaiting one, a
    LISTEN) fails with a connection error at once.

    Why the socket: a stopped PostgreSQL still has its kernel acknowledge
    every packet, so neither TCP timeouts nor keepalives ever fire; a query
    cancel goes through the postmaster, which is stopped too; and a thread
    blocked in a synchronous query cannot be interrupted from outside, only
    abandoned, which leaves it and its pooled connection taken until the
    database wakes.  ``shutdown`` wakes any ``poll`` on the socket, from any
    thread.  Each held connection is kept as a duplicate of its descriptor:
    the connection may be closed while held, and a shutdown through the
    duplicate can never reach another socket that reused the number.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._fds: set[int] = set()

    @contextmanager
    def hold(self, conn: Any) -> Iterator[None]:
        """``conn`` is among the connections :meth:`cut` cuts while the block runs."""
        try:
            fd = os.dup(conn.fileno())
        except (psycopg.Error, OSError):  # closed: nothing can wait on it
            fd = -1
        if fd >= 0:
            with self._lock:
                self._fds.add(fd)
        try:
            yield
        finally:
            if fd >= 0:
                with self._lock:
                    self._fds.discard(fd)
                os.close(fd)

    def cut(self) -> int:
        """Shut down the socket of every connection held now; how many."""
        with self._lock:  # a held descriptor stays open while the lock is held
            for fd in self._fds:
                sock = socket.socket(fileno=fd)  # a view of ``fd``, detached below
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # already shut down or disconnected
                finally:
                    sock.detach()
            return len(self._fds)


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


def answers(curs: Any) -> None:
    """One round trip on ``curs``: raises unless the database answers (a health probe)."""
    curs.execute("SELECT 1")


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

    @property
    def in_flight(self) -> InFlight:
        """The connections waiting on this database now: the pool's in use,
        and the connections of their own that the loop's committer, the event
        hub, the timekeeper's lock and the tournament desk hold here."""
        held: InFlight | None = self.__dict__.get("_in_flight")
        if held is None:  # made on first use: the factory swaps in this class
            held = self.__dict__.setdefault("_in_flight", InFlight())
        return held

    @contextmanager
    def waiting(self, conn: Any) -> Iterator[None]:
        """Hold ``conn`` in :attr:`in_flight` while the block uses it.

        :raises DatabaseUnavailableError: when the database is unreachable;
            checked after ``conn`` is held, so an outage declared meanwhile
            either finds it held (and cuts it) or refuses it here.
        """
        with self.in_flight.hold(conn):
            if self.unreachable:
                raise DatabaseUnavailableError("the database is unreachable")
            yield

    @contextmanager
    def get_connection(self) -> Iterator[Any]:
        if self.unreachable:
            raise DatabaseUnavailableError("the database is unreachable")
        # Every connection of a full pool may be dead after a restart; each one
        # found dead is closed and replaced, so this loop is bounded.
        for _ in range(self.pool.max_size + 1):
            with super().get_connection() as conn, self.waiting(conn):
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
                    except psycopg.errors.ReadOnlySqlTransaction:
                        # a standby now (a failover or switchover demoted the
                        # node behind this connection): never hand it out again
                        conn.close()
                        raise
                    return
        raise DatabaseUnavailableError("no live connection to the database")


class LedgerPostgresFactory(PostgresFactory):
    """eventsourcing's PostgreSQL factory, building a :class:`LedgerDatastore`.

    ``BasePostgresFactory.__init__`` constructs ``PostgresDatastore`` itself
    from a dozen ``POSTGRES_*`` settings and offers no hook for the class;
    rather than copy that parsing, the instance is given the subclass, which
    adds behaviour and no state of its own until used (pinned by
    ``tests/faults/test_outage.py``), and its pool :data:`TCP_TIMEOUTS`.
    """

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.datastore.__class__ = LedgerDatastore
        with_tcp_timeouts(self.datastore)
        self.datastore.pool.reconnect_timeout = RECONNECT_TIMEOUT
        # libpq's answer to "which of these hosts is the primary?": with a
        # multi-host URL, every connection of the pool (and the committer's,
        # the timekeeper's and the tournament desk's, made from its kwargs)
        # skips the hosts in recovery
        wanted = self.env.get("POSTGRES_TARGET_SESSION_ATTRS")
        if wanted:
            kwargs: Any = self.datastore.pool.kwargs  # a dict (eventsourcing's)
            kwargs["target_session_attrs"] = wanted
