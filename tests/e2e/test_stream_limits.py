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


def test_a_burst_of_stream_opens_all_start(grpc_server: Any, settings: Any) -> None:
    """2,000 spectators open their streams at once, each on a connection with
    room for it: every stream starts and sends the game's first event.

    grpc core holds calls the server has not picked up yet in a queue; past
    its default of 1,000 it cancelled the rest with ``CANCELLED`` and no log
    line (seen in the subscriber bench as spectators who never got an event).
    """
    import asyncio

    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    per_connection = settings.streams_per_connection
    count = 2_000

    async def burst() -> tuple[list[int], list[str]]:
        channels = [
            grpc.aio.insecure_channel(
                f"127.0.0.1:{grpc_server.port}",
                options=[("grpc.use_local_subchannel_pool", 1)],
            )
            for _ in range(-(-count // per_connection))
        ]
        request = pb.StreamGameEventsRequest(game_id=table.game_id)
        firsts: list[int] = []
        errors: list[str] = []

        async def first_event(i: int) -> None:
            stub = rpc.GameServiceStub(channels[i // per_connection])
            call = stub.StreamGameEvents(request, timeout=120)
            try:
                async for event in call:
                    firsts.append(event.version)
                    return
            except grpc.aio.AioRpcError as exc:
                errors.append(exc.code().name)
            finally:
                call.cancel()

        try:
            await asyncio.gather(*(first_event(i) for i in range(count)))
        finally:
            for ch in channels:
                await ch.close()
        return firsts, errors

    firsts, errors = asyncio.run(burst())
    assert errors == []
    assert firsts == [1] * count
