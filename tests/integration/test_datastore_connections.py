"""A connection that saw a constraint violation is not handed out again.

psycopg's prepared-statement cache can disagree with the server after a
rollback in pipeline mode, which is how eventsourcing inserts events: a lost
race in a group commit left the next commit on that connection failing with
'prepared statement "_pg3_N" does not exist' (``test_group_commit``'s stale
game, 4 runs in 6 when run alone).  The datastore closes such a connection so
the pool replaces it.
"""

from __future__ import annotations

import psycopg
import pytest
from eventsourcing.persistence import DataError, IntegrityError

pytestmark = pytest.mark.postgres


def test_a_constraint_violation_closes_its_connection(ledger) -> None:
    datastore = ledger.datastore
    with pytest.raises(IntegrityError), datastore.get_connection() as conn:
        seen = conn
        conn.execute("CREATE TEMP TABLE once (id int PRIMARY KEY)")
        conn.execute("INSERT INTO once VALUES (1), (1)")
    assert seen.closed
    with datastore.get_connection() as conn:  # the pool hands out a live one
        assert conn is not seen
        assert conn.execute("SELECT 1").fetchone() is not None


def test_other_errors_keep_their_connection(ledger) -> None:
    datastore = ledger.datastore
    with pytest.raises(DataError) as raised, datastore.get_connection() as conn:
        seen = conn
        conn.execute("SELECT 1 / 0")
    assert isinstance(raised.value.__cause__, psycopg.errors.DivisionByZero)
    assert not seen.closed
