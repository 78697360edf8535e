"""Bearer-token authentication: who a call is.

Tokens are random 256-bit strings; the database stores only their SHA-256, so
a leaked database does not leak seats.  :mod:`services.api.call_gate`
resolves the token once per call (:func:`authenticate`) and hands the
servicer a :class:`~services.ledger.callers.Principal` (the service layer's
caller) through a context variable, so servicers never
parse metadata themselves.  A call with no token
is a spectator; a call with an unknown token is refused (a typo should not
silently downgrade a player to a spectator).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from services.ledger.callers import ANONYMOUS, Principal, UnauthenticatedError

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


async def authenticate(resolver: TokenResolver, metadata: Any) -> Principal:
    """The principal of a call's ``metadata``: anonymous without a token.

    :raises UnauthenticatedError: for a malformed authorization header or an
        unknown token.
    :raises Exception: whatever the token lookup raised (the database down, say);
        the error table answers it.
    """
    try:
        token = bearer_token(metadata)
    except ValueError as exc:
        raise UnauthenticatedError(str(exc), "MALFORMED_AUTHORIZATION") from exc
    if token is None:
        return ANONYMOUS
    principal = await resolver.resolve(token)
    if principal is None:
        raise UnauthenticatedError("unknown bearer token", "UNKNOWN_TOKEN")
    return principal
