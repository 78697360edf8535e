"""A connection that saw a constraint violation is not handed out again.

psycopg's prepared-statement cache can disagree with the server after a
rollback in pipeline mode, which is how eventsourcing inserts events: a lost
race in a group commit left the next commit on that connection failing with
'prepared statement "_pg3_N" does not exist' (``test_group_commit``'s stale
game, 4 runs in 6 when run alone).  The datastore closes such a connection so
the pool replaces it.
"""

from __future__ import annotations

import random
from contextlib import ExitStack

import psycopg
import pytest
from eventsourcing.persistence import DataError, IntegrityError

from domain.games import find_game

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
        command = thalara.pick_random_command(game.state, seat, rnd)
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
