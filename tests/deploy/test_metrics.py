"""The series the Grafana dashboard and Prometheus rules read move with real calls.

In-process server (tests/support/server.py), so the test reads the same
prometheus-client registry the server writes.
"""

from __future__ import annotations

import random
import threading

import grpc
import pytest
from prometheus_client import REGISTRY

from ledger.v1 import game_service_pb2 as pb
from services.api.client import create, play_one
from tests.support.server import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
SUBMIT = "/ledger.v1.GameService/SubmitMove"


def _value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_submit_move_is_timed_by_status_code(grpc_server) -> None:
    before_ok = _value("ledger_rpc_duration_seconds_count", method=SUBMIT, code="OK")
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    assert play_one(grpc_server, table, random.Random(1)) is not None
    assert (
        _value("ledger_rpc_duration_seconds_count", method=SUBMIT, code="OK")
        == before_ok + 1
    )
    before_bad = _value(
        "ledger_rpc_duration_seconds_count", method=SUBMIT, code="UNAUTHENTICATED"
    )
    with pytest.raises(grpc.RpcError) as refused:
        grpc_server.call(
            "SubmitMove",
            pb.SubmitMoveRequest(game_id=table.game_id, command_id="x"),
            "not-a-token",
        )
    assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
    # the status leaves at abort, before the interceptor's ``finally`` records it
    wait_until(
        lambda: (
            _value(
                "ledger_rpc_duration_seconds_count",
                method=SUBMIT,
                code="UNAUTHENTICATED",
            )
            == before_bad + 1
        ),
        "the refused SubmitMove was not recorded as UNAUTHENTICATED",
        timeout=10,
    )


def test_stream_subscribers_gauge_follows_open_streams(grpc_server) -> None:
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    before = _value("ledger_stream_subscribers")
    stream = grpc_server.stub.StreamGameEvents(
        pb.StreamGameEventsRequest(game_id=table.game_id), timeout=30
    )
    received: list[object] = []
    reader = threading.Thread(
        target=lambda: received.extend(_drain(stream)), daemon=True
    )
    reader.start()
    wait_until(
        lambda: _value("ledger_stream_subscribers") == before + 1,
        "the open stream was not counted",
        timeout=10,
    )
    stream.cancel()
    reader.join(10)
    wait_until(
        lambda: _value("ledger_stream_subscribers") == before,
        "the closed stream was still counted",
        timeout=10,
    )


def _drain(stream):
    try:
        yield from stream
    except grpc.RpcError:
        return
