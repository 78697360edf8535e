"""Opaque, integrity-protected page tokens for every paginated RPC.

Why signed: a page token used to be base64 JSON that the server trusted, so a
client could forge ``{"o": -1}`` or ``{"o": 2**63}`` and reach code paths
(negative ``OFFSET``, huge ``islice``) that answered INTERNAL.  Now the server
signs what it hands out (HMAC-SHA256 over the kind and the payload) and
accepts only what it signed: anything else, whatever its shape, is
``INVALID_ARGUMENT``.  The kind names the RPC, so a leaderboard token is no
use to ``ListGames``.  Tokens are not encrypted (their payload is an offset or
a cursor the caller could infer anyway), only authenticated.

The key is derived from the admin token (:func:`configure`), so every worker
of one deployment accepts the others' tokens and nothing new must be stored;
rotating the admin token invalidates outstanding page tokens, which only
makes clients start their listing again.  Until configured (unit tests, the
CLI), a random per-process key is used.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any

from services.proto.limits import FieldLimitError

MAX_OFFSET = 1 << 31
"""Offsets beyond this are never issued (no listing is that long)."""
_MAC_BYTES = 16
_key = secrets.token_bytes(32)


class PageTokenError(FieldLimitError):
    """Raised when a page token is not one this server issued for this call."""

    def __init__(
        self, why: str = "is not one this server issued for this call"
    ) -> None:
        super().__init__("page_token", why)


def configure(secret: str) -> None:
    """Derive the signing key from the deployment's secret (the admin token)."""
    global _key
    _key = hmac.new(secret.encode(), b"ledger page tokens v1", hashlib.sha256).digest()


def _mac(kind: str, body: bytes) -> bytes:
    return hmac.new(_key, kind.encode() + b"\0" + body, hashlib.sha256).digest()[
        :_MAC_BYTES
    ]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode(kind: str, payload: dict[str, Any]) -> str:
    """A token carrying ``payload`` (JSON-able) for RPC ``kind``."""
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return f"{_b64(body)}.{_b64(_mac(kind, body))}"


def decode(kind: str, token: str) -> dict[str, Any]:
    """The payload of a token this server issued for ``kind``.

    :raises PageTokenError: for anything else (bad MAC, another kind, garbage).
    """
    body_text, dot, mac_text = token.partition(".")
    try:
        if not dot or not token.isascii():
            raise ValueError
        body, mac = _unb64(body_text), _unb64(mac_text)
    except ValueError:
        raise PageTokenError() from None
    if not hmac.compare_digest(mac, _mac(kind, body)):
        raise PageTokenError()
    payload = json.loads(body)  # we signed it, so it is our JSON object
    if not isinstance(payload, dict):
        raise PageTokenError()
    return payload


def offset(kind: str, token: str, **bound: Any) -> int:
    """The offset of an offset-paged listing (0 without a token).

    ``bound`` are the request's filters the token was issued with: a token
    from one listing cannot page through another.

    :raises PageTokenError: for a token not issued for this listing.
    """
    if not token:
        return 0
    payload = decode(kind, token)
    value = payload.get("o")
    if any(payload.get(k) != v for k, v in bound.items()):
        raise PageTokenError("was issued for another query; start again")
    if not isinstance(value, int) or isinstance(value, bool):
        raise PageTokenError()
    if not 0 <= value <= MAX_OFFSET:
        raise PageTokenError()
    return value


def next_offset(kind: str, value: int, **bound: Any) -> str:
    """The token of the page starting at ``value`` of the listing ``bound``."""
    return encode(kind, {"o": value, **bound})


def after_page(kind: str, offset: int, size: int, fetched: int, **bound: Any) -> str:
    """The next page's token for a page read as ``size + 1`` rows from ``offset``:
    ``""`` when ``fetched`` shows there is nothing after this page."""
    return next_offset(kind, offset + size, **bound) if fetched > size else ""
