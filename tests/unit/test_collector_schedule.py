"""The serving process freezes its heap every tick and fully collects it every interval.

Freezing takes survivors out of the collector's full scans (the SubmitMove
tail under load); the periodic full pass is what reclaims a reference cycle
that died after it was frozen.
"""

from __future__ import annotations

import asyncio
import gc
import weakref

from services.runtime.collector import CollectorSchedule


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


async def _run_for(schedule: CollectorSchedule, seconds: float) -> None:
    schedule.start()
    try:
        await asyncio.sleep(seconds)
    finally:
        await schedule.stop()


def test_a_tick_freezes_the_heap_and_stop_thaws_it() -> None:
    async def main() -> int:
        schedule = CollectorSchedule(freeze_every=0.01, full_every=3600)
        schedule.start()
        await asyncio.sleep(0.05)
        frozen = gc.get_freeze_count()
        await schedule.stop()
        return frozen

    assert asyncio.run(main()) > 0
    assert gc.get_freeze_count() == 0


def test_a_cycle_that_dies_frozen_is_reclaimed_by_the_full_pass() -> None:
    async def main() -> tuple[bool, bool]:
        gc.disable()  # only the schedule collects here
        try:
            ref = _cycle()  # alive: its two nodes refer to each other
            gc.freeze()  # as a tick would, while the cycle is in use
            # without a full pass a frozen dead cycle stays
            await _run_for(CollectorSchedule(freeze_every=0.01, full_every=3600), 0.05)
            kept = ref() is not None
            gc.freeze()
            await _run_for(CollectorSchedule(freeze_every=0.01, full_every=0.02), 0.1)
            return kept, ref() is None
        finally:
            gc.unfreeze()
            gc.enable()

    kept, reclaimed = asyncio.run(main())
    assert kept
    assert reclaimed
