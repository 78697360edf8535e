"""The hash input and the sealed record of a new event.

Why apart from the codec: this is the hash chain's side of the format (what
the hash covers, :mod:`domain.ledger.integrity`), and :func:`seal` is the one place a
new event's body is encoded: it splices the same body bytes into the hash
input and the stored record, and the mapper stores those bytes as they are.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, ParamSpec

import orjson

from domain.ledger.records.canonical import SORTED, canonical_json
from domain.ledger.records.names import ALG, ALGORITHMS

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
    """The bytes an event's hash covers (see :mod:`domain.ledger.integrity`).

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
"""The chain hash of one event (:mod:`domain.ledger.integrity`): the hex
SHA-256 of :func:`hash_input`, with its arguments and its ``ValueError``."""


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
