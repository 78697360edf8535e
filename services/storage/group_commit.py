"""Group commit: concurrent writes on different games saved in one transaction.

Why: the event store takes an EXCLUSIVE table lock per insert transaction (so
readers of the log never skip an event committed later), which serialises
every write's commit.  One committer takes whatever appends are waiting,
saves them together (one lock, one commit, one fsync) and wakes each caller
with its own recordings.  Idempotency rows, tracking and the hash chain are
untouched: they ride in the same transaction as before.

Two committers, one batching rule.  The serving process's event loop commits
on that loop over an async connection of its own (:class:`LoopCommitter`: no
thread hop per move); any other caller (the CLI, tournaments, tests, another
loop) queues for the thread of :class:`GroupCommitter`, which commits through
the store's pool.  Which appends go together and what a conflict does is
written once (:func:`_next_batch`, :func:`_failed`): a batch never holds two
appends of one game, an append whose caller gave up before it was taken is
not stored, and if the combined save conflicts, each append is retried alone
(appends are immutable values: events plus typed side rows) so only the
conflicting one fails.
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
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

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


F = TypeVar("F", "Future[list[Any]]", "asyncio.Future[list[Any]]")


@dataclass
class _Waiting(Generic[F]):
    """One game's append waiting for a batch, and its caller's future."""

    append: Append
    future: F


def _next_batch(
    waiting: deque[_Waiting[F]], max_batch: int, taken: Callable[[F], bool]
) -> list[_Waiting[F]]:
    """The batch to commit next, from the front of ``waiting``.

    The batching rule both committers follow: up to ``max_batch`` appends, at
    most one per game (a later append of a game already in the batch stays
    at the front, in its order, for the next batch), and none whose caller
    gave up before it was taken (``taken(future)`` is false: dropped, never
    stored).
    """
    batch: list[_Waiting[F]] = []
    deferred: list[_Waiting[F]] = []
    ids: set[Any] = set()
    while waiting and len(batch) < max_batch:
        item = waiting.popleft()
        if item.append.game_id in ids:
            deferred.append(item)
        elif taken(item.future):
            batch.append(item)
            ids.add(item.append.game_id)
    waiting.extendleft(reversed(deferred))
    return batch


def _failed(batch: list[_Waiting[F]], exc: BaseException) -> list[list[_Waiting[F]]]:
    """What a failed commit of ``batch`` means for its callers: the batches
    to try next.

    Nothing of the batch was stored (one transaction).  After a conflict, a
    batch of several appends is tried again one append at a time (appends
    are immutable values, so nothing needs putting back) and only the
    conflicting one fails; any other failure goes to every caller.
    """
    if isinstance(exc, IntegrityError) and len(batch) > 1:
        return [[item] for item in batch]
    for item in batch:
        _settle(item.future, exc)
    return []


def _committed(batch: list[_Waiting[F]], recordings: list[list[Any]]) -> None:
    for item, recorded in zip(batch, recordings, strict=True):
        # a caller that gave up once its append was taken has it stored anyway
        if not item.future.done():
            item.future.set_result(recorded)


def _settle(future: Future[Any] | asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)


class GroupCommitter:
    def __init__(
        self,
        append: Callable[[Sequence[Append]], list[list[Any]]],
        max_batch: int = 64,
    ) -> None:
        self._append = append
        self._max = max_batch
        self._queue: queue.SimpleQueue[_Waiting[Future[list[Any]]]] = (
            queue.SimpleQueue()
        )
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
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
        item: _Waiting[Future[list[Any]]] = _Waiting(append, Future())
        self._queue.put(item)
        return item.future

    def _run(self) -> None:
        waiting: deque[_Waiting[Future[list[Any]]]] = deque()
        while True:
            if not waiting:
                waiting.append(self._queue.get())
            while True:
                try:
                    waiting.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            # from the moment it is taken the caller cannot cancel: it gets
            # the outcome
            batch = _next_batch(waiting, self._max, _running)
            if batch:
                self._commit(batch)

    def _commit(self, batch: list[_Waiting[Future[list[Any]]]]) -> None:
        BATCH.observe(len(batch))
        try:
            recordings = self._append([i.append for i in batch])
        except BaseException as exc:  # noqa: BLE001 - handed to every caller
            for alone in _failed(batch, exc):
                self._commit(alone)
            return
        _committed(batch, recordings)


def _running(future: Future[Any]) -> bool:
    return future.set_running_or_notify_cancel()


def _waiting_on_loop(future: asyncio.Future[Any]) -> bool:
    return not future.done()


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

    Its batches follow the rule the thread's do (:func:`_next_batch`,
    :func:`_failed`).  One connection is enough: the event store's table lock serialises every
    commit anyway.  It is bound to the loop that creates it; the
    :class:`GroupCommitter` it is attached to sends every other caller to
    its thread.
    """

    def __init__(self, appender: LoopAppender, max_batch: int = 64) -> None:
        self.loop = asyncio.get_running_loop()
        self._appender = appender
        self._max = max_batch
        self._pending: deque[_Waiting[asyncio.Future[list[Any]]]] = deque()
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
        self._pending.append(_Waiting(append, future))
        self._wakeup.set()
        return await future

    async def close(self) -> None:
        """Stop taking batches; a move still waiting gets UNAVAILABLE."""
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        while self._pending:
            _settle(
                self._pending.popleft().future,
                DatabaseUnavailableError("the server is stopping: retry elsewhere"),
            )
        await self._appender.close()

    async def _run(self) -> None:
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            while self._pending:
                batch = _next_batch(self._pending, self._max, _waiting_on_loop)
                if batch:
                    await self._commit(batch)

    async def _commit(self, batch: list[_Waiting[asyncio.Future[list[Any]]]]) -> None:
        BATCH.observe(len(batch))
        try:
            recordings = await self._appender.append([i.append for i in batch])
        except asyncio.CancelledError:
            _failed(batch, DatabaseUnavailableError("the server is stopping"))
            raise
        except Exception as exc:  # noqa: BLE001 - handed to every caller
            for alone in _failed(batch, exc):
                await self._commit(alone)
            return
        _committed(batch, recordings)


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
