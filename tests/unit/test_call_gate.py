"""The call gate wraps a method's handler once and shares it between calls, so
nothing of one call may stick to the next: each call gets its own principal,
its own refusal and its own status code in the metrics.

A real ``grpc.aio`` server with the real gate, in front of one ``ledger.v1``
method that answers the role of the principal it was handed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
from google.protobuf import wrappers_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from services.api.auth import TokenResolver, current_principal
from services.api.call_gate import CallGate
from services.api.drain import Drain
from services.ledger.callers import Principal
from services.observability.metrics import RPC_SECONDS

METHOD = "/ledger.v1.GateProbe/Who"
ADMIN = "admin-secret"
ORGANISER = "organiser-secret"


async def _who(request: wrappers_pb2.StringValue, context: Any) -> Any:
    return wrappers_pb2.StringValue(value=current_principal.get().role)


def _count(code: str) -> float:
    (metric,) = RPC_SECONDS.collect()
    got = metric.samples
    return sum(
        s.value
        for s in got
        if s.name.endswith("_count") and s.labels == {"method": METHOD, "code": code}
    )


def _reason(error: grpc.aio.AioRpcError) -> str:
    status = rpc_status.from_call(error)
    assert status is not None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason
    return ""


async def _serve(drain: Drain, lookups: list[str]) -> tuple[grpc.aio.Server, int]:
    async def lookup(token: str) -> Principal | None:
        lookups.append(token)
        return Principal(organiser=True) if token == ORGANISER else None

    gate = CallGate(drain, 4, TokenResolver(ADMIN, lookup))
    handler = grpc.method_handlers_generic_handler(
        "ledger.v1.GateProbe",
        {
            "Who": grpc.unary_unary_rpc_method_handler(
                _who,
                request_deserializer=wrappers_pb2.StringValue.FromString,
                response_serializer=wrappers_pb2.StringValue.SerializeToString,
            )
        },
    )
    server = grpc.aio.server(interceptors=[gate])
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, port


async def _calls(drain: Drain, lookups: list[str]) -> list[str]:
    server, port = await _serve(drain, lookups)
    answers: list[str] = []
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            who = channel.unary_unary(
                METHOD,
                request_serializer=wrappers_pb2.StringValue.SerializeToString,
                response_deserializer=wrappers_pb2.StringValue.FromString,
            )
            raw: Any = channel.unary_unary(METHOD)  # bytes as they are
            for token, body in (
                (ORGANISER, None),
                (None, None),
                (ADMIN, None),
                ("nobody-has-this", None),
                (None, None),
                ("nobody-has-this", b"\xff\xff\xff"),  # garbage: refused first
                ("Basic abc", None),  # malformed header, below
            ):
                if token == "Basic abc":
                    metadata: Any = (("authorization", token),)
                else:
                    metadata = (
                        (("authorization", f"Bearer {token}"),) if token else None
                    )
                try:
                    if body is None:
                        got = await who(wrappers_pb2.StringValue(), metadata=metadata)
                        answers.append(got.value)
                    else:
                        await raw(body, metadata=metadata)
                        answers.append("answered")
                except grpc.aio.AioRpcError as error:
                    answers.append(f"{error.code().name} {_reason(error)}")
    finally:
        await server.stop(None)
    return answers


def test_each_call_gets_its_own_principal_and_refusal() -> None:
    ok, refused = _count("OK"), _count("UNAUTHENTICATED")
    lookups: list[str] = []
    answers = asyncio.run(_calls(Drain(), lookups))
    assert answers == [
        "organiser",
        "spectator",
        "admin",
        "UNAUTHENTICATED UNKNOWN_TOKEN",
        "spectator",
        "INVALID_ARGUMENT MALFORMED",
        "UNAUTHENTICATED MALFORMED_AUTHORIZATION",
    ]
    assert lookups == [ORGANISER, "nobody-has-this"]  # garbage was never looked up
    assert _count("OK") - ok == 4
    assert _count("UNAUTHENTICATED") - refused == 2


def test_a_draining_server_refuses_before_any_token_lookup() -> None:
    drain = Drain()
    drain.start()
    lookups: list[str] = []
    answers = asyncio.run(_calls(drain, lookups))
    assert set(answers) == {"UNAVAILABLE DRAINING"}
    assert lookups == []
    assert drain.in_flight == 0
