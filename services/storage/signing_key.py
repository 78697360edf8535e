"""The server's receipt-signing key: configured, or generated once into the data dir.

Why outside the database: a receipt is evidence against whoever controls
the database, so the key must not be readable by a database superuser.
``LEDGER_SIGNING_KEY`` (the 32-byte Ed25519 private key, hex) wins; else
``data_dir/signing-key`` (PEM, mode 0600) is read, or created on first start.
Every server process and ``ledger audit`` on the same host read the same key.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from domain.receipts import Signer

log = logging.getLogger(__name__)
KEY_FILE = "signing-key"


class SigningKeyError(ValueError):
    """Raised when the configured or stored signing key is not an Ed25519 key."""


def load_signer(configured: str | None, data_dir: Path) -> Signer:
    """The server's signer: ``configured`` (hex), else the key kept in ``data_dir``.

    :raises SigningKeyError: for a malformed configured or stored key.
    """
    if configured is not None:
        raw = configured.strip()
        try:
            return Signer(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(raw)))
        except ValueError:
            raise SigningKeyError(
                "LEDGER_SIGNING_KEY must be a 32-byte Ed25519 private key in hex"
            ) from None
    path = data_dir / KEY_FILE
    if path.exists():
        try:
            key = load_pem_private_key(path.read_bytes(), password=None)
        except ValueError:
            raise SigningKeyError(f"{path} is not a PEM private key") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise SigningKeyError(f"{path} is not an Ed25519 key")
        return Signer(key)
    key = Ed25519PrivateKey.generate()
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process generated it a moment ago
        return load_signer(configured, data_dir)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    log.info("generated a receipt signing key in %s", path)
    return Signer(key)
