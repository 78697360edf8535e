"""A stream's wait on the hub: until woken, or until its timeout, and nothing after."""

from __future__ import annotations

import asyncio

from services.live.listen_hub import EventHub


def _hub() -> EventHub:
    return EventHub("postgresql://unused", poll_interval=30.0)  # never started


def test_a_wakeup_ends_the_wait_and_leaves_no_timer_behind():
    async def scenario() -> tuple[bool, bool]:
        wakeup = asyncio.Event()
        asyncio.get_running_loop().call_later(0.01, wakeup.set)
        await asyncio.wait_for(_hub().wait(wakeup, at_most=0.3), 5)
        woken = wakeup.is_set()
        wakeup.clear()  # as a stream does before it reads again
        await asyncio.sleep(0.5)  # past the wait's timeout
        return woken, wakeup.is_set()

    assert asyncio.run(scenario()) == (True, False)


def test_nothing_to_wake_it_ends_the_wait_at_its_timeout():
    async def scenario() -> None:
        await asyncio.wait_for(_hub().wait(asyncio.Event(), at_most=0.05), 5)

    asyncio.run(scenario())  # a wait past its timeout fails with TimeoutError
