"""Bearer-token authentication as a gRPC interceptor.

Tokens are random 256-bit strings; the database stores only their SHA-256, so
a leaked database does not leak seats.  The interceptor resolves the token
once per call and hands the handler a :class:`Principal` through a context
variable, so servicers never parse metadata themselves.  A call with no token
is a spectator; a call with an unknown token is refused (a typo should not
silently downgrade a player to a spectator).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import grpc

from domain.core import ADMIN, SPECTATOR, Seat, Viewer
from domain.viewers import SeatGrant
from services.api.errors import UnauthenticatedError, abort


@dataclass(frozen=True)
class Principal:
    """Who is calling: the admin, the holder of one game's seat token, or anyone."""

    admin: bool = False
    grant: SeatGrant | None = None
    tournament: Any = None
    """A ``TournamentGrant`` (organiser or player of one tournament)."""
    organiser: bool = False
    """Holds an organiser credential: may create tournaments."""

    def viewer_for(self, game_id: UUID) -> Viewer:
        if self.admin:
            return ADMIN
        if self.grant is not None and self.grant.game_id == game_id:
            return Viewer.player(*self.grant.seats)
        return SPECTATOR

    def seats_in(self, game_id: UUID) -> tuple[Seat, ...]:
        if self.grant is not None and self.grant.game_id == game_id:
            return self.grant.seats
        return ()

    @property
    def role(self) -> str:
        if self.admin:
            return "admin"
        if self.grant:
            return "player"
        if self.organiser:
            return "organiser"
        return self.tournament.role if self.tournament else "spectator"


ANONYMOUS = Principal()
current_principal: ContextVar[Principal] = ContextVar(
    "current_principal", default=ANONYMOUS
)


def bearer_token(metadata: Any) -> str | None:
    """The token of an ``authorization: Bearer <token>`` header, if any.

    :raises ValueError: for an authorization header of another form.
    """
    for key, value in metadata or ():
        if key.lower() == "authorization":
            scheme, _, token = str(value).partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise ValueError("authorization must be 'Bearer <token>'")
            return token.strip()
    return None


class TokenResolver:
    """Maps tokens to principals: the admin token, or a seat grant from the store."""

    def __init__(
        self, admin_token: str, lookup: Callable[[str], Awaitable[Principal | None]]
    ):
        self._admin_digest = hashlib.sha256(admin_token.encode()).digest()
        self._lookup = lookup
        self._cache: dict[str, Principal] = {}

    async def resolve(self, token: str) -> Principal | None:
        if hmac.compare_digest(
            hashlib.sha256(token.encode()).digest(), self._admin_digest
        ):
            return Principal(admin=True)
        principal = self._cache.get(token)
        if principal is None:
            found = await self._lookup(token)
            if found is None:
                return None
            if len(self._cache) >= 100_000:
                self._cache.pop(
                    next(iter(self._cache))
                )  # oldest first: a bounded cache
            principal = self._cache[token] = found
        return principal


def _refusal(
    handler: grpc.RpcMethodHandler, exc: BaseException
) -> grpc.RpcMethodHandler:
    """A handler that answers ``exc`` through the one error table
    (:mod:`services.api.errors`), like every servicer method does."""

    async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        await abort(context, exc)

    async def stream(request: Any, context: grpc.aio.ServicerContext) -> Any:
        await abort(context, exc)
        yield  # pragma: no cover - makes this an async generator

    if handler.unary_stream is not None:
        return grpc.unary_stream_rpc_method_handler(
            stream, handler.request_deserializer, handler.response_serializer
        )
    return grpc.unary_unary_rpc_method_handler(
        unary, handler.request_deserializer, handler.response_serializer
    )


def _with_principal(
    handler: grpc.RpcMethodHandler, principal: Principal
) -> grpc.RpcMethodHandler:
    if handler.unary_unary is not None:
        # grpc's stubs type handlers as synchronous; under grpc.aio they are coroutines
        inner: Any = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            current_principal.set(principal)
            return await inner(request, context)

        return grpc.unary_unary_rpc_method_handler(
            unary, handler.request_deserializer, handler.response_serializer
        )
    if handler.unary_stream is not None:
        inner_stream: Any = handler.unary_stream

        async def stream(request: Any, context: grpc.aio.ServicerContext) -> Any:
            current_principal.set(principal)
            async for item in inner_stream(request, context):
                yield item

        return grpc.unary_stream_rpc_method_handler(
            stream, handler.request_deserializer, handler.response_serializer
        )
    return handler


class AuthInterceptor(grpc.aio.ServerInterceptor):
    """Authenticates every ``ledger.v1`` call; health and reflection stay open."""

    def __init__(self, resolver: TokenResolver) -> None:
        self._resolver = resolver

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any] | None]
        ],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        handler = await continuation(details)
        if handler is None or not details.method.startswith("/ledger.v1."):
            return handler
        try:
            token = bearer_token(details.invocation_metadata)
        except ValueError as exc:
            return _refusal(
                handler, UnauthenticatedError(str(exc), "MALFORMED_AUTHORIZATION")
            )
        if token is None:
            return _with_principal(handler, ANONYMOUS)
        try:
            principal = await self._resolver.resolve(token)
        except Exception as exc:  # noqa: BLE001 - e.g. the database is down: the table decides
            return _refusal(handler, exc)
        if principal is None:
            return _refusal(
                handler, UnauthenticatedError("unknown bearer token", "UNKNOWN_TOKEN")
            )
        return _with_principal(handler, principal)
