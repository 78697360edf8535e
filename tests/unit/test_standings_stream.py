"""StreamStandings is pushed by notifications: it reloads only when woken."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any
from uuid import uuid4

from ledger.v1 import tournament_service_pb2 as pb
from services.api.tournament_servicer import TournamentServicer


class Hub:
    """An EventHub without the safety-net timeout: only a notification wakes."""

    def __init__(self) -> None:
        self.waiters: dict[str, asyncio.Event] = {}

    def subscribe(self, key: Any) -> asyncio.Event:
        self.waiters[str(key)] = asyncio.Event()
        return self.waiters[str(key)]

    def unsubscribe(self, key: Any, wakeup: asyncio.Event) -> None:
        self.waiters.pop(str(key), None)

    async def wait(self, wakeup: asyncio.Event) -> None:
        await wakeup.wait()


class Desk:
    def __init__(self) -> None:
        self.loads = 0
        self.version = 1
        self.finished = False

    def load(self, tid: Any) -> Any:
        self.loads += 1
        state = SimpleNamespace(
            current_round=1, status="running", finished=self.finished
        )
        return SimpleNamespace(
            id=tid, version=self.version, state=state, standings=list
        )


class Results:
    async def catch_up_to(self, position: int, context: Any) -> None:
        return None


def test_the_stream_reloads_only_when_notified() -> None:
    async def scenario() -> tuple[list[int], list[int]]:
        hub, desk, tid = Hub(), Desk(), uuid4()
        servicer = TournamentServicer(desk, Results(), ThreadPoolExecutor(1), hub)
        stream = servicer.StreamStandings(
            pb.GetStandingsRequest(tournament_id=str(tid)), None
        )
        first = await stream.__anext__()
        nxt = asyncio.ensure_future(stream.__anext__())
        await asyncio.sleep(1.0)  # four polls' worth under the old 0.25 s loop
        loads_idle = desk.loads
        desk.version, desk.finished = 2, True
        hub.waiters[str(tid)].set()
        second = await asyncio.wait_for(nxt, 5)
        assert first.tournament_id == second.tournament_id == str(tid)
        return [loads_idle, desk.loads], [first.round, second.round]

    loads, _ = asyncio.run(scenario())
    assert loads == [1, 2]
