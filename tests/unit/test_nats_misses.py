"""When a server's JetStream consumers are made anew (services.live.nats_tail).

No NATS here: the connection is a stand-in that says it is up, records are
sealed with a key of the test's own, and recoveries are counted instead of run.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from types import SimpleNamespace
from typing import Any

import pytest
from prometheus_client import REGISTRY

from services.live import nats_tail
from services.live.nats_tail import MISSES, NatsTail
from services.live.sealed_records import RecordSeal

GAME = uuid.uuid4()


@pytest.fixture
def tail(monkeypatch: pytest.MonkeyPatch) -> Any:
    mapper = SimpleNamespace(to_domain_event=lambda record: record)
    tail = NatsTail("nats://127.0.0.1:1", mapper, object, RecordSeal(os.urandom(32)))
    tail._nc = SimpleNamespace(is_connected=True)
    tail._ready = True
    tail._tails[str(GAME)] = {}
    monkeypatch.setattr(nats_tail, "RESUBSCRIBE_EVERY", 0.0)
    monkeypatch.setattr(nats_tail, "chain_problem", lambda *args: None)
    return tail


@pytest.fixture
def recoveries(tail, monkeypatch: pytest.MonkeyPatch) -> list[None]:
    started: list[None] = []
    monkeypatch.setattr(tail, "_start_recovery", lambda: started.append(None))
    return started


def deliver(tail: Any, version: int) -> None:
    """The game's consumer delivers event ``version``."""
    seal = tail._seal
    msg = SimpleNamespace(
        data=seal.seal(GAME, version, "Game.Moved", b"{}"),
        headers={"Nats-Msg-Id": seal.message_id(GAME, version)},
    )
    tail._receive(str(GAME), msg)


def test_a_consumer_that_delivers_only_after_the_fallback_is_made_anew(
    tail, recoveries
) -> None:
    async def late_deliveries() -> None:
        for version in range(1, MISSES + 1):
            tail._count_miss(str(GAME))  # the streams read PostgreSQL
            deliver(tail, version)  # then it came: too late to serve anyone

    asyncio.run(late_deliveries())
    assert tail.has(GAME, MISSES)
    assert len(recoveries) == 1


def test_an_event_delivered_in_time_ends_the_row_of_misses(tail, recoveries) -> None:
    async def one_in_time() -> None:
        for _ in range(MISSES - 1):
            tail._count_miss(str(GAME))
        tail.in_time(GAME)
        for _ in range(MISSES - 1):
            tail._count_miss(str(GAME))

    asyncio.run(one_in_time())
    assert recoveries == []


def test_a_repeated_consumer_error_recovers_again_with_one_log_line(
    tail, recoveries, caplog
) -> None:
    async def two_timeouts() -> None:
        await tail._on_error(TimeoutError())
        await tail._on_error(TimeoutError())

    asyncio.run(two_timeouts())
    assert len(recoveries) == 2
    assert len([r for r in caplog.records if "consumers re-created" in r.message]) == 1


def test_every_delivery_counts_as_received_whether_the_tail_keeps_it_or_not(
    tail,
) -> None:
    def received() -> float:
        return REGISTRY.get_sample_value("ledger_stream_tail_received_total") or 0.0

    before = received()
    deliver(tail, 1)
    tail._receive(str(GAME), SimpleNamespace(data=b"not sealed", headers={}))
    assert received() - before == 2
    assert tail.has(GAME, 1)
