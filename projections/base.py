"""What a view is: tables, the events it wants, and a batch ``apply``.

Why batches and not eventsourcing's one-transaction-per-event runner: a
transaction per event caps catch-up at the database's commit rate (a few
thousand per second here); applying a few hundred events per transaction is
what lets a rebuild of a large log take seconds, while keeping the same
exactly-once guarantee (rows and position commit together).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar
from uuid import UUID

from domain.ledger import records, stored_events


def select(
    curs: Any, sql: str, params: Sequence[Any] | Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The rows a view query returns, as a list the caller keeps (the cursor
    moves on to the next statement): every read of a view's tables is one."""
    curs.execute(sql, params)
    return list(curs.fetchall())


@dataclass(frozen=True)
class LogEvent:
    """One stored event as a view sees it: position in the log plus its record."""

    position: int
    game_id: UUID
    version: int
    type: str
    raw: bytes = field(repr=False)

    @cached_property
    def record(self) -> dict[str, Any]:
        return records.load(self.raw)

    @property
    def body(self) -> dict[str, Any]:
        return self.record["body"]

    @property
    def timestamp(self) -> str:
        return self.record["timestamp"]

    @cached_property
    def event(self) -> Any:
        """The decoded ledger event (``Game.Created``/``Decided``/``Concluded``)."""
        return stored_events.decode_record(
            self.game_id, self.version, self.type, self.record
        )


class ViewNotReadyError(RuntimeError):
    """Raised when a view cannot run at all (e.g. a port not wired in).

    The view's fault, not the log's: the runner lets it propagate instead of
    stopping the view at the event it happened to be applying.
    """


class View(ABC):
    """A read model.  Subclasses declare tables and apply batches of events."""

    name: ClassVar[str]
    """Unique; used as the tracking key and in CLI commands."""
    schema_version: ClassVar[int] = 1
    """Bump when the tables or the meaning of rows change: the view rebuilds itself."""
    topics: ClassVar[tuple[str, ...]] = ()
    """Stored type names this view needs (empty: every event).  Filtering in SQL
    keeps catch-up fast for views that only need a few event types."""
    tables: ClassVar[tuple[str, ...]] = ()
    ddl: ClassVar[str] = ""

    def create(self, curs: Any) -> None:
        if self.ddl:
            curs.execute(self.ddl)

    def reset(self, curs: Any) -> None:
        """Empty the view's tables (for a rebuild)."""
        for table in self.tables:
            curs.execute(f"TRUNCATE {table}")

    @abstractmethod
    def apply(self, curs: Any, events: Sequence[LogEvent]) -> None:
        """Apply one batch inside the runner's transaction; never commit here."""


def add_totals(
    curs: Any,
    table: str,
    key: Mapping[str, str],
    totals: Mapping[tuple[Any, ...], tuple[int, ...]],
    columns: Sequence[str] = ("count",),
) -> None:
    """Add a batch's ``totals`` to ``table``'s running totals.

    ``key`` names the key columns and their SQL types (the table's primary
    key, in order); ``totals`` maps a key's values to one number per column
    of ``columns``.  One statement per batch, however many keys: the
    aggregated columns are unnested and upserted on the key, in key order so
    two writers lock rows in the same order.
    """
    if not totals:
        return
    rows = sorted(totals.items())
    names = ", ".join(key)
    arrays = [f"%s::{kind}[]" for kind in key.values()] + ["%s::bigint[]"] * len(
        columns
    )
    added = ", ".join(f"{c} = {table}.{c} + EXCLUDED.{c}" for c in columns)
    curs.execute(
        f"INSERT INTO {table} ({names}, {', '.join(columns)})"
        f" SELECT * FROM unnest({', '.join(arrays)})"
        f" ON CONFLICT ({names}) DO UPDATE SET {added}",
        [[k[i] for k, _ in rows] for i in range(len(key))]
        + [[v[j] for _, v in rows] for j in range(len(columns))],
    )
