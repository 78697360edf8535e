"""The ledger's persistence adapter: named reads and writes, and their SQL.

Why one adapter: the application says what it stores (``append`` a move with
its side rows, ``recorded_command``, ``receipt_at``...) and this module, with
the recorder (:mod:`services.storage.recorder`), says how.  No SQL string lives in
the application layer, and no ``(sql, params)`` tuple is passed around; the
tournaments' counterpart is :mod:`services.storage.tournament_store`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import (
    InterfaceError,
    Notification,
    OperationalError,
    Recording,
)
from eventsourcing.utils import retry
from psycopg import AsyncConnection
from psycopg.rows import tuple_row

from domain.contract.viewers import SeatGrant
from domain.ledger import stored_events
from domain.ledger.receipts import Receipt
from services.storage.datastore import retried_on_stale_statements
from services.storage.recorder import (
    ExtensionRows,
    LedgerRecorder,
    NewGameRows,
)
from services.storage.table_reads import TableReads


@dataclass(frozen=True)
class Append:
    """One game's new events and the rows that commit with them."""

    game_id: UUID
    events: tuple[Any, ...]
    rows: NewGameRows | ExtensionRows


def _by_game(appends: Sequence[Append], recordings: list[Any]) -> list[list[Any]]:
    """Each append's recordings, in the appends' order."""
    by_game: dict[UUID, list[Any]] = {a.game_id: [] for a in appends}
    for recording in recordings:
        by_game[recording.domain_event.originator_id].append(recording)
    return [by_game[a.game_id] for a in appends]


@dataclass(frozen=True)
class RecordedCommand:
    request_hash: str
    first_version: int
    last_version: int
    log_position: int
    receipt: Receipt | None


class LedgerStore(TableReads):
    """Named reads and writes over the ledger's event store and tables."""

    def __init__(self, events: Any, snapshots: Any, recorder: LedgerRecorder) -> None:
        self._events = events
        self._snapshots = snapshots
        self._recorder = recorder
        self.datastore = recorder.datastore

    @retried_on_stale_statements
    def append(self, appends: Sequence[Append]) -> list[list[Any]]:
        """Store every append in one transaction; each one's recordings.

        :raises IntegrityError: a version already taken (another move got
            there first) or a reused command id; nothing is stored.
        """
        recordings = self._events.put(
            [e for a in appends for e in a.events],
            side_rows=[(a.game_id, a.rows) for a in appends],
        )
        return _by_game(appends, recordings)

    async def append_on_loop(
        self, conn: AsyncConnection[Any], appends: Sequence[Append]
    ) -> list[list[Any]]:
        """:meth:`append` over ``conn``, an async connection of the caller's
        own, awaited on its event loop (:class:`services.storage.group_commit.LoopCommitter`):
        the same statements in one transaction, and the same recordings
        eventsourcing's ``EventStore.put`` makes.

        :raises IntegrityError: as :meth:`append`; nothing is stored.
        """
        events = [e for a in appends for e in a.events]
        stored = [self._events.mapper.to_stored_event(e) for e in events]
        ids = await self._recorder.insert_events_on_loop(
            conn, stored, side_rows=[(a.game_id, a.rows) for a in appends]
        )
        recordings = [
            Recording(
                event,
                Notification(
                    originator_id=record.originator_id,
                    originator_version=record.originator_version,
                    topic=record.topic,
                    state=record.state,
                    id=position,
                ),
            )
            for event, record, position in zip(events, stored, ids, strict=True)
        ]
        return _by_game(appends, recordings)

    def snapshot(self, snapshot: Any) -> None:
        if self._snapshots is not None:
            self._snapshots.put([snapshot])

    @retried_on_stale_statements
    def events(
        self,
        game_id: UUID,
        after: int = 0,
        upto: int | None = None,
        limit: int | None = None,
    ) -> list[Any]:
        """Ledger events with ``after < version <= upto``, oldest first."""
        return list(self._events.get(game_id, gt=after, lte=upto, limit=limit))

    def recorded_command(
        self, game_id: UUID, command_id: str
    ) -> RecordedCommand | None:
        """The move already stored under ``command_id``, if any."""
        row = self._one(
            "SELECT c.request_hash, c.first_version, c.last_version, e.notification_id,"
            " r.receipt FROM ledger_commands c JOIN ledger_events e"
            " ON e.originator_id = c.game_id AND e.originator_version = c.last_version"
            " LEFT JOIN ledger_receipts r"
            " ON r.game_id = c.game_id AND r.version = c.last_version"
            " WHERE c.game_id = %s AND c.command_id = %s",
            (game_id, command_id),
        )
        if row is None:
            return None
        return RecordedCommand(
            row["request_hash"],
            row["first_version"],
            row["last_version"],
            row["notification_id"],
            _receipt(row["receipt"]),
        )

    def receipt_at(self, game_id: UUID, version: int) -> Receipt | None:
        row = self._one(
            "SELECT receipt FROM ledger_receipts WHERE game_id = %s AND version = %s",
            (game_id, version),
        )
        return _receipt(row["receipt"]) if row else None

    def receipts(self, game_id: UUID) -> list[Receipt]:
        rows = self._all(
            "SELECT receipt FROM ledger_receipts WHERE game_id = %s ORDER BY version",
            (game_id,),
        )
        return [Receipt.from_json(json.loads(r["receipt"])) for r in rows]

    def game_row(self, game_id: UUID) -> dict[str, Any] | None:
        return self._one("SELECT * FROM ledger_games WHERE game_id = %s", (game_id,))

    def command_rows(self, game_id: UUID) -> list[dict[str, Any]]:
        return self._all(
            "SELECT command_id, actor, first_version, last_version FROM ledger_commands"
            " WHERE game_id = %s ORDER BY first_version",
            (game_id,),
        )

    def records(self, game_id: UUID) -> list[tuple[int, str, bytes]]:
        rows = self._all(
            "SELECT originator_version, topic, state FROM"
            f" {self._recorder.events_table_name}"
            " WHERE originator_id = %s ORDER BY originator_version",
            (game_id,),
        )
        return [(r["originator_version"], r["topic"], bytes(r["state"])) for r in rows]

    def seed(self, game_id: UUID) -> bytes | None:
        row = self._one(
            "SELECT seed FROM ledger_game_secrets WHERE game_id = %s", (game_id,)
        )
        return bytes(row["seed"]) if row else None

    def grant(self, token: str) -> SeatGrant | None:
        row = self._token_row(
            "SELECT game_id, player, seats FROM ledger_seat_tokens WHERE token_hash = %s",
            token,
        )
        if row is None:
            return None
        return SeatGrant(row["game_id"], row["player"], tuple(row["seats"]))

    def list_games(
        self,
        limit: int,
        before: tuple[Any, UUID] | None = None,
        game_type: str | None = None,
    ) -> list[dict[str, Any]]:
        """Newest first, keyset-paginated on ``(created_at, game_id)``."""
        where: list[str] = []
        params: list[Any] = []
        if game_type:
            where.append("game_type = %s")
            params.append(game_type)
        if before is not None:
            where.append("(created_at, game_id) < (%s, %s)")
            params.extend(before)
        sql = "SELECT * FROM ledger_games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY created_at DESC, game_id DESC LIMIT %s"
        params.append(limit)
        return self._all(sql, params)

    def due_games(self, now: Any, limit: int) -> list[UUID]:
        """Running games whose first clock ran out by ``now``, soonest first
        (the partial index ``ledger_games_next_deadline``)."""
        rows = self._all(
            "SELECT game_id FROM ledger_games WHERE status = 'active'"
            " AND next_deadline IS NOT NULL AND next_deadline <= %s"
            " ORDER BY next_deadline LIMIT %s",
            (now, limit),
        )
        return [row["game_id"] for row in rows]

    def has_running_clocks(self) -> bool:
        """Whether any running game has a deadline (the same partial index)."""
        row = self._one(
            "SELECT EXISTS (SELECT 1 FROM ledger_games WHERE status = 'active'"
            " AND next_deadline IS NOT NULL) AS running",
            (),
        )
        return bool(row and row["running"])

    def connect_kwargs(self) -> dict[str, Any]:
        """How to open a connection of one's own to the ledger's database."""
        pool: Any = self.datastore.pool
        return dict(pool.kwargs)


class ReplayEvents:
    """The events a rebuild replays: eventsourcing's ``EventStore.get``, minus
    what a replay does not need.

    Why not the event store: its recorder fetches dict rows and wraps each in a
    ``StoredEvent`` before the mapper sees it; here a row stays a tuple, and the
    record is decoded as the mapper decodes it (trusted: the ledger's own
    table).  It retries a broken connection as the recorder does.
    """

    def __init__(self, recorder: LedgerRecorder) -> None:
        self.datastore = recorder.datastore
        self._sql = (
            f"SELECT originator_version, topic, state FROM {recorder.events_table_name}"
            " WHERE originator_id = %s AND originator_version > %s"
            " AND originator_version <= %s ORDER BY originator_version"
        )

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    @retried_on_stale_statements
    def get(
        self, originator_id: UUID, *, gt: int | None = None, lte: int | None = None
    ) -> list[Any]:
        """Events with ``gt < version <= lte``, oldest first (``None``: unbounded)."""
        params = (originator_id, gt or 0, 2**63 - 1 if lte is None else lte)
        with (
            self.datastore.get_connection() as conn,
            conn.cursor(row_factory=tuple_row) as curs,
        ):
            curs.execute(self._sql, params, prepare=True)
            rows = curs.fetchall()
        return [
            stored_events.decode(originator_id, version, topic, state, trusted=True)
            for version, topic, state in rows
        ]


def _receipt(text: str | None) -> Receipt | None:
    return Receipt.from_json(json.loads(text)) if text else None
