"""``TournamentDesk``: event-sourced tournaments beside the game ledger.

Tournaments live in their own events table (``tournaments_events``, equally
append-only) so the games' hash chains stay about games.  The desk creates a
round's games through the :class:`~services.application.GameLedger` with the
players' ids, records the round, and keeps each player's seat tokens so the
player (and only the player, with their tournament token) can fetch them.
Results come in through the ``tournament_results`` policy, which calls
:class:`services.tournament_results.ResultsDesk` in its own transaction.

Starting a round is serialised per tournament by an advisory lock and
journalled game by game, so two server processes or a crash cannot start a
round twice or leave unaccounted games (see :meth:`TournamentDesk.start_round`).

Seat tokens of tournament games are never stored in clear (as for ordinary
games): a player's seat token for a tournament game is derived from their
tournament player token, ``HMAC-SHA256(player token, "<game id>:<player>")``
(:func:`seat_token_for`), which the server knows only while the player
presents it.  ``GetMyGames`` derives the tokens and registers their hashes in
``ledger_seat_tokens``; ``tournament_seat_tokens`` and
``tournament_pending_games`` hold only who sits where.  The random tokens
``create_game`` makes for a tournament game are dropped unseen.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent
from eventsourcing.utils import strtobool
from psycopg.types.json import Jsonb

from domain.core import InvalidCommandError
from domain.games import find_game
from domain.integrity import canonical_json
from domain.tournament import codec
from domain.tournament.aggregate import Tournament
from domain.tournament.state import TableAssignment
from services import organisers
from services.application import (
    ConcurrencyConflictError,
    GameLedger,
    GameNotFoundError,
    hash_token,
)
from services.db_roles import SERVICE_ROLE_RECORDER

log = logging.getLogger(__name__)

LOCK_CLASS = 7302
"""Advisory-lock namespace "one tournament's organiser writes" (7301 is the DDL lock)."""
LOCK_WAIT = "30s"
"""How long a second organiser request waits for the first before ``ABORTED``."""

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
        "services.recorder:LedgerRecorder" if create_tables else SERVICE_ROLE_RECORDER
    )


class TournamentNotFoundError(GameNotFoundError):
    """Raised when no tournament has the requested id."""


@dataclass(frozen=True)
class TournamentGrant:
    tournament_id: UUID
    role: str  # "organiser" or "player"
    player_id: str | None
    token: str | None = field(default=None, repr=False, compare=False)
    """The bearer token itself (memory only): seat tokens derive from it."""


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


class TournamentDesk(Application[UUID]):
    name = "tournaments"

    def __init__(self, env: dict[str, str], ledger: GameLedger) -> None:
        # CREATE_TABLE=no (LEDGER_CREATE_TABLES=false): no DDL, and the events
        # table is locked through the owner's function (services/db_roles.py)
        create_tables = strtobool(env.get("CREATE_TABLE") or "yes")
        super().__init__(
            {
                **env,
                "APPLICATION_RECORDER_TOPIC": recorder_topic(create_tables),
                "AGGREGATE_CACHE_MAXSIZE": "200",
                "IS_SNAPSHOTTING_ENABLED": "n",
            }
        )
        self.ledger = ledger
        if create_tables:
            with self.recorder.datastore.transaction(commit=True) as curs:  # type: ignore[attr-defined]
                curs.execute(TOURNAMENT_DDL)
                curs.execute(organisers.DDL)

    def construct_mapper(self) -> TournamentMapper:
        return TournamentMapper()

    @property
    def datastore(self) -> Any:
        return self.recorder.datastore  # type: ignore[attr-defined]

    def load(self, tournament_id: UUID) -> Tournament:
        try:
            return self.repository.get(tournament_id)
        except AggregateNotFoundError:
            raise TournamentNotFoundError(
                f"tournament {tournament_id} not found"
            ) from None

    def create(
        self,
        name: str,
        game_type: str,
        format: str,
        rounds: int,
        table_size: int,
        setup: dict[str, Any],
        spectator_delay: dict[str, int] | None = None,
    ) -> tuple[Tournament, str]:
        tournament = Tournament.create(
            name,
            game_type,
            format,
            rounds,
            table_size,
            setup,
            spectator_delay=spectator_delay,
        )
        token = secrets.token_urlsafe(32)
        self.save(
            tournament,
            side_effects=[
                (
                    "INSERT INTO tournament_tokens VALUES (%s, %s, 'organiser', NULL)",
                    (hash_token(token), tournament.id),
                )
            ],
        )
        return tournament, token

    def register(self, tournament_id: UUID, player_id: str) -> str:
        if not player_id or len(player_id) > 128:
            raise InvalidCommandError("player_id must be 1-128 characters")
        with self._exclusive(tournament_id):
            tournament = self.load(tournament_id)
            tournament.register(player_id)
            token = secrets.token_urlsafe(32)
            self.save(
                tournament,
                side_effects=[
                    (
                        "INSERT INTO tournament_tokens VALUES (%s, %s, 'player', %s)",
                        (hash_token(token), tournament_id, player_id),
                    )
                ],
            )
        return token

    def withdraw(self, tournament_id: UUID, player_id: str) -> Tournament:
        with self._exclusive(tournament_id):
            tournament = self.load(tournament_id)
            tournament.withdraw(player_id)
            self.save(tournament)
        return tournament

    def start_round(self, tournament_id: UUID) -> Tournament:
        """Pair the next round, create its games, record it (one round at a time).

        Safe across processes and crashes, without a transaction spanning the
        ledger's and the desk's tables (each ``create_game`` commits on its own):

        * Serialised: the whole start runs under this tournament's
          ``pg_advisory_xact_lock`` (:meth:`_exclusive`, also taken by
          register/withdraw), held by a dedicated connection, and the
          tournament is loaded only after the lock is taken.  A second caller,
          in this process or another, waits, then sees the round started and
          gets ``tournament.round-incomplete``; a crash drops the connection
          and so the lock.  The tournament's optimistic concurrency stays as
          the backstop (a lost save is ``IntegrityError``, mapped to ABORTED).
        * Crash-safe: each game is journalled (``tournament_pending_games``,
          with its tokens) right after it is created, and the round's intent
          (``tournament_round_intents``) before the first one.  A retry of the
          same round adopts the journalled games table by table instead of
          creating more; the ``created`` journal rows and the intent are
          deleted in the transaction that records the round.  Pairing is
          deterministic, so the retry normally seats the same players; a
          journalled game whose table now seats others is kept as
          ``abandoned``.  A crash in the short gap between a game's commit and
          its journal row leaves a game no one has tokens for; the retry finds
          it exactly (its entropy names tournament, round and table, among the
          ledger's games created since the intent) and records it as
          ``lost``.  Closing that gap needs ``create_game`` to take extra side
          effects, so the journal row commits with the game.

        Why not deterministic (uuid5) game ids: ``create_game`` chooses the id
        and the seat tokens, and a re-created game with a fresh seed and
        tokens would not be the same game anyway; adopting needs the tokens,
        which only the journal keeps.

        :raises TournamentNotFoundError:
        :raises IllegalCommandError: as :meth:`Tournament.plan_round`.
        :raises ConcurrencyConflictError: when another request on this
            tournament holds the lock for longer than :data:`LOCK_WAIT`.
        """
        with self._exclusive(tournament_id):
            tournament = self.load(tournament_id)
            plan = tournament.plan_round()
            number = tournament.state.current_round + 1
            since, retried = self._begin_round(tournament_id, number)
            pending = self._pending_games(tournament_id, number)
            tables: list[TableAssignment] = []
            side: list[tuple[str, tuple[Any, ...]]] = []
            for index, players in enumerate(plan.tables, start=1):
                players = tuple(players)
                row = pending.pop(index, None)
                if row is not None and tuple(row["players"]) != players:
                    self._set_status(row["game_id"], "abandoned")
                    row = None
                if row is None:
                    if retried:
                        self._find_lost(tournament, number, index, players, since)
                    row = self._create_game(tournament, number, index, players)
                game_id, tokens = row["game_id"], row["tokens"]
                tables.append(
                    TableAssignment(table=index, players=players, game_id=str(game_id))
                )
                side.append(
                    (
                        "INSERT INTO tournament_games VALUES (%s, %s, %s)",
                        (game_id, tournament_id, number),
                    )
                )
                side.extend(
                    (
                        "INSERT INTO tournament_seat_tokens VALUES (%s, %s, %s, %s, %s, %s)",
                        (
                            tournament_id,
                            players[t["player"]],
                            game_id,
                            number,
                            t["seats"],
                            None,  # derived on demand, never stored
                        ),
                    )
                    for t in tokens
                )
            for row in pending.values():
                self._set_status(row["game_id"], "abandoned")
            tournament.start_round(tables, plan.byes)
            where = "WHERE tournament_id = %s AND round = %s"
            side.append(
                (
                    f"DELETE FROM tournament_pending_games {where} AND status = 'created'",
                    (tournament_id, number),
                )
            )
            side.append(
                (
                    f"DELETE FROM tournament_round_intents {where}",
                    (tournament_id, number),
                )
            )
            self.save(tournament, side_effects=side)
            return tournament

    @contextmanager
    def _exclusive(self, tournament_id: UUID) -> Iterator[None]:
        """Hold this tournament's advisory lock, across processes, until the block ends.

        A dedicated connection, not a pooled one: pooled sessions end idle
        transactions after a few seconds (which would drop the lock midway),
        and holding a pooled connection while the block needs others from the
        same pool could exhaust it.
        """
        key = int.from_bytes(tournament_id.bytes[:4], "big", signed=True)
        with psycopg.connect(
            **self.datastore.pool.kwargs, autocommit=True, connect_timeout=10
        ) as conn:
            conn.execute("SET idle_in_transaction_session_timeout = 0")
            conn.execute(f"SET lock_timeout = '{LOCK_WAIT}'")
            with conn.transaction():
                try:
                    conn.execute(
                        "SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_CLASS, key)
                    )
                except psycopg.errors.LockNotAvailable:
                    raise ConcurrencyConflictError(
                        "another organiser request on this tournament is still running; retry"
                    ) from None
                yield

    def _begin_round(self, tournament_id: UUID, number: int) -> tuple[datetime, bool]:
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

    def _pending_games(
        self, tournament_id: UUID, number: int
    ) -> dict[int, dict[str, Any]]:
        """Journalled, not yet recorded games of a round, by table (extras abandoned)."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT game_id, table_no, players, tokens FROM tournament_pending_games"
                " WHERE tournament_id = %s AND round = %s AND status = 'created' ORDER BY table_no, game_id",
                (tournament_id, number),
            )
            rows = curs.fetchall()
        found: dict[int, dict[str, Any]] = {}
        for row in rows:
            if row["table_no"] in found:
                self._set_status(row["game_id"], "abandoned")
            else:
                found[row["table_no"]] = row
        return found

    def _create_game(
        self, tournament: Tournament, number: int, index: int, players: tuple[str, ...]
    ) -> dict[str, Any]:
        created = self.ledger.create_game(
            tournament.state.game_type,
            tournament.game_setup(len(players)),
            entropy=(_entropy(tournament.id, number, index),),
            player_ids=players,
            spectator_delay=tournament.spectator_delay,
        )
        tokens = [{"player": t.player, "seats": list(t.seats)} for t in created.tokens]
        self._journal_game(
            created.game_id, tournament.id, number, index, players, tokens
        )
        return {"game_id": created.game_id, "tokens": tokens}

    def _journal_game(
        self,
        game_id: UUID,
        tournament_id: UUID,
        number: int,
        index: int,
        players: tuple[str, ...],
        tokens: list[dict[str, Any]],
    ) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                "INSERT INTO tournament_pending_games VALUES (%s, %s, %s, %s, %s, %s, 'created')",
                (game_id, tournament_id, number, index, list(players), Jsonb(tokens)),
            )

    def _set_status(self, game_id: UUID, status: str) -> None:
        log.warning(
            "tournament game %s is an orphan: %s", game_id, PENDING_STATUSES[status]
        )
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                "UPDATE tournament_pending_games SET status = %s, tokens = NULL WHERE game_id = %s",
                (status, game_id),
            )

    def _find_lost(
        self,
        tournament: Tournament,
        number: int,
        index: int,
        players: tuple[str, ...],
        since: datetime,
    ) -> None:
        """Record games a crashed attempt created for this table but never journalled."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT g.game_id FROM ledger_games g WHERE g.game_type = %s AND g.player_ids = %s"
                " AND g.created_at >= %s"
                " AND NOT EXISTS (SELECT 1 FROM tournament_games t WHERE t.game_id = g.game_id)"
                " AND NOT EXISTS (SELECT 1 FROM tournament_pending_games p WHERE p.game_id = g.game_id)",
                (find_game(tournament.state.game_type).name, list(players), since),
            )
            candidates = [r["game_id"] for r in curs.fetchall()]
        expected = (_entropy(tournament.id, number, index),)
        for game_id in candidates:
            if self.ledger.load(game_id).entropy != expected:
                continue  # the same players' own game, not ours
            with self.datastore.transaction(commit=True) as curs:
                curs.execute(
                    "INSERT INTO tournament_pending_games VALUES (%s, %s, %s, %s, %s, NULL, 'lost')",
                    (game_id, tournament.id, number, index, list(players)),
                )
            log.warning(
                "tournament game %s is an orphan: %s", game_id, PENDING_STATUSES["lost"]
            )

    def my_games(
        self, tournament_id: UUID, player_id: str, player_token: str
    ) -> list[dict[str, Any]]:
        """The player's games with their seat tokens, derived from ``player_token``.

        Each derived token's hash is registered (idempotently) so it works
        like any seat token; nothing in clear is stored or read.
        """
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                "SELECT s.round, s.game_id, s.seats, g.player_ids FROM tournament_seat_tokens s"
                " JOIN ledger_games g ON g.game_id = s.game_id"
                " WHERE s.tournament_id = %s AND s.player_id = %s ORDER BY s.round",
                (tournament_id, player_id),
            )
            rows = [dict(r) for r in curs.fetchall()]
            for row in rows:
                player = list(row.pop("player_ids")).index(player_id)
                row["token"] = seat_token_for(player_token, row["game_id"], player)
                row["player"] = player
            curs.executemany(
                "INSERT INTO ledger_seat_tokens (token_hash, game_id, player, seats)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                [
                    (
                        hash_token(r["token"]),
                        r["game_id"],
                        r["player"],
                        list(r["seats"]),
                    )
                    for r in rows
                ],
            )
            return rows

    def grant_for_token(self, token: str) -> TournamentGrant | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT * FROM tournament_tokens WHERE token_hash = %s",
                (hash_token(token),),
            )
            row = curs.fetchone()
        return (
            TournamentGrant(row["tournament_id"], row["role"], row["player_id"], token)
            if row
            else None
        )


def seat_token_for(player_token: str, game_id: UUID, player: int) -> str:
    """A tournament player's seat token for one game, derived, never stored."""
    digest = hmac.new(
        player_token.encode(), f"{game_id}:{player}".encode(), hashlib.sha256
    ).digest()
    return "ts_" + base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _entropy(tournament_id: UUID, number: int, index: int) -> str:
    """A tournament game's entropy string, which also identifies it as that table's game."""
    return f"tournament:{tournament_id}:round:{number}:table:{index}"
