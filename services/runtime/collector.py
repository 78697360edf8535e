"""When the serving process's cyclic garbage collector scans the long-lived heap.

Why: under load (32 clients playing the 13 examples) CPython's full
collections scanned the whole heap, about 250,000 objects, mostly the game
cache's, every 2-3 seconds, and each one paused every call for 100-150 ms.
They were SubmitMove's p99 (97-120 ms against a p50 of 26 ms; with the
collector off, 43-54 ms).  Freezing the survivors every second
(:func:`gc.freeze`, constant time) leaves young objects to the collector as
before and takes the long-lived heap out of its scans: p99 49-50 ms, p99.9
56-62 ms, moves/s no lower (``docs/performance.md``).

The price: objects in a reference cycle that were alive when frozen and die
later are not reclaimed while frozen (objects without cycles are freed by
reference counting as ever).  Every :data:`FULL_INTERVAL` the heap is
unfrozen and collected once, so such garbage lives at most that long, and a
full pause comes once per interval instead of every few seconds.
"""

from __future__ import annotations

import asyncio
import gc
import time

FREEZE_INTERVAL = 1.0
"""Seconds between freezes of what survived so far."""
FULL_INTERVAL = 600.0
"""Seconds between full collections of the unfrozen heap."""


class CollectorSchedule:
    """Freezes the heap every ``freeze_every`` seconds and fully collects it
    every ``full_every``, on the event loop (both calls are quick but one)."""

    def __init__(
        self, freeze_every: float = FREEZE_INTERVAL, full_every: float = FULL_INTERVAL
    ) -> None:
        self.freeze_every = freeze_every
        self.full_every = full_every
        self.full_collections = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name="ledger-gc-schedule"
        )

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        gc.unfreeze()

    async def _run(self) -> None:
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(self.freeze_every)
            if time.monotonic() - last_full >= self.full_every:
                gc.unfreeze()
                gc.collect()
                self.full_collections += 1
                last_full = time.monotonic()
            gc.freeze()
