"""Group commit: concurrent moves on different games saved in one transaction.

Why: the event store takes an EXCLUSIVE table lock per insert transaction (so
readers of the log never skip an event committed later), which serialises
every move's commit.  One committer takes whatever moves are waiting, saves
them together (one lock, one commit, one fsync) and wakes each caller with its
own recordings: on the serving process's event loop :class:`LoopCommitter`,
for any other caller the thread of :class:`GroupCommitter`.  A batch never
holds two moves of the same game; if the combined save hits a conflict, each
move is retried alone so only the conflicting one fails.  Idempotency rows, tracking and the hash chain are
untouched: they ride in the same transaction as before.  Appends are
immutable values (events plus typed side rows), so retrying one alone needs
no state put back.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import psycopg
from eventsourcing.persistence import IntegrityError
from prometheus_client import Histogram

from services.storage.datastore import DatabaseUnavailableError
from services.storage.store import Append, LedgerStore

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
        self._on_loop: LoopCommitter | None = None

    def on_loop(self, committer: LoopCommitter | None) -> None:
        """From now on, appends made on ``committer``'s event loop go through
        it; any other caller (another loop, a thread) still queues here."""
        self._on_loop = committer

    async def commit(self, append: Append) -> list[Any]:
        """One game's append, committed with whatever else is waiting: its
        recordings (or the ``IntegrityError`` of a conflict)."""
        on_loop = self._on_loop
        if (
            on_loop is not None
            and on_loop.serving
            and on_loop.loop is asyncio.get_running_loop()
        ):
            return await on_loop.commit(append)
        return await asyncio.wrap_future(self.enqueue(append))

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


CONNECT_TIMEOUT = 5
"""Seconds to open the loop committer's connection."""
ATTEMPTS = 3
"""Tries of one batch when its connection fails (each on a new connection)."""
RETRY_WAIT = 0.2


class LoopCommitter:
    """Group commit on the serving process's event loop, over a connection of its own.

    Why: with the committer on a thread, each move pays two thread hops (the
    queue's wakeup of the committer, ``call_soon_threadsafe`` back to the
    loop) and the GIL changing hands around the commit's round trip.  At one
    client, committing on the calling thread instead took about 0.45 ms of
    the server's CPU off each move and put 10-20% on moves/s
    (``docs/performance.md``).  Here the batch is rendered on the loop and
    its round trip is awaited (psycopg's async connection), so the loop
    serves other calls meanwhile and no thread is involved.

    The queue discipline is :class:`GroupCommitter`'s: a batch never holds
    two moves of one game, a conflicting batch is retried one move at a
    time, and a move whose caller gave up before it was taken is not stored.
    One connection is enough: the event store's table lock serialises every
    commit anyway.  It is bound to the loop that creates it; the
    :class:`GroupCommitter` it is attached to sends every other caller to
    its thread.
    """

    def __init__(self, appender: LoopAppender, max_batch: int = 64) -> None:
        self.loop = asyncio.get_running_loop()
        self._appender = appender
        self._max = max_batch
        self._pending: deque[tuple[Append, asyncio.Future[list[Any]]]] = deque()
        self._wakeup = asyncio.Event()
        self._task = self.loop.create_task(self._run(), name="ledger-group-commit")

    @property
    def serving(self) -> bool:
        """Whether it still takes moves (until :meth:`close`); once closed,
        the :class:`GroupCommitter` it was attached to uses its thread again."""
        return not self._task.done()

    async def commit(self, append: Append) -> list[Any]:
        if not self.serving:
            raise DatabaseUnavailableError("the loop's committer has stopped")
        future: asyncio.Future[list[Any]] = self.loop.create_future()
        self._pending.append((append, future))
        self._wakeup.set()
        return await future

    async def close(self) -> None:
        """Stop taking batches; a move still waiting gets UNAVAILABLE."""
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        while self._pending:
            _, future = self._pending.popleft()
            if not future.done():
                future.set_exception(
                    DatabaseUnavailableError("the server is stopping: retry elsewhere")
                )
        await self._appender.close()

    async def _run(self) -> None:
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            while self._pending:
                batch: list[tuple[Append, asyncio.Future[list[Any]]]] = []
                deferred: list[tuple[Append, asyncio.Future[list[Any]]]] = []
                ids: set[Any] = set()
                while self._pending and len(batch) < self._max:
                    item = self._pending.popleft()
                    if item[1].done():
                        continue  # the caller gave up before its move was taken
                    if item[0].game_id in ids:
                        deferred.append(item)
                    else:
                        batch.append(item)
                        ids.add(item[0].game_id)
                self._pending.extendleft(reversed(deferred))
                if batch:
                    await self._commit(batch)

    async def _commit(
        self, batch: list[tuple[Append, asyncio.Future[list[Any]]]]
    ) -> None:
        BATCH.observe(len(batch))
        try:
            recordings = await self._appender.append([a for a, _ in batch])
        except IntegrityError as exc:
            if len(batch) == 1:
                _settle(batch[0][1], exc)
                return
            # nothing of the batch was stored (one transaction); appends are
            # immutable values, so each is simply tried again on its own
            for item in batch:
                await self._commit([item])
            return
        except asyncio.CancelledError:
            for _, future in batch:
                _settle(future, DatabaseUnavailableError("the server is stopping"))
            raise
        except Exception as exc:  # noqa: BLE001 - handed to every caller
            for _, future in batch:
                _settle(future, exc)
            return
        for (_, future), recorded in zip(batch, recordings, strict=True):
            # a caller that gave up once its move was taken has it stored anyway
            if not future.done():
                future.set_result(recorded)


class LoopAppender:
    """The loop committer's connection to the store: an async connection of
    its own, opened on first use and again after it broke."""

    def __init__(self, store: LedgerStore) -> None:
        self._store = store
        self._conn: psycopg.AsyncConnection[Any] | None = None

    async def append(self, appends: Sequence[Append]) -> list[list[Any]]:
        """:meth:`LedgerStore.append_on_loop` of ``appends``.

        A commit whose outcome was lost with its connection is tried again on
        a new one; if it had been stored, its moves now conflict and are
        decided again, which finds them recorded (idempotency).  While the
        database watcher finds the database unreachable, it fails at once;
        a commit waiting when it declares the outage has its connection cut
        (``waiting``: a hung database never answers it) and fails with it.
        """
        datastore = self._store.datastore
        waiting = getattr(datastore, "waiting", None)  # a bench's plain datastore: none
        for attempt in range(ATTEMPTS):
            if getattr(datastore, "unreachable", False):
                raise DatabaseUnavailableError("the database is unreachable")
            try:
                conn = await self._connection()
                with nullcontext() if waiting is None else waiting(conn):
                    return await self._store.append_on_loop(conn, appends)
            except (psycopg.OperationalError, psycopg.InterfaceError):
                await self.close()
                if attempt == ATTEMPTS - 1:
                    raise
                await asyncio.sleep(RETRY_WAIT)
        raise AssertionError("unreachable")  # the loop returns or raises

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        conn = self._conn
        if conn is None or conn.closed or conn.broken:
            kwargs = self._store.connect_kwargs()
            kwargs.pop("row_factory", None)  # tuples: the ids are read by position
            conn = await psycopg.AsyncConnection.connect(
                autocommit=True, connect_timeout=CONNECT_TIMEOUT, **kwargs
            )
            self._conn = conn
        return conn


def _settle(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)
