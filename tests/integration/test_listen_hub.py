"""The serving process's one listening connection also wakes its views' child."""

from __future__ import annotations

import asyncio
import random

import psycopg
import pytest

from domain.games import find_game
from projections.runner import VIEWS_CHANNEL
from services.ledger.heads import Heads
from services.live.listen_hub import EventHub
from tests.support.examples import examples

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


def test_a_stream_of_a_game_this_process_moves_is_woken_by_the_commit_itself(
    isolated_ledger,
):
    """No notification reaches this hub (its database address answers
    nothing), yet the move's commit wakes the game's stream: a seat's session
    sends the next page without waiting for PostgreSQL's notification."""
    ledger = isolated_ledger
    game_type, setup = examples("thalara-2p")[0]
    created = ledger.create_game(game_type, setup)
    hook = ledger.on_committed

    async def scenario() -> tuple[bool, bool]:
        hub = EventHub(  # its one failed LISTEN wakes everyone; the next in 60 s
            "postgresql://nobody@127.0.0.1:1/none", poll_interval=60, heads=Heads()
        )
        hub.woken_by_commits(ledger)
        await hub.start()
        try:
            wakeup = hub.subscribe(created.game_id)
            game = await ledger.game(created.game_id)
            seat = game.to_act()[0]
            rnd = random.Random(1)
            command = find_game(game_type).random_command(game.state, seat, rnd)
            await asyncio.sleep(0.5)
            wakeup.clear()
            await asyncio.sleep(0.1)
            before = wakeup.is_set()
            await ledger.submit_move(created.game_id, command, seat, "woken", None)
            for _ in range(3):  # the wake is handed to the loop
                await asyncio.sleep(0)
            return before, wakeup.is_set()
        finally:
            await hub.stop()

    assert asyncio.run(scenario()) == (False, True)
    # the ledger outlives the hub: its hook is given back, and a move after
    # the hub's loop has closed is recorded without a word from the hub
    assert ledger.on_committed is hook
    game = ledger.load(created.game_id)
    seat = game.to_act()[0]
    command = find_game(game_type).random_command(game.state, seat, random.Random(2))
    ledger.submit(created.game_id, command, seat, "after")
