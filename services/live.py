"""Live fan-out of "game X has new events" from PostgreSQL LISTEN/NOTIFY.

Why notifications carry only ``game_id:version``: streams always re-read
events from the store after a wake-up, so a notification lost during a
reconnect costs latency, never an event, and redaction happens on the same
path as catch-up.  One listening connection per server process serves every
stream; while it is down, waiters fall back to polling.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from uuid import UUID

import psycopg

from services.heads import Heads
from services.persistence import NOTIFY_CHANNEL

log = logging.getLogger(__name__)


class EventHub:
    def __init__(self, url: str, poll_interval: float = 1.0, heads: Heads | None = None) -> None:
        self._url = url
        self._heads = heads or Heads()
        self._poll = poll_interval
        self._waiters: dict[str, set[asyncio.Event]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
        self.connected = False

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen(), name="ledger-event-hub")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def subscribe(self, game_id: UUID) -> asyncio.Event:
        wakeup = asyncio.Event()
        self._waiters[str(game_id)].add(wakeup)
        return wakeup

    def unsubscribe(self, game_id: UUID, wakeup: asyncio.Event) -> None:
        waiters = self._waiters.get(str(game_id))
        if waiters is not None:
            waiters.discard(wakeup)
            if not waiters:
                self._waiters.pop(str(game_id), None)

    async def wait(self, wakeup: asyncio.Event) -> None:
        """Until woken, or a safety-net timeout (long when listening, short when not)."""
        timeout = 15.0 if self.connected else self._poll
        try:
            await asyncio.wait_for(wakeup.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    def _wake(self, game_id: str) -> None:
        for wakeup in self._waiters.get(game_id, ()):
            wakeup.set()

    async def _listen(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self._url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self._heads.listening()
                    self.connected = True
                    for game_id in list(self._waiters):
                        self._wake(game_id)  # catch anything missed while reconnecting
                    async for note in conn.notifies():
                        self._wake(self._heads.saw_payload(note.payload))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - reconnect on any failure
                log.warning("event hub lost its LISTEN connection: %s", exc)
            self.connected = False
            self._heads.deaf()
            for game_id in list(self._waiters):
                self._wake(game_id)
            await asyncio.sleep(self._poll)
