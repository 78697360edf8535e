"""Where tournaments are stored: their tables, their record format and their recorder.

A module of its own because two writers share it: the
:class:`~services.tournaments.desk.TournamentDesk` (organiser requests) and
:class:`~services.tournaments.results.ResultsDesk` (the results policy, on the
policy's cursor).  Both must create the same tables, encode events the same
way and lock through the same recorder, so neither may own the format.

Tournaments live in their own events table (``tournaments_events``, equally
append-only) so the games' hash chains stay about games.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent

from domain.ledger.records import canonical_json
from domain.tournament import codec
from services.storage.roles import SERVICE_ROLE_RECORDER

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
"""
PENDING_STATUSES = {
    "created": "made for a round start that has not been recorded yet; the retry adopts it",
    "abandoned": "made, but the retried pairing seats other players there; never handed out",
    "lost": "made just before a crash, found by its entropy; its seat tokens are gone",
}
"""``tournament_pending_games.status``: ``created`` rows are deleted when the
round is recorded; the other two stay, as the record of orphaned games."""


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
