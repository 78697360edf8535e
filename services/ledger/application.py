"""``GameLedger``: the application that creates games, records moves and reads them.

Load -> act -> save, as in the eventsourcing examples, with the pieces split
by what they hold: the use cases here state what each write decides, and the
one path that records every write to a game's log
(:mod:`services.ledger.log_tail`); the one game cache and its freshness
(:mod:`services.ledger.game_cache`), every SQL statement
(:mod:`services.storage.store`) and group commit (:mod:`services.storage.group_commit`).
Blocking work runs in this application's one pool (:attr:`GameLedger.io`),
so async callers (the servicers) never hold a pool of their own for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime
from functools import wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar, Unpack
from uuid import UUID

from eventsourcing.application import Application

from domain.contract.core import Command, Model, RuleError, Seat
from domain.contract.endings import ClockFlaggedError
from domain.contract.viewers import SeatGrant
from domain.ledger.aggregate import Game
from domain.ledger.receipts import Keyring, Receipt, RingKey, Signer
from domain.ledger.signatures import SignedMove
from services.ledger.creation import CreatedGame, GameOptions, SeatToken, new_game
from services.ledger.game_cache import GameCache, GameNotFoundError, shell
from services.ledger.head_signer import HeadSigner
from services.ledger.heads import Heads
from services.ledger.io_pool import IoPool
from services.ledger.log_tail import (
    CommandIdReusedError,
    ConcurrencyConflictError,
    Decide,
    Extension,
    LogTail,
    Recorded,
    move,
)
from services.storage.checkpoint_log import CheckpointLog
from services.storage.database_env import io_threads
from services.storage.game_repository import GameRepository
from services.storage.group_commit import (
    GroupCommitter,
    LoopAppender,
    LoopCommitter,
)
from services.storage.mapper import LedgerMapper
from services.storage.signed_heads import SignedHeadsFile
from services.storage.store import (
    Append,
    LedgerStore,
    ReplayEvents,
)

__all__ = [
    "CommandIdReusedError",
    "ConcurrencyConflictError",
    "CreatedGame",
    "GameLedger",
    "GameNotFoundError",
    "Recorded",
    "SeatToken",
]


_P = ParamSpec("_P")
_T = TypeVar("_T")


def _blocking(
    method: Callable[_P, Coroutine[Any, Any, _T]],
) -> Callable[_P, _T]:
    """``method`` run to its end on an event loop of its own, for callers
    that have none running: one use case, two ways to call it."""

    @wraps(method)
    def blocking(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        return asyncio.run(method(*args, **kwargs))

    return blocking


class GameLedger(Application[UUID]):
    """Every game of every type, as event-sourced ``Game`` aggregates."""

    name = "ledger"

    def __init__(
        self,
        env: dict[str, str],
        snapshot_interval: int = 50,
        signer: Signer | Callable[[], Signer] | None = None,
        keyring: Keyring | None = None,
        clock: Callable[[], datetime] | None = None,
        record_dir: Path | None = None,
    ) -> None:
        env = {
            "APPLICATION_RECORDER_TOPIC": "services.storage.recorder:LedgerRecorder",
            "IS_SNAPSHOTTING_ENABLED": "y",
            **env,
        }
        cache_size = int(env.pop("GAME_CACHE_SIZE", "") or "2000")
        env["AGGREGATE_CACHE_MAXSIZE"] = ""  # the one cache is ours (game_cache)
        self.snapshot_interval = snapshot_interval
        """A snapshot is stored when a move crosses a multiple of this version."""
        self.env_for_peers = dict(env)
        """Connection settings other applications on the same database reuse."""
        super().__init__(env)
        self._signer_source = signer or Signer.generate
        self._signer: Signer | None = signer if isinstance(signer, Signer) else None
        self._earlier_keys = keyring or Keyring(())
        self.heads = Heads()
        """Fed by the server's LISTEN connection; without one, the cache
        vouches for nothing and every read goes to the database."""
        self.executor = ThreadPoolExecutor(
            max_workers=io_threads(env), thread_name_prefix="ledger-io"
        )
        """The one pool for blocking work (store reads, snapshot writes)."""
        self.io = IoPool(self.executor)
        """Awaitable blocking calls in :attr:`executor`, for async callers."""
        self.store = LedgerStore(self.events, self.snapshots, self.recorder)  # type: ignore[arg-type]
        self.cache = GameCache(cache_size, self.heads, self.store, self._rebuild)
        self._committer = GroupCommitter(self.store.append)
        self.clock: Callable[[], datetime] = clock or _system_clock
        """The ledger's own clock: stamps every event, so it times every
        seat (tests pass one they move by hand)."""
        self.head_signer = HeadSigner(
            lambda: self.signer,
            None if record_dir is None else SignedHeadsFile.in_dir(record_dir),
            None if record_dir is None else CheckpointLog(record_dir),
            lambda: self.clock(),
        )
        """Signs every head, never two histories of one game: with
        ``record_dir`` (the data dir, beside the key) it keeps the record of
        signed heads and the checkpoints there; without, none (tests)."""
        self.log_tail = LogTail(
            self.cache,
            self.store,
            self._committer,
            self.heads,
            self.io,
            self.head_signer,
            snapshot_interval,
            lambda: self.clock(),
        )
        """Records every write that extends a game's log."""

    @property
    def signer(self) -> Signer:
        """Signs a receipt for every head a move leaves.

        ``services.storage.signing_key`` loads the server's key, on first use only (so
        read-only commands never create one); without a source, an ephemeral
        key for tests.
        """
        if self._signer is None:
            source = self._signer_source
            self._signer = source if isinstance(source, Signer) else source()
        return self._signer

    @property
    def keyring(self) -> Keyring:
        """The keys that verify this deployment's receipts, the signing one first.

        The configured ring (earlier keys, and maybe the current key's
        window) plus the signer's own key, open-ended unless the ring dates it.
        """
        return self._earlier_keys.with_key(RingKey(self.signer.public_key))

    @property
    def on_committed(self) -> Callable[[UUID, list[Any]], None] | None:
        """Called with each committed write's records (the JetStream publisher)."""
        return self.log_tail.on_committed

    @on_committed.setter
    def on_committed(self, hook: Callable[[UUID, list[Any]], None] | None) -> None:
        self.log_tail.on_committed = hook

    def construct_mapper(self) -> LedgerMapper:
        return LedgerMapper()

    def construct_repository(self) -> GameRepository:
        # no aggregate cache or fast-forward: __init__ turns eventsourcing's off
        events = ReplayEvents(self.recorder)  # type: ignore[arg-type]
        return GameRepository(events, snapshot_store=self.snapshots)  # type: ignore[arg-type]

    @property
    def datastore(self) -> Any:
        return self.recorder.datastore  # type: ignore[attr-defined]

    def close(self) -> None:
        self.head_signer.close()
        self.executor.shutdown(wait=False, cancel_futures=True)
        super().close()

    def commit_on_this_loop(self) -> LoopCommitter:
        """Commit the moves decided on the running event loop on that loop
        (the serving process's), not on the committer thread; the caller
        closes what this returns when it stops serving."""
        committer = LoopCommitter(LoopAppender(self.store))
        self._committer.on_loop(committer)
        return committer

    # ------------------------------------------------------------ create

    def create_game(
        self,
        game_type: str,
        setup: dict[str, Any] | Model,
        **options: Unpack[GameOptions],
    ) -> CreatedGame:
        """Create a game, returning each player's bearer token (shown only here).

        :raises UnknownGameError: for an unregistered game type.
        :raises InvalidCommandError: for a malformed setup, entropy or
            ``spectator_delay`` (``None``, ``{"moves": n}``, ``{"seconds": s}``).
        """
        game, seed, created, rows = new_game(
            self.head_signer, game_type, setup, self.clock(), **options
        )
        epoch = self.heads.epoch
        events = list(game.collect_events())
        self.store.append([Append(game.id, tuple(events), rows)])
        self.head_signer.stored(str(game.id), game.version, game.head_hash, False)
        self.cache.remember_seed(game.id, seed)
        self.cache.committed(game, epoch, events)
        return replace(created, game=shell(game))

    # ------------------------------------------------------------ moves

    async def submit_move(
        self,
        game_id: UUID,
        command: Command,
        actor: Seat,
        command_id: str,
        expected_version: int | None = None,
        signed: SignedMove | None = None,
        game: Game | None = None,
    ) -> Recorded:
        """Decide and record one move, exactly once per ``command_id``
        (:meth:`services.ledger.log_tail.LogTail.extend`).

        ``game``: the game the caller loaded for its own checks (the seat, the
        command's type), decided on first so a move reads it once.

        :raises ClockFlaggedError: a seat's time had run out; the timeout is
            recorded before the move is refused.
        """
        write = move(command, actor, command_id, expected_version, signed)
        return await self._flag_recorded(
            game_id, f"seat:{actor}", self.log_tail.extend(game_id, write, game)
        )

    async def _flag_recorded(
        self, game_id: UUID, by: str, call: Awaitable[Recorded]
    ) -> Recorded:
        """``call``, recording the timeout it found before it is refused.

        A move, resignation or abort that arrives after a deadline is refused
        with ``clock.flagged``; the timeout (or forfeit) that deadline means
        is recorded first, ``by`` the caller whose call found it, so the game
        ends the same whoever notices first: the late seat, its opponent or
        the timekeeper.

        :raises ClockFlaggedError: after the timeout is recorded.
        """
        try:
            return await call
        except ClockFlaggedError:
            try:
                await self.claim_timeout(game_id, by)
            except RuleError:
                pass  # another process recorded it first
            raise

    # ------------------------------------------------------------ endings

    async def resign(self, game_id: UUID, seat: Seat) -> Recorded:
        """``seat`` concedes (the ruleset's consequence; two players: the other
        seat wins).  Who may ask is the API's check.

        :raises GameNotFoundError, RuleError:
        """
        by = f"seat:{seat}"
        return await self._flag_recorded(
            game_id,
            by,
            self._end(
                game_id, lambda game, seed, now: game.resign(seat, seed, by, now)
            ),
        )

    async def abort(self, game_id: UUID, by: str, reason: str = "") -> Recorded:
        """Call the game off before its abort limit of moves: unrated, no stats.

        ``by`` is ``seat:<n>`` when a seat asks: a seat that left cannot.  A
        deadline already passed is recorded as the timeout it is, and the
        abort refused (``clock.flagged``).

        :raises GameNotFoundError, RuleError: ``AbortTooLateError`` after it,
            ``ClockFlaggedError``, ``DroppedOutError``, ``AbortAfterLeavingError``.
        """
        seat = int(by.removeprefix("seat:")) if by.startswith("seat:") else None
        return await self._flag_recorded(
            game_id,
            by,
            self._end(
                game_id,
                lambda game, seed, now: game.abort(by, reason, seed, now, seat),
            ),
        )

    async def adjudicate(
        self, game_id: UUID, ranks: tuple[int, ...], reason: str, by: str
    ) -> Recorded:
        """Record an arbiter's result (``ranks[seat]``, 1 the best) and why.

        :raises GameNotFoundError, RuleError:
        """
        return await self._end(
            game_id,
            lambda game, seed, now: game.adjudicate(ranks, reason, by, seed, now),
        )

    async def claim_timeout(self, game_id: UUID, by: str = "timekeeper") -> Recorded:
        """Record the timeout of the seat whose time ran out, by the ledger's clock.

        :raises GameNotFoundError, RuleError: ``ClockRunningError`` when
            nobody's time is up, ``GameOverError`` when it already ended.
        """
        return await self._end(
            game_id,
            lambda game, seed, now: game.time_out(seed, now, by),
        )

    async def _end(self, game_id: UUID, ending: Decide) -> Recorded:
        """Append one of the ledger's own decisions to the game as the store
        has it now.

        Why from the store: these endings carry no client's command id; the
        event store's unique ``(game, version)`` is what makes a timeout
        happen exactly once when several timekeepers, or a timekeeper and a
        late move, race for the same game: whoever appends second decides
        again on the fresh game and finds it over (or the clock reset).
        """
        return await self.log_tail.extend(game_id, Extension(ending, from_store=True))

    # ------------------------------------------------------------ controls

    async def accept_draw(self, game_id: UUID, seat: Seat) -> Recorded:
        """``seat`` accepts the other seat's standing draw offer: a draw.

        :raises GameNotFoundError, RuleError: ``DrawOfferError`` without one.
        """
        return await self._referee(
            game_id, lambda game, seed, now: game.accept_draw(seat, seed, now)
        )

    async def offer_draw(self, game_id: UUID, seat: Seat) -> Recorded:
        """``seat`` offers a draw (:mod:`domain.ledger.controls`).

        :raises GameNotFoundError, RuleError:
        """
        return await self._referee(
            game_id, lambda game, seed, now: game.offer_draw(seat, now)
        )

    async def decline_draw(self, game_id: UUID, seat: Seat) -> Recorded:
        """``seat`` declines the other seat's standing draw offer.

        :raises GameNotFoundError, RuleError:
        """
        return await self._referee(
            game_id, lambda game, seed, now: game.decline_draw(seat, now)
        )

    async def pause(self, game_id: UUID, by: str) -> Recorded:
        """An arbiter holds every clock of the game; no seat may move.

        :raises GameNotFoundError, RuleError: ``PauseStateError`` if paused.
        """
        return await self._referee(game_id, lambda game, seed, now: game.pause(by, now))

    async def resume(self, game_id: UUID, by: str) -> Recorded:
        """The clocks run again from where the pause held them.

        :raises GameNotFoundError, RuleError: ``PauseStateError`` if running.
        """
        return await self._referee(
            game_id, lambda game, seed, now: game.resume(by, now)
        )

    async def add_time(self, game_id: UUID, seat: Seat, ms: int, by: str) -> Recorded:
        """An arbiter gives ``seat`` ``ms`` more milliseconds.

        :raises GameNotFoundError, RuleError: ``AddTimeError`` when it
            cannot count.
        """
        return await self._referee(
            game_id, lambda game, seed, now: game.add_time(seat, ms, by, now)
        )

    async def _referee(self, game_id: UUID, control: Decide) -> Recorded:
        """A control decided on the game as the store has it (like the
        endings, it races the timekeeper and moves there, and happens once);
        one that finds a deadline already passed records that timeout first
        and is refused, as a late move is.

        :raises ClockFlaggedError: after recording the timeout.
        """
        try:
            return await self._end(game_id, control)
        except ClockFlaggedError:
            try:
                await self.claim_timeout(game_id)
            except RuleError:
                pass  # another process recorded it first
            raise

    def has_running_clocks(self) -> bool:
        """Whether any running game has a clock (the timekeeper has work)."""
        return self.store.has_running_clocks()

    def due_games(self, limit: int = 100) -> list[UUID]:
        """Running games whose first clock has run out by the ledger's clock."""
        return self.store.due_games(self.clock(), limit)

    submit = _blocking(submit_move)
    """:meth:`submit_move` for synchronous callers (the CLI, tournaments,
    tests); not from a running event loop."""

    # ------------------------------------------------------------ reads

    async def game(self, game_id: UUID, at: int | None = None) -> Game:
        """:meth:`load` for async callers: no thread hop when memory vouches."""
        held = self.cache.vouched(game_id) if at is None else None
        if held is not None:
            return held
        return await self.io(self.cache.load, game_id, at)

    async def game_at_least(self, game_id: UUID, version: int) -> Game:
        """The game now, from the store when memory holds one older than ``version``.

        Read-your-writes across servers: a move another server acknowledged
        is in the store before its NOTIFY reaches this process, so memory
        may not vouch for it yet, but the store has it.
        """
        game = await self.game(game_id)
        if game.version >= version:
            return game
        return await self.io(self.cache.refresh, game_id)

    async def game_since(
        self, game_id: UUID, after: int, limit: int = 256
    ) -> tuple[Game, list[Any]]:
        """The game now and its events after ``after`` (for live streams)."""
        found = self.cache.vouched_since(game_id, after, limit)
        if found is not None:
            return found
        return await self.io(self.cache.since, game_id, after, limit)

    def load(self, game_id: UUID, version: int | None = None) -> Game:
        """The game now, or as it was at ``version`` (a private copy).

        :raises GameNotFoundError:
        """
        return self.cache.load(game_id, version)

    def _rebuild(self, game_id: UUID, version: int | None) -> Game:
        game: Game = self.repository.get(game_id, version=version)
        return game

    def read_records(self, game_id: UUID) -> list[tuple[int, str, bytes]]:
        """The raw stored rows ``(version, type, record bytes)``, for audits."""
        return self.store.records(game_id)

    def frames(self, game_id: UUID, after: int, limit: int) -> list[tuple[Any, Game]]:
        """Events after ``after`` with the game as it stood right after each one."""
        events = self.store.events(game_id, after, None, limit)
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
        return self.cache.seed(game_id)

    def receipt_at(self, game_id: UUID, version: int) -> Receipt | None:
        """The receipt issued for ``version`` (the last event of a move), if any."""
        return self.store.receipt_at(game_id, version)

    def stored_receipts(self, game_id: UUID) -> list[Receipt]:
        """Every receipt this server issued for the game, oldest first."""
        return self.store.receipts(game_id)

    def game_row(self, game_id: UUID) -> dict[str, Any] | None:
        """The game's ``ledger_games`` row (the listing's copy of its head)."""
        return self.store.game_row(game_id)

    def command_rows(self, game_id: UUID) -> list[dict[str, Any]]:
        """The game's ``ledger_commands`` rows (idempotency keys), by version."""
        return self.store.command_rows(game_id)

    def grant_for_token(self, token: str) -> SeatGrant | None:
        return self.store.grant(token)


def _system_clock() -> datetime:
    return datetime.now(UTC)
