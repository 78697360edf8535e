"""``bench.storage_size`` measures what the events take on disk, indexes included.

The capacity model turns its ``bytes_per_event`` into disk per day, so the
figure must be the table's whole footprint (rows, TOAST and every index)
per stored event, and must say when there is nothing to measure.
"""

from __future__ import annotations

import psycopg

from bench import storage_size
from services.runtime.bootstrap import build_ledger
from tests.support.database import scratch_database

SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


def test_bytes_per_event_is_the_events_tables_whole_footprint_per_row(
    server_url: str, settings
) -> None:
    with scratch_database(server_url, "ledger_size") as url:
        app = build_ledger(settings, url)
        try:
            assert storage_size.measure(url)["status"] == "not available"
            for _ in range(3):
                app.create_game("thalara", SETUP)
        finally:
            app.close()
        got = storage_size.measure(url)
        with psycopg.connect(url) as conn:
            rows, total, indexes = conn.execute(
                "SELECT count(*), pg_total_relation_size('ledger_events'),"
                " pg_indexes_size('ledger_events') FROM ledger_events"
            ).fetchone() or (0, 0, 0)
    assert got["status"] == "ok" and got["events"] == rows > 0
    assert got["bytes_per_event"] == round(total / rows, 1)
    assert got["index_bytes_per_event"] == round(indexes / rows, 1) > 0
    assert "ledger_events_pkey" in got["events_table"]["indexes"]
    assert got["payload_bytes_per_event"] < got["bytes_per_event"]
    assert got["side_tables"]["ledger_seat_tokens"]["rows"] == 6
