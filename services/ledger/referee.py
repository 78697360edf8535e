"""The referee's use cases: resign, abort, adjudicate and record a timeout.

Why apart from moves: these endings are the ledger's own decisions, not a
seat's command to the rules, so they have no idempotency key from a client.
Each is decided on the game as the store has it (never on memory alone) and
appended at the next version; the event store's unique ``(game, version)``
is what makes a timeout happen exactly once when several timekeepers, or a
timekeeper and a late move, race for the same game: whoever appends second
fails, reloads, and finds the game over (or the clock reset by the move).
An ending writes no ``ledger_commands`` row: no client sent it, so there is
no idempotency key to keep (:class:`~services.storage.recorder.EndingRows`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain.contract.core import GameOverError
from domain.ledger.aggregate import Game
from services.ledger.creation import deadline_of
from services.ledger.moves import MoveResult
from services.storage.store import Append, EndingRows

if TYPE_CHECKING:
    from domain.ledger.receipts import Signer
    from services.ledger.game_cache import GameCache
    from services.ledger.heads import Heads
    from services.storage.group_commit import GroupCommitter

T = TypeVar("T")
RETRIES = 4

Ending = Callable[[Game, bytes, datetime], list[Any]]
"""Appends one ending to the game it is given (a ``Game`` method, bound)."""


class Referee:
    """The ending use cases; :class:`~services.ledger.application.GameLedger` owns one."""

    def __init__(
        self,
        cache: GameCache,
        committer: GroupCommitter,
        heads: Heads,
        executor: Executor,
        signer: Callable[[], Signer],
        clock: Callable[[], datetime],
        on_committed: Callable[[], Callable[[UUID, list[Any]], None] | None],
    ) -> None:
        self._cache = cache
        self._committer = committer
        self._heads = heads
        self._executor = executor
        self._signer = signer
        self._clock = clock
        self._on_committed = on_committed

    async def _io(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, partial(fn, *args))

    async def end(self, game_id: UUID, ending: Ending) -> MoveResult:
        """Append ``ending`` to the game as the store has it now.

        :raises GameNotFoundError, RuleError: (``GameOverError`` when another
            ending or the rules ended the game first).
        """
        for _ in range(RETRIES):
            game = await self._io(self._cache.refresh, game_id)
            seed = self._cache.held_seed(game_id)
            if seed is None:
                seed = await self._io(self._cache.seed, game_id)
            new_events = ending(game, seed, self._clock())
            last = new_events[-1]
            receipt = self._signer().sign(
                str(game.id),
                last.originator_version,
                last.hash,
                last.timestamp.isoformat(),
            )
            rows = EndingRows(
                last_version=last.originator_version,
                receipt=receipt,
                ended_at=game.modified_on if game.is_over else None,
                winners=tuple(game.outcome.winners) if game.outcome else None,
                head_hash=game.head_hash,
                next_deadline=deadline_of(game),
            )
            epoch = self._heads.epoch
            try:
                recordings = await self._committer.commit(
                    Append(game_id, tuple(new_events), rows)
                )
            except IntegrityError:
                continue  # another process appended first: decide again
            except BaseException:
                self._cache.doubt(game_id)  # no answer: stored or not
                raise
            game.collect_events()
            self._cache.committed(game, epoch, new_events)
            hook = self._on_committed()
            if hook is not None:
                hook(game.id, [r.notification for r in recordings])
            return MoveResult(
                game.id,
                new_events[0].originator_version,
                game.version,
                replayed=False,
                log_position=recordings[-1].notification.id,
                events=tuple(new_events),
                game=game,
                receipt=receipt,
            )
        raise GameOverError()
