"""The serving process's one listening connection also wakes its views' child."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from projections.runner import VIEWS_CHANNEL
from services.ledger.heads import Heads
from services.live.listen_hub import EventHub

pytestmark = pytest.mark.postgres


def test_a_notification_on_a_channel_it_wakes_on_calls_its_waker_and_no_other(
    database_url,
):
    async def scenario() -> tuple[int, int]:
        woken = asyncio.Event()
        calls = {VIEWS_CHANNEL: 0, "elsewhere": 0}

        def waker(channel: str):
            def call() -> None:
                calls[channel] += 1
                woken.set()

            return call

        hub = EventHub(database_url, heads=Heads())
        hub.wake_on(VIEWS_CHANNEL, waker(VIEWS_CHANNEL))
        hub.wake_on("elsewhere", waker("elsewhere"))
        await hub.start()
        try:
            for _ in range(100):  # until it listens
                if hub.connected:
                    break
                await asyncio.sleep(0.05)
            async with await psycopg.AsyncConnection.connect(
                database_url, autocommit=True
            ) as conn:
                await conn.execute(f"NOTIFY {VIEWS_CHANNEL}")
            await asyncio.wait_for(woken.wait(), 10)
            await asyncio.sleep(0.2)  # anything else it would have called by now
        finally:
            await hub.stop()
        return calls[VIEWS_CHANNEL], calls["elsewhere"]

    assert asyncio.run(scenario()) == (1, 0)
