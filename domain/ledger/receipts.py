"""Server-signed receipts: evidence a player keeps outside the database.

No check inside one database can stop its superuser: with the triggers
disabled and the hash chain recomputed, a rewritten log is self-consistent.
A receipt is the server's Ed25519 signature over one head of one game::

    canonical_json({"context": "ledger-receipt/v1", "game_id": str,
                    "version": int, "head_hash": hex, "timestamp": ISO-8601})

(:func:`domain.ledger.records.canonical_json`).  The signing key lives with the
server (data dir or configuration), never in the database, so whoever holds
only the database cannot issue a receipt for a rewritten history.  Because
each hash covers the one before, a receipt for version ``v`` pins events
``1..v``: any later edit, reordering, back-dating or truncation behind it
shows up as a mismatch (see :func:`check_receipts`).

Ed25519 signatures are deterministic, so the same head always gets the same
receipt; verification needs only the 32-byte public key (published by the
``GetLedgerKey`` RPC and in every export).

One deployment has one signing identity at a time, but keys rotate: a
:class:`Keyring` holds every public key the deployment ever signed with,
each with the window it was allowed to sign in.  A receipt names its key
(``key_id``); it verifies when that key is in the ring, its timestamp lies
in the key's window, and the signature holds.  The window is what makes a
retired key harmless: a receipt it signs after its ``not_after`` is refused,
so a leaked old key cannot vouch for a new history.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from nacl.bindings import crypto_sign, crypto_sign_seed_keypair

from domain.ledger.records import canonical_json

CONTEXT = "ledger-receipt/v1"


def receipt_message(
    game_id: str, version: int, head_hash: str, timestamp: str
) -> bytes:
    """The exact bytes a receipt signs."""
    return canonical_json(
        {
            "context": CONTEXT,
            "game_id": game_id,
            "version": version,
            "head_hash": head_hash,
            "timestamp": timestamp,
        }
    )


def key_id(public_key: bytes) -> str:
    """A short name for a public key: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(public_key).hexdigest()[:16]


@dataclass(frozen=True)
class Receipt:
    game_id: str
    version: int
    head_hash: str
    timestamp: str
    key_id: str
    signature: bytes

    def message(self) -> bytes:
        return receipt_message(
            self.game_id, self.version, self.head_hash, self.timestamp
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "version": self.version,
            "head_hash": self.head_hash,
            "timestamp": self.timestamp,
            "key_id": self.key_id,
            "signature": base64.b64encode(self.signature).decode("ascii"),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Receipt:
        """:raises ValueError: for a malformed receipt."""
        try:
            return cls(
                game_id=str(data["game_id"]),
                version=int(data["version"]),
                head_hash=str(data["head_hash"]),
                timestamp=str(data["timestamp"]),
                key_id=str(data.get("key_id", "")),
                signature=base64.b64decode(data["signature"], validate=True),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed receipt: {exc}") from None


class Signer:
    """The server's receipt key.

    Why signatures are made by libsodium (PyNaCl, as seat keys are checked)
    while the key is held as ``cryptography``'s: every move signs a receipt,
    and OpenSSL 3 sets up a signing context per signature, which costs about
    a third more than the signature itself.  Ed25519 is deterministic
    (RFC 8032), so both libraries give the same bytes for the same key and
    message (tested); verification is unchanged.
    """

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._key = private_key
        self.public_key = private_key.public_key().public_bytes(
            Encoding.Raw, PublicFormat.Raw
        )
        self.key_id = key_id(self.public_key)
        _, self._secret = crypto_sign_seed_keypair(private_key.private_bytes_raw())

    def _sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature (``crypto_sign`` returns it before
        the message)."""
        return crypto_sign(message, self._secret)[:64]

    @classmethod
    def generate(cls) -> Signer:
        return cls(Ed25519PrivateKey.generate())

    def derive_key(self, purpose: str) -> bytes:
        """A 32-byte secret for ``purpose``, derived from this key (HKDF-SHA256).

        Why derive rather than configure another secret: the servers that
        share this key are exactly the ones that share the live-event bus,
        and HKDF's ``info`` keeps the two uses apart (knowing a derived key
        reveals nothing about the signing key).
        """
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        return HKDF(
            algorithm=hashes.SHA256(), length=32, salt=None, info=purpose.encode()
        ).derive(self._key.private_bytes_raw())

    def sign_message(self, message: bytes) -> bytes:
        """This key's signature over ``message`` (checkpoints: their own context)."""
        return self._sign(message)

    def sign(
        self, game_id: str, version: int, head_hash: str, timestamp: str
    ) -> Receipt:
        message = receipt_message(game_id, version, head_hash, timestamp)
        return Receipt(
            game_id,
            version,
            head_hash,
            timestamp,
            self.key_id,
            self._sign(message),
        )


def is_valid(receipt: Receipt, public_key: bytes) -> bool:
    """Whether ``public_key`` signed exactly this receipt."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(
            receipt.signature, receipt.message()
        )
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class RingKey:
    """One public key of the deployment and the window it may sign in.

    ``None`` bounds are open.  ``not_after`` is exclusive, ``not_before``
    inclusive, both compared with the receipt's (signed) timestamp.
    """

    public_key: bytes
    not_before: datetime | None = None
    not_after: datetime | None = None

    @property
    def key_id(self) -> str:
        return key_id(self.public_key)

    def covers(self, timestamp: str) -> bool:
        """Whether a receipt stamped ``timestamp`` falls in this key's window."""
        if self.not_before is None and self.not_after is None:
            return True
        try:
            when = datetime.fromisoformat(timestamp)
        except ValueError:
            return False
        if when.tzinfo is None:
            return False  # a window is absolute; a naive stamp cannot be placed in it
        if self.not_before is not None and when < self.not_before:
            return False
        return self.not_after is None or when < self.not_after

    def window(self) -> str:
        start = self.not_before.isoformat() if self.not_before else "the start"
        end = self.not_after.isoformat() if self.not_after else "now"
        return f"{start} to {end}"


@dataclass(frozen=True)
class Keyring:
    """Every key a deployment signs or signed receipts with (the first one signs now).

    :meth:`of` builds a ring with open windows, for one pinned key or a few.
    """

    keys: tuple[RingKey, ...]

    @classmethod
    def of(cls, *public_keys: bytes) -> Keyring:
        return cls(tuple(RingKey(k) for k in public_keys))

    def find(self, wanted: str) -> RingKey | None:
        return next((k for k in self.keys if k.key_id == wanted), None)

    def ids(self) -> str:
        return ", ".join(k.key_id for k in self.keys) or "none"

    def to_json(self) -> list[dict[str, Any]]:
        return [
            {
                "public_key": k.public_key.hex(),
                "not_before": k.not_before.isoformat() if k.not_before else None,
                "not_after": k.not_after.isoformat() if k.not_after else None,
            }
            for k in self.keys
        ]

    @classmethod
    def from_json(cls, items: Any) -> Keyring:
        """:raises ValueError: for anything but :meth:`to_json`'s shape."""
        if not isinstance(items, list):
            raise ValueError("a keyring is a list of keys")  # noqa: TRY004 - one error type for callers
        keys = []
        for item in items:
            try:
                start, end = item.get("not_before"), item.get("not_after")
                keys.append(
                    RingKey(
                        bytes.fromhex(item["public_key"]),
                        datetime.fromisoformat(start) if start else None,
                        datetime.fromisoformat(end) if end else None,
                    )
                )
            except (AttributeError, KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"malformed keyring entry: {exc}") from None
        return cls(tuple(keys))

    def with_key(self, key: RingKey) -> Keyring:
        """This ring with ``key`` first; a key already in it keeps its window."""
        found = self.find(key.key_id)
        first = found if found is not None else key
        return Keyring((first, *(k for k in self.keys if k.key_id != key.key_id)))


def _key_problem(receipt: Receipt, ring: Keyring) -> str | None:
    """Why ``ring`` does not vouch for ``receipt``, or None when it does."""
    if receipt.key_id:
        key = ring.find(receipt.key_id)
        if key is None:
            return (
                f"signed by key {receipt.key_id}, which is not in the keyring "
                f"({ring.ids()}): use the deployment's keyring or --public-key"
            )
        if not is_valid(receipt, key.public_key):
            return "signature does not verify with the server's public key"
        if not key.covers(receipt.timestamp):
            return (
                f"signed by key {receipt.key_id} at {receipt.timestamp}, outside "
                f"its validity window ({key.window()})"
            )
        return None
    # a receipt from before key ids: any key of the ring, inside its window
    for key in ring.keys:
        if is_valid(receipt, key.public_key) and key.covers(receipt.timestamp):
            return None
    return "signature does not verify with the server's public key"


def vouched(receipts: Iterable[Receipt], keys: bytes | Keyring) -> list[Receipt]:
    """The receipts ``keys`` vouch for: a good signature by a key of the ring,
    stamped inside that key's window (what they say is not checked here)."""
    ring = keys if isinstance(keys, Keyring) else Keyring.of(keys)
    return [r for r in receipts if _key_problem(r, ring) is None]


@dataclass(frozen=True)
class ReceiptProblem:
    version: int
    check: str
    detail: str


def check_receipts(
    game_id: str,
    raw: Sequence[tuple[int, str, bytes]],
    receipts: Iterable[Receipt],
    keys: bytes | Keyring,
    origin: str = "held",
) -> list[ReceiptProblem]:
    """Every way the stored rows contradict receipts signed by ``keys``.

    ``keys`` is the deployment's keyring, or one public key.  A receipt with
    a bad signature, an unknown key or a stamp outside its key's window
    proves nothing and is reported as such (it was forged, damaged or signed
    by a key the ring does not vouch for then); a good one must name an
    event that exists, with the same hash and timestamp.
    """
    ring = keys if isinstance(keys, Keyring) else Keyring.of(keys)
    heads: dict[int, tuple[str, str]] = {}
    for version, _type, data in raw:
        try:
            record = json.loads(data)
            heads[version] = (record["hash"], record["timestamp"])
        except (ValueError, KeyError, TypeError):
            continue
    problems: list[ReceiptProblem] = []
    for receipt in receipts:
        if receipt.game_id != game_id:
            continue
        v = receipt.version
        problem = _key_problem(receipt, ring)
        if problem is not None:
            problems.append(ReceiptProblem(v, f"receipt ({origin})", problem))
        elif v not in heads:
            end = max(heads, default=0)
            problems.append(
                ReceiptProblem(
                    v,
                    f"receipt ({origin})",
                    f"the server signed event {v}, but the log ends at {end}: "
                    "history was truncated"
                    if v > end
                    else f"the server signed event {v}, which is missing from the log",
                )
            )
        elif heads[v][0] != receipt.head_hash:
            problems.append(
                ReceiptProblem(
                    v,
                    f"receipt ({origin})",
                    "the signed head hash differs from the log: history up to "
                    "this event was rewritten",
                )
            )
        elif heads[v][1] != receipt.timestamp:
            problems.append(
                ReceiptProblem(
                    v,
                    f"receipt ({origin})",
                    "the signed timestamp differs from the log",
                )
            )
    return problems


def load_receipts(text: str) -> list[Receipt]:
    """Receipts from a file: one JSON object per line, or a JSON list.

    :raises ValueError: for anything that is not a list of receipts.
    """
    stripped = text.strip()
    if not stripped:
        return []
    if stripped.startswith("["):
        items = json.loads(stripped)
    else:
        items = [json.loads(line) for line in stripped.splitlines() if line.strip()]
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise ValueError("expected JSON receipt objects")
    return [Receipt.from_json(i) for i in items]
