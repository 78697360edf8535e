"""The one interceptor every call meets: metrics, drain, guard and auth, in that order.

1. **Metrics** (:mod:`services.observability.metrics`): each unary
   ``ledger.v1`` call is timed into ``ledger_rpc_duration_seconds`` around
   everything below it, refusals and the token lookup included.
2. **Drain** (:mod:`services.api.drain`): once the server drains, a new call
   is refused; a unary call is counted until it answers, a live stream is
   tracked so the drain can end it.
3. **Guard** (:mod:`services.api.guard`): undecodable bytes and broken field
   limits answer ``INVALID_ARGUMENT``; a server stream holds one of its
   connection's stream slots.
4. **Auth** (:mod:`services.api.auth`): the bearer token becomes the call's
   :class:`~services.api.auth.Principal`, for ``ledger.v1`` calls only
   (health and reflection stay open).

Why one interceptor and not a chain of four: grpc.aio runs its interceptors
for every call, each link a coroutine of its own, and an interceptor that
wraps the handler builds new closures and a new ``RpcMethodHandler`` each
time; then each layer's behaviour awaits the next.  Here each method's
handler is wrapped once, at its first call, and a call runs one coroutine
that takes the four steps in turn.  The cost ladder of
``docs/performance.md`` prices the difference.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar, cast

import grpc

from services.api.auth import TokenResolver, authenticate, current_principal
from services.api.drain import HEALTH_PREFIX, Drain
from services.api.errors import abort
from services.api.guard import (
    StreamSlots,
    check_call,
    each_checked,
    lenient,
    slot,
)
from services.observability.metrics import RPC_SECONDS

_Request = TypeVar("_Request")
_Response = TypeVar("_Response")
# What grpc.aio puts in an ``RpcMethodHandler``: coroutine functions and async
# generators.  types-grpcio declares the fields with the synchronous server's
# signatures (plain values and ``Iterator``).
_AsyncUnary = Callable[[Any, Any], Awaitable[Any]]
_AsyncStreamIn = Callable[[AsyncIterator[Any], Any], Any]

LEDGER_METHOD_PREFIX = "/ledger.v1."
OK = grpc.StatusCode.OK
UNKNOWN = grpc.StatusCode.UNKNOWN


class CallGate(grpc.aio.ServerInterceptor):
    """What every call of one server meets; see the module docstring.

    ``resolver`` None: no authentication, every call anonymous.  Only the cost
    ladder's rung below auth (``bench/ladder_server.py``) builds one so.
    """

    def __init__(
        self, drain: Drain, streams_per_connection: int, resolver: TokenResolver | None
    ) -> None:
        self.drain = drain
        self.slots = StreamSlots(streams_per_connection)
        self.resolver = resolver
        self._wrapped: dict[str, tuple[Any, Any]] = {}
        """method → (grpc's handler, its wrapped handler)."""

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails],
            Awaitable[grpc.RpcMethodHandler[_Request, _Response] | None],
        ],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[_Request, _Response] | None:
        handler = await continuation(details)
        if handler is None:
            return None  # grpc answers UNIMPLEMENTED
        method = details.method
        known = self._wrapped.get(method)
        if known is None or known[0] is not handler:
            known = self._wrapped[method] = (handler, self._wrap(handler, method))
        return cast("grpc.RpcMethodHandler[_Request, _Response]", known[1])

    async def _principal(self, context: Any) -> None:
        """The call's principal set for the servicer, or the call refused."""
        assert self.resolver is not None
        try:
            principal = await authenticate(self.resolver, context.invocation_metadata())
        except Exception as exc:  # noqa: BLE001 - e.g. the database is down: the error table decides
            await abort(context, exc)
        current_principal.set(principal)

    def _wrap(
        self, handler: grpc.RpcMethodHandler[Any, Any], method: str
    ) -> grpc.RpcMethodHandler[Any, Any]:
        parse = lenient(handler.request_deserializer)
        out = handler.response_serializer
        ours = method.startswith(LEDGER_METHOD_PREFIX)
        authed = ours and self.resolver is not None
        health = method.startswith(HEALTH_PREFIX)
        if handler.unary_unary is not None:
            unary = self._unary(cast(_AsyncUnary, handler.unary_unary), authed, health)
            if ours:
                unary = _timed(unary, method)
            return grpc.unary_unary_rpc_method_handler(unary, parse, out)
        if handler.unary_stream is not None:
            stream = self._stream(handler.unary_stream, authed, health)
            return grpc.unary_stream_rpc_method_handler(stream, parse, out)
        if handler.stream_unary is not None:
            return grpc.stream_unary_rpc_method_handler(
                self._client_stream(cast(_AsyncStreamIn, handler.stream_unary), authed),
                parse,
                out,
            )
        assert handler.stream_stream is not None  # a handler has one behaviour
        return grpc.stream_stream_rpc_method_handler(
            self._bidi(cast(_AsyncStreamIn, handler.stream_stream), authed),
            parse,
            out,
        )

    def _unary(self, inner: _AsyncUnary, authed: bool, health: bool) -> _AsyncUnary:
        drain = self.drain

        async def unary(request: Any, context: Any) -> Any:
            await drain.admit(context, health)
            drain.in_flight += 1
            try:
                await check_call(request, context)
                if authed:
                    await self._principal(context)
                return await inner(request, context)
            finally:
                drain.in_flight -= 1

        return unary

    def _stream(self, inner: Any, authed: bool, health: bool) -> Any:
        async def stream(request: Any, context: Any) -> Any:
            check = lambda: check_call(request, context)
            async with self._streaming(context, health, authed, check):
                async for item in _items(inner(request, context)):
                    yield item

        return stream

    def _client_stream(self, inner: _AsyncStreamIn, authed: bool) -> Any:
        async def client_stream(requests: Any, context: Any) -> Any:
            if authed:
                await self._principal(context)
            return await inner(each_checked(requests, context), context)

        return client_stream

    def _bidi(self, inner: _AsyncStreamIn, authed: bool) -> Any:
        """A bidirectional stream (a seat's session, reflection): refused
        while draining and ended by the drain like a server stream."""

        async def bidi(requests: Any, context: Any) -> Any:
            async with self._streaming(context, False, authed):
                responses = inner(each_checked(requests, context), context)
                async for item in _items(responses):
                    yield item

        return bidi

    @asynccontextmanager
    async def _streaming(
        self,
        context: Any,
        health: bool,
        authed: bool,
        check: Callable[[], Awaitable[None]] | None = None,
    ) -> AsyncIterator[None]:
        """Around a stream's responses (server or bidirectional): refused while
        the server drains, held in one of its connection's stream slots, and
        ended by the drain with a refusal rather than a cancellation.

        ``check``: the request's own check (a server stream's one request),
        made before a slot is taken.
        """
        drain = self.drain
        await drain.admit(context, health)
        ended = False
        with drain.stream(health):
            try:
                if check is not None:
                    await check()
                async with slot(self.slots, context):
                    if authed:
                        await self._principal(context)
                    yield
            except asyncio.CancelledError:
                if not drain.draining:
                    raise  # the client went away: nothing to answer
                ended = True
        if ended:
            current = asyncio.current_task()
            if current is not None:
                current.uncancel()
            await drain.refuse(context)


def _timed(inner: _AsyncUnary, method: str) -> _AsyncUnary:
    """``inner`` timed into ``RPC_SECONDS`` by final status code.

    Each code's labelled series is looked up once: ``labels()`` takes the
    metric's lock and builds its key on every call.
    """
    series: dict[str, Any] = {}

    def observe(code: Any, seconds: float) -> None:
        name = code.name if isinstance(code, grpc.StatusCode) else str(code)
        child = series.get(name)
        if child is None:
            child = series[name] = RPC_SECONDS.labels(method, name)
        child.observe(seconds)

    async def timed(request: Any, context: Any) -> Any:
        start = time.perf_counter()
        try:
            answer = await inner(request, context)
        except BaseException:
            observe(context.code() or UNKNOWN, time.perf_counter() - start)
            raise
        observe(context.code() or OK, time.perf_counter() - start)
        return answer

    return timed


async def _items(result: Any) -> AsyncIterator[Any]:
    """A streaming behaviour's responses: an async generator's items, or none
    for a coroutine that writes with ``context.write`` (health's ``Watch``)."""
    if inspect.isawaitable(result):
        await result
        return
    async for item in result:
        yield item
