"""results.md's storage section shows the measured bytes per event, or says it did not run."""

from __future__ import annotations

from bench.report import sections


def _storage() -> dict[str, object]:
    table = {
        "rows": 1000,
        "heap_bytes": 700_000,
        "table_bytes": 708_000,
        "index_bytes": 88_000,
        "total_bytes": 796_000,
        "indexes": {"ledger_events_pkey": 60_000},
    }
    return {
        "status": "ok",
        "events": 1000,
        "events_table": table,
        "dead_event_rows": 3,
        "payload_bytes_per_event": 662.0,
        "table_bytes_per_event": 708.0,
        "index_bytes_per_event": 88.0,
        "bytes_per_event": 796.0,
        "side_tables": {"ledger_commands": {**table, "indexes": {}}},
        "side_bytes_per_event": 139.4,
    }


def test_the_storage_section_shows_bytes_per_event_and_each_table() -> None:
    text = "\n".join(sections.storage({"storage": _storage()}))
    assert "**796 B per event**" in text and "indexes 88 B" in text
    assert "| ledger_commands | 1,000 | 796,000 |" in text
    assert "ledger_events_pkey 60,000" in text


def test_a_run_without_the_measurement_says_so() -> None:
    text = "\n".join(sections.storage({}))
    assert "not run" in text and "B per event" not in text
