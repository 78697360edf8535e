"""``TournamentDesk``: event-sourced tournaments beside the game ledger.

The desk creates a round's games through the
:class:`~services.ledger.application.GameLedger` with the players' ids, records the
round, and keeps each player's seat tokens so the player (and only the
player, with their tournament token) can fetch them.
Results come in through the ``tournament_results`` policy, which calls
:class:`services.tournaments.results.ResultsDesk` in its own transaction.

Starting a round is serialised per tournament by an advisory lock and
journalled game by game (:mod:`services.tournaments.rounds`), so two server
processes or a crash cannot start a round twice or leave unaccounted games
(see :meth:`TournamentDesk.start_round`).  The tables and the record format
live in :mod:`services.storage.tournament_store`, shared with the results policy.

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
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.utils import strtobool

from domain.contract.core import IllegalCommandError, InvalidCommandError
from domain.ledger.clocks import TimeControl
from domain.tournament.aggregate import Tournament
from domain.tournament.standings import ABORTED
from services.ledger.application import (
    ConcurrencyConflictError,
    GameLedger,
    GameNotFoundError,
)
from services.storage.recorder import hash_token
from services.storage.tournament_rows import TokenGrant
from services.storage.tournament_store import (
    TournamentMapper,
    TournamentStore,
    recorder_topic,
)
from services.tournaments.rounds import RoundJournal

UNPAIRABLE = ("tournament.not-enough-players", "tournament.no-rounds-left")
"""Why an automatic round cannot start: the tournament finishes instead."""
LOCK_WAIT = "30s"
"""How long a second organiser request waits for the first before ``ABORTED``."""


class TournamentNotFoundError(GameNotFoundError):
    """Raised when no tournament has the requested id."""


@dataclass(frozen=True)
class TournamentGrant:
    tournament_id: UUID
    role: str  # "organiser" or "player"
    player_id: str | None
    token: str | None = field(default=None, repr=False, compare=False)
    """The bearer token itself (memory only): seat tokens derive from it."""


class TournamentDesk(Application[UUID]):
    name = "tournaments"

    def __init__(self, env: dict[str, str], ledger: GameLedger) -> None:
        # CREATE_TABLE=no (LEDGER_CREATE_TABLES=false): no DDL, and the events
        # table is locked through the owner's function (services/storage/roles.py)
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
        self.store = TournamentStore(self.datastore)
        self.rounds = RoundJournal(self.store, ledger)
        if create_tables:
            self.store.create_tables()

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
        time_control: TimeControl | None = None,
        automatic_rounds: dict[str, int] | None = None,
    ) -> tuple[Tournament, str]:
        tournament = Tournament.create(
            name,
            game_type,
            format,
            rounds,
            table_size,
            setup,
            spectator_delay=spectator_delay,
            time_control=time_control,
            automatic_rounds=automatic_rounds,
        )
        token = secrets.token_urlsafe(32)
        self.save(
            tournament,
            tournament_rows=[TokenGrant(hash_token(token), tournament.id, "organiser")],
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
                tournament_rows=[
                    TokenGrant(hash_token(token), tournament_id, "player", player_id)
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
        * Crash-safe: the round's games are created and journalled by
          :class:`~services.tournaments.rounds.RoundJournal`, so a retry after
          a crash adopts them instead of creating more (see that module).

        :raises TournamentNotFoundError:
        :raises IllegalCommandError: as :meth:`Tournament.plan_round`.
        :raises ConcurrencyConflictError: when another request on this
            tournament holds the lock for longer than :data:`LOCK_WAIT`.
        """
        with self._exclusive(tournament_id):
            tournament = self.load(tournament_id)
            plan = tournament.plan_round()
            number = tournament.state.current_round + 1
            tables, seating = self.rounds.seat(tournament, plan, number)
            tournament.start_round(tables, plan.byes)
            seating = replace(seating, next_due=tournament.next_round_at)
            self.save(tournament, tournament_rows=[seating])
            return tournament

    def start_scheduled_round(self, tournament_id: UUID, number: int) -> str:
        """Start automatic round ``number`` if it is still due; what happened:
        ``"started"``, ``"finished"`` (no round can be paired: too few players
        left), ``"done"`` (started or finished already) or ``"waiting"``.

        Exactly once across servers: under the same lock as
        :meth:`start_round`, the tournament is loaded and the round started
        only while its current round is ``number - 1`` and its wait is over,
        so a second scheduler, a stale row or a retry after a crash finds the
        round started and only forgets the row.
        """
        with self._exclusive(tournament_id):
            tournament = self.load(tournament_id)
            state = tournament.state
            if state.finished or state.current_round >= number:
                self.store.unschedule(tournament_id, number)
                return "done"
            due = tournament.next_round_at
            if (
                due is None
                or due > datetime.now(UTC)
                or state.current_round != number - 1
            ):
                return "waiting"
            try:
                plan = tournament.plan_round()
            except IllegalCommandError as refused:
                if refused.rule not in UNPAIRABLE:
                    raise
                tournament.finish()
                self.save(tournament)
                self.store.unschedule(tournament_id, number)
                return "finished"
            tables, seating = self.rounds.seat(tournament, plan, number)
            tournament.start_round(tables, plan.byes)
            seating = replace(seating, next_due=tournament.next_round_at)
            self.save(tournament, tournament_rows=[seating])
            return "started"

    def replay_aborted(self, tournament_id: UUID, game_id: UUID) -> Tournament:
        """Replace an aborted game of the current round with a new one for
        the same players (the organiser's call); the players fetch its seat
        tokens with ``GetMyGames`` as for any round.

        :raises IllegalCommandError: ``tournament.not-aborted`` unless the
            ledger ended the game by an abort, ``tournament.finished``.
        """
        with self._exclusive(tournament_id):
            tournament = self.load(tournament_id)
            tournament.check_replay(str(game_id))  # before a game is created
            outcome = self.ledger.load(game_id).outcome
            if outcome is None or outcome.termination.value != ABORTED:
                raise IllegalCommandError(
                    "tournament.not-aborted",
                    f"game {game_id} was not aborted: only an aborted game is replayed",
                )
            replays = sum(len(r.replaced) for r in tournament.state.round_records)
            new_id, seating = self.rounds.replay(tournament, str(game_id), replays)
            tournament.replay(str(game_id), str(new_id))
            self.save(tournament, tournament_rows=[seating])
        return tournament

    def finish(self, tournament_id: UUID) -> Tournament:
        """End the tournament between rounds (the organiser's call).

        :raises IllegalCommandError: ``tournament.finished``,
            ``tournament.round-incomplete``.
        """
        with self._exclusive(tournament_id):
            tournament = self.load(tournament_id)
            tournament.finish()
            self.save(tournament)
            self.store.unschedule(tournament_id, tournament.state.current_round + 1)
        return tournament

    @contextmanager
    def _exclusive(self, tournament_id: UUID) -> Iterator[None]:
        """Hold this tournament's advisory lock, across processes, until the block ends
        (:meth:`TournamentStore.exclusive
        <services.storage.tournament_store.TournamentStore.exclusive>`)."""
        with self.store.exclusive(tournament_id, LOCK_WAIT, _busy):
            yield

    def my_games(
        self, tournament_id: UUID, player_id: str, player_token: str
    ) -> list[dict[str, Any]]:
        """The player's games with their seat tokens, derived from ``player_token``.

        Each derived token's hash is registered (idempotently) so it works
        like any seat token; nothing in clear is stored or read.
        """
        rows = self.store.seatings(tournament_id, player_id)
        for row in rows:
            player = list(row.pop("player_ids")).index(player_id)
            row["token"] = seat_token_for(player_token, row["game_id"], player)
            row["player"] = player
        self.store.register_seat_tokens(
            [(r["token"], r["game_id"], r["player"], r["seats"]) for r in rows]
        )
        return rows

    def round_games(self, tournament_id: UUID, number: int) -> tuple[int, list[UUID]]:
        """Round ``number``'s number (0: the latest) and its games' ids, in
        table order (what an arbiter pauses or resumes together).

        :raises TournamentNotFoundError, RuleError: no such round (yet).
        """
        records = self.load(tournament_id).state.round_records
        if not records:
            raise IllegalCommandError(
                "tournament.no-round-started",
                "no round has started: StartRound deals the first",
            )
        number = number or len(records)
        if not 1 <= number <= len(records):
            raise InvalidCommandError(
                f"round must be between 1 and {len(records)}",
                violations=(("round", f"1-{len(records)}, or 0 for the latest"),),
            )
        tables = records[number - 1].tables
        return number, [UUID(str(t.game_id)) for t in tables]

    def tournament_of(self, game_id: UUID) -> UUID | None:
        """The tournament a game was paired in, if any (who may adjudicate it)."""
        return self.store.tournament_of(game_id)

    def grant_for_token(self, token: str) -> TournamentGrant | None:
        grant = self.store.grant(token)
        if grant is None:
            return None
        return TournamentGrant(grant.tournament_id, grant.role, grant.player_id, token)


def _busy() -> ConcurrencyConflictError:
    return ConcurrencyConflictError(
        "another organiser request on this tournament is still running; retry"
    )


def seat_token_for(player_token: str, game_id: UUID, player: int) -> str:
    """A tournament player's seat token for one game, derived, never stored."""
    digest = hmac.new(
        player_token.encode(), f"{game_id}:{player}".encode(), hashlib.sha256
    ).digest()
    return "ts_" + base64.urlsafe_b64encode(digest).decode().rstrip("=")
