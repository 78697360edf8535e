"""The per-game hash chain: the hash input, the hash and the sealed record.

Why apart from the codec: this is the hash chain's side of the format (what
the hash covers), and :func:`seal` is the one place a new event's body is
encoded: it splices the same body bytes into the hash input and the stored
record, and the mapper stores those bytes as they are.

Why a chain and not a per-row checksum: a row checksum catches an edited row
but not a deleted or reordered one.  Each event's hash covers the previous
event's hash, so any edit, deletion, insertion or reordering breaks every
link after it, and the audit can name the first event that fails.

Algorithm ``sha256-canonical-json/v1``: ``SHA-256`` of the UTF-8 canonical
JSON (sorted keys, no insignificant whitespace, non-ASCII kept;
:func:`domain.ledger.records.canonical_json`) of::

    {"alg": ALG, "game_id": str, "version": int, "type": str,
     "timestamp": ISO-8601, "prev_hash": hex, "body": {...}}

where ``body`` is everything else the event stores.  The first event's
``prev_hash`` is 64 zeros.  A new algorithm gets a new ``alg`` string and the
stored record says which one it used.

Algorithm ``sha256-canonical-json/v2`` (every record written since receipts)
adds ``"nonce": hex`` (16 random bytes, stored in the record) to the hashed
document.  Why: a head hash now leaves the server while a game runs (in the
signed receipts a player keeps), and without a secret nonce a player could
brute-force a small hidden part of the record (one face-down card) by
hashing each candidate.  The timestamp is inside the hashed document in both
versions, so a back-dated timestamp changes the event's hash and every hash
after it, which breaks every receipt issued for a later version.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, ParamSpec

import orjson

from domain.ledger.records.canonical import SORTED, canonical_json
from domain.ledger.records.names import ALG, ALG_V1, ALGORITHMS

P = ParamSpec("P")


def hash_input(
    *,
    game_id: str,
    version: int,
    type_: str,
    timestamp: str,
    prev_hash: str,
    body: Any,
    alg: str = ALG,
    nonce: str | None = None,
) -> bytes:
    """The bytes an event's hash covers (see the module docstring).

    ``body`` is the decoded body, or its canonical bytes wrapped in
    :class:`orjson.Fragment` (how :func:`seal` avoids encoding it twice).

    :raises ValueError: for an algorithm this code does not know, or a v2
        record without its nonce.
    """
    if alg not in ALGORITHMS:
        raise ValueError(f"unknown hash algorithm {alg!r}")
    if (alg == ALG) != (nonce is not None):
        raise ValueError(f"{alg} records {'need' if alg == ALG else 'have no'} nonce")
    doc = {
        "alg": alg,
        "game_id": game_id,
        "version": version,
        "type": type_,
        "timestamp": timestamp,
        "prev_hash": prev_hash,
        "body": body,
    }
    if nonce is not None:
        doc["nonce"] = nonce
    if isinstance(body, orjson.Fragment):
        return orjson.dumps(doc, option=SORTED)  # only str/int fields around it
    return canonical_json(doc)


def _sha256_hex(encode: Callable[P, bytes]) -> Callable[P, str]:
    """The hex SHA-256 of what ``encode`` returns, taking ``encode``'s arguments."""

    def digest(*args: P.args, **kwargs: P.kwargs) -> str:
        return hashlib.sha256(encode(*args, **kwargs)).hexdigest()

    return digest


event_hash = _sha256_hex(hash_input)
"""The chain hash of one event (see the module docstring): the hex
SHA-256 of :func:`hash_input`, with its arguments and its ``ValueError``."""


def recomputed_hash(
    game_id: str, version: int, type_: str, record: dict[str, Any]
) -> str:
    """The chain hash a decoded stored ``record`` should carry, from its own fields.

    Why one function: the audit and the bus tail both check a record they did
    not write against its claimed ``hash``; a record without ``alg`` is v1.

    :raises KeyError: for a record missing a hashed field.
    :raises ValueError: as :func:`hash_input`.
    """
    return event_hash(
        game_id=game_id,
        version=version,
        type_=type_,
        timestamp=record["timestamp"],
        prev_hash=record["prev_hash"],
        body=record["body"],
        alg=record.get("alg", ALG_V1),
        nonce=record.get("nonce"),
    )


def seal(
    *,
    game_id: str,
    version: int,
    type_: str,
    timestamp: str,
    prev_hash: str,
    body: dict[str, Any],
    nonce: str,
) -> tuple[str, bytes]:
    """A new (v2) event's hash and its stored record, from one encoding of ``body``."""
    fragment = orjson.Fragment(canonical_json(body))
    digest = event_hash(
        game_id=game_id,
        version=version,
        type_=type_,
        timestamp=timestamp,
        prev_hash=prev_hash,
        body=fragment,
        nonce=nonce,
    )
    record = {
        "alg": ALG,
        "timestamp": timestamp,
        "prev_hash": prev_hash,
        "hash": digest,
        "body": fragment,
        "nonce": nonce,
    }
    return digest, orjson.dumps(record, option=SORTED)
