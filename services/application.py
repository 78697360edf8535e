"""``GameLedger``: the eventsourcing Application that creates games and records moves.

Load -> act -> save, as in the eventsourcing examples, plus the ledger's
guarantees that need the database: idempotent command ids, optimistic
concurrency with a bounded retry, seat tokens stored hashed, and the secret
seed kept out of the event log until the game concludes.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError
from psycopg.types.json import Jsonb

from domain.aggregate import Game, command_record
from domain.core import Command, InvalidCommandError, Model, RuleError, Seat
from domain.games import find_game
from domain.integrity import canonical_json
from domain.receipts import Receipt, Signer
from domain.signatures import SignedMove, parse_seat_keys
from domain.spectator import parse_delay
from services.group_commit import GroupCommitter
from services.heads import Heads
from services.held import HeldGames, shell
from services.persistence import LedgerMapper

MAX_ENTROPY = 8
MAX_ENTROPY_LEN = 256
MAX_COMMAND_ID_LEN = 128
RETRIES = 4


class GameNotFoundError(LookupError):
    """Raised when no game has the requested id."""


class ConcurrencyConflictError(RuntimeError):
    """Raised when another move was recorded first and this one was not retried."""


class CommandIdReusedError(ValueError):
    """Raised when a command id is reused for a different move in the same game."""


@dataclass(frozen=True)
class SeatToken:
    player: int
    seats: tuple[Seat, ...]
    token: str


@dataclass(frozen=True)
class CreatedGame:
    game_id: UUID
    version: int
    tokens: tuple[SeatToken, ...]
    receipt: Receipt | None = None


@dataclass(frozen=True)
class MoveResult:
    game_id: UUID
    first_version: int
    last_version: int
    replayed: bool
    log_position: int = 0
    events: tuple[Any, ...] = ()
    """The recorded ledger events (empty for a replayed command: read them)."""
    game: Any = None
    """The game right after this move (``None`` for a replayed command)."""
    receipt: Receipt | None = None
    """The server's signature over the head this move left (``last_version``)."""


@dataclass(frozen=True)
class PendingMove:
    """A move decided by :meth:`GameLedger.begin`, waiting for its commit."""

    game: Any
    epoch: int
    events: tuple[Any, ...]
    future: Future
    receipt: Receipt | None = None


@dataclass(frozen=True)
class SeatGrant:
    """What a seat token lets its holder do."""

    game_id: UUID
    player: int
    seats: tuple[Seat, ...]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class GameLedger(Application[UUID]):
    """Every game of every type, as event-sourced ``Game`` aggregates."""

    name = "ledger"
    on_recorded: Callable[[UUID, list[Any]], None] | None = None
    """Called with each committed move's events (the JetStream publisher)."""

    def __init__(
        self,
        env: dict[str, str],
        snapshot_interval: int = 50,
        signer: Signer | Callable[[], Signer] | None = None,
    ) -> None:
        env = {
            "APPLICATION_RECORDER_TOPIC": "services.persistence:LedgerRecorder",
            "IS_SNAPSHOTTING_ENABLED": "y",
            "AGGREGATE_CACHE_MAXSIZE": "2000",
            **env,
        }
        self.snapshotting_intervals = {Game: snapshot_interval}  # type: ignore[misc]  # eventsourcing types it ClassVar but reads it per instance
        self.env_for_peers = dict(env)
        """Connection settings other applications on the same database reuse."""
        super().__init__(env)
        self._signer_source = signer or Signer.generate
        self._signer: Signer | None = signer if isinstance(signer, Signer) else None
        self._seeds: dict[UUID, bytes] = {}
        self.heads = Heads()
        """Fed by the server's LISTEN connection; without one, reads always
        go to the database."""
        self._held = HeldGames(
            int(env.get("AGGREGATE_CACHE_MAXSIZE", "2000")), self.heads
        )
        self._committer = GroupCommitter(self.save)

    @property
    def signer(self) -> Signer:
        """Signs a receipt for every head a move leaves.

        ``services.signing`` loads the server's key, on first use only (so
        read-only commands never create one); without a source, an ephemeral
        key for tests.
        """
        if self._signer is None:
            source = self._signer_source
            self._signer = source if isinstance(source, Signer) else source()
        return self._signer

    def construct_mapper(self) -> LedgerMapper:
        return LedgerMapper()

    @property
    def datastore(self) -> Any:
        return self.recorder.datastore  # type: ignore[attr-defined]

    # ------------------------------------------------------------ create

    def create_game(
        self,
        game_type: str,
        setup: dict[str, Any] | Model,
        entropy: tuple[str, ...] = (),
        player_ids: tuple[str, ...] = (),
        spectator_delay: Any = None,
        seat_keys: tuple[bytes, ...] = (),
    ) -> CreatedGame:
        """Create a game, returning each player's bearer token (shown only here).

        :raises UnknownGameError: for an unregistered game type.
        :raises InvalidCommandError: for a malformed setup, entropy or
            ``spectator_delay`` (``None``, ``{"moves": n}``, ``{"seconds": s}``).
        """
        ruleset = find_game(game_type)
        # an instance of ruleset.setup_model, whose int ``players`` the Ruleset
        # contract promises (mypy cannot narrow on a class known only at run time)
        parsed: Any = (
            setup
            if isinstance(setup, ruleset.setup_model)
            else _parse_setup(ruleset, setup)
        )
        if not ruleset.min_players <= parsed.players <= ruleset.max_players:
            raise InvalidCommandError(
                f"{ruleset.name} takes {ruleset.min_players}-{ruleset.max_players} players"
            )
        if len(entropy) > MAX_ENTROPY or any(len(e) > MAX_ENTROPY_LEN for e in entropy):
            raise InvalidCommandError(
                f"at most {MAX_ENTROPY} entropy strings of {MAX_ENTROPY_LEN} characters"
            )
        seed = secrets.token_bytes(32)
        epoch = self.heads.epoch
        if any(len(p) > MAX_ENTROPY_LEN for p in player_ids):
            raise InvalidCommandError(
                f"player ids are at most {MAX_ENTROPY_LEN} characters"
            )
        seats = sum(len(g) for g in ruleset.players_seats(parsed))
        game = Game.create(
            ruleset,
            parsed,
            seed,
            tuple(entropy),
            player_ids=tuple(player_ids),
            spectator_delay=parse_delay(spectator_delay),
            seat_keys=parse_seat_keys(seat_keys, seats),
            receipt_key=self.signer.key_id,
        )
        receipt = self._receipt(game.id, game.pending_events[-1])
        tokens = tuple(
            SeatToken(player=i, seats=group, token=secrets.token_urlsafe(32))
            for i, group in enumerate(ruleset.players_seats(parsed))
        )
        side = [
            (
                "INSERT INTO ledger_game_secrets (game_id, seed) VALUES (%s, %s)",
                (game.id, seed),
            ),
            (
                (
                    "WITH receipt AS (INSERT INTO ledger_receipts (game_id, version, receipt)"
                    " VALUES (%s, %s, %s)) INSERT INTO ledger_games (game_id, game_type, players,"
                    " seats, content, version, player_ids, spectator_delay, head_hash)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                ),
                (
                    game.id,
                    receipt.version,
                    _receipt_text(receipt),
                    game.id,
                    ruleset.name,
                    parsed.players,
                    game.seat_count,
                    game.content,
                    game.version,
                    list(game.player_ids),
                    Jsonb(game.spectator_delay) if game.spectator_delay else None,
                    game.head_hash,
                ),
            ),
            *[
                (
                    (
                        "INSERT INTO ledger_seat_tokens (token_hash, game_id, player, seats)"
                        " VALUES (%s, %s, %s, %s)"
                    ),
                    (hash_token(t.token), game.id, t.player, list(t.seats)),
                )
                for t in tokens
            ],
        ]
        self.save(game, side_effects=side)
        self._seeds[game.id] = seed
        self._held.remember(game, epoch)
        return CreatedGame(
            game_id=game.id, version=game.version, tokens=tokens, receipt=receipt
        )

    def _receipt(self, game_id: UUID, event: Any) -> Receipt:
        return self.signer.sign(
            str(game_id),
            event.originator_version,
            event.hash,
            event.timestamp.isoformat(),
        )

    # ------------------------------------------------------------ moves

    def submit(
        self,
        game_id: UUID,
        command: Command,
        actor: Seat,
        command_id: str,
        expected_version: int | None = None,
        signed: SignedMove | None = None,
    ) -> MoveResult:
        """Decide and record one move, exactly once per ``command_id``.

        Without ``expected_version`` a lost race is retried against the new
        state (a simultaneous choice by another seat should not fail); with it,
        a lost race is reported.

        :raises GameNotFoundError, ConcurrencyConflictError, CommandIdReusedError:
        :raises RuleError: when the rules refuse the move.
        """
        request_hash = _request_hash(command_id, command, actor)
        for attempt in range(RETRIES):
            # The common path makes no read round trip: the game comes from the
            # write cache, and a duplicate command id or a stale cache shows up
            # as a conflict when saving, which is when we look things up.
            epoch = self.heads.epoch  # before anything is read
            game = self._for_write(
                game_id, fresh=attempt > 0 or expected_version is not None
            )
            if expected_version is not None and game.version != expected_version:
                previous = self._recorded_command(game_id, command_id, request_hash)
                if previous is not None:
                    return previous
                raise ConcurrencyConflictError(
                    f"game is at version {game.version}, not {expected_version}"
                )
            try:
                new_events, side, receipt = self._decide(
                    game,
                    command,
                    actor,
                    command_id,
                    request_hash,
                    self.seed_of(game_id),
                    signed,
                )
            except RuleError:
                previous = self._recorded_command(game_id, command_id, request_hash)
                if previous is not None:
                    return previous  # a retry of a move that was already recorded
                raise
            try:
                recordings = self._committer.commit(game, side)
            except IntegrityError:
                self._held.forget(game_id)
                previous = self._recorded_command(game_id, command_id, request_hash)
                if previous is not None:
                    return previous
                if expected_version is not None:
                    raise ConcurrencyConflictError(
                        "another move was recorded first"
                    ) from None
                continue
            return self._recorded(game, epoch, new_events, recordings, receipt)
        raise ConcurrencyConflictError(
            "too much contention on this game; retry the command"
        )

    def begin(
        self,
        game_id: UUID,
        command: Command,
        actor: Seat,
        command_id: str,
        expected_version: int | None = None,
        signed: SignedMove | None = None,
    ) -> PendingMove | None:
        """:meth:`submit`'s common path without blocking, for an asyncio caller.

        Decides now against the game this process holds (CPU only, no round
        trip) and queues it for the group committer; returns ``None`` whenever
        that path does not apply (game or seed not held, a stale
        ``expected_version``, a refused move: all of these need the database
        to tell a replayed command from a new one), and the caller must use
        :meth:`submit` instead.  Await ``future``, then call :meth:`finish`.

        :raises InvalidCommandError: for a malformed command id.
        """
        request_hash = _request_hash(command_id, command, actor)
        epoch = self.heads.epoch
        game = self._held.latest(game_id)
        seed = self._seeds.get(game_id)
        if game is None or seed is None:
            return None
        if expected_version is not None and game.version != expected_version:
            return None
        try:
            new_events, side, receipt = self._decide(
                game, command, actor, command_id, request_hash, seed, signed
            )
        except RuleError:
            return None
        return PendingMove(
            game,
            epoch,
            tuple(new_events),
            self._committer.enqueue(game, side),
            receipt,
        )

    def finish(self, pending: PendingMove) -> MoveResult | None:
        """The result of a :meth:`begin` whose future is done; ``None`` if the
        save lost a race or met a reused command id (then use :meth:`submit`,
        which sorts out which)."""
        error = pending.future.exception()
        if isinstance(error, IntegrityError):
            self._held.forget(pending.game.id)
            return None
        if error is not None:
            raise error
        return self._recorded(
            pending.game,
            pending.epoch,
            list(pending.events),
            pending.future.result(),
            pending.receipt,
        )

    def _decide(
        self,
        game: Game,
        command: Command,
        actor: Seat,
        command_id: str,
        request_hash: str,
        seed: bytes,
        signed: SignedMove | None = None,
    ) -> tuple[list[Any], list[tuple[str, Any]], Receipt]:
        """Decide on ``game`` (a private shell) and the rows that go with the move."""
        new_events = game.act(command, actor, seed, command_id, signed)
        first, last = (
            new_events[0].originator_version,
            new_events[-1].originator_version,
        )
        receipt = self._receipt(game.id, new_events[-1])
        side = [
            (
                # one statement, not two: each statement costs more client CPU
                # than the database spends on it (a duplicate command id still
                # fails the whole transaction on the primary key)
                (
                    "WITH recorded AS (INSERT INTO ledger_commands (game_id, command_id, actor,"
                    " request_hash, first_version, last_version) VALUES (%s, %s, %s, %s, %s, %s)),"
                    " receipt AS (INSERT INTO ledger_receipts (game_id, version, receipt)"
                    " VALUES (%s, %s, %s))"
                    " UPDATE ledger_games SET version = %s, status = %s, ended_at = %s,"
                    " winners = %s, head_hash = %s WHERE game_id = %s"
                ),
                (
                    game.id,
                    command_id,
                    actor,
                    request_hash,
                    first,
                    last,
                    game.id,
                    last,
                    _receipt_text(receipt),
                    last,
                    "ended" if game.is_over else "active",
                    game.modified_on if game.is_over else None,
                    list(game.outcome.winners) if game.outcome else None,
                    game.head_hash,
                    game.id,
                ),
            ),
        ]
        return new_events, side, receipt

    def _recorded(
        self,
        game: Game,
        epoch: int,
        new_events: list[Any],
        recordings: list[Any],
        receipt: Receipt | None = None,
    ) -> MoveResult:
        self._held.recorded(game, epoch, new_events)
        if self.on_recorded is not None:  # LEDGER_NATS_URL: services/nats_tail.py
            self.on_recorded(game.id, new_events)
        if self.repository.cache is not None:
            self.repository.cache.put(game.id, game)  # readers fast-forward nothing
        return MoveResult(
            game.id,
            new_events[0].originator_version,
            new_events[-1].originator_version,
            replayed=False,
            log_position=recordings[-1].notification.id,
            events=tuple(new_events),
            game=game,
            receipt=receipt,
        )

    def _for_write(self, game_id: UUID, fresh: bool) -> Game:
        """The latest game this process saved (no round trip), or a fresh load."""
        held = None if fresh else self._held.latest(game_id)
        return held if held is not None else self.load(game_id, fresh=True)

    def latest(self, game_id: UUID) -> Game:
        """The game as this process last saw it (may lag another process's move;
        for routing a move, never for answering a read)."""
        return self._for_write(game_id, fresh=False)

    def current_in_memory(self, game_id: UUID) -> Game | None:
        """The game now if memory can answer without a round trip, else ``None``."""
        return self._held.current(game_id)

    def held(self, game_id: UUID) -> Game | None:
        """:meth:`latest` without a round trip, or ``None`` (so an async
        caller can skip a thread hop on the common path)."""
        return self._held.latest(game_id)

    def recent_events(self, game_id: UUID, after: int) -> tuple[Game, list[Any]] | None:
        """The game now and its events after ``after`` from memory, or ``None``."""
        return self._held.recent_events(game_id, after)

    def _recorded_command(
        self, game_id: UUID, command_id: str, request_hash: str
    ) -> MoveResult | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT c.request_hash, c.first_version, c.last_version, e.notification_id,"
                " r.receipt FROM ledger_commands c JOIN ledger_events e"
                " ON e.originator_id = c.game_id AND e.originator_version = c.last_version"
                " LEFT JOIN ledger_receipts r"
                " ON r.game_id = c.game_id AND r.version = c.last_version"
                " WHERE c.game_id = %s AND c.command_id = %s",
                (game_id, command_id),
            )
            row = curs.fetchone()
        if row is None:
            return None
        if row["request_hash"] != request_hash:
            raise CommandIdReusedError(
                f"command_id {command_id!r} was already used for a different move"
            )
        return MoveResult(
            game_id,
            row["first_version"],
            row["last_version"],
            replayed=True,
            log_position=row["notification_id"],
            receipt=Receipt.from_json(json.loads(row["receipt"]))
            if row["receipt"]
            else None,
        )

    def receipt_at(self, game_id: UUID, version: int) -> Receipt | None:
        """The receipt issued for ``version`` (the last event of a move), if any."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT receipt FROM ledger_receipts WHERE game_id = %s AND version = %s",
                (game_id, version),
            )
            row = curs.fetchone()
        return Receipt.from_json(json.loads(row["receipt"])) if row else None

    def stored_receipts(self, game_id: UUID) -> list[Receipt]:
        """Every receipt this server issued for the game, oldest first."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT receipt FROM ledger_receipts WHERE game_id = %s ORDER BY version",
                (game_id,),
            )
            return [
                Receipt.from_json(json.loads(r["receipt"])) for r in curs.fetchall()
            ]

    def game_row(self, game_id: UUID) -> dict[str, Any] | None:
        """The game's ``ledger_games`` row (the listing's copy of its head)."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute("SELECT * FROM ledger_games WHERE game_id = %s", (game_id,))
            return curs.fetchone()

    def command_rows(self, game_id: UUID) -> list[dict[str, Any]]:
        """The game's ``ledger_commands`` rows (idempotency keys), by version."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT command_id, actor, first_version, last_version FROM ledger_commands"
                " WHERE game_id = %s ORDER BY first_version",
                (game_id,),
            )
            return list(curs.fetchall())

    # ------------------------------------------------------------ reads

    def load(
        self, game_id: UUID, version: int | None = None, fresh: bool = False
    ) -> Game:
        """The game now, or as it was at ``version`` (point-in-time).

        "Now" comes from memory when :attr:`heads` vouches that no process
        has recorded a newer move (see :mod:`services.heads`), otherwise from
        the database (``fresh`` forces that).  Cached aggregates are shared,
        so a private shallow copy is returned: states are immutable, only
        the aggregate shell and its pending list change when a move is decided.

        :raises GameNotFoundError:
        """
        if version is None and not fresh:
            current = self.current_in_memory(game_id)
            if current is not None:
                return current
        epoch = (
            self.heads.epoch
        )  # before the read: whatever it returns is current since then
        try:
            if version is not None:
                return self.repository.get(game_id, version=version)
            cached: Game = self.repository.get(game_id, deepcopy_from_cache=False)
        except AggregateNotFoundError:
            raise GameNotFoundError(f"game {game_id} not found") from None
        self._held.remember(cached, epoch)
        return shell(cached)

    def read_events(
        self,
        game_id: UUID,
        after: int = 0,
        upto: int | None = None,
        limit: int | None = None,
    ) -> list[Any]:
        """Ledger events with ``after < version <= upto``, oldest first."""
        return list(self.events.get(game_id, gt=after, lte=upto, limit=limit))

    def read_records(self, game_id: UUID) -> list[tuple[int, str, bytes]]:
        """The raw stored rows ``(version, type, record bytes)``, for audits."""
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                f"SELECT originator_version, topic, state FROM {self.recorder.events_table_name}"  # type: ignore[attr-defined]
                " WHERE originator_id = %s ORDER BY originator_version",
                (game_id,),
            )
            return [
                (r["originator_version"], r["topic"], bytes(r["state"]))
                for r in curs.fetchall()
            ]

    def _take_snapshots(self, processing_event: Any) -> None:
        """Snapshot the aggregate in hand when a save crosses an interval.

        The stock path reloads the aggregate from the database and replays it
        (a SELECT and a rebuild per snapshot, on the commit path); the
        aggregate just saved is that same state.  The snapshot is taken at
        the save's last version, which may be a few past the multiple.
        """
        interval = self.snapshotting_intervals.get(Game)
        if self.snapshots is None or not interval:
            return
        crossed = {
            e.originator_id
            for e in processing_event.events
            if e.originator_version % interval == 0
        }
        snapshots = [
            Game.Snapshot.take(game)
            for game_id, game in processing_event.aggregates.items()
            if game_id in crossed and isinstance(game, Game)
        ]
        if snapshots:
            self.snapshots.put(snapshots)

    def frames(self, game_id: UUID, after: int, limit: int) -> list[tuple[Any, Game]]:
        """Events after ``after`` with the game as it stood right after each one."""
        events = self.read_events(game_id, after, None, limit)
        if not events:
            self.load(game_id)  # raises GameNotFoundError for an unknown game
            return []
        game = self.load(game_id, after) if after >= 1 else None
        frames = []
        for event in events:
            game = event.mutate(game)
            frames.append((event, shell(game)))
        return frames

    def seed_of(self, game_id: UUID) -> bytes:
        """The secret seed (server side only; revealed in the concluding event)."""
        seed = self._seeds.get(game_id)
        if seed is None:
            with self.datastore.transaction(commit=False) as curs:
                curs.execute(
                    "SELECT seed FROM ledger_game_secrets WHERE game_id = %s",
                    (game_id,),
                )
                row = curs.fetchone()
            if row is None:
                raise GameNotFoundError(f"game {game_id} not found")
            seed = bytes(row["seed"])
            if len(self._seeds) >= 100_000:
                self._seeds.pop(next(iter(self._seeds)))
            self._seeds[game_id] = seed
        return seed

    def grant_for_token(self, token: str) -> SeatGrant | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT game_id, player, seats FROM ledger_seat_tokens WHERE token_hash = %s",
                (hash_token(token),),
            )
            row = curs.fetchone()
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
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(sql, params)
            return list(curs.fetchall())


def _receipt_text(receipt: Receipt) -> str:
    return canonical_json(receipt.to_json()).decode()


def _request_hash(command_id: str, command: Command, actor: Seat) -> str:
    """What a command id stands for, so a reused id with another move is caught.

    :raises InvalidCommandError: for a missing or oversized command id.
    """
    if not command_id or len(command_id) > MAX_COMMAND_ID_LEN:
        raise InvalidCommandError(
            f"command_id must be 1-{MAX_COMMAND_ID_LEN} characters"
        )
    return hashlib.sha256(
        canonical_json({"actor": actor, "command": command_record(command)})
    ).hexdigest()


def _parse_setup(ruleset: Any, raw: Any) -> Any:
    from pydantic import ValidationError

    try:
        return ruleset.setup_model.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
            for e in exc.errors()
        )
        raise InvalidCommandError(
            f"malformed {ruleset.name} setup: {problems}"
        ) from None
