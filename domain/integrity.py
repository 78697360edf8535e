"""The per-game hash chain over a canonical encoding of each stored event.

Why a chain and not a per-row checksum: a row checksum catches an edited row
but not a deleted or reordered one.  Each event's hash covers the previous
event's hash, so any edit, deletion, insertion or reordering breaks every
link after it, and the audit can name the first event that fails.

Algorithm ``sha256-canonical-json/v1``: ``SHA-256`` of the UTF-8 canonical
JSON (sorted keys, no insignificant whitespace, non-ASCII kept) of::

    {"alg": ALG, "game_id": str, "version": int, "type": str,
     "timestamp": ISO-8601, "prev_hash": hex, "body": {...}}

where ``body`` is everything else the event stores.  The first event's
``prev_hash`` is 64 zeros.  A new algorithm gets a new ``alg`` string and the
stored record says which one it used.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

ALG = "sha256-canonical-json/v1"
GENESIS = "0" * 64


def canonical_json(value: Any) -> bytes:
    """Deterministic JSON bytes: the same value always encodes the same way.

    >>> canonical_json({"b": 1, "a": [1, "é"]})
    b'{"a":[1,"\\xc3\\xa9"],"b":1}'
    """
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def event_hash(
    *, game_id: str, version: int, type_: str, timestamp: str, prev_hash: str, body: Any,
    alg: str = ALG,
) -> str:
    """The chain hash of one event (see module docstring).

    :raises ValueError: for an algorithm this code does not know.
    """
    if alg != ALG:
        raise ValueError(f"unknown hash algorithm {alg!r}")
    doc = {
        "alg": alg,
        "game_id": game_id,
        "version": version,
        "type": type_,
        "timestamp": timestamp,
        "prev_hash": prev_hash,
        "body": body,
    }
    return hashlib.sha256(canonical_json(doc)).hexdigest()
