"""The CLI's one line for a database error says whether PostgreSQL answered.

A server that failed its start on a deadlock used to say "cannot reach
PostgreSQL", which sends an operator to check addresses and networks.
"""

from __future__ import annotations

import psycopg
from eventsourcing.persistence import OperationalError
from psycopg import errors

from services.cli.failures import FAILED, describe


def _wrapped(error: Exception) -> OperationalError:
    """As eventsourcing's datastore raises it: its own class, psycopg's as the cause."""
    try:
        raise OperationalError(str(error)) from error
    except OperationalError as wrapped:
        return wrapped


def test_an_answer_from_postgresql_is_not_called_unreachable() -> None:
    line, code = describe(_wrapped(errors.DeadlockDetected("deadlock detected")))
    assert (line, code) == ("PostgreSQL refused it: deadlock detected", FAILED)


def test_a_connection_that_failed_is_unreachable() -> None:
    refused = psycopg.OperationalError("connection refused")  # no SQLSTATE
    assert describe(refused) == ("cannot reach PostgreSQL: connection refused", FAILED)
    starting = _wrapped(errors.CannotConnectNow("the database system is starting up"))
    assert describe(starting)[0] == (
        "cannot reach PostgreSQL: the database system is starting up"
    )
