"""One connection may hold a bounded number of concurrent streams."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as rpc
from tests.e2e.client import create

pytestmark = pytest.mark.e2e


def test_streams_beyond_the_per_connection_limit_are_resource_exhausted(
    grpc_server: Any, settings: Any
) -> None:
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    limit = settings.streams_per_connection
    channel = grpc.insecure_channel(
        f"127.0.0.1:{grpc_server.port}",
        options=[("grpc.use_local_subchannel_pool", 1)],
    )
    stub = rpc.GameServiceStub(channel)
    request = pb.StreamGameEventsRequest(game_id=table.game_id)
    try:
        open_streams = [
            stub.StreamGameEvents(request, timeout=60) for _ in range(limit)
        ]
        for stream in open_streams:
            next(stream)  # each holds its slot: it has answered
        extra = stub.StreamGameEvents(request, timeout=30)
        with pytest.raises(grpc.RpcError) as refused:
            next(extra)
        assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        details = refused.value.details()
        assert details is not None
        assert f"at most {limit} concurrent streams" in details

        other = grpc.insecure_channel(  # its own TCP connection, not a shared one
            f"127.0.0.1:{grpc_server.port}",
            options=[("grpc.use_local_subchannel_pool", 1)],
        )
        try:  # the limit is per connection: another one may stream
            assert next(
                rpc.GameServiceStub(other).StreamGameEvents(request, timeout=30)
            )
        finally:
            other.close()

        open_streams.pop().cancel()
        for _ in range(100):  # the slot is given back once the server sees the cancel
            try:
                assert next(stub.StreamGameEvents(request, timeout=30))
                break
            except grpc.RpcError as exc:
                assert exc.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        else:
            pytest.fail("a cancelled stream never gave its slot back")
    finally:
        channel.close()
