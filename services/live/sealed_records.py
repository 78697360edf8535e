"""Records as they travel on the NATS bus: encrypted and authenticated for the deployment's servers.

Why seal them: a stored record holds everything, hidden hands and the
per-record nonces included, and redaction happens in the serving process.
Publishing it in clear would make the secrecy of every hand depend on
nobody but the servers ever reading NATS.  So each record is encrypted with
AES-256-GCM under a key every server of the deployment derives from the
shared signing key (:meth:`domain.ledger.receipts.Signer.derive_key`); what a bus
reader without it sees is an opaque subject per game, an opaque message id,
and ciphertext (its size and timing are all that shows).

Why it also stops forgery: GCM authenticates the game id (associated data)
and the version and type inside the ciphertext, so relabelling an earlier
record as a later version, or another game's, fails to open.  The message
id JetStream deduplicates on is an HMAC of (game, version), so nobody
without the key can predict it and pre-empt the genuine publish.  Receivers
still check every opened record against the game's hash chain
(:mod:`services.live.nats_tail`), which holds even against a holder of the
key.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import struct
from uuid import UUID

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PURPOSE = "ledger-bus/v1"
_HEAD = struct.Struct(">QH")  # version, length of the type name


class SealError(ValueError):
    """A bus message that does not open with this deployment's key."""


class RecordSeal:
    """Seals and opens stored records for the bus, and names their subjects."""

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("a bus key is 32 bytes")
        self._aead = AESGCM(hmac.new(key, b"encrypt", hashlib.sha256).digest())
        self._names = hmac.new(key, b"names", hashlib.sha256).digest()

    def _name(self, text: str) -> str:
        return hmac.new(self._names, text.encode(), hashlib.sha256).hexdigest()[:32]

    def subject(self, game_id: UUID | str) -> str:
        """``ledger.games.<opaque>``: one subject per game, the game id not shown."""
        return f"ledger.games.{self._name(str(game_id))}"

    def message_id(self, game_id: UUID | str, version: int) -> str:
        """What JetStream deduplicates on; unpredictable without the key."""
        return self._name(f"{game_id}:{version}")

    def seal(
        self, game_id: UUID | str, version: int, topic: str, state: bytes
    ) -> bytes:
        name = topic.encode()
        nonce = os.urandom(12)
        plain = _HEAD.pack(version, len(name)) + name + state
        return nonce + self._aead.encrypt(nonce, plain, str(game_id).encode())

    def open(self, game_id: UUID | str, data: bytes) -> tuple[int, str, bytes]:
        """``(version, type, record bytes)``.

        :raises SealError: for anything not sealed by this deployment for this game.
        """
        try:
            plain = self._aead.decrypt(data[:12], data[12:], str(game_id).encode())
            version, size = _HEAD.unpack_from(plain)
            start = _HEAD.size
            return version, plain[start : start + size].decode(), plain[start + size :]
        except (InvalidTag, ValueError, struct.error) as exc:
            raise SealError(f"{type(exc).__name__}") from None
