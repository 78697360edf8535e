"""``LogTail``: the one path that extends a game's log, whatever the write.

Why one: a move and each of the ledger's own endings (resign, abort,
adjudicate, a timeout) end the same way once decided: the game's secret
seed, a receipt over the new head, the side rows written in the events'
transaction through the group committer, the game published to the cache,
the committed hook, a snapshot at the interval, and the answer
(:class:`Recorded`).  Each write states only what differs, as an
:class:`Extension`: how it decides its events, the client's command key if
a client sent one, the version it expects, and whether it may be decided on
memory.

A write is decided on the game the cache holds (no round trip while
:class:`~services.ledger.heads.Heads` vouches for it), or on the game the
caller already loaded, or, for the ledger's own decisions, on the game as the
store has it.  Every unusual case is sorted out here, by asking the store once:

- a stale ``expected_version``: a replay of a recorded command, else
  :class:`ConcurrencyConflictError`;
- a refusal by the rules: a replay of a recorded command (the game has moved
  on since), else the rule error;
- either of these on a game memory vouched for is first checked against the
  store's state (:meth:`GameCache.refresh`): memory can be behind by a
  NOTIFY still in flight from another process;
- a conflict on commit (another write took the version, or the command id
  was used): a replay, :class:`CommandIdReusedError`, a conflict (with
  ``expected_version``) or, without it, the write decided again on the fresh
  game (a simultaneous choice by another seat should not fail, and a timeout
  racing a move finds the clock reset or the game over);
- a commit that got no answer (a connection lost or cut in an outage): it may
  be stored or not, so the cache stops vouching for the game
  (:meth:`GameCache.doubt`) and the error goes to the caller, whose retry
  with the same command id finds the write recorded or records it once.

Blocking work (the store) runs in the ledger's one pool; deciding runs on the
caller's event loop, as it is CPU only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain.contract.core import Command, InvalidCommandError, RuleError, Seat
from domain.ledger.aggregate import Game
from domain.ledger.receipts import Receipt
from domain.ledger.records import canonical_json, command_record
from services.ledger.creation import deadline_of
from services.ledger.head_signer import NewHead
from services.storage.recorder import CommandRow, ExtensionRows
from services.storage.store import Append

if TYPE_CHECKING:
    from domain.ledger.signatures import SignedMove
    from services.ledger.game_cache import GameCache
    from services.ledger.head_signer import HeadSigner
    from services.ledger.heads import Heads
    from services.ledger.io_pool import IoPool
    from services.storage.group_commit import GroupCommitter
    from services.storage.store import LedgerStore

MAX_COMMAND_ID_LEN = 128
RETRIES = 4


class ConcurrencyConflictError(RuntimeError):
    """Raised when another write was recorded first and this one was not retried."""


class CommandIdReusedError(ValueError):
    """Raised when a command id is reused for a different move in the same game."""


@dataclass(frozen=True)
class Recorded:
    """What a write added to a game's log (or, for a retry, had added)."""

    game_id: UUID
    first_version: int
    last_version: int
    replayed: bool
    log_position: int = 0
    events: tuple[Any, ...] = ()
    """The write's ledger events (read back from the store for a replay)."""
    game: Any = None
    """The game right after this write (for a replay: the game now)."""
    receipt: Receipt | None = None
    """The server's signature over the head this write left (``last_version``)."""


@dataclass(frozen=True)
class CommandKey:
    """A client's command id and what it stands for (:func:`request_hash`):
    kept with the write, so a retry with the id is answered from the log and
    a reuse for another command is refused."""

    command_id: str
    actor: Seat
    request_hash: str


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


Decide = Callable[[Game, bytes, datetime], list[Any]]
"""Appends the write's events to the game it is given, with the game's seed
and the ledger's time (a ``Game`` method, bound by the use case)."""


@dataclass(frozen=True)
class Extension:
    """What one write to a game's log states; :class:`LogTail` does the rest."""

    decide: Decide
    key: CommandKey | None = None
    """The client's command key; ``None`` for the ledger's own decisions,
    which the event store's ``(game, version)`` makes happen once."""
    expected_version: int | None = None
    """Refuse (unless it is a retry) when the game is not at this version."""
    from_store: bool = False
    """Decide on the game as the store has it, never on memory alone (the
    endings: their races with timekeepers and moves are settled there)."""


def move(
    command: Command,
    actor: Seat,
    command_id: str,
    expected_version: int | None = None,
    signed: SignedMove | None = None,
) -> Extension:
    """A seat's move as a write: decided by the rules, kept under its command id.

    :raises InvalidCommandError: for a missing or oversized command id.
    """
    return Extension(
        lambda game, seed, now: game.act(
            command, actor, seed, command_id, signed, now=now
        ),
        CommandKey(command_id, actor, request_hash(command_id, command, actor)),
        expected_version,
    )


class LogTail:
    """Records every write that extends a game's log; :class:`GameLedger` owns one."""

    def __init__(
        self,
        cache: GameCache,
        store: LedgerStore,
        committer: GroupCommitter,
        heads: Heads,
        io: IoPool,
        signer: HeadSigner,
        snapshot_interval: int,
        clock: Callable[[], datetime],
    ) -> None:
        self._cache = cache
        self._store = store
        self._committer = committer
        self._heads = heads
        self._io = io
        self._signer = signer
        self._interval = snapshot_interval
        self._clock = clock
        self.on_committed: Callable[[UUID, list[Any]], None] | None = None
        """Called with each committed write's records as stored (the
        JetStream publisher, ``LEDGER_NATS_URL``)."""

    async def extend(
        self, game_id: UUID, extension: Extension, game: Game | None = None
    ) -> Recorded:
        """Decide and record one write, exactly once per command key.

        ``game``: the game the caller already loaded (a private copy, for its
        own checks), decided on first as memory would be, so it is not read
        twice.

        :raises GameNotFoundError, ConcurrencyConflictError, CommandIdReusedError:
        :raises RuleError: when the rules refuse the write.
        """
        key, expected = extension.key, extension.expected_version
        fresh = extension.from_store
        loaded = None if fresh else game
        for _ in range(RETRIES):
            if fresh:
                game = None
            elif loaded is not None:  # the caller's copy: the first attempt only
                game, loaded = loaded, None
            else:
                game = self._cache.vouched(game_id)
            if game is None:
                load = self._cache.refresh if fresh else self._cache.load
                game, fresh = await self._io(load, game_id), True
            seed = self._cache.held_seed(game_id)
            if seed is None:
                seed = await self._io(self._cache.seed, game_id)
            if expected is not None and game.version != expected:
                if not fresh:  # memory vouched, but a NOTIFY may be in flight
                    fresh = True
                    continue
                conflict = f"game is at version {game.version}, not {expected}"
                return await self._replay_or(game_id, key, conflict)
            try:
                new_events = extension.decide(game, seed, self._clock())
            except RuleError:
                previous = await self._replayed(game_id, key)
                if previous is not None:
                    return previous  # a retry of a write already recorded
                if not fresh:  # memory vouched, but a NOTIFY may be in flight
                    fresh = True
                    continue
                raise
            refused = self._signer.refusal(NewHead.of(game_id, new_events))
            if refused is not None:
                # decided on a stale game (another process stored and signed
                # this version first), or the store lost signed history
                stored = await self._io(self._cache.refresh, game_id)
                if self._signer.store_is_behind(
                    str(game_id), stored.version, stored.head_hash
                ):
                    raise self._signer.refuse(
                        str(game_id), new_events[0].originator_version, refused
                    )
                previous = await self._replayed(game_id, key)
                if previous is not None:
                    return previous
                fresh = True
                continue
            append = self.append_of(game, new_events, key)
            epoch = self._heads.epoch  # before the commit: current since then
            try:
                recordings = await self._committer.commit(append)
            except IntegrityError:
                fresh = True
                if expected is None:
                    previous = await self._replayed(game_id, key)
                    if previous is not None:
                        return previous
                    continue  # decide again on the game as it is now
                return await self._replay_or(
                    game_id, key, "another move was recorded first"
                )
            except BaseException:
                # no answer: stored or not, the cache must not vouch for the
                # version before it; the caller may retry the command id
                self._cache.doubt(game_id)
                raise
            return await self._committed(game, epoch, new_events, append, recordings)
        raise ConcurrencyConflictError(
            "too much contention on this game; retry the command"
        )

    def append_of(
        self, game: Game, new_events: list[Any], key: CommandKey | None
    ) -> Append:
        """``new_events``, just decided on ``game``, with the rows they store:
        the receipt signed over the new head, the listing's head and the
        command's key."""
        first, last = new_events[0], new_events[-1]
        receipt = self._signer.sign(
            NewHead.of(game.id, new_events),
            checked=True,  # by :meth:`extend`, which tells a stale game from a rollback
        )
        rows = ExtensionRows(
            last_version=last.originator_version,
            receipt=receipt,
            ended_at=game.modified_on if game.is_over else None,
            winners=tuple(game.outcome.winners) if game.outcome else None,
            head_hash=game.head_hash,
            next_deadline=deadline_of(game),
            command=None
            if key is None
            else CommandRow(
                key.command_id, key.actor, key.request_hash, first.originator_version
            ),
        )
        return Append(game.id, tuple(new_events), rows)

    async def _committed(
        self,
        game: Game,
        epoch: int,
        new_events: list[Any],
        append: Append,
        recordings: list[Any],
    ) -> Recorded:
        game.collect_events()  # stored: the shell is published as it is
        self._cache.committed(game, epoch, new_events)
        if self._signer.record is not None:  # the signer's record, outside the database
            head = (str(game.id), game.version, new_events[-1].hash)
            if game.is_over:  # a checkpoint is signed: it waits for the file
                await self._io(self._signer.stored, *head, True)
            else:  # held in memory and queued for the writer thread: no hop
                self._signer.stored(*head, False)
        if self.on_committed is not None:
            # the records as stored (encoded once, by the commit), not the events
            self.on_committed(game.id, [r.notification for r in recordings])
        first = new_events[0].originator_version
        if (
            self._interval
            and game.version // self._interval > (first - 1) // self._interval
        ):
            await self._io(self._store.snapshot, Game.Snapshot.take(game))
        return Recorded(
            game.id,
            first,
            game.version,
            replayed=False,
            log_position=recordings[-1].notification.id,
            events=append.events,
            game=game,
            receipt=append.rows.receipt,
        )

    async def _replay_or(
        self, game_id: UUID, key: CommandKey | None, conflict: str
    ) -> Recorded:
        previous = await self._replayed(game_id, key)
        if previous is None:
            raise ConcurrencyConflictError(conflict)
        return previous

    async def _replayed(self, game_id: UUID, key: CommandKey | None) -> Recorded | None:
        """What the log already holds under ``key``'s command id, if anything
        (never anything for a write without a key).

        :raises CommandIdReusedError: recorded for a different command.
        """
        if key is None:
            return None
        found = await self._io(self._store.recorded_command, game_id, key.command_id)
        if found is None:
            return None
        if found.request_hash != key.request_hash:
            raise CommandIdReusedError(
                f"command_id {key.command_id!r} was already used for a different move"
            )
        events = await self._io(
            self._store.events, game_id, found.first_version - 1, found.last_version
        )
        head = self._cache.vouched(game_id)
        if head is None:
            head = await self._io(self._cache.load, game_id)
        return Recorded(
            game_id,
            found.first_version,
            found.last_version,
            replayed=True,
            log_position=found.log_position,
            events=tuple(events),
            game=head,
            receipt=found.receipt,
        )
