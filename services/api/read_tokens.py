"""Read tokens: read-your-writes without telling anyone where the log is.

Why not the log position: a write's answer used to carry the global log
position of its last event, and any caller that wrote twice learned how many
events every other game had recorded in between, hidden ones included.  A
spectator held some moves behind a game timed each of its hidden moves by
making moves of its own.  The position is what the views must reach before
a read includes the write, so the server still needs it back; the caller
must not be able to read it.

So the answer carries the position sealed: AES-256-GCM under a key derived
from the deployment's secret (the admin token, as page tokens), with a
random nonce, and the caller's identity as associated data.  What follows:

- nothing about the position is readable or comparable: two tokens of the
  same write differ, every token has the same length (the position is a
  fixed 8 bytes), and one caller's tokens cannot be ordered;
- a token is accepted only from the caller it was issued to (another
  caller, a spectator, a forged or cut token: the same ``INVALID_ARGUMENT``,
  after the same work), so a token that leaks is of no use to anyone else;
- the position it hides is one this caller's own write reached, so waiting
  for it (:meth:`services.api.read_rpc.ReadModels.catch_up_to`) times only
  the views, never anyone else's moves.

Every worker of a deployment derives the same key (:func:`configure`);
rotating the admin token makes outstanding tokens invalid, which costs a
client one read that does not wait.  Until configured (unit tests), a random
per-process key is used.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from services.ledger.callers import Principal
from services.proto.limits import FieldLimitError

PREFIX = "rt1."
"""The token format's version: a later format can be told apart."""
_NONCE = 12
_POSITION = 8
_key = AESGCM(secrets.token_bytes(32))


class ReadTokenError(FieldLimitError):
    """Raised when a read token is not one this server issued to this caller."""

    def __init__(self) -> None:
        super().__init__(
            "min_read_token",
            "is not a read token this server issued to this caller",
        )


def configure(secret: str) -> None:
    """Derive the sealing key from the deployment's secret (the admin token)."""
    global _key
    _key = AESGCM(
        hmac.new(secret.encode(), b"ledger read tokens v1", hashlib.sha256).digest()
    )


def _caller(principal: Principal) -> bytes:
    """Who a token is bound to: the credential's grants, not the token itself
    (a seat token and the same seat reached through a tournament differ)."""
    tournament = principal.tournament
    who = (
        principal.admin,
        principal.grant,
        (tournament.tournament_id, tournament.role, tournament.player_id)
        if tournament is not None
        else None,
        principal.organiser,
    )
    return hashlib.sha256(repr(who).encode()).digest()


def issue(position: int, principal: Principal) -> str:
    """The read token of ``position`` for ``principal`` ("" for no position)."""
    if position <= 0:
        return ""
    nonce = secrets.token_bytes(_NONCE)
    sealed = _key.encrypt(
        nonce, position.to_bytes(_POSITION, "big"), _caller(principal)
    )
    return PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode().rstrip("=")


def position(token: str, principal: Principal) -> int:
    """The position sealed in ``token``, if ``principal`` was issued it (0 for "").

    :raises ReadTokenError: for anything else: another caller's token, a
        forged, cut or garbled one.
    """
    if not token:
        return 0
    body = token[len(PREFIX) :]
    try:
        if not token.startswith(PREFIX) or not token.isascii():
            raise ValueError
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        plain = _key.decrypt(raw[:_NONCE], raw[_NONCE:], _caller(principal))
    except (ValueError, InvalidTag):
        raise ReadTokenError() from None
    return int.from_bytes(plain, "big")
