"""The deployment's receipt-signing key and keyring: configured, or generated once into the data dir.

Why outside the database: a receipt is evidence against whoever controls
the database, so the key must not be readable by a database superuser.
``LEDGER_SIGNING_KEY`` (the 32-byte Ed25519 private key, hex) wins; then
``LEDGER_SIGNING_KEY_FILE`` (a secret every server of the deployment mounts,
hex or PEM); else ``data_dir/signing-key`` (PEM, mode 0600) is read, or
created on first start, which suits one host only: servers that each made
their own key sign receipts no single key verifies.

``LEDGER_KEYRING`` lists the public keys the deployment signed with before
(and may give the current key a start), each with its validity window, so
receipts signed before a rotation keep verifying.
"""

from __future__ import annotations

import json
import logging
import os
from datetime import datetime
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from domain.ledger.receipts import Keyring, RingKey, Signer

log = logging.getLogger(__name__)
KEY_FILE = "signing-key"


class SigningKeyError(ValueError):
    """Raised when the configured or stored signing key is not an Ed25519 key."""


def _from_hex(raw: str, where: str) -> Signer:
    try:
        return Signer(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(raw.strip())))
    except ValueError:
        raise SigningKeyError(
            f"{where} must be a 32-byte Ed25519 private key in hex"
        ) from None


def _from_file(path: Path) -> Signer:
    """A key file: PEM (PKCS#8, as generated here) or one line of hex."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SigningKeyError(
            f"cannot read the signing key {path}: {exc.strerror}"
        ) from None
    if not data.lstrip().startswith(b"-----BEGIN"):
        return _from_hex(data.decode("ascii", "replace"), str(path))
    try:
        key = load_pem_private_key(data, password=None)
    except ValueError:
        raise SigningKeyError(f"{path} is not a PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{path} is not an Ed25519 key")
    return Signer(key)


SHARED_KEY_NEEDED = (
    "no signing key for a server of several (LEDGER_NATS_URL is set): give every "
    "host the same key with LEDGER_SIGNING_KEY_FILE (or LEDGER_SIGNING_KEY) rather "
    "than letting each generate its own"
)


def load_signer(
    configured: str | None,
    data_dir: Path,
    key_file: Path | None = None,
    generate: bool = True,
) -> Signer:
    """The server's signer: ``configured`` (hex), else ``key_file``, else the key kept in ``data_dir``.

    With nothing there, a key is generated into ``data_dir`` only if
    ``generate``: a server of a multi-host deployment (one that shares a bus)
    must not, since every host would then sign with a key of its own, which
    the others' audits do not know and whose sealed records no other server
    can open.

    :raises SigningKeyError: for a malformed or unreadable configured or stored
        key, or, without ``generate``, for no key at all.
    """
    if configured is not None:
        return _from_hex(configured, "LEDGER_SIGNING_KEY")
    if key_file is not None:
        return _from_file(key_file)
    path = data_dir / KEY_FILE
    if path.exists():
        return _from_file(path)
    if not generate:
        raise SigningKeyError(SHARED_KEY_NEEDED)
    key = Ed25519PrivateKey.generate()
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process generated it a moment ago
        return load_signer(configured, data_dir, generate=generate)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    log.info("generated a receipt signing key in %s", path)
    return Signer(key)


def _moment(entry: dict[str, object], name: str) -> datetime | None:
    value = entry.get(name)
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError:
        raise SigningKeyError(
            f"LEDGER_KEYRING: {name} {value!r} is not an ISO 8601 time"
        ) from None
    if when.tzinfo is None:
        raise SigningKeyError(
            f"LEDGER_KEYRING: {name} {value!r} needs a UTC offset (e.g. +00:00)"
        )
    return when


def parse_keyring(configured: str | None) -> Keyring:
    """``LEDGER_KEYRING``: a JSON list of ``{"public_key": hex, "not_before"?, "not_after"?}``.

    Public keys only: the ring verifies, it never signs, so it is
    configuration rather than a secret.

    :raises SigningKeyError: for anything else, naming what is wrong.
    """
    if configured is None or not configured.strip():
        return Keyring(())
    try:
        entries = json.loads(configured)
    except ValueError:
        raise SigningKeyError("LEDGER_KEYRING must be a JSON list") from None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise SigningKeyError(
            'LEDGER_KEYRING must be a JSON list of {"public_key": hex, '
            '"not_before": time, "not_after": time} objects'
        )
    keys = []
    for entry in entries:
        try:
            public_key = bytes.fromhex(str(entry["public_key"]))
        except (KeyError, ValueError):
            raise SigningKeyError(
                "LEDGER_KEYRING: each entry needs public_key, 32 bytes in hex"
            ) from None
        if len(public_key) != 32:
            raise SigningKeyError(
                "LEDGER_KEYRING: each entry needs public_key, 32 bytes in hex"
            )
        start, end = _moment(entry, "not_before"), _moment(entry, "not_after")
        if start is not None and end is not None and end <= start:
            raise SigningKeyError(
                f"LEDGER_KEYRING: key {public_key.hex()[:16]}... ends before it starts"
            )
        keys.append(RingKey(public_key, start, end))
    return Keyring(tuple(keys))
