"""What the ledger's rows take on disk after a run: bytes per stored event.

Why measured, not assumed: the capacity model (:mod:`bench.report.capacity`)
turns events per second into disk per day, and a guessed row size makes
that figure a guess.  PostgreSQL's own size functions say what the rows,
their TOAST and their indexes occupy after the run: ``pg_relation_size``
(the heap), ``pg_table_size`` (heap, TOAST, free-space and visibility
maps) and ``pg_indexes_size``, summed by ``pg_total_relation_size``.  The
per-game side tables a move also writes (its idempotency key, its receipt,
the listing row, snapshots) are measured beside them, per event of the
log, so the model can state what a move costs on disk in all.
"""

from __future__ import annotations

from typing import Any

EVENTS_TABLE = "ledger_events"
SIDE_TABLES = (
    "ledger_commands",
    "ledger_receipts",
    "ledger_games",
    "ledger_seat_tokens",
    "ledger_game_secrets",
    "ledger_snapshots",
)
"""Per-game rows written beside the events (absent tables are skipped)."""


def _relation(conn: Any, table: str) -> dict[str, Any] | None:
    row = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (table,)).fetchone()
    if not row or not row[0]:
        return None
    rows, heap, table_bytes, index_bytes, total = conn.execute(
        f"SELECT (SELECT count(*) FROM {table}), pg_relation_size(%s),"
        " pg_table_size(%s), pg_indexes_size(%s), pg_total_relation_size(%s)",
        (table, table, table, table),
    ).fetchone()
    indexes = {
        name: size
        for name, size in conn.execute(
            "SELECT indexrelid::regclass::text, pg_relation_size(indexrelid)"
            " FROM pg_index WHERE indrelid = %s::regclass ORDER BY 1",
            (table,),
        ).fetchall()
    }
    return {
        "rows": rows,
        "heap_bytes": heap,
        "table_bytes": table_bytes,
        "index_bytes": index_bytes,
        "total_bytes": total,
        "indexes": indexes,
    }


def measure(url: str) -> dict[str, Any]:
    """Sizes of the events table and the side tables, and bytes per event.

    Measured as the run left the tables, without a ``VACUUM``: the events
    table is append-only, so its only dead rows are those of transactions
    that lost a race or failed (their count is reported beside).
    """
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        events = _relation(conn, EVENTS_TABLE)
        if events is None or not events["rows"]:
            return {"status": "not available", "reason": f"no rows in {EVENTS_TABLE}"}
        dead = conn.execute(
            "SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = %s",
            (EVENTS_TABLE,),
        ).fetchone()
        (payload,) = conn.execute(
            f"SELECT avg(length(state)) FROM {EVENTS_TABLE}"
        ).fetchone() or (0,)
        side = {t: r for t in SIDE_TABLES if (r := _relation(conn, t)) is not None}
    n = events["rows"]
    side_total = sum(r["total_bytes"] for r in side.values())
    return {
        "status": "ok",
        "events": n,
        "events_table": events,
        "dead_event_rows": dead[0] if dead else None,
        "payload_bytes_per_event": round(float(payload), 1),
        "table_bytes_per_event": round(events["table_bytes"] / n, 1),
        "index_bytes_per_event": round(events["index_bytes"] / n, 1),
        "bytes_per_event": round(events["total_bytes"] / n, 1),
        "side_tables": side,
        "side_bytes_per_event": round(side_total / n, 1),
    }
