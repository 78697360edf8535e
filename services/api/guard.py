"""The first thing every call meets: undecodable bytes, field limits, stream slots.

Why an interceptor that rewraps each method handler: grpc decodes the request
with the handler's ``request_deserializer`` *before* any servicer code runs,
and a ``DecodeError`` there surfaces as ``UNKNOWN: Unexpected <class
'google.protobuf.message.DecodeError'>``, an internal type and the wrong
code.  Wrapping the deserializer turns any decoding failure into a marker
value; the wrapped behaviour then aborts with ``INVALID_ARGUMENT`` and the
usual ``google.rpc`` details, before authentication results or the servicer
are used.  The same wrapper checks every request against :mod:`services.proto.limits`
and bounds concurrent streams per connection (``RESOURCE_EXHAUSTED`` beyond
it), so the rules hold for every RPC of every service, health and
reflection included, and for RPCs added later.
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar, cast

import grpc

from domain.core import InvalidCommandError
from services.api.errors import StreamLimitError, abort
from services.proto import limits

_Request = TypeVar("_Request")
_Response = TypeVar("_Response")
# What grpc.aio puts in an ``RpcMethodHandler``: coroutine functions and async
# generators taking async request iterators.  types-grpcio declares the fields
# with the synchronous server's signatures (``Iterator`` in, plain value out).
_AsyncUnary = Callable[[Any, Any], Awaitable[Any]]
_AsyncStreamIn = Callable[[AsyncIterator[Any], Any], Any]


class _Undecodable:
    """What the wrapped deserializer returns for bytes that are not the message."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


def _lenient(deserializer: Callable[[bytes], Any] | None) -> Any:
    if deserializer is None:
        return None

    def parse(data: bytes) -> Any:
        try:
            return deserializer(data)
        except Exception as exc:  # noqa: BLE001 - DecodeError, RecursionError, ...
            return _Undecodable(type(exc).__name__)

    return parse


def check(request: Any) -> None:
    """:raises InvalidCommandError: for undecodable bytes or a broken limit."""
    if isinstance(request, _Undecodable):
        raise InvalidCommandError(
            "the request is not a valid protobuf message of this RPC's type"
            " (strings must be UTF-8)"
        )
    if hasattr(request, "ListFields"):
        limits.check_message(request)


class StreamSlots:
    """Concurrent server streams per connection (the peer address names one)."""

    def __init__(self, per_connection: int) -> None:
        self.per_connection = per_connection
        self._open: Counter[str] = Counter()

    def take(self, peer: str) -> None:
        """:raises StreamLimitError: when ``peer`` holds every slot already."""
        if self._open[peer] >= self.per_connection:
            raise StreamLimitError(
                f"at most {self.per_connection} concurrent streams per connection;"
                " close one or open another connection"
            )
        self._open[peer] += 1

    def give_back(self, peer: str) -> None:
        self._open[peer] -= 1
        if self._open[peer] <= 0:
            del self._open[peer]


class GuardInterceptor(grpc.aio.ServerInterceptor):
    """Wraps every method handler; see the module docstring."""

    def __init__(self, streams_per_connection: int) -> None:
        self.slots = StreamSlots(streams_per_connection)

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
            return handler
        return self._wrap(handler)

    def _wrap(
        self, handler: grpc.RpcMethodHandler[Any, Any]
    ) -> grpc.RpcMethodHandler[Any, Any]:
        parse = _lenient(handler.request_deserializer)
        out = handler.response_serializer
        slots = self.slots
        if handler.unary_unary is not None:
            unary_unary = cast(_AsyncUnary, handler.unary_unary)

            async def uu(request: Any, context: Any) -> Any:
                await _checked(request, context)
                return await unary_unary(request, context)

            return grpc.unary_unary_rpc_method_handler(uu, parse, out)
        if handler.unary_stream is not None:
            unary_stream = handler.unary_stream

            async def us(request: Any, context: Any) -> Any:
                await _checked(request, context)
                async with _slot(slots, context):
                    async for item in _items(unary_stream(request, context)):
                        yield item

            return grpc.unary_stream_rpc_method_handler(us, parse, out)
        if handler.stream_unary is not None:
            stream_unary = cast(_AsyncStreamIn, handler.stream_unary)

            async def su(requests: Any, context: Any) -> Any:
                return await stream_unary(_each_checked(requests, context), context)

            return grpc.stream_unary_rpc_method_handler(su, parse, out)
        assert handler.stream_stream is not None  # a handler has one behaviour
        stream_stream = cast(_AsyncStreamIn, handler.stream_stream)

        async def ss(requests: Any, context: Any) -> Any:
            async with _slot(slots, context):
                responses = stream_stream(_each_checked(requests, context), context)
                async for item in _items(responses):
                    yield item

        return grpc.stream_stream_rpc_method_handler(ss, parse, out)


async def _checked(request: Any, context: Any) -> None:
    try:
        check(request)
    except InvalidCommandError as exc:
        await abort(context, exc)


async def _items(result: Any) -> AsyncIterator[Any]:
    """A streaming behaviour's responses: an async generator's items, or none
    for a coroutine that writes with ``context.write`` (health's ``Watch``)."""
    if inspect.isawaitable(result):
        await result
        return
    async for item in result:
        yield item


async def _each_checked(requests: Any, context: Any) -> AsyncIterator[Any]:
    async for request in requests:
        await _checked(request, context)
        yield request


class _slot:
    """``async with``: hold one of the connection's stream slots, or abort."""

    def __init__(self, slots: StreamSlots, context: Any) -> None:
        self._slots, self._context, self._peer = slots, context, context.peer()

    async def __aenter__(self) -> None:
        try:
            self._slots.take(self._peer)
        except StreamLimitError as exc:
            await abort(self._context, exc)

    async def __aexit__(self, *exc: object) -> None:
        self._slots.give_back(self._peer)
