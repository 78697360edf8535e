"""A connection that saw a constraint violation is not handed out again.

psycopg's prepared-statement cache can disagree with the server after a
rollback in pipeline mode, which is how eventsourcing inserts events: a lost
race in a group commit left the next commit on that connection failing with
'prepared statement "_pg3_N" does not exist' (``test_group_commit``'s stale
game, 4 runs in 6 when run alone).  The datastore closes such a connection so
the pool replaces it.  A connection waiting on a database that answers
nothing is cut when an outage is declared, and replaced the same way.
"""

from __future__ import annotations

import random
import threading
import time
from contextlib import ExitStack

import psycopg
import pytest
from eventsourcing.persistence import DataError, IntegrityError, OperationalError

from domain.games import find_game
from services.storage.datastore import TCP_TIMEOUTS
from tests.support.server import wait_until

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


def test_a_stale_prepared_statement_cache_costs_a_retry_not_the_move(ledger) -> None:
    """Every pooled connection forgets its prepared statements on the server.

    psycopg still believes them prepared, so the next insert on each fails
    with 'prepared statement "_pg3_N" does not exist'.  The move is stored
    all the same, on a connection that starts afresh.
    """
    thalara = find_game("thalara")
    setup = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}
    game_id = ledger.create_game("thalara", setup).game_id
    rnd = random.Random(3)

    def move(command_id: str) -> int:
        game = ledger.load(game_id)
        seat = rnd.choice(game.to_act())
        command = thalara.random_command(game.state, seat, rnd)
        return ledger.submit(game_id, command, seat, command_id).game.version

    for i in range(8):  # enough inserts for psycopg to prepare them
        move(f"warm-{i}")
    datastore = ledger.datastore
    with ExitStack() as stack:
        connections = [
            stack.enter_context(datastore.get_connection())
            for _ in range(datastore.pool.max_size)
        ]
        forgotten = 0
        for conn in connections:
            # one by one: psycopg notices a DEALLOCATE ALL and clears its cache
            rows = conn.execute("SELECT name FROM pg_prepared_statements").fetchall()
            names = [row["name"] for row in rows]
            for name in names:
                conn.execute(f'DEALLOCATE "{name}"')
            forgotten += len(names)
    assert forgotten, "no statement was prepared: the test would prove nothing"
    version = move("after-deallocate")
    assert ledger.load(game_id).version == version


def test_a_query_waiting_on_the_database_is_cut_and_its_connection_replaced(
    own_ledger, database_url
) -> None:
    """What the watcher does to each connection in use when it declares an
    outage: a query the database does not answer (here it sleeps) fails at
    once with a connection error, and the pool hands out a live one next."""
    datastore = own_ledger.datastore
    pids: list[int] = []
    errors: list[BaseException] = []

    def wait_on_the_database() -> None:
        try:
            with datastore.get_connection() as conn:
                pids.append(conn.info.backend_pid)
                conn.execute("SELECT pg_sleep(60)")
        except BaseException as exc:  # noqa: BLE001 - the test's to look at
            errors.append(exc)

    def sleeping() -> bool:
        with psycopg.connect(database_url, autocommit=True) as admin:
            row = admin.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE pid = %s AND query LIKE %s",
                (pids[0] if pids else 0, "%pg_sleep%"),
            ).fetchone()
        return bool(row and row[0])

    waiter = threading.Thread(target=wait_on_the_database)
    waiter.start()
    try:
        wait_until(sleeping, "the query never started")
        started = time.monotonic()
        assert datastore.in_flight.cut() == 1
        waiter.join(5)
        assert not waiter.is_alive(), "the query still waits"
        assert time.monotonic() - started < 2
        assert [type(e) for e in errors] == [OperationalError], errors
        with datastore.get_connection() as conn:
            assert conn.info.backend_pid != pids[0]
            assert conn.execute("SELECT 1").fetchone() is not None
        assert datastore.in_flight.cut() == 0, "nothing in use any more"
    finally:
        waiter.join(60)
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pids[0],))


def test_pooled_connections_carry_the_tcp_timeouts(ledger) -> None:
    """Set once per connection by libpq, for a peer gone silent at the TCP level."""
    with ledger.datastore.get_connection() as conn:
        options = {o.keyword.decode(): o.val for o in conn.pgconn.info}
    assert {k: options[k] for k in TCP_TIMEOUTS} == {
        k: str(v).encode() for k, v in TCP_TIMEOUTS.items()
    }
