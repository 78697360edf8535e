"""Group commit: concurrent moves on different games saved in one transaction.

Why: the event store takes an EXCLUSIVE table lock per insert transaction (so
readers of the log never skip an event committed later), which serialises
every move's commit.  One committer thread takes whatever moves are waiting,
saves them together (one lock, one commit, one fsync) and wakes each caller
with its own recordings.  A batch never holds two moves of the same game; if
the combined save hits a conflict, each move is retried alone so only the
conflicting one fails.  Idempotency rows, tracking and the hash chain are
untouched: they ride in the same transaction as before.  Appends are
immutable values (events plus typed side rows), so retrying one alone needs
no state put back.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from eventsourcing.persistence import IntegrityError
from prometheus_client import Histogram

from services.storage.store import Append

log = logging.getLogger(__name__)

BATCH = Histogram(
    "ledger_group_commit_moves",
    "Moves saved per group-commit transaction",
    buckets=(1, 2, 4, 8, 16, 32, 64),
)


@dataclass
class _Item:
    append: Append
    future: Future[list[Any]] = field(default_factory=Future)


class GroupCommitter:
    def __init__(
        self,
        append: Callable[[Sequence[Append]], list[list[Any]]],
        max_batch: int = 64,
    ) -> None:
        self._append = append
        self._max = max_batch
        self._queue: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.batches = 0
        self.moves = 0

    def enqueue(self, append: Append) -> Future[list[Any]]:
        """Queue one game's append; a future of its recordings (or of the
        ``IntegrityError`` when this game's append conflicts)."""
        if self._thread is None:
            with self._start_lock:
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._run, name="group-commit", daemon=True
                    )
                    self._thread.start()
        item = _Item(append)
        self._queue.put(item)
        return item.future

    def _run(self) -> None:
        while True:
            batch: list[_Item] = []
            ids: set[Any] = set()
            deferred: list[_Item] = []
            item = self._queue.get()
            while True:
                if item.append.game_id in ids:
                    deferred.append(item)
                elif item.future.set_running_or_notify_cancel():
                    # from here on the caller cannot cancel: it gets the outcome
                    batch.append(item)
                    ids.add(item.append.game_id)
                # else: the caller gave up before its move was taken; not stored
                if len(batch) >= self._max:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self._commit(batch)
            for item in deferred:
                self._queue.put(item)

    def _commit(self, batch: list[_Item]) -> None:
        self.batches += 1
        self.moves += len(batch)
        BATCH.observe(len(batch))
        try:
            recordings = self._append([i.append for i in batch])
        except IntegrityError as exc:
            if len(batch) == 1:
                batch[0].future.set_exception(exc)
                return
            # nothing of the batch was stored (one transaction); appends are
            # immutable values, so each is simply tried again on its own
            for item in batch:
                self._commit([item])
            return
        except BaseException as exc:  # noqa: BLE001 - handed to every caller
            for item in batch:
                item.future.set_exception(exc)
            return
        for item, recorded in zip(batch, recordings, strict=True):
            item.future.set_result(recorded)
