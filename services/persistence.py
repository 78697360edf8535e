"""How games are stored: the event mapper, the recorder and the ledger's own tables.

Why a custom mapper: eventsourcing's default stores the Python class path and
pickled-ish dict state.  We store each game event under its stable type name
(``thalara.CardPlayed``) with a canonical-JSON record that carries the hash
chain, so the rows are readable by any language and hashable by an auditor
without this code.

Why a recorder subclass: a move's command-id row (idempotency), a new game's
seat tokens and secret seed, and the ``ledger_games`` listing row must commit
in the *same transaction* as the events, or a crash could leave a move stored
without its idempotency key (and a retry would apply it twice).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import (
    IntegrityError,
    JSONTranscoder,
    Mapper,
    StoredEvent,
)
from eventsourcing.postgres import PostgresApplicationRecorder

from domain import records
from domain.aggregate import Game, record_type
from domain.games import all_games

# The record and snapshot format is domain.records'; these names stay importable
# from here for callers that reach storage through this module.
SNAPSHOT_TYPE = records.SNAPSHOT_TYPE
decode_record = records.decode_record
encode_aggregate_state = records.encode_aggregate_state
decode_aggregate_state = records.decode_aggregate_state

NOTIFY_CHANNEL = "ledger_game_events"


def _game_of_event_class() -> dict[type, str]:
    return {cls: game.name for game in all_games() for cls in game.event_types}


class LedgerMapper(Mapper[UUID]):
    """Stores ledger events as ``(type name, record)`` in :mod:`domain.records`' format.

    A recorded event already carries its record (the aggregate encoded it
    once, with its hash); the mapper only names its type.
    """

    def __init__(self) -> None:
        super().__init__(transcoder=JSONTranscoder())
        self._games: dict[type, str] | None = None

    def _game_type_of(self, payload: Any) -> str:
        if self._games is None or type(payload) not in self._games:
            self._games = _game_of_event_class()
        return self._games[type(payload)]

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if isinstance(domain_event, Game.Snapshot):
            topic = SNAPSHOT_TYPE
            state = records.encode_snapshot(domain_event.timestamp, domain_event.state)
        else:
            game_type = (
                self._game_type_of(domain_event.payload)
                if isinstance(domain_event, Game.Decided)
                else ""
            )
            topic = record_type(game_type, domain_event)
            state = domain_event.stored or records.encode_event(domain_event)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=topic,
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        return records.decode(
            stored_event.originator_id,
            stored_event.originator_version,
            stored_event.topic,
            stored_event.state,
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


class LedgerRecorder(PostgresApplicationRecorder):
    """The events recorder plus the ledger's tables, triggers and side writes."""

    def create_table(self) -> None:
        for attempt in range(5):
            try:
                super().create_table()
                break
            except (
                IntegrityError
            ):  # another process created the same table at the same moment
                if attempt == 4:
                    raise
                time.sleep(0.2)

    def _create_table(self, curs: Any) -> None:
        # One transaction, serialised across processes: ``CREATE OR REPLACE
        # FUNCTION``/``TRIGGER`` fail with "tuple concurrently updated" when
        # several workers (``LEDGER_WORKERS``) or test processes start at once.
        curs.execute("SELECT pg_advisory_xact_lock(7301)")
        super()._create_table(curs)
        curs.execute(LEDGER_DDL)
        curs.execute(APPEND_ONLY_DDL.format(table=self.events_table_name))
        curs.execute(APPEND_ONLY_DDL.format(table="ledger_receipts"))

    def _insert_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        for statement, params in kwargs.get("side_effects", ()):
            curs.execute(statement, params)
        heads: dict[Any, int] = {}
        for event in stored_events:
            heads[event.originator_id] = max(
                heads.get(event.originator_id, 0), event.originator_version
            )
        if heads:  # one statement for the whole batch
            curs.execute(
                "SELECT pg_notify(%s, note) FROM unnest(%s::text[]) AS note",
                (
                    NOTIFY_CHANNEL,
                    [f"{game_id}:{version}" for game_id, version in heads.items()],
                ),
            )
        super()._insert_events(curs, stored_events, **kwargs)
