"""The first checks every call meets: undecodable bytes, field limits, stream slots.

Why the deserializer is wrapped (:func:`lenient`): grpc decodes the request
with the handler's ``request_deserializer`` *before* any servicer code runs,
and a ``DecodeError`` there surfaces as ``UNKNOWN: Unexpected <class
'google.protobuf.message.DecodeError'>``, an internal type and the wrong
code.  The wrapped deserializer turns any decoding failure into a marker
value; :func:`check` then refuses it with ``INVALID_ARGUMENT`` and the usual
``google.rpc`` details, before authentication or the servicer.  The same
check holds every request to :mod:`services.proto.limits`, and
:class:`StreamSlots` bounds concurrent streams per connection
(``RESOURCE_EXHAUSTED`` beyond it).  :mod:`services.api.call_gate` applies
them to every RPC of every service, health and reflection included, and to
RPCs added later.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

from domain.contract.core import InvalidCommandError
from services.api.errors import StreamLimitError, abort
from services.proto import limits


class _Undecodable:
    """What the wrapped deserializer returns for bytes that are not the message."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


def lenient(deserializer: Callable[[bytes], Any] | None) -> Any:
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


async def check_call(request: Any, context: Any) -> None:
    """:func:`check`, refusing the call ``INVALID_ARGUMENT`` for a bad request."""
    try:
        check(request)
    except InvalidCommandError as exc:
        await abort(context, exc)


async def each_checked(requests: Any, context: Any) -> AsyncIterator[Any]:
    async for request in requests:
        await check_call(request, context)
        yield request


class slot:
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
