"""A new ledger event's link of the hash chain: its nonce, hash and record.

Why one function for every event: the game's creation and each decided or
concluding event are sealed the same way (a fresh secret nonce, one encoding
of the body, :func:`domain.ledger.records.seal`), so the aggregate cannot seal one
kind differently from another.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from domain.ledger.records import seal


def new_nonce() -> str:
    """The secret per-record nonce of hash algorithm v2 (see :mod:`domain.ledger.records.sealing`)."""
    return secrets.token_hex(16)


def link(
    *,
    game_id: str,
    version: int,
    type_: str,
    timestamp: datetime,
    prev_hash: str,
    body: dict[str, Any],
) -> dict[str, Any]:
    """The chain fields of a new event (``prev_hash``, ``hash``, ``nonce``,
    ``stored``), to pass to the event with its other fields."""
    nonce = new_nonce()
    digest, stored = seal(
        game_id=game_id,
        version=version,
        type_=type_,
        timestamp=timestamp.isoformat(),
        prev_hash=prev_hash,
        body=body,
        nonce=nonce,
    )
    return {"prev_hash": prev_hash, "hash": digest, "nonce": nonce, "stored": stored}
