"""What every servicer shares: errors mapped to statuses, ids parsed.

Why a module of its own: the game, replay, read-model and tournament
servicers all wrap their handlers the same way (:func:`guarded`) and parse
game ids the same way; none of them should import another servicer for it.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import wraps
from typing import Any
from uuid import UUID

import grpc

from domain.contract.core import InvalidCommandError
from services.api.errors import abort
from services.proto.limits import excerpt


def parse_game_id(raw: str) -> UUID:
    try:
        return UUID(raw)
    except (ValueError, TypeError):
        raise InvalidCommandError(
            f"game_id {excerpt(raw)} is not a UUID",
            violations=(("game_id", "not a UUID"),),
        ) from None


def check_after_version(value: int) -> int:
    """:raises InvalidCommandError: for a negative ``after_version``."""
    if value < 0:
        raise InvalidCommandError(
            "after_version must be >= 0",
            violations=(("after_version", "0 replays from the first event"),),
        )
    return value


@asynccontextmanager
async def _statuses(context: grpc.aio.ServicerContext) -> AsyncIterator[None]:
    """Abort ``context`` with the status :mod:`services.api.errors` maps an
    exception of the body to; gRPC's own aborts and cancellation pass as they
    are."""
    try:
        yield
    except (grpc.aio.AbortError, asyncio.CancelledError):
        raise
    except Exception as exc:  # noqa: BLE001 - the table decides
        await abort(context, exc)


def guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """Map every exception through :mod:`services.api.errors`, for unary and
    server-streaming handlers (async generators) alike."""
    if inspect.isasyncgenfunction(method):

        @wraps(method)
        async def stream(
            self: Any, request: Any, context: grpc.aio.ServicerContext
        ) -> Any:
            async with _statuses(context):
                async for item in method(self, request, context):
                    yield item

        return stream

    @wraps(method)
    async def unary(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        async with _statuses(context):
            return await method(self, request, context)

    return unary
