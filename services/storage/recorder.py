"""The ledger's recorder: its tables, triggers, and the side rows of a move.

Why a recorder subclass: a move's command-id row (idempotency), a new game's
seat tokens and secret seed, and the ``ledger_games`` listing row must commit
in the *same transaction* as the events, or a crash could leave a move stored
without its idempotency key (and a retry would apply it twice).  Side rows
are typed values (:class:`NewGameRows`, :class:`ExtensionRows`) turned into SQL
only here.

The private eventsourcing methods overridden here are ``_insert_events``
(the side rows, in the events' transaction) and ``_create_table`` (our DDL);
``tests/integration/test_store.py`` pins both.  ``insert_events`` itself is
overridden to send a commit's statements as one query string.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast
from uuid import UUID

import psycopg
from eventsourcing.persistence import (
    IntegrityError,
    InterfaceError,
    OperationalError,
    ProgrammingError,
    StoredEvent,
)
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg import AsyncClientCursor, AsyncConnection, ClientCursor, sql
from psycopg.errors import TransactionRollback
from psycopg.types.json import Jsonb

from domain.ledger.receipts import Receipt
from domain.ledger.records import LEDGER_TYPE_PREFIX, canonical_json
from projections.runner import VIEWS_CHANNEL
from services.storage import tournament_rows

NOTIFY_CHANNEL = "ledger_game_events"
"""Every commit notifies ``game_id:version`` of each game it moved."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def receipt_text(receipt: Receipt) -> str:
    return canonical_json(receipt.to_json()).decode()


@dataclass(frozen=True)
class NewGameRows:
    """What a new game stores beside its ``Created`` event."""

    seed: bytes
    receipt: Receipt
    game_type: str
    players: int
    seats: int
    content: str
    version: int
    player_ids: tuple[str, ...]
    spectator_delay: dict[str, int] | None
    head_hash: str
    tokens: tuple[tuple[str, int, tuple[int, ...]], ...]
    """``(bearer token, player, seats)``; only the token's hash is stored."""
    next_deadline: datetime | None = None
    """When the first seat's clock runs out (the timekeeper's index)."""


@dataclass(frozen=True)
class CommandRow:
    """A client's command: its idempotency key, kept with what it recorded."""

    command_id: str
    actor: int
    request_hash: str
    first_version: int


@dataclass(frozen=True)
class ExtensionRows:
    """What new events on a game's log store beside them: the receipt over
    the new head, the listing's new head, and, when a client sent the
    command, its idempotency key (:class:`CommandRow`).

    One shape for a move and for the ledger's own endings: an ending has no
    command row, as no client sent it and the event store's ``(game,
    version)`` makes it happen once.
    """

    last_version: int
    receipt: Receipt
    ended_at: datetime | None
    """``None`` while the game plays on (a seat may have dropped out)."""
    winners: tuple[int, ...] | None
    head_hash: str
    next_deadline: datetime | None = None
    """When the first seat still playing runs out of time (the timekeeper's index)."""
    command: CommandRow | None = None


_NEW_HEAD = (
    "receipt AS (INSERT INTO ledger_receipts (game_id, version, receipt)"
    " VALUES (%s, %s, %s))"
    " UPDATE ledger_games SET version = %s, status = %s, ended_at = %s,"
    " winners = %s, head_hash = %s, next_deadline = %s WHERE game_id = %s"
)
_EXTENSION = "WITH " + _NEW_HEAD
_COMMANDED_EXTENSION = (
    "WITH recorded AS (INSERT INTO ledger_commands (game_id, command_id, actor,"
    " request_hash, first_version, last_version) VALUES (%s, %s, %s, %s, %s, %s)), "
    + _NEW_HEAD
)
"""One statement, not three: each statement costs more client CPU than the
database spends on it (a duplicate command id still fails the whole
transaction on the primary key)."""


def _write_rows(curs: Any, game_id: UUID, rows: NewGameRows | ExtensionRows) -> None:
    if isinstance(rows, ExtensionRows):
        head = (
            game_id,
            rows.last_version,
            receipt_text(rows.receipt),
            rows.last_version,
            "ended" if rows.winners is not None else "active",
            rows.ended_at,
            list(rows.winners) if rows.winners is not None else None,
            rows.head_hash,
            rows.next_deadline,
            game_id,
        )
        command = rows.command
        if command is None:
            curs.execute(_EXTENSION, head)
            return
        curs.execute(
            _COMMANDED_EXTENSION,
            (
                game_id,
                command.command_id,
                command.actor,
                command.request_hash,
                command.first_version,
                rows.last_version,
                *head,
            ),
        )
        return
    curs.execute(
        "INSERT INTO ledger_game_secrets (game_id, seed) VALUES (%s, %s)",
        (game_id, rows.seed),
    )
    curs.execute(
        "WITH receipt AS (INSERT INTO ledger_receipts (game_id, version, receipt)"
        " VALUES (%s, %s, %s)) INSERT INTO ledger_games (game_id, game_type, players,"
        " seats, content, version, player_ids, spectator_delay, head_hash,"
        " next_deadline) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (
            game_id,
            rows.receipt.version,
            receipt_text(rows.receipt),
            game_id,
            rows.game_type,
            rows.players,
            rows.seats,
            rows.content,
            rows.version,
            list(rows.player_ids),
            Jsonb(rows.spectator_delay) if rows.spectator_delay else None,
            rows.head_hash,
            rows.next_deadline,
        ),
    )
    for token, player, seats in rows.tokens:
        curs.execute(
            "INSERT INTO ledger_seat_tokens (token_hash, game_id, player, seats)"
            " VALUES (%s, %s, %s, %s)",
            (hash_token(token), game_id, player, list(seats)),
        )


LEDGER_DDL = """
CREATE TABLE IF NOT EXISTS ledger_games (
    game_id uuid PRIMARY KEY,
    game_type text NOT NULL,
    players int NOT NULL,
    seats int NOT NULL,
    content text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    status text NOT NULL DEFAULT 'active',
    version bigint NOT NULL,
    ended_at timestamptz,
    winners int[],
    player_ids text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS ledger_games_created ON ledger_games (created_at DESC, game_id);
-- the game's spectator delay, so ListGames knows which rows to hold back
ALTER TABLE ledger_games ADD COLUMN IF NOT EXISTS spectator_delay jsonb;
CREATE TABLE IF NOT EXISTS ledger_commands (
    game_id uuid NOT NULL,
    command_id text NOT NULL,
    actor int NOT NULL,
    request_hash text NOT NULL,
    first_version bigint NOT NULL,
    last_version bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, command_id)
);
CREATE TABLE IF NOT EXISTS ledger_seat_tokens (
    token_hash text PRIMARY KEY,
    game_id uuid NOT NULL,
    player int NOT NULL,
    seats int[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE ledger_games ADD COLUMN IF NOT EXISTS head_hash text;
CREATE TABLE IF NOT EXISTS ledger_receipts (
    game_id uuid NOT NULL,
    version bigint NOT NULL,
    receipt text NOT NULL,
    PRIMARY KEY (game_id, version)
);
-- when a running game's first clock runs out: the timekeeper's queue
ALTER TABLE ledger_games ADD COLUMN IF NOT EXISTS next_deadline timestamptz;
CREATE INDEX IF NOT EXISTS ledger_games_next_deadline ON ledger_games (next_deadline)
    WHERE status = 'active' AND next_deadline IS NOT NULL;
CREATE TABLE IF NOT EXISTS ledger_game_secrets (
    game_id uuid PRIMARY KEY,
    seed bytea NOT NULL
);
CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger events are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END
$$;
"""

APPEND_ONLY_DDL = """
CREATE OR REPLACE TRIGGER {table}_append_only
    BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE OR REPLACE TRIGGER {table}_no_truncate
    BEFORE TRUNCATE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
"""


def schema_fingerprint(ddl: Sequence[str]) -> str:
    """A digest of DDL statements, kept as their table's comment once they ran.

    Why: DDL at every start takes table locks in its own order while live
    writers take them in theirs, and PostgreSQL breaks the deadlock by failing
    one side.  A start that finds its fingerprint already there skips its DDL.
    """
    digest = hashlib.sha256()
    for statement in ddl:
        digest.update(statement.encode())
        digest.update(b"\0")
    return f"ledger schema {digest.hexdigest()}"


def stored_fingerprint(datastore: Any, table: str) -> str | None:
    """The fingerprint on ``table``'s comment (a catalog read: no table lock)."""
    with datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT obj_description(to_regclass(%s), 'pg_class') AS comment",
            (f"{datastore.schema}.{table}",),
        )
        row = curs.fetchone()
    return row["comment"] if row else None


def mark_fingerprint(curs: Any, datastore: Any, table: str, fingerprint: str) -> None:
    """Record on ``table`` that the DDL of ``fingerprint`` ran (in its transaction)."""
    curs.execute(
        sql.SQL("COMMENT ON TABLE {} IS {}").format(
            sql.Identifier(datastore.schema, table), sql.Literal(fingerprint)
        )
    )


class _Statements:
    """A cursor for the commit's statements that renders each one and keeps it.

    ``execute`` has a cursor's signature so eventsourcing's insert hooks and
    :func:`_write_rows` write through it unchanged; the texts are then sent
    together by :meth:`LedgerRecorder.insert_events`.
    """

    def __init__(
        self, cursor: ClientCursor[Any] | AsyncClientCursor[Any], encoding: str
    ) -> None:
        self._cursor = cursor
        self._encoding = encoding
        self.texts: list[bytes] = []

    def execute(self, query: Any, params: Any = None, *, prepare: Any = None) -> None:
        self.texts.append(self._cursor.mogrify(query, params).encode(self._encoding))

    def add_rendered(self, text: bytes) -> None:
        """A statement already rendered (one with no parameters, rendered once)."""
        self.texts.append(text)

    def executemany(self, query: Any, params_seq: Any) -> None:
        for params in params_seq:
            self.execute(query, params)


_ROW = "(%s, %s, %s, %s)"
"""One event's row of the event INSERT (:meth:`LedgerRecorder._values_insert`)."""
ROWS_PER_RENDER = 12
"""Event rows rendered per ``mogrify``: 48 parameters, within the 50 whose
parse psycopg caches."""
_ROWS = {n: ", ".join([_ROW] * n) for n in range(1, ROWS_PER_RENDER + 1)}

INSERT_ATTEMPTS = 10
INSERT_RETRY_WAIT = 0.2


class CommitOutcomeUnknownError(OperationalError):
    """A commit retried after its connection was lost conflicted with itself
    (or with anything): whether the first try was stored is unknown.  An
    ``OperationalError``, so callers answer it as an outage (``UNAVAILABLE``)."""


class LedgerRecorder(PostgresApplicationRecorder):
    """The events recorder plus the ledger's tables, triggers and side writes."""

    def create_table(self) -> None:
        """The schema, unless the database already has this code's.

        Why the check first: a server restarting beside live servers must not
        take DDL locks in the order its DDL happens to run while writers take
        them in theirs; PostgreSQL then breaks the deadlock by failing the
        start.  A schema that carries this code's fingerprint needs no DDL at
        all; one that does not (a first start, a new version) gets it, and a
        deadlock there is retried, since the writer it lost to has finished.
        """
        if self._schema_current():
            self.datastore.register_type_adapters()
            return
        for attempt in range(5):
            try:
                super().create_table()
                break
            except (IntegrityError, OperationalError) as exc:
                # IntegrityError: another process created the same table at
                # the same moment; a rolled-back transaction: a deadlock
                if isinstance(exc, OperationalError) and not isinstance(
                    exc.__cause__, TransactionRollback
                ):
                    raise
                if attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    def schema_fingerprint(self) -> str:
        """A digest of every DDL statement this recorder runs, for its events table."""
        return schema_fingerprint(self._ddl_texts())

    def _ddl_texts(self) -> list[str]:
        return [
            *(cast(sql.Composable, s).as_string() for s in self.sql_create_statements),
            LEDGER_DDL,
            APPEND_ONLY_DDL.format(table=self.events_table_name),
            APPEND_ONLY_DDL.format(table="ledger_receipts"),
        ]

    def _schema_current(self) -> bool:
        """This code's fingerprint is on the events table and the append-only
        triggers are in place and enabled (catalog reads: no table lock).

        The triggers are checked as well because a start used to put back one
        that a DBA had dropped or disabled, and still does.
        """
        if stored_fingerprint(self.datastore, self.events_table_name) != (
            self.schema_fingerprint()
        ):
            return False
        names = [
            f"{table}_{kind}"
            for table in (self.events_table_name, "ledger_receipts")
            for kind in ("append_only", "no_truncate")
        ]
        schema = self.datastore.schema
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT count(*) AS n FROM pg_trigger WHERE tgname = ANY(%s)"
                " AND tgenabled <> 'D' AND tgrelid IN (to_regclass(%s), to_regclass(%s))",
                (
                    names,
                    f"{schema}.{self.events_table_name}",
                    f"{schema}.ledger_receipts",
                ),
            )
            row = curs.fetchone()
        return row is not None and row["n"] == len(names)

    def _create_table(self, curs: Any) -> None:
        # One transaction, serialised across processes: ``CREATE OR REPLACE
        # FUNCTION``/``TRIGGER`` fail with "tuple concurrently updated" when
        # several workers (``LEDGER_WORKERS``) or test processes start at once.
        curs.execute("SELECT pg_advisory_xact_lock(7301)")
        super()._create_table(curs)
        curs.execute(LEDGER_DDL)
        curs.execute(APPEND_ONLY_DDL.format(table=self.events_table_name))
        curs.execute(APPEND_ONLY_DDL.format(table="ledger_receipts"))
        mark_fingerprint(
            curs, self.datastore, self.events_table_name, self.schema_fingerprint()
        )

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """:meth:`_insert_once`, again on a new connection while the last one
        was lost (eventsourcing's own retry: ten tries, 0.2 s apart).

        A commit whose connection was lost may have committed: a switchover
        ends the old primary's sessions after their commit was written, before
        its answer was sent.  Tried again, it then conflicts with itself.  A
        conflict on a retry therefore proves nothing about another writer: it
        is raised as :class:`CommitOutcomeUnknownError`, an outage (the client
        resends; a move's command id finds it recorded), never as a lost race.
        """
        lost: BaseException | None = None
        for _ in range(INSERT_ATTEMPTS):
            try:
                return self._insert_once(stored_events, **kwargs)
            except (InterfaceError, OperationalError) as exc:
                lost = exc
                time.sleep(INSERT_RETRY_WAIT)
            except IntegrityError as exc:
                if lost is None:
                    raise
                raise CommitOutcomeUnknownError(
                    f"the connection was lost during a commit ({lost}); "
                    "it may have been stored"
                ) from exc
        assert lost is not None  # the loop ran and every try lost its connection
        raise lost

    def _insert_once(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """The commit's statements sent as one query string: one round trip.

        Why not eventsourcing's pipelined insert: a commit is half a dozen
        statements (side rows, the NOTIFYs, the table lock, the INSERT), and
        in pipeline mode psycopg sends, flushes and polls each one, which
        cost more client CPU per commit than everything else on the commit
        path.  Here each statement is rendered by psycopg's own client-side
        binding (:class:`psycopg.ClientCursor`, the server's quoting rules)
        and the lot goes as one simple query.  PostgreSQL runs the statements
        of one query string as one implicit transaction: a failing statement
        stops the rest and rolls all of it back, so a conflicting move stores
        nothing, and its unique violation (not a ``PipelineAborted``) is what
        the caller sees.  That needs an autocommit connection, which
        eventsourcing's datastore always hands out.
        """
        if self.datastore.enable_db_functions:
            return super().insert_events(stored_events, **kwargs)
        with self.datastore.get_connection() as conn:
            if not conn.autocommit:
                raise ProgrammingError("the commit needs an autocommit connection")
            cursor = ClientCursor(conn)
            text = self.commit_text(cursor, conn.info.encoding, stored_events, **kwargs)
            if text is None:
                return None
            cursor.execute(text)
            if not stored_events:
                return None
            while cursor.nextset():  # the INSERT of the events is the last result
                pass
            return self._fetch_ids_after_insert_events(cursor, stored_events, **kwargs)

    async def insert_events_on_loop(
        self,
        conn: AsyncConnection[Any],
        stored_events: Sequence[StoredEvent],
        **kwargs: Any,
    ) -> list[int]:
        """:meth:`insert_events` on an async connection of the caller's own
        (autocommit, tuple rows), awaited on the event loop: the same query
        string, so the same transaction.

        :raises IntegrityError: a version or command id already taken; nothing
            is stored.
        """
        cursor = AsyncClientCursor(conn)
        text = self.commit_text(cursor, conn.info.encoding, stored_events, **kwargs)
        if text is None:
            return []
        try:
            await cursor.execute(text)
        except psycopg.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
        if not stored_events:
            return []
        while cursor.nextset():  # the INSERT of the events is the last result
            pass
        ids = [row[0] for row in await cursor.fetchall()]
        if len(ids) != len(stored_events):
            raise ProgrammingError(
                f"got {len(ids)} notification ids for {len(stored_events)} events"
            )
        return ids

    def commit_text(
        self,
        cursor: ClientCursor[Any] | AsyncClientCursor[Any],
        encoding: str,
        stored_events: Sequence[StoredEvent],
        **kwargs: Any,
    ) -> bytes | None:
        """A commit's statements rendered by ``cursor`` as one query string
        (None when there is nothing to write): the side rows and NOTIFYs
        (:meth:`_insert_events`), then eventsourcing's lock and NOTIFY, then
        the events."""
        statements = _Statements(cursor, encoding)
        # a cursor as far as eventsourcing's hooks can tell: they only execute
        collector = cast(Any, statements)
        self._insert_events(collector, stored_events, **kwargs)
        if stored_events:
            statements.add_rendered(self._locking_statements())
            statements.add_rendered(
                self.events_insert_text(cursor, stored_events).encode(encoding)
            )
        return b";".join(statements.texts) if statements.texts else None

    def events_insert_text(
        self,
        cursor: ClientCursor[Any] | AsyncClientCursor[Any],
        stored_events: Sequence[StoredEvent],
    ) -> str:
        """:meth:`_values_insert` for ``stored_events`` as ``cursor`` renders
        it, the same text, rendered :data:`ROWS_PER_RENDER` rows at a time.

        Why in pieces: psycopg keeps a query's parse only up to 50
        parameters (``MAX_CACHED_STATEMENT_PARAMS``), and parses a longer
        one again on every call, which took a batch of 20 events two to
        four times as long to render as its pieces do.
        """
        ends: tuple[str, str] | None = self.__dict__.get("_values_ends")
        if ends is None:
            head, _, tail = self._values_insert(1).as_string(None).partition(_ROW)
            ends = self._values_ends = (head, tail)
        values = [
            value
            for e in stored_events
            for value in (e.originator_id, e.originator_version, e.topic, e.state)
        ]
        count, step = len(stored_events), ROWS_PER_RENDER
        rows = [
            cursor.mogrify(
                _ROWS[min(step, count - first)], values[4 * first : 4 * (first + step)]
            )
            for first in range(0, count, step)
        ]
        return ends[0] + ", ".join(rows) + ends[1]

    def _locking_statements(self) -> bytes:
        """eventsourcing's ``_lock_table`` and ``_notify_channel`` statements,
        rendered once: they take no parameters, and rendering them per commit
        cost more client time than PostgreSQL spends running them."""
        rendered: bytes | None = getattr(self, "_locking_rendered", None)
        if rendered is None:
            statements = [
                *(cast(sql.Composable, s) for s in self.lock_table_statements),
                sql.SQL("NOTIFY {0}").format(sql.Identifier(self.channel_name)),
            ]
            rendered = b";".join(s.as_bytes(None) for s in statements)
            self._locking_rendered = rendered
        return rendered

    def _values_insert(self, count: int) -> sql.Composed:
        """eventsourcing's event INSERT with the events as ``count`` rows of
        plain values instead of one array of its composite type.

        Why: psycopg renders an array of composite values, each event's bytes
        escaped inside the array's text and then again as a literal, at about
        50 us an event; four scalars an event render in a fifth of that.  The
        rows are inserted, and their ids returned, in the events' order, as
        from the array.
        """
        statements: dict[int, sql.Composed] = self.__dict__.setdefault(
            "_values_inserts", {}
        )
        statement = statements.get(count)
        if statement is None:
            row = sql.SQL(_ROW)
            statement = sql.SQL(
                "INSERT INTO {schema}.{table} AS t"
                " (originator_id, originator_version, topic, state) VALUES {rows}"
                " RETURNING notification_id"
            ).format(
                schema=sql.Identifier(self.datastore.schema),
                table=sql.Identifier(self.events_table_name),
                rows=sql.SQL(", ").join([row] * count),
            )
            if len(statements) < 256:  # a batch holds at most a few hundred events
                statements[count] = statement
        return statement

    def _insert_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        """Write the side rows and notify, in the events' transaction.

        eventsourcing calls this hook inside ``insert_events``' transaction,
        before the event INSERT (which takes the table lock); ``side_rows``
        reaches it through ``EventStore.put(events, **kwargs)``.
        """
        for game_id, rows in kwargs.get("side_rows", ()):
            _write_rows(curs, game_id, rows)
        for rows in kwargs.get("tournament_rows", ()):  # the tournament desk's
            tournament_rows.write(curs, rows)
        heads: dict[Any, int] = {}
        for event in stored_events:
            heads[event.originator_id] = max(
                heads.get(event.originator_id, 0), event.originator_version
            )
        if (
            heads
        ):  # one statement for the whole batch; scalars render faster than an array
            curs.execute(
                "SELECT pg_notify(%s, note) FROM (VALUES "
                + ", ".join(["(%s)"] * len(heads))
                + ") AS notes (note)",
                (
                    NOTIFY_CHANNEL,
                    *(f"{game_id}:{version}" for game_id, version in heads.items()),
                ),
            )
        if any(e.topic.startswith(LEDGER_TYPE_PREFIX) for e in stored_events):
            # what wakes the views, which read only these (projections.runner)
            curs.execute(f"NOTIFY {VIEWS_CHANNEL}")
        super()._insert_events(curs, stored_events, **kwargs)
