"""Runs views over the ledger's log: catch up in batches, then follow live.

Exactly-once, even with several runners and crashes:

- each batch is one transaction that locks the view's tracking row
  (``SELECT ... FOR UPDATE``), reads events after the tracked position,
  applies them and moves the position; a second runner blocks on the lock and
  then sees the new position, so it cannot apply the same events again;
- a crash mid-batch rolls the whole batch back, rows and position together;
- the event store takes a table lock for each insert, so notification ids
  become visible in order and reading ``> position`` never skips an event
  that commits later.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from eventsourcing.persistence import ProgrammingError
from prometheus_client import Gauge

from domain.records import LEDGER_PREFIX
from projections.base import LogEvent, View

log = logging.getLogger(__name__)

TRACKING_DDL = """
CREATE TABLE IF NOT EXISTS projection_tracking (
    view text PRIMARY KEY,
    position bigint NOT NULL DEFAULT 0,
    schema_version int NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
"""

LEDGER_TOPICS = f"starts_with(topic, '{LEDGER_PREFIX}')"
"""The predicate of the log's partial index of the ledger's own events."""

LAG = Gauge(
    "ledger_projection_lag_events",
    "Events in the log not yet applied by the view",
    ["view"],
)
POSITION = Gauge(
    "ledger_projection_position", "Last log position applied by the view", ["view"]
)


class SetupRequiredError(RuntimeError):
    """Raised when the service may not create tables (``LEDGER_CREATE_TABLES=false``)
    and the database lacks a table, a view's tracking row or a grant:
    the owner must run ``ledger db setup`` first."""


@dataclass(frozen=True)
class ViewStatus:
    view: str
    position: int
    head: int

    @property
    def lag(self) -> int:
        return max(0, self.head - self.position)


class ViewRunner:
    """Applies the log to one view."""

    def __init__(
        self,
        datastore: Any,
        view: View,
        events_table: str = "ledger_events",
        batch_size: int = 500,
        create_tables: bool = True,
    ):
        self.datastore = datastore
        self.view = view
        self.events_table = events_table
        self.batch_size = batch_size
        self.create_tables = create_tables
        """False: :meth:`ensure_tables` only checks (no DDL, for a role that owns nothing)."""

    def ensure_tables(self) -> None:
        """Create tables; rebuild from scratch if the view's schema version changed.

        With ``create_tables=False`` nothing is created or reset: the view's
        tracking row must exist at the current schema version.

        :raises SetupRequiredError: when ``create_tables=False`` and it does not.
        """
        if not self.create_tables:
            self._check_ready()
            return
        with self.datastore.transaction(commit=True) as curs:
            curs.execute("SELECT pg_advisory_xact_lock(7302)")
            curs.execute(TRACKING_DDL)
            self._create_ledger_topics_index(curs)
            self.view.create(curs)
            curs.execute(
                "SELECT schema_version FROM projection_tracking WHERE view = %s",
                (self.view.name,),
            )
            row = curs.fetchone()
            if row is None:
                curs.execute(
                    "INSERT INTO projection_tracking (view, position, schema_version) VALUES (%s, 0, %s)",
                    (self.view.name, self.view.schema_version),
                )
            elif row["schema_version"] != self.view.schema_version:
                log.warning("view %s changed schema: rebuilding", self.view.name)
                self.view.reset(curs)
                curs.execute(
                    "UPDATE projection_tracking SET position = 0, schema_version = %s WHERE view = %s",
                    (self.view.schema_version, self.view.name),
                )

    def _create_ledger_topics_index(self, curs: Any) -> None:
        """An index of the log's ``ledger.*`` events (two per game) by position.

        Why: the views that read only ``GameCreated``/``GameConcluded`` asked
        for the next 500 of them, and PostgreSQL answered by reading and
        sorting every event up to the head (half a second for 200,000 events,
        per batch).  Partial, so a move adds nothing to it.  Why here and not
        with the table: only the views read it, and a log without it still
        works, only slower.  Building it on an existing log locks writes while
        it is built (once; see docs/decisions.md).
        """
        name = f"{self.events_table}_ledger_topics"
        curs.execute("SELECT to_regclass(%s) AS found", (name,))
        if curs.fetchone()["found"] is None:
            curs.execute(
                f"CREATE INDEX IF NOT EXISTS {name} ON {self.events_table} (notification_id)"
                f" WHERE {LEDGER_TOPICS}"
            )

    def _check_ready(self) -> None:
        try:
            with self.datastore.transaction(commit=False) as curs:
                curs.execute(
                    "SELECT schema_version FROM projection_tracking WHERE view = %s",
                    (self.view.name,),
                )
                row = curs.fetchone()
        except (
            psycopg.ProgrammingError,
            ProgrammingError,
        ) as exc:  # no table or no grant
            raise SetupRequiredError(
                f"view {self.view.name}: {exc}; run `ledger db setup`"
            ) from None
        if row is None or row["schema_version"] != self.view.schema_version:
            found = (
                "no tracking row"
                if row is None
                else f"schema version {row['schema_version']}"
            )
            raise SetupRequiredError(
                f"view {self.view.name} needs schema version {self.view.schema_version}, the database has "
                f"{found}; run `ledger db setup` as the owner (it creates and rebuilds views)"
            )

    def step(self, before_commit: Callable[[], None] | None = None) -> int:
        """Apply one batch; returns how many log positions it advanced."""
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                "SELECT position FROM projection_tracking WHERE view = %s FOR UPDATE",
                (self.view.name,),
            )
            position = curs.fetchone()["position"]
            curs.execute(
                f"SELECT coalesce(max(notification_id), 0) AS head FROM {self.events_table}"
            )
            head = curs.fetchone()["head"]
            params: list[Any] = [position, head]
            sql = (
                f"SELECT notification_id, originator_id, originator_version, topic, state FROM {self.events_table}"
                " WHERE notification_id > %s AND notification_id <= %s"
            )
            if self.view.topics:
                if all(t.startswith(LEDGER_PREFIX) for t in self.view.topics):
                    sql += f" AND {LEDGER_TOPICS}"  # a literal: lets the partial index serve
                sql += " AND topic = ANY(%s)"
                params.append(list(self.view.topics))
            sql += " ORDER BY notification_id LIMIT %s"
            params.append(self.batch_size)
            curs.execute(sql, params)
            rows = curs.fetchall()
            events = [
                LogEvent(
                    r["notification_id"],
                    r["originator_id"],
                    r["originator_version"],
                    r["topic"],
                    bytes(r["state"]),
                )
                for r in rows
            ]
            if events:
                self.view.apply(curs, events)
            full = len(rows) == self.batch_size
            new_position = events[-1].position if full else head
            if new_position != position:
                curs.execute(
                    "UPDATE projection_tracking SET position = %s, updated_at = now() WHERE view = %s",
                    (new_position, self.view.name),
                )
            if before_commit is not None:
                before_commit()
        POSITION.labels(self.view.name).set(new_position)
        LAG.labels(self.view.name).set(max(0, head - new_position))
        return new_position - position

    def catch_up(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Apply everything committed so far; ``progress(position, head)`` per batch."""
        total = 0
        while True:
            advanced = self.step()
            total += advanced
            if progress is not None:
                status = self.status()
                progress(status.position, status.head)
            if advanced == 0:
                return total

    def status(self) -> ViewStatus:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT position FROM projection_tracking WHERE view = %s",
                (self.view.name,),
            )
            row = curs.fetchone()
            curs.execute(
                f"SELECT coalesce(max(notification_id), 0) AS head FROM {self.events_table}"
            )
            head = curs.fetchone()["head"]
        return ViewStatus(self.view.name, row["position"] if row else 0, head)

    def reset(self) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                "SELECT position FROM projection_tracking WHERE view = %s FOR UPDATE",
                (self.view.name,),
            )
            self.view.reset(curs)
            curs.execute(
                "UPDATE projection_tracking SET position = 0 WHERE view = %s",
                (self.view.name,),
            )


def wait_for_position(
    runners: Sequence[ViewRunner], position: int, timeout: float
) -> bool:
    """Read-your-writes: block until every view has applied ``position`` (or time out)."""
    deadline = time.monotonic() + timeout
    while True:
        if all(r.status().position >= position for r in runners):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
