"""Live fan-out of "game X has new events" from PostgreSQL LISTEN/NOTIFY.

Why notifications carry only ``game_id:version``: a woken stream asks for
every event after the last one it sent, from this process's memory when
:class:`~services.ledger.heads.Heads` vouches that memory is complete (the moves this
process recorded itself), otherwise from the store.  So a notification lost
during a reconnect costs latency, never an event, and redaction happens on the
same path as catch-up.  One listening connection per server process serves
every stream; while it is down, nothing held is trusted and waiters fall back
to polling.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext, suppress
from typing import Any
from uuid import UUID

import psycopg

from services.ledger.heads import Heads
from services.observability.metrics import STREAM_SUBSCRIBERS, TAIL_EVENTS
from services.storage.datastore import tcp_timeouts
from services.storage.recorder import NOTIFY_CHANNEL

log = logging.getLogger(__name__)
_running_loop = asyncio._get_running_loop
"""The running loop or None (``get_running_loop`` raises off a loop)."""
CONNECT_TIMEOUT = 5
"""Seconds to open the LISTEN connection (a hung database never answers)."""


class EventHub:
    def __init__(
        self,
        url: str,
        poll_interval: float = 1.0,
        heads: Heads | None = None,
        tail: Any = None,
        datastore: Any = None,
    ) -> None:
        self._datastore = datastore
        """The ledger's :class:`services.storage.datastore.LedgerDatastore`: the
        LISTEN connection is held among its connections in use, so a database
        declared unreachable cuts it (a hung one would keep it quiet, and the
        heads vouching, for good)."""
        self._tail = tail
        """A :class:`services.live.nats_tail.NatsTail` (``LEDGER_NATS_URL``), or None."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._url = url
        self._heads = heads or Heads()
        self._poll = poll_interval
        self._waiters: dict[str, set[asyncio.Event]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
        self.connected = False
        self._unhook: Callable[[], None] = lambda: None
        """Gives the ledger's commit hook back (:meth:`woken_by_commits`)."""
        self._woken: dict[str, int] = {}
        """game id -> the newest version this process committed and woke its
        streams for (only games with streams)."""
        self._wakers: dict[str, Callable[[], None]] = {}
        """Other channels this hub listens on, each with what it calls on a
        notification (:meth:`wake_on`)."""

    def wake_on(self, channel: str, call: Callable[[], None]) -> None:
        """Call ``call`` on each notification of ``channel`` (the views' child
        process is woken this way: one listening connection serves both).
        Set before :meth:`start`."""
        self._wakers[channel] = call

    def woken_by_commits(self, ledger: Any) -> None:
        """Wake this process's streams of a game as soon as this process
        commits a write to it, not when PostgreSQL's notification of the
        commit comes back.

        Why: a seat's session sends the next seat its page the moment a move
        is stored; the notification's round trip through PostgreSQL and the
        LISTEN connection cost every move a turn of the event loop or more.
        The notification of a version woken this way wakes nobody again (it
        still tells :class:`~services.ledger.heads.Heads`); other servers'
        writes are woken by their notifications as before. Chains the
        ledger's commit hook (the JetStream publisher keeps its place) until
        :meth:`stop`, which gives it back: the ledger may outlive this hub.
        Called on the hub's event loop.

        Why a commit on the hub's own loop wakes its streams at once, and
        one of a game without streams here does nothing: handing it over
        with ``call_soon_threadsafe`` writes to the loop's wake-up pipe and
        costs the loop a turn on every move, streams or not.  Skipping a
        game without waiters loses nothing: a stream registers its waiter
        before it reads, and the commit is in memory before this hook runs.
        """
        publish = ledger.on_committed
        loop = asyncio.get_running_loop()

        def committed(game_id: UUID, stored: list[Any]) -> None:
            if publish is not None:
                publish(game_id, stored)
            key = str(game_id)
            if key not in self._waiters:
                return  # no stream of this game in this process
            version = stored[-1].originator_version if stored else 0
            if _running_loop() is loop:
                self._committed_here(key, version)
                return
            with suppress(RuntimeError):  # the loop has closed: no stream is left
                loop.call_soon_threadsafe(self._committed_here, key, version)

        def unhook() -> None:
            if ledger.on_committed is committed:
                ledger.on_committed = publish

        ledger.on_committed = committed
        self._unhook = unhook

    def _committed_here(self, game_id: str, version: int) -> None:
        if game_id in self._waiters:
            self._woken[game_id] = max(version, self._woken.get(game_id, 0))
            self._wake(game_id)

    async def start(self) -> None:
        if self._tail is not None:
            # connects in the background, for as long as it takes: streams
            # read PostgreSQL until it is live, and each failure is logged
            self._tail.on_event = self._wake
            await self._tail.start()
        self._task = asyncio.create_task(self._listen(), name="ledger-event-hub")

    async def stop(self) -> None:
        self._unhook()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            # no listener any more: the heads (the ledger's, which outlives
            # this hub) must not go on vouching for copies nothing will correct
            self.connected = False
            self._heads.deaf()
        if self._tail is not None:
            await self._tail.stop()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def live_events(
        self, game_id: UUID, after: int, after_hash: str | None
    ) -> list[Any] | None:
        """Events after ``after`` (whose hash is ``after_hash``) from the
        JetStream tail, gap-free and chained to it, or None."""
        if self._tail is None:
            return None
        events = self._tail.events_after(game_id, after, after_hash)
        if events:
            TAIL_EVENTS.inc(len(events))
        return events

    def subscribe(self, game_id: UUID) -> asyncio.Event:
        wakeup = asyncio.Event()
        if self._tail is not None and not self._waiters.get(str(game_id)):
            self._spawn(self._tail.watch(str(game_id)))
        self._waiters[str(game_id)].add(wakeup)
        STREAM_SUBSCRIBERS.inc()
        return wakeup

    def unsubscribe(self, game_id: UUID, wakeup: asyncio.Event) -> None:
        waiters = self._waiters.get(str(game_id))
        if waiters is not None and wakeup in waiters:
            waiters.discard(wakeup)
            STREAM_SUBSCRIBERS.dec()
            if not waiters:
                self._waiters.pop(str(game_id), None)
                self._woken.pop(str(game_id), None)
                if self._tail is not None:
                    self._spawn(self._tail.unwatch(str(game_id)))

    async def wait(self, wakeup: asyncio.Event, at_most: float | None = None) -> None:
        """Until woken, or a safety-net timeout (long when listening, short when
        not; ``at_most`` caps it, e.g. while a spectator delay holds events back)."""
        timeout = 15.0 if self.connected else self._poll
        if at_most is not None:
            timeout = min(timeout, at_most)
        # the timeout sets the event rather than wrapping the wait in
        # ``asyncio.wait_for``, whose task of its own costs every wakeup a
        # turn of the event loop more (a turn is milliseconds under load);
        # a waiter looks again either way
        timer = asyncio.get_running_loop().call_later(timeout, wakeup.set)
        try:
            await wakeup.wait()
        finally:
            timer.cancel()

    def _held(self, conn: Any) -> AbstractContextManager[None]:
        if self._datastore is None:
            return nullcontext()
        held: AbstractContextManager[None] = self._datastore.in_flight.hold(conn)
        return held

    def _fallback(self, game_id: str, version: int) -> None:
        if self._tail is None or not self._tail.has(UUID(game_id), version):
            if self._tail is not None:
                self._tail.missed(UUID(game_id))
            self._wake(game_id)
        else:
            self._tail.in_time(UUID(game_id))

    def _wake(self, game_id: str) -> None:
        for wakeup in self._waiters.get(game_id, ()):
            wakeup.set()

    async def _listen(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._url,
                    autocommit=True,
                    connect_timeout=CONNECT_TIMEOUT,
                    **tcp_timeouts(self._url),
                ) as conn:
                    with self._held(conn):
                        await self._serve(conn)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - reconnect on any failure
                log.warning("event hub lost its LISTEN connection: %s", exc)
            self.connected = False
            self._heads.deaf()
            for game_id in list(self._waiters):
                self._wake(game_id)
            await asyncio.sleep(self._poll)

    async def _serve(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """LISTEN on ``conn`` and hand on its notifications until it fails."""
        await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
        for channel in self._wakers:
            await conn.execute(f"LISTEN {channel}")
        self._heads.listening()
        self.connected = True
        for game_id in list(self._waiters):
            self._wake(game_id)  # catch anything missed while reconnecting
        async for note in conn.notifies():
            if note.channel != NOTIFY_CHANNEL:
                self._wakers[note.channel]()
                continue
            game_id = self._heads.saw_payload(note.payload)
            version = _version_of(note.payload)
            if version and version <= self._woken.get(game_id, 0):
                continue  # this process committed it and woke its streams
            if self._tail is None or not self._tail.live:
                self._wake(game_id)
            elif game_id in self._waiters:
                # JetStream should bring the events; if it has not
                # shortly (a lost publish), read PostgreSQL
                asyncio.get_running_loop().call_later(
                    0.25, self._fallback, game_id, version
                )


def _version_of(payload: str) -> int:
    """The version of a ``game_id:version`` notification; 0 when unreadable
    (the database's superuser is not trusted to send well-formed ones)."""
    try:
        return int(payload.partition(":")[2] or 0)
    except ValueError:
        return 0
