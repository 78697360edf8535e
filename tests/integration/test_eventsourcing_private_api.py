"""Behaviour of eventsourcing's private methods that the ledger relies on, pinned.

eventsourcing is pinned exactly (pyproject.toml); these tests say what an
upgrade must keep, one per private API the services use:

- ``PostgresApplicationRecorder._insert_events`` (overridden in
  ``services/storage/recorder.py``): called inside ``insert_events``' transaction, so
  the side rows (command id, receipt, listing head, tournament rows) and the
  NOTIFY commit with the events or not at all.  Pinned here.
- ``PostgresApplicationRecorder._create_table`` (overridden): ``create_table``
  calls it with a cursor in one transaction, so the ledger's own tables and
  triggers are made with eventsourcing's.  Pinned here.
- ``PostgresApplicationRecorder._insert_stored_events``: the ledger's
  ``insert_events`` runs its statements itself (the table lock, the NOTIFY,
  the event INSERT as rows of values, see ``LedgerRecorder._values_insert``),
  so an upgrade that added a statement there would be missed.  Pinned here:
  it runs exactly the statements the ledger renders in its place.
- ``Aggregate._pending_events`` (``services.ledger.game_cache.shell``): the list
  ``collect_events`` drains, so a shell with a list of its own decides
  without touching the shared game.  Pinned here.
- ``_insert_events`` and ``_insert_stored_events`` called on the results
  policy's cursor (``services.tournaments.results.ResultsDesk``): the result
  event, its NOTIFY and the policy's tracking position commit together; a
  crash before the commit stores none of them.  Pinned by
  ``tests/integration/test_tournament_policy.py``.
"""

from __future__ import annotations

import random
import uuid

import pytest
from eventsourcing.persistence import IntegrityError

from domain.games import find_game
from services.ledger.game_cache import shell

pytestmark = pytest.mark.postgres
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


def _decide(ledger, game, rnd, command_id):
    """One move decided on ``game`` (a private shell) with its side rows, not stored."""
    from services.ledger.log_tail import CommandKey

    seat = rnd.choice(game.to_act())
    command = find_game("thalara").random_command(game.state, seat, rnd)
    assert command is not None
    events = game.act(command, seat, ledger.seed_of(game.id), command_id)
    return ledger.log_tail.append_of(
        game, events, CommandKey(command_id, seat, "digest")
    )


def _commands(ledger, game_id):
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT command_id FROM ledger_commands WHERE game_id = %s", (game_id,)
        )
        return {r["command_id"] for r in curs.fetchall()}


def test_side_rows_commit_with_the_events_or_not_at_all(own_ledger) -> None:
    from services.storage.tournament_rows import TokenGrant
    from services.storage.tournament_store import TOURNAMENT_DDL

    with own_ledger.datastore.transaction(commit=True) as curs:
        curs.execute(TOURNAMENT_DDL)
    game_id = own_ledger.create_game("thalara", SETUP).game_id
    game = own_ledger.load(game_id)
    first = _decide(own_ledger, shell(game), random.Random(1), "first")
    second = _decide(
        own_ledger, shell(game), random.Random(2), "second"
    )  # same version
    own_ledger.store.append([first])
    # a side row that would succeed on its own, with events that cannot
    grant = TokenGrant(f"pin-{uuid.uuid4()}", uuid.uuid4(), "organiser")
    with pytest.raises(IntegrityError):
        own_ledger.events.put(list(second.events), tournament_rows=[grant])
    with own_ledger.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT count(*) AS n FROM tournament_tokens WHERE token_hash = %s",
            (grant.token_hash,),
        )
        assert curs.fetchone()["n"] == 0
    assert _commands(own_ledger, game_id) == {"first"}


def test_create_table_runs_the_ledgers_ddl_in_its_transaction(own_ledger) -> None:
    recorder = own_ledger.recorder
    calls = []
    original = type(recorder)._create_table

    def spy(self, curs):
        calls.append(curs.connection.info.transaction_status.name)
        return original(self, curs)

    type(recorder)._create_table = spy
    with own_ledger.datastore.transaction(commit=True) as curs:  # as if set up by
        curs.execute("COMMENT ON TABLE ledger_events IS NULL")  # an older version
    try:
        recorder.create_table()
    finally:
        type(recorder)._create_table = original
    assert calls == ["INTRANS"]


def test_a_shell_decides_without_touching_the_shared_game(own_ledger) -> None:
    game = own_ledger.load(own_ledger.create_game("thalara", SETUP).game_id)
    copy = shell(game)
    rnd = random.Random(3)
    seat = rnd.choice(copy.to_act())
    command = find_game("thalara").random_command(copy.state, seat, rnd)
    assert command is not None
    events = copy.act(command, seat, own_ledger.seed_of(copy.id), str(uuid.uuid4()))
    assert list(game.collect_events()) == []  # the shared game has nothing pending
    assert list(copy.collect_events()) == list(events)


def test_insert_stored_events_runs_the_statements_the_ledger_runs_in_its_place(
    own_ledger,
) -> None:
    """eventsourcing's ``_insert_stored_events`` locks the table, notifies its
    channel and inserts the events, nothing else: the ledger's commit sends
    the first two as rendered once (``_locking_statements``) and the insert as
    rows of values into the same columns."""
    from psycopg import sql

    recorder = own_ledger.recorder
    executed: list[str] = []

    class Recording:
        def execute(self, query, params=None, **_):
            executed.append(query.as_string(None))

    recorder._insert_stored_events(Recording(), [])
    locking = recorder._locking_statements().decode().split(";")
    assert executed[: len(locking)] == locking
    assert executed[len(locking) :] == [
        recorder.insert_events_statement.as_string(None)
    ]
    values = recorder._values_insert(2).as_string(None)
    assert values.startswith(
        sql.SQL("INSERT INTO {}.{} AS t")
        .format(
            sql.Identifier(recorder.datastore.schema),
            sql.Identifier(recorder.events_table_name),
        )
        .as_string(None)
        + " (originator_id, originator_version, topic, state) VALUES"
    )
    assert values.endswith(" RETURNING notification_id")


@pytest.mark.parametrize("count", [1, 12, 13, 25])
def test_the_event_insert_rendered_in_pieces_is_the_statement_rendered_whole(
    own_ledger, count: int
) -> None:
    """A commit renders the event INSERT some rows at a time (psycopg caches
    the parse of a query of at most 50 parameters): the text it sends is the
    one statement of :meth:`_values_insert` rendered whole."""
    from eventsourcing.persistence import StoredEvent
    from psycopg import ClientCursor

    recorder = own_ledger.recorder
    rnd = random.Random(count)
    events = [
        StoredEvent(uuid.uuid4(), v, "a:Topic'\\%s", rnd.randbytes(40 + v))
        for v in range(1, count + 1)
    ]
    values = [
        x
        for e in events
        for x in (e.originator_id, e.originator_version, e.topic, e.state)
    ]
    with own_ledger.datastore.transaction(commit=False) as curs:
        cursor = ClientCursor(curs.connection)
        whole = cursor.mogrify(recorder._values_insert(count), values)
        assert recorder.events_insert_text(cursor, events) == whole
