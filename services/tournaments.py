"""``TournamentDesk``: event-sourced tournaments beside the game ledger.

Tournaments live in their own events table (``tournaments_events``, equally
append-only) so the games' hash chains stay about games.  The desk creates a
round's games through the :class:`~services.application.GameLedger` with the
players' ids, records the round, and keeps each player's seat tokens so the
player (and only the player, with their tournament token) can fetch them.
Results come in through the ``tournament_results`` projection, not here.

Trade-off, documented: seat tokens of tournament games are kept in clear in
``tournament_seat_tokens`` (they must be handed out later); whoever can read
that table can act for tournament players.  Ordinary games keep only hashes.
"""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent

from domain.core import InvalidCommandError
from domain.integrity import canonical_json
from domain.tournament import codec
from domain.tournament.aggregate import Tournament
from domain.tournament.state import TableAssignment
from services.application import GameLedger, GameNotFoundError, hash_token

TOURNAMENT_DDL = """
CREATE TABLE IF NOT EXISTS tournament_tokens (
    token_hash text PRIMARY KEY, tournament_id uuid NOT NULL, role text NOT NULL, player_id text
);
CREATE TABLE IF NOT EXISTS tournament_games (
    game_id uuid PRIMARY KEY, tournament_id uuid NOT NULL, round int NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_seat_tokens (
    tournament_id uuid NOT NULL, player_id text NOT NULL, game_id uuid NOT NULL, round int NOT NULL,
    seats int[] NOT NULL, token text NOT NULL, PRIMARY KEY (tournament_id, player_id, game_id)
);
"""


class TournamentNotFoundError(GameNotFoundError):
    """Raised when no tournament has the requested id."""


@dataclass(frozen=True)
class TournamentGrant:
    tournament_id: UUID
    role: str  # "organiser" or "player"
    player_id: str | None


class TournamentMapper(Mapper[UUID]):
    """Tournament events as ``(tournament.<Name>, canonical JSON {timestamp, body})``."""

    def __init__(self) -> None:
        super().__init__(transcoder=JSONTranscoder())

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        record = {"timestamp": domain_event.timestamp.isoformat(), "body": codec.event_body(domain_event)}
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
            stored_event.topic, originator_id, stored_event.originator_version,
            datetime.fromisoformat(record["timestamp"]), record["body"],
        )


class TournamentDesk(Application[UUID]):
    name = "tournaments"

    def __init__(self, env: dict[str, str], ledger: GameLedger) -> None:
        super().__init__({
            **env,
            "APPLICATION_RECORDER_TOPIC": "services.persistence:LedgerRecorder",
            "AGGREGATE_CACHE_MAXSIZE": "200",
            "IS_SNAPSHOTTING_ENABLED": "n",
        })
        self.ledger = ledger
        self._locks: dict[UUID, threading.Lock] = {}
        with self.recorder.datastore.transaction(commit=True) as curs:  # type: ignore[attr-defined]
            curs.execute(TOURNAMENT_DDL)

    def construct_mapper(self) -> TournamentMapper:
        return TournamentMapper()

    @property
    def datastore(self) -> Any:
        return self.recorder.datastore  # type: ignore[attr-defined]

    def load(self, tournament_id: UUID) -> Tournament:
        try:
            return self.repository.get(tournament_id)
        except AggregateNotFoundError:
            raise TournamentNotFoundError(f"tournament {tournament_id} not found") from None

    def create(self, name: str, game_type: str, format: str, rounds: int, table_size: int,
               setup: dict[str, Any]) -> tuple[Tournament, str]:
        tournament = Tournament.create(name, game_type, format, rounds, table_size, setup)
        token = secrets.token_urlsafe(32)
        self.save(tournament, side_effects=[(
            "INSERT INTO tournament_tokens VALUES (%s, %s, 'organiser', NULL)", (hash_token(token), tournament.id),
        )])
        return tournament, token

    def register(self, tournament_id: UUID, player_id: str) -> str:
        if not player_id or len(player_id) > 128:
            raise InvalidCommandError("player_id must be 1-128 characters")
        tournament = self.load(tournament_id)
        tournament.register(player_id)
        token = secrets.token_urlsafe(32)
        self.save(tournament, side_effects=[(
            "INSERT INTO tournament_tokens VALUES (%s, %s, 'player', %s)", (hash_token(token), tournament_id, player_id),
        )])
        return token

    def withdraw(self, tournament_id: UUID, player_id: str) -> Tournament:
        tournament = self.load(tournament_id)
        tournament.withdraw(player_id)
        self.save(tournament)
        return tournament

    def start_round(self, tournament_id: UUID) -> Tournament:
        """Pair the next round, create its games, record it (one round at a time)."""
        lock = self._locks.setdefault(tournament_id, threading.Lock())
        with lock:
            tournament = self.load(tournament_id)
            plan = tournament.plan_round()
            number = tournament.state.current_round + 1
            tables, side = [], []
            for index, players in enumerate(plan.tables, start=1):
                created = self.ledger.create_game(
                    tournament.state.game_type, tournament.game_setup(len(players)),
                    entropy=(f"tournament:{tournament_id}:round:{number}:table:{index}",), player_ids=tuple(players),
                )
                tables.append(TableAssignment(table=index, players=tuple(players), game_id=str(created.game_id)))
                side.append(("INSERT INTO tournament_games VALUES (%s, %s, %s)", (created.game_id, tournament_id, number)))
                side.extend(
                    ("INSERT INTO tournament_seat_tokens VALUES (%s, %s, %s, %s, %s, %s)",
                     (tournament_id, players[t.player], created.game_id, number, list(t.seats), t.token))
                    for t in created.tokens
                )
            tournament.start_round(tables, plan.byes)
            self.save(tournament, side_effects=side)
            return tournament

    def my_games(self, tournament_id: UUID, player_id: str) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT round, game_id, seats, token FROM tournament_seat_tokens"
                " WHERE tournament_id = %s AND player_id = %s ORDER BY round",
                (tournament_id, player_id),
            )
            return list(curs.fetchall())

    def grant_for_token(self, token: str) -> TournamentGrant | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute("SELECT * FROM tournament_tokens WHERE token_hash = %s", (hash_token(token),))
            row = curs.fetchone()
        return TournamentGrant(row["tournament_id"], row["role"], row["player_id"]) if row else None
