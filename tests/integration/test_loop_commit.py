"""Committing on the event loop (services.storage.group_commit.LoopAppender):
the same rows as the committer thread's, a broken connection replaced, and an
unreachable database refused at once."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from services.storage.datastore import DatabaseUnavailableError
from services.storage.group_commit import LoopAppender
from tests.support.random_moves import decided_append

pytestmark = pytest.mark.postgres
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


def test_a_batch_committed_on_the_loop_is_stored_as_the_thread_stores_it(ledger):
    games = [ledger.create_game("thalara", SETUP).game_id for _ in range(2)]
    appends = [decided_append(ledger, g, f"loop-{i}") for i, g in enumerate(games)]

    async def commit():
        appender = LoopAppender(ledger.store)
        try:
            return await appender.append(appends)
        finally:
            await appender.close()

    recordings = asyncio.run(commit())
    for append, recorded in zip(appends, recordings, strict=True):
        assert [r.domain_event for r in recorded] == list(append.events)
        found = ledger.store.recorded_command(
            append.game_id, append.rows.command.command_id
        )
        assert found is not None
        assert found.log_position == recorded[-1].notification.id
        assert found.receipt == append.rows.receipt
        stored = ledger.read_records(append.game_id)[-len(append.events) :]
        assert [record for _, _, record in stored] == [
            r.notification.state for r in recorded
        ]
        assert ledger.load(append.game_id).version == append.rows.last_version


def test_a_broken_connection_is_replaced_and_the_commit_goes_through(
    ledger, database_url
):
    game_id = ledger.create_game("thalara", SETUP).game_id

    async def commit():
        appender = LoopAppender(ledger.store)
        try:
            await appender.append([decided_append(ledger, game_id, "before")])
            pid = appender._conn.info.backend_pid
            with psycopg.connect(database_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            await asyncio.sleep(0.1)
            await appender.append([decided_append(ledger, game_id, "after")])
            return pid, appender._conn.info.backend_pid
        finally:
            await appender.close()

    before, after = asyncio.run(commit())
    assert before != after
    assert ledger.store.recorded_command(game_id, "after") is not None


def test_an_unreachable_database_is_refused_at_once(ledger):
    game_id = ledger.create_game("thalara", SETUP).game_id
    append = decided_append(ledger, game_id, "refused")
    ledger.datastore.unreachable = True
    try:
        with pytest.raises(DatabaseUnavailableError):
            asyncio.run(LoopAppender(ledger.store).append([append]))
    finally:
        ledger.datastore.unreachable = False
    assert ledger.store.recorded_command(game_id, "refused") is None
