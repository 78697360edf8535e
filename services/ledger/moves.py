"""The move use case: ``submit_move``, the one path every move takes.

Why one path: a move is decided on the game the cache holds (no round trip
while :class:`~services.ledger.heads.Heads` vouches for it), queued for the group
committer, and acknowledged only after its transaction commits.  Every
unusual case is sorted out here, in one place, by asking the store once:

- a stale ``expected_version``: a replay of a recorded command, else
  :class:`ConcurrencyConflictError`;
- a refused move: a replay of a recorded command (the game has moved on
  since), else the rule error;
- either of these on a game memory vouched for is first checked against the
  store's state (:meth:`GameCache.refresh`): memory can be behind by a
  NOTIFY still in flight from another process;
- a conflict on commit (another move took the version, or the command id was
  used): a replay, :class:`CommandIdReusedError`, a conflict (with
  ``expected_version``) or, without it, the move decided again on the fresh
  game (a simultaneous choice by another seat should not fail);
- a commit that got no answer (a connection lost or cut in an outage): it may
  be stored or not, so the cache stops vouching for the game
  (:meth:`GameCache.doubt`) and the error goes to the caller, whose retry
  with the same command id finds the move recorded or records it once.

Blocking work (the store) runs in the ledger's one executor; deciding runs
on the caller's event loop, as it is CPU only.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain.contract.core import Command, InvalidCommandError, RuleError, Seat
from domain.ledger.aggregate import Game
from domain.ledger.receipts import Receipt
from domain.ledger.records import canonical_json, command_record
from services.ledger.creation import deadline_of
from services.storage.store import Append, MoveRows

if TYPE_CHECKING:
    from domain.ledger.receipts import Signer
    from domain.ledger.signatures import SignedMove
    from services.ledger.game_cache import GameCache
    from services.ledger.heads import Heads
    from services.storage.group_commit import GroupCommitter
    from services.storage.store import LedgerStore

MAX_COMMAND_ID_LEN = 128
RETRIES = 4
T = TypeVar("T")


class ConcurrencyConflictError(RuntimeError):
    """Raised when another move was recorded first and this one was not retried."""


class CommandIdReusedError(ValueError):
    """Raised when a command id is reused for a different move in the same game."""


@dataclass(frozen=True)
class MoveResult:
    game_id: UUID
    first_version: int
    last_version: int
    replayed: bool
    log_position: int = 0
    events: tuple[Any, ...] = ()
    """The move's ledger events (read back from the store for a replay)."""
    game: Any = None
    """The game right after this move (for a replay: the game now)."""
    receipt: Receipt | None = None
    """The server's signature over the head this move left (``last_version``)."""


def request_hash(command_id: str, command: Command, actor: Seat) -> str:
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


class Moves:
    """``submit_move`` and what it needs; :class:`GameLedger` owns one."""

    def __init__(
        self,
        cache: GameCache,
        store: LedgerStore,
        committer: GroupCommitter,
        heads: Heads,
        executor: Executor,
        signer: Callable[[], Signer],
        snapshot_interval: int,
        on_committed: Callable[[UUID, list[Any]], None] | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self._cache = cache
        self._store = store
        self._committer = committer
        self._heads = heads
        self._executor = executor
        self._signer = signer
        self._interval = snapshot_interval
        self.on_committed = on_committed
        self._clock = clock or _system_clock

    async def _io(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, partial(fn, *args))

    async def submit_move(
        self,
        game_id: UUID,
        command: Command,
        actor: Seat,
        command_id: str,
        expected_version: int | None = None,
        signed: SignedMove | None = None,
    ) -> MoveResult:
        """Decide and record one move, exactly once per ``command_id``.

        :raises GameNotFoundError, ConcurrencyConflictError, CommandIdReusedError:
        :raises RuleError: when the rules refuse the move.
        """
        digest = request_hash(command_id, command, actor)
        fresh = False
        for _ in range(RETRIES):
            game = None if fresh else self._cache.current(game_id)
            if game is None:
                load = self._cache.refresh if fresh else self._cache.load
                game, fresh = await self._io(load, game_id), True
            seed = self._cache.held_seed(game_id)
            if seed is None:
                seed = await self._io(self._cache.seed, game_id)
            if expected_version is not None and game.version != expected_version:
                if not fresh:  # memory vouched, but a NOTIFY may be in flight
                    fresh = True
                    continue
                conflict = f"game is at version {game.version}, not {expected_version}"
                return await self._replay_or(game_id, command_id, digest, conflict)
            try:
                new_events = game.act(
                    command, actor, seed, command_id, signed, now=self._clock()
                )
            except RuleError:
                previous = await self._replayed(game_id, command_id, digest)
                if previous is not None:
                    return previous  # a retry of a move already recorded
                if not fresh:  # memory vouched, but a NOTIFY may be in flight
                    fresh = True
                    continue
                raise
            receipt = self._receipt(game, new_events[-1])
            epoch = self._heads.epoch  # before the commit: current since then
            append = Append(
                game_id,
                tuple(new_events),
                _rows(game, new_events, actor, command_id, digest, receipt),
            )
            try:
                recordings = await self._committer.commit(append)
            except IntegrityError:
                fresh = True
                if expected_version is None:
                    previous = await self._replayed(game_id, command_id, digest)
                    if previous is not None:
                        return previous
                    continue  # decide again on the game as it is now
                return await self._replay_or(
                    game_id, command_id, digest, "another move was recorded first"
                )
            except BaseException:
                # no answer: stored or not, the cache must not vouch for the
                # version before it; the caller may retry the command id
                self._cache.doubt(game_id)
                raise
            return await self._committed(game, epoch, new_events, recordings, receipt)
        raise ConcurrencyConflictError(
            "too much contention on this game; retry the command"
        )

    def _receipt(self, game: Game, event: Any) -> Receipt:
        return self._signer().sign(
            str(game.id),
            event.originator_version,
            event.hash,
            event.timestamp.isoformat(),
        )

    async def _committed(
        self,
        game: Game,
        epoch: int,
        new_events: list[Any],
        recordings: list[Any],
        receipt: Receipt,
    ) -> MoveResult:
        game.collect_events()  # stored: the shell is published as it is
        self._cache.committed(game, epoch, new_events)
        if self.on_committed is not None:  # LEDGER_NATS_URL: services/live/nats_tail.py
            # the records as stored (encoded once, by the commit), not the events
            self.on_committed(game.id, [r.notification for r in recordings])
        first = new_events[0].originator_version
        if (
            self._interval
            and game.version // self._interval > (first - 1) // self._interval
        ):
            await self._io(self._store.snapshot, Game.Snapshot.take(game))
        return MoveResult(
            game.id,
            first,
            game.version,
            replayed=False,
            log_position=recordings[-1].notification.id,
            events=tuple(new_events),
            game=game,
            receipt=receipt,
        )

    async def _replay_or(
        self, game_id: UUID, command_id: str, digest: str, conflict: str
    ) -> MoveResult:
        previous = await self._replayed(game_id, command_id, digest)
        if previous is None:
            raise ConcurrencyConflictError(conflict)
        return previous

    async def _replayed(
        self, game_id: UUID, command_id: str, digest: str
    ) -> MoveResult | None:
        """The result already recorded under ``command_id``, if any.

        :raises CommandIdReusedError: recorded for a different move.
        """
        found = await self._io(self._store.recorded_command, game_id, command_id)
        if found is None:
            return None
        if found.request_hash != digest:
            raise CommandIdReusedError(
                f"command_id {command_id!r} was already used for a different move"
            )
        events = await self._io(
            self._store.events, game_id, found.first_version - 1, found.last_version
        )
        head = self._cache.current(game_id)
        if head is None:
            head = await self._io(self._cache.load, game_id)
        return MoveResult(
            game_id,
            found.first_version,
            found.last_version,
            replayed=True,
            log_position=found.log_position,
            events=tuple(events),
            game=head,
            receipt=found.receipt,
        )


def _rows(
    game: Game,
    new_events: list[Any],
    actor: Seat,
    command_id: str,
    digest: str,
    receipt: Receipt,
) -> MoveRows:
    return MoveRows(
        command_id=command_id,
        actor=actor,
        request_hash=digest,
        first_version=new_events[0].originator_version,
        last_version=new_events[-1].originator_version,
        receipt=receipt,
        ended_at=game.modified_on if game.is_over else None,
        winners=tuple(game.outcome.winners) if game.outcome else None,
        head_hash=game.head_hash,
        next_deadline=deadline_of(game),
    )


def _system_clock() -> datetime:
    return datetime.now(UTC)
