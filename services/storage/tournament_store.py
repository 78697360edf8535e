"""Where tournaments are stored: their tables, record format and recorder, and
every read and write of those tables.

A module of its own because several parts share it: the
:class:`~services.tournaments.desk.TournamentDesk` (organiser requests) and its
round journal (:mod:`services.tournaments.rounds`), the
:class:`~services.tournaments.results.ResultsDesk` (the results policy, on the
policy's cursor) and the dashboard's tournament list.  They must create the
same tables, encode events the same way and lock through the same recorder,
so none of them may own the format; they name what they store or read
(``store.begin_round(...)``, ``tournament_of(curs, game_id)``) and the SQL is
here.

Two kinds of operation: the methods of :class:`TournamentStore` run each in a
transaction of their own on the desk's datastore; the functions that take a
cursor run in the caller's (the results policy's, which must also move its
tracking position; the dashboard's read-only one on the views).

Tournaments live in their own events table (``tournaments_events``, equally
append-only) so the games' hash chains stay about games.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent
from psycopg.types.json import Jsonb

from domain.ledger.records import canonical_json
from domain.tournament import codec
from services.storage.recorder import (
    hash_token,
    mark_fingerprint,
    schema_fingerprint,
    stored_fingerprint,
)
from services.storage.roles import SERVICE_ROLE_RECORDER
from services.storage.table_reads import TableReads
from services.storage.tournament_rows import TokenGrant

TOURNAMENT_DDL = """
CREATE TABLE IF NOT EXISTS tournament_tokens (
    token_hash text PRIMARY KEY, tournament_id uuid NOT NULL, role text NOT NULL, player_id text
);
CREATE TABLE IF NOT EXISTS tournament_games (
    game_id uuid PRIMARY KEY, tournament_id uuid NOT NULL, round int NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_seat_tokens (
    tournament_id uuid NOT NULL, player_id text NOT NULL, game_id uuid NOT NULL, round int NOT NULL,
    seats int[] NOT NULL, token text, PRIMARY KEY (tournament_id, player_id, game_id)
);
-- seat tokens used to be stored here in clear: keep none (GetMyGames derives them)
ALTER TABLE tournament_seat_tokens ALTER COLUMN token DROP NOT NULL;
UPDATE tournament_seat_tokens SET token = NULL WHERE token IS NOT NULL;
CREATE TABLE IF NOT EXISTS tournament_round_intents (
    tournament_id uuid NOT NULL, round int NOT NULL, since timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, round)
);
CREATE TABLE IF NOT EXISTS tournament_pending_games (
    game_id uuid PRIMARY KEY, tournament_id uuid NOT NULL, round int NOT NULL, table_no int NOT NULL,
    players text[] NOT NULL, tokens jsonb, status text NOT NULL
);
UPDATE tournament_pending_games
    SET tokens = (SELECT jsonb_agg(t - 'token') FROM jsonb_array_elements(tokens) AS t)
    WHERE jsonb_path_exists(tokens, '$[*].token');
CREATE TABLE IF NOT EXISTS tournament_alarms (
    tournament_id uuid NOT NULL, game_id uuid NOT NULL, reason text NOT NULL,
    raised_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (tournament_id, game_id)
);
CREATE TABLE IF NOT EXISTS tournament_round_schedule (
    tournament_id uuid PRIMARY KEY, round int NOT NULL, due_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS tournament_round_schedule_due ON tournament_round_schedule (due_at);
"""
PENDING_STATUSES = {
    "created": "made for a round start that has not been recorded yet; the retry adopts it",
    "abandoned": "made, but the retried pairing seats other players there; never handed out",
    "lost": "made just before a crash, found by its entropy; its seat tokens are gone",
}
"""``tournament_pending_games.status``: ``created`` rows are deleted when the
round is recorded; the other two stay, as the record of orphaned games."""

ORGANISER_DDL = """
CREATE TABLE IF NOT EXISTS organiser_tokens (
    token_hash text PRIMARY KEY, label text NOT NULL,
    issued_at timestamptz NOT NULL DEFAULT now()
);
"""
"""Who may create tournaments (:mod:`services.tournaments.organisers`): the
hash of each organiser token and whom it was issued to."""

DDL_MARKED = "tournament_tokens"
"""The table whose comment records that the desk's DDL ran."""
LOCK_CLASS = 7302
"""Advisory-lock namespace "one tournament's organiser writes" (7301 is the DDL
lock; a two-key lock never meets the views' one-key 7302)."""


EVENTS_TABLE = "tournaments_events"


def recorder_topic(create_tables: bool) -> str:
    """The desk's recorder: the owner's, or the service role's (locks by function)."""
    return (
        "services.storage.recorder:LedgerRecorder"
        if create_tables
        else SERVICE_ROLE_RECORDER
    )


class TournamentMapper(Mapper[UUID]):
    """Tournament events as ``(tournament.<Name>, canonical JSON {timestamp, body})``."""

    def __init__(self) -> None:
        super().__init__(transcoder=JSONTranscoder())

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        record = {
            "timestamp": domain_event.timestamp.isoformat(),
            "body": codec.event_body(domain_event),
        }
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=codec.record_type(domain_event),
            state=canonical_json(record),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        record = json.loads(stored_event.state)
        originator_id = stored_event.originator_id
        if not isinstance(originator_id, UUID):
            originator_id = UUID(str(originator_id))
        return codec.decode_event(
            stored_event.topic,
            originator_id,
            stored_event.originator_version,
            datetime.fromisoformat(record["timestamp"]),
            record["body"],
        )


def ensure_tables(curs: Any) -> None:
    """The tournament tables, in the caller's transaction (the results policy's)."""
    curs.execute(TOURNAMENT_DDL)


def tournament_of(curs: Any, game_id: UUID) -> UUID | None:
    """The tournament a game was paired in, if any."""
    curs.execute(
        "SELECT tournament_id FROM tournament_games WHERE game_id = %s", (game_id,)
    )
    row = curs.fetchone()
    return row["tournament_id"] if row else None


def raise_alarm(curs: Any, tournament_id: UUID, game_id: UUID, reason: str) -> bool:
    """Record that ``tournament_id`` could not take ``game_id``'s result, in the
    caller's transaction; ``False`` when that alarm was already raised."""
    curs.execute(
        "INSERT INTO tournament_alarms (tournament_id, game_id, reason) VALUES (%s, %s, %s)"
        " ON CONFLICT DO NOTHING RETURNING tournament_id",
        (tournament_id, game_id, reason),
    )
    return curs.fetchone() is not None


def schedule_round(
    curs: Any, tournament_id: UUID, number: int, due_at: datetime
) -> None:
    """Record, in the caller's transaction (the results policy's), that round
    ``number`` of ``tournament_id`` starts by itself at ``due_at``."""
    curs.execute(
        "INSERT INTO tournament_round_schedule (tournament_id, round, due_at)"
        " VALUES (%s, %s, %s) ON CONFLICT (tournament_id) DO UPDATE"
        " SET round = excluded.round, due_at = excluded.due_at",
        (tournament_id, number, due_at),
    )


def alarms(curs: Any) -> list[dict[str, Any]]:
    """``[{tournament_id, game_id, reason, raised_at}]``: every result a
    tournament could not take, oldest first (none before the table exists)."""
    curs.execute("SELECT to_regclass('tournament_alarms') IS NOT NULL AS here")
    if not curs.fetchone()["here"]:
        return []
    curs.execute(
        "SELECT tournament_id, game_id, reason, raised_at FROM tournament_alarms"
        " ORDER BY raised_at, tournament_id, game_id"
    )
    return list(curs.fetchall())


def stored_events(curs: Any, tournament_id: UUID) -> list[StoredEvent]:
    """A tournament's stored events, oldest first, read in the caller's transaction."""
    curs.execute(
        f"SELECT originator_id, originator_version, topic, state FROM {EVENTS_TABLE}"
        " WHERE originator_id = %s ORDER BY originator_version",
        (tournament_id,),
    )
    return [_stored(r) for r in curs.fetchall()]


def newest(curs: Any, limit: int = 20) -> list[dict[str, Any]]:
    """The newest tournaments: ``[{tournament_id, name, game_type, format}]``.

    From their creation events: there is no tournament list view, and the
    first event of each carries name, game and format.
    """
    curs.execute(
        f"SELECT originator_id, originator_version, topic, state FROM {EVENTS_TABLE}"
        " WHERE originator_version = 1 ORDER BY notification_id DESC LIMIT %s",
        (limit,),
    )
    mapper = TournamentMapper()
    out = []
    for r in curs.fetchall():
        created = mapper.to_domain_event(_stored(r))
        out.append(
            {
                "tournament_id": created.originator_id,
                "name": created.name,
                "game_type": created.game_type,
                "format": created.format,
            }
        )
    return out


def version(curs: Any, tournament_id: UUID) -> int:
    """The tournament's newest event version (cheap change detection)."""
    curs.execute(
        f"SELECT max(originator_version) AS v FROM {EVENTS_TABLE} WHERE originator_id = %s",
        (tournament_id,),
    )
    row = curs.fetchone()
    return int(row["v"] or 0)


def _stored(row: dict[str, Any]) -> StoredEvent:
    return StoredEvent(
        row["originator_id"],
        row["originator_version"],
        row["topic"],
        bytes(row["state"]),
    )


class TournamentStore(TableReads):
    """The desk's named reads and writes, each in a transaction of its own."""

    def __init__(self, datastore: Any) -> None:
        self.datastore = datastore

    def _write(self, sql: str, params: Sequence[Any]) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(sql, params)

    def create_tables(self) -> None:
        """The tables' DDL, once per schema version rather than at every start
        (see :func:`services.storage.recorder.schema_fingerprint`)."""
        ddl = (TOURNAMENT_DDL, ORGANISER_DDL)
        done = schema_fingerprint(ddl)
        if stored_fingerprint(self.datastore, DDL_MARKED) == done:
            return
        with self.datastore.transaction(commit=True) as curs:
            for statement in ddl:
                curs.execute(statement)
            mark_fingerprint(curs, self.datastore, DDL_MARKED, done)

    @contextmanager
    def exclusive(
        self, tournament_id: UUID, wait: str, busy: Callable[[], Exception]
    ) -> Iterator[None]:
        """Hold this tournament's advisory lock, across processes, until the block ends.

        A dedicated connection, not a pooled one: pooled sessions end idle
        transactions after a few seconds (which would drop the lock midway),
        and holding a pooled connection while the block needs others from the
        same pool could exhaust it.  It is held among the datastore's
        connections in use, so an outage the watcher declares cuts it too.

        :raises: ``busy()`` when another holder keeps the lock for longer
            than ``wait`` (a PostgreSQL interval, e.g. ``"30s"``).
        """
        key = int.from_bytes(tournament_id.bytes[:4], "big", signed=True)
        with (
            psycopg.connect(
                **self.datastore.pool.kwargs, autocommit=True, connect_timeout=10
            ) as conn,
            self.datastore.waiting(conn),
        ):
            conn.execute("SET idle_in_transaction_session_timeout = 0")
            conn.execute(f"SET lock_timeout = '{wait}'")
            with conn.transaction():
                try:
                    conn.execute(
                        "SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_CLASS, key)
                    )
                except psycopg.errors.LockNotAvailable:
                    raise busy() from None
                yield

    def grant(self, token: str) -> TokenGrant | None:
        """What a tournament bearer token grants, if it is one."""
        row = self._token_row(
            "SELECT * FROM tournament_tokens WHERE token_hash = %s", token
        )
        if row is None:
            return None
        return TokenGrant(
            row["token_hash"], row["tournament_id"], row["role"], row["player_id"]
        )

    def tournament_of(self, game_id: UUID) -> UUID | None:
        with self.datastore.transaction(commit=False) as curs:
            return tournament_of(curs, game_id)

    def seatings(self, tournament_id: UUID, player_id: str) -> list[dict[str, Any]]:
        """``[{round, game_id, seats, player_ids}]``: a player's tournament games."""
        return self._all(
            "SELECT s.round, s.game_id, s.seats, g.player_ids FROM tournament_seat_tokens s"
            " JOIN ledger_games g ON g.game_id = s.game_id"
            " WHERE s.tournament_id = %s AND s.player_id = %s ORDER BY s.round",
            (tournament_id, player_id),
        )

    def register_seat_tokens(
        self, tokens: Sequence[tuple[str, UUID, int, Sequence[int]]]
    ) -> None:
        """Make derived seat tokens ``(token, game_id, player, seats)`` work like
        any seat token (their hashes only; idempotent)."""
        with self.datastore.transaction(commit=True) as curs:
            curs.executemany(
                "INSERT INTO ledger_seat_tokens (token_hash, game_id, player, seats)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                [
                    (hash_token(token), game_id, player, list(seats))
                    for token, game_id, player, seats in tokens
                ],
            )

    def add_organiser(self, token: str, label: str) -> None:
        self._write(
            "INSERT INTO organiser_tokens (token_hash, label) VALUES (%s, %s)",
            (hash_token(token), label),
        )

    def is_organiser(self, token: str) -> bool:
        found = self._token_row(
            "SELECT 1 FROM organiser_tokens WHERE token_hash = %s", token
        )
        return found is not None

    def begin_round(self, tournament_id: UUID, number: int) -> tuple[datetime, bool]:
        """The round's intent time, and whether an earlier attempt already began it."""
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                "INSERT INTO tournament_round_intents (tournament_id, round) VALUES (%s, %s)"
                " ON CONFLICT DO NOTHING RETURNING since",
                (tournament_id, number),
            )
            row = curs.fetchone()
            if row is not None:
                return row["since"], False
            curs.execute(
                "SELECT since FROM tournament_round_intents WHERE tournament_id = %s AND round = %s",
                (tournament_id, number),
            )
            return curs.fetchone()["since"], True

    def pending_games(self, tournament_id: UUID, number: int) -> list[dict[str, Any]]:
        """``[{game_id, table_no, players, tokens}]``: a round's journalled,
        not yet recorded games, by table."""
        return self._all(
            "SELECT game_id, table_no, players, tokens FROM tournament_pending_games"
            " WHERE tournament_id = %s AND round = %s AND status = 'created' ORDER BY table_no, game_id",
            (tournament_id, number),
        )

    def journal_game(
        self,
        game_id: UUID,
        tournament_id: UUID,
        number: int,
        table: int,
        players: Sequence[str],
        tokens: list[dict[str, Any]] | None,
        status: str = "created",
    ) -> None:
        """Journal a round's game: who sits at which table, and the status
        (one of :data:`PENDING_STATUSES`)."""
        self._write(
            "INSERT INTO tournament_pending_games VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (
                game_id,
                tournament_id,
                number,
                table,
                list(players),
                None if tokens is None else Jsonb(tokens),
                status,
            ),
        )

    def set_status(self, game_id: UUID, status: str) -> None:
        """Mark a journalled game an orphan (its tokens dropped)."""
        self._write(
            "UPDATE tournament_pending_games SET status = %s, tokens = NULL WHERE game_id = %s",
            (status, game_id),
        )

    def due_rounds(self, limit: int) -> list[dict[str, Any]]:
        """``[{tournament_id, round, due_at}]``: automatic rounds due by the
        database's clock (one clock for every server), earliest first."""
        return self._all(
            "SELECT tournament_id, round, due_at FROM tournament_round_schedule"
            " WHERE due_at <= now() ORDER BY due_at LIMIT %s",
            (limit,),
        )

    def has_scheduled_rounds(self) -> bool:
        """Whether any tournament waits to start a round by itself."""
        return (
            self._one("SELECT 1 FROM tournament_round_schedule LIMIT 1", ()) is not None
        )

    def scheduled_round(self, tournament_id: UUID) -> dict[str, Any] | None:
        """``{round, due_at}`` of the tournament's waiting automatic round."""
        return self._one(
            "SELECT round, due_at FROM tournament_round_schedule WHERE tournament_id = %s",
            (tournament_id,),
        )

    def unschedule(self, tournament_id: UUID, number: int) -> None:
        """Forget round ``number``'s wait (and any earlier): it started, or
        the tournament finished."""
        self._write(
            "DELETE FROM tournament_round_schedule WHERE tournament_id = %s AND round <= %s",
            (tournament_id, number),
        )

    def unjournalled_games(
        self, game_type: str, players: Sequence[str], since: datetime
    ) -> list[UUID]:
        """The ledger's games of these players since ``since`` that no
        tournament recorded or journalled."""
        rows = self._all(
            "SELECT g.game_id FROM ledger_games g WHERE g.game_type = %s AND g.player_ids = %s"
            " AND g.created_at >= %s"
            " AND NOT EXISTS (SELECT 1 FROM tournament_games t WHERE t.game_id = g.game_id)"
            " AND NOT EXISTS (SELECT 1 FROM tournament_pending_games p WHERE p.game_id = g.game_id)",
            (game_type, list(players), since),
        )
        return [r["game_id"] for r in rows]
