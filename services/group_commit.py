"""Group commit: concurrent moves on different games saved in one transaction.

Why: the event store takes an EXCLUSIVE table lock per insert transaction (so
readers of the log never skip an event committed later), which serialises
every move's commit.  One committer thread takes whatever moves are waiting,
saves them together (one lock, one commit, one fsync) and wakes each caller
with its own recordings.  A batch never holds two moves of the same game; if
the combined save hits a conflict, each move is retried alone so only the
conflicting one fails.  Idempotency rows, tracking and the hash chain are
untouched: they ride in the same transaction as before.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from eventsourcing.persistence import IntegrityError
from prometheus_client import Histogram

log = logging.getLogger(__name__)

BATCH = Histogram(
    "ledger_group_commit_moves",
    "Moves saved per group-commit transaction",
    buckets=(1, 2, 4, 8, 16, 32, 64),
)


@dataclass
class _Item:
    game: Any
    side_effects: list[tuple[str, Any]]
    future: Future = field(default_factory=Future)


class GroupCommitter:
    def __init__(self, save: Callable[..., list[Any]], max_batch: int = 64) -> None:
        self._save = save
        self._max = max_batch
        self._queue: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.batches = 0
        self.moves = 0

    def commit(self, game: Any, side_effects: list[tuple[str, Any]]) -> list[Any]:
        """Save ``game`` with ``side_effects``; returns its recordings.

        :raises IntegrityError: when this game's save conflicts.
        """
        return self.enqueue(game, side_effects).result()

    def enqueue(self, game: Any, side_effects: list[tuple[str, Any]]) -> Future:
        """:meth:`commit` without waiting: a future of the recordings."""
        if self._thread is None:
            with self._start_lock:
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._run, name="group-commit", daemon=True
                    )
                    self._thread.start()
        item = _Item(game, side_effects)
        self._queue.put(item)
        return item.future

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            batch, ids, deferred = [first], {first.game.id}, []
            while len(batch) < self._max:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item.game.id in ids:
                    deferred.append(item)
                else:
                    batch.append(item)
                    ids.add(item.game.id)
            self._commit(batch)
            for item in deferred:
                self._queue.put(item)

    def _commit(self, batch: list[_Item]) -> None:
        self.batches += 1
        self.moves += len(batch)
        BATCH.observe(len(batch))
        if len(batch) == 1:
            item = batch[0]
            try:
                item.future.set_result(
                    self._save(item.game, side_effects=item.side_effects)
                )
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                item.future.set_exception(exc)
            return
        # Saving collects (and so clears) each aggregate's pending events; a
        # failed batch must put them back, or the retries would save nothing.
        pending = [list(i.game._pending_events) for i in batch]
        try:
            recordings = self._save(
                *[i.game for i in batch],
                side_effects=[s for i in batch for s in i.side_effects],
            )
        except IntegrityError:
            for item, events in zip(batch, pending):
                item.game._pending_events = events
                self._commit([item])
            return
        except BaseException as exc:  # noqa: BLE001
            for item in batch:
                item.future.set_exception(exc)
            return
        by_game: dict[Any, list[Any]] = {}
        for recording in recordings:
            by_game.setdefault(recording.domain_event.originator_id, []).append(
                recording
            )
        for item in batch:
            item.future.set_result(by_game.get(item.game.id, []))
