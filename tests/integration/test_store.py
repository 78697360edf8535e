"""Pins what services.storage.store relies on in eventsourcing's private hooks.

``LedgerRecorder._insert_events`` is one of the two private recorder methods
the ledger overrides (with ``_create_table``; every private eventsourcing
name used is listed in docs/decisions.md).  eventsourcing calls it inside
``insert_events``' transaction, before the event INSERT, with the keyword
arguments ``EventStore.put`` was given.  If an upgrade moved it out of the transaction, or stopped passing the
arguments, a move could be stored without its idempotency row: these tests
fail first.
"""

from __future__ import annotations

import asyncio
import os
import random
import uuid
from dataclasses import replace

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError

from domain.games import find_game
from projections.runner import VIEWS_CHANNEL
from services.storage.recorder import NOTIFY_CHANNEL
from services.storage.store import RecordedCommand
from tests.support.random_moves import decided_append

pytestmark = pytest.mark.postgres
THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


def test_side_rows_commit_with_the_events_they_describe(ledger):
    game_id = ledger.create_game("thalara", SETUP).game_id
    append = decided_append(ledger, game_id, "one")
    (recordings,) = ledger.store.append([append])
    assert [r.domain_event.originator_version for r in recordings] == [
        e.originator_version for e in append.events
    ]
    found = ledger.store.recorded_command(game_id, "one")
    assert found == RecordedCommand(
        append.rows.command.request_hash,
        append.rows.command.first_version,
        append.rows.last_version,
        recordings[-1].notification.id,
        append.rows.receipt,
    )
    assert ledger.store.game_row(game_id)["version"] == append.rows.last_version


def test_a_conflicting_append_stores_neither_its_events_nor_its_side_rows(ledger):
    game_id = ledger.create_game("thalara", SETUP).game_id
    first = decided_append(ledger, game_id, "first")
    second = decided_append(ledger, game_id, "second")  # the same version: a lost race
    # side rows that would store fine on their own: only the events conflict
    far = second.rows.last_version + 100
    second = replace(second, rows=replace(second.rows, last_version=far))
    ledger.store.append([first])
    records = ledger.read_records(game_id)
    with pytest.raises(IntegrityError):
        ledger.store.append([second])
    assert ledger.store.recorded_command(game_id, "second") is None
    assert ledger.read_records(game_id) == records
    assert [r["command_id"] for r in ledger.store.command_rows(game_id)] == ["first"]
    assert ledger.store.receipt_at(game_id, far) is None


def test_a_batch_with_one_conflict_stores_nothing_of_any_game(ledger):
    games = [ledger.create_game("thalara", SETUP).game_id for _ in range(2)]
    stale = decided_append(ledger, games[1], "stale")
    ledger.store.append([decided_append(ledger, games[1], "winner")])
    fine = decided_append(ledger, games[0], "fine")
    with pytest.raises(IntegrityError):
        ledger.store.append([fine, stale])
    assert ledger.store.recorded_command(games[0], "fine") is None
    assert ledger.load(games[0]).version == fine.rows.command.first_version - 1


def test_a_batch_gets_each_event_its_own_position_in_order(ledger, database_url):
    """The events of a batch go in as rows of values: each recording must
    carry the position its own event was stored at, in the batch's order."""
    games = [ledger.create_game("thalara", SETUP).game_id for _ in range(3)]
    appends = [decided_append(ledger, g, f"batch-{i}") for i, g in enumerate(games)]
    recordings = ledger.store.append(appends)
    with psycopg.connect(database_url) as conn:
        stored = dict(
            conn.execute(
                "SELECT notification_id, (originator_id, originator_version)"
                " FROM ledger_events WHERE originator_id = ANY(%s)",
                (games,),
            ).fetchall()
        )
    positions = [r.notification.id for game in recordings for r in game]
    assert positions == sorted(positions)
    for append, recorded in zip(appends, recordings, strict=True):
        assert [r.domain_event for r in recorded] == list(append.events)
        for r in recorded:
            event = r.domain_event
            assert stored[r.notification.id] == (
                str(event.originator_id),
                str(event.originator_version),
            )


def test_the_ledger_tables_and_append_only_triggers_are_created(ledger, database_url):
    import psycopg

    game_id = ledger.create_game("thalara", SETUP).game_id
    with (
        psycopg.connect(database_url) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute(
            "UPDATE ledger_events SET topic = 'x' WHERE originator_id = %s",
            (game_id,),
        )
    assert ledger.store.seed(game_id) is not None
    assert ledger.store.seed(uuid.uuid4()) is None


def test_a_rebuild_reads_the_events_the_event_store_reads(ledger):
    """``ReplayEvents`` (tuple rows, trusted decode) is the rebuild's event store:
    every range the repository asks for holds the events ``ledger.events`` holds."""
    game_id = ledger.create_game("thalara", SETUP).game_id
    rnd = random.Random(11)
    for n in range(6):
        game = ledger.load(game_id)
        seat = rnd.choice(game.to_act())
        ledger.submit(
            game_id, THALARA.random_command(game.state, seat, rnd), seat, f"m{n}"
        )
    head = ledger.load(game_id).version
    replay_events = ledger.repository.event_store
    for gt, lte in ((None, None), (None, 3), (2, None), (2, head - 1), (head, None)):
        assert replay_events.get(game_id, gt=gt, lte=lte) == list(
            ledger.events.get(game_id, gt=gt, lte=lte)
        )
    assert ledger.repository.get(game_id).version == head
    for version in range(1, head + 1):
        rebuilt = ledger.repository.get(game_id, version=version)
        assert rebuilt.version == version


AWKWARD = "it's a \\ back'slash; %s %(x)s $1 -- ünï \"quoted\" \t tab"


def test_a_commit_stores_awkward_text_and_every_byte_exactly(ledger, monkeypatch):
    """A commit's statements are rendered client-side and sent as one query
    string: quotes, backslashes, placeholders, comment markers and non-ASCII
    text, and a seed holding every byte value, must come back unchanged."""
    from services.ledger import creation

    seed = bytes(range(256))
    draws = iter([seed])  # the seed is the first draw; tokens draw afterwards
    monkeypatch.setattr(
        creation.secrets, "token_bytes", lambda n: next(draws, None) or os.urandom(n)
    )
    players = (AWKWARD, "'; DROP TABLE ledger_games; --")
    game_id = ledger.create_game("thalara", SETUP, player_ids=players).game_id
    assert ledger.store.seed(game_id) == seed
    assert tuple(ledger.store.game_row(game_id)["player_ids"]) == players
    append = decided_append(ledger, game_id, AWKWARD)
    ledger.store.append([append])
    assert ledger.store.recorded_command(game_id, AWKWARD) is not None
    stored = [record for _, _, record in ledger.read_records(game_id)]
    assert stored[-len(append.events) :] == [
        ledger.events.mapper.to_stored_event(e).state for e in append.events
    ]


def _notes(conn, wait: float = 0.3) -> int:
    return sum(1 for _ in conn.notifies(timeout=wait, stop_after=10))


def test_the_views_channel_hears_games_created_and_ended_but_not_moves(
    ledger, database_url
):
    """Every view reads only games created and concluded, so only a commit
    holding such an event wakes them; a move notifies its game's channel alone."""
    with (
        psycopg.connect(database_url, autocommit=True) as views,
        psycopg.connect(database_url, autocommit=True) as games,
    ):
        views.execute(f"LISTEN {VIEWS_CHANNEL}")
        games.execute(f"LISTEN {NOTIFY_CHANNEL}")
        game_id = ledger.create_game("thalara", SETUP).game_id
        assert _notes(views) == 1
        assert _notes(games) == 1
        ledger.store.append([decided_append(ledger, game_id, "a move")])
        assert _notes(games) == 1
        assert _notes(views) == 0
        asyncio.run(ledger.resign(game_id, 0))
        assert _notes(views) == 1


def test_a_commit_whose_answer_was_lost_is_an_outage_not_a_lost_race(
    ledger, monkeypatch
):
    """A switchover ends a session after its commit was written, before the
    answer: the retry on a new connection conflicts with the stored commit.
    That is reported as an unknown outcome (an outage: UNAVAILABLE, resend),
    never as another writer's win (ABORTED)."""
    from eventsourcing.persistence import OperationalError

    from services.api.errors import status_for
    from services.storage.recorder import CommitOutcomeUnknownError

    recorder = ledger.store._recorder
    real = recorder._insert_once
    calls = []

    def answer_lost(*args, **kwargs):
        calls.append(1)
        real(*args, **kwargs)  # committed...
        if len(calls) == 1:
            raise OperationalError(
                "terminating connection due to administrator command"
            )
        return real(*args, **kwargs)

    monkeypatch.setattr(recorder, "_insert_once", answer_lost)
    with pytest.raises(CommitOutcomeUnknownError) as caught:
        ledger.create_game("thalara", {"players": 2, "characters": ["myrja", "canto"]})
    assert len(calls) == 2  # tried again on a new connection, which conflicted
    assert status_for(caught.value).code == 14  # UNAVAILABLE
