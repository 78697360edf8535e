"""Prometheus metrics an operator alerts on (``deploy/prometheus/``, ``deploy/grafana/``).

Why here and not at each call site: the dashboards and rules name these
series, and ``tests/deploy/test_manifests.py`` checks every name they use is
one of ours.  Move rate and p99 latency come from one histogram of unary
calls, timed by :class:`RpcMetricsInterceptor` around everything else (the
token lookup included), labelled by method and final status code.  Streams
are not timed (they last as long as the viewer watches); they are counted.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

import grpc
from prometheus_client import Counter, Gauge, Histogram

RPC_SECONDS = Histogram(
    "ledger_rpc_duration_seconds",
    "Unary gRPC calls, from receipt to answer, by method and status code",
    ["method", "code"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
STREAM_SUBSCRIBERS = Gauge(
    "ledger_stream_subscribers",
    "Open StreamGameEvents calls waiting for a game's next events in this process",
)
DATABASE_ERRORS = Counter(
    "ledger_database_errors_total",
    "Calls answered UNAVAILABLE because PostgreSQL was unreachable, and failed health probes",
    ["source"],
)
TAIL_EVENTS = Counter(
    "ledger_stream_tail_events",
    "Events sent to live streams from the JetStream tail (no PostgreSQL read)",
)
DATABASE_UP = Gauge(
    "ledger_database_up",
    "1 while the health probe reaches PostgreSQL (grpc.health.v1 SERVING), else 0",
)
DATABASE_UP.set(1)

_Request = TypeVar("_Request")
_Response = TypeVar("_Response")
# What grpc.aio puts in ``RpcMethodHandler.unary_unary``: a coroutine function.
# types-grpcio declares the field with the synchronous server's signature.
_AsyncUnary = Callable[[Any, grpc.aio.ServicerContext[Any, Any]], Awaitable[Any]]


class RpcMetricsInterceptor(grpc.aio.ServerInterceptor):
    """Times every unary-unary ``ledger.v1`` call into :data:`RPC_SECONDS`."""

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails],
            Awaitable[grpc.RpcMethodHandler[_Request, _Response] | None],
        ],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[_Request, _Response] | None:
        handler = await continuation(details)
        if (
            handler is None
            or handler.unary_unary is None
            or not details.method.startswith("/ledger.v1.")
        ):
            return handler
        behaviour = cast(_AsyncUnary, handler.unary_unary)
        method = details.method

        async def timed(
            request: Any, context: grpc.aio.ServicerContext[Any, Any]
        ) -> Any:
            start = time.perf_counter()
            code = grpc.StatusCode.UNKNOWN
            try:
                answer = await behaviour(request, context)
                code = context.code() or grpc.StatusCode.OK
                return answer
            except BaseException:
                code = context.code() or grpc.StatusCode.UNKNOWN
                raise
            finally:
                name = code.name if isinstance(code, grpc.StatusCode) else str(code)
                RPC_SECONDS.labels(method, name).observe(time.perf_counter() - start)

        return grpc.unary_unary_rpc_method_handler(
            timed,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
